/**
 * A throwaway copy of the site for tests that add content and build it: the
 * repository's files (tracked, and new ones not ignored, as `git ls-files`
 * lists them) copied to a temporary folder, with node_modules linked.
 */
import {execFileSync} from 'node:child_process';
import {copyFileSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export function copySite(prefix = 'portal-site-'): string {
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
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(siteDir, 'node_modules'), 'dir');
  return siteDir;
}
