/**
 * A throwaway copy of the site for tests and benches that add content and
 * build it: the repository's files (tracked, and new ones not ignored, as
 * `git ls-files` lists them) copied to a temporary folder, with node_modules
 * linked.
 *
 * `ownCache`: node_modules becomes a folder of links to each package rather
 * than one link, so the copy's bundler cache (`node_modules/.cache`) is its
 * own: a cold build in the copy neither reads nor fills the repository's.
 */
import {execFileSync} from 'node:child_process';
import {copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export function copySite(prefix = 'portal-site-', {ownCache = false}: {ownCache?: boolean} = {}): string {
  const siteDir = mkdtempSync(path.join(tmpdir(), prefix));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {cwd: ROOT, encoding: 'utf8'})
    .split('\0')
    .filter((file) => file !== '');
  for (const file of files) {
    const target = path.join(siteDir, file);
    mkdirSync(path.dirname(target), {recursive: true});
    const source = path.join(ROOT, file);
    // A file deleted in the work tree but still in the index is left out.
    const stats = lstatSync(source, {throwIfNoEntry: false});
    if (stats?.isSymbolicLink()) {
      symlinkSync(readlinkSync(source), target);
    } else if (stats?.isFile()) {
      copyFileSync(source, target);
    }
  }
  linkModules(siteDir, {ownCache});
  return siteDir;
}

/** A copy of the site as it was at a commit (`git archive`), node_modules linked as copySite links them. */
export function copyCommit(ref: string, prefix = 'portal-commit-', {ownCache = false}: {ownCache?: boolean} = {}): string {
  const siteDir = mkdtempSync(path.join(tmpdir(), prefix));
  execFileSync('bash', ['-o', 'pipefail', '-c', 'git -C "$1" archive "$2" | tar -x -C "$3"', 'copy-commit', ROOT, ref, siteDir]);
  linkModules(siteDir, {ownCache});
  return siteDir;
}

function linkModules(siteDir: string, {ownCache}: {ownCache: boolean}): void {
  const modules = path.join(ROOT, 'node_modules');
  if (ownCache) {
    mkdirSync(path.join(siteDir, 'node_modules'));
    for (const entry of readdirSync(modules)) {
      if (entry !== '.cache') {
        symlinkSync(path.join(modules, entry), path.join(siteDir, 'node_modules', entry));
      }
    }
  } else {
    symlinkSync(modules, path.join(siteDir, 'node_modules'), 'dir');
  }
}
