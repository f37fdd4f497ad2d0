/**
 * Every file below a folder, through Node's recursive readdir (symbolic links
 * to folders are not followed).
 *
 * Lives in plugins/support/ because the build's plugins need it and plugins
 * may not import tooling (scripts/): scripts and tests import it from here,
 * the allowed direction (test/node/import-directions.test.ts).
 */
import {readdirSync, statSync} from 'node:fs';
import path from 'node:path';

export interface FoundFile {
  /** Absolute (or as given) path. */
  full: string;
  /** Relative to the folder, with forward slashes. */
  relative: string;
}

export function filesUnder(dir: string): FoundFile[] {
  return readdirSync(dir, {recursive: true, withFileTypes: true})
    .map((entry) => ({entry, full: path.join(entry.parentPath, entry.name)}))
    .filter(({entry, full}) => entry.isFile() || (entry.isSymbolicLink() && statSync(full, {throwIfNoEntry: false})?.isFile() === true))
    .map(({full}) => ({full, relative: path.relative(dir, full).split(path.sep).join('/')}))
    .sort((a, b) => a.relative.localeCompare(b.relative));
}
