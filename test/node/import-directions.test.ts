/**
 * Imports between the top-level folders go one way only, so none of them
 * imports another that imports it back (a cycle makes each folder's code
 * impossible to change, build or ship without the other):
 *
 * - src/ (the site's browser and shared code, the access rules among them)
 *   imports no other folder;
 * - plugins/ (the build's Docusaurus plugins) imports src/ only;
 * - server/ (the gate, shipped alone in build/server: so it never loads
 *   tooling or build plugins) imports src/ only;
 * - scripts/ (tooling: build, checks, benches, the local provider) may import
 *   any of them.
 *
 * Read from every module's static import graph (`import`, `export … from`,
 * `import()`, `require`, `typeof import()`), through TypeScript's own
 * pre-processor, so an import of any kind counts.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {filesUnder} from '../../plugins/support/files';

const ROOT = path.resolve(__dirname, '../..');

/** The one statement of which top-level folder may import which. */
const ALLOWED_IMPORTS: Record<string, readonly string[]> = {
  src: [],
  plugins: ['src'],
  server: ['src'],
  scripts: ['src', 'plugins', 'server'],
};

const FOLDERS = Object.keys(ALLOWED_IMPORTS);
const MODULE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** The top-level folder a path (relative to the repository) lies in, if it is one of FOLDERS. */
function folderOf(relative: string): string | undefined {
  const [first] = relative.split('/');
  return first !== undefined && FOLDERS.includes(first) ? first : undefined;
}

/** Where an import specifier points, relative to the repository; undefined for packages. */
function target(fromFile: string, specifier: string): string | undefined {
  if (specifier.startsWith('@site/')) {
    return specifier.slice('@site/'.length);
  }
  if (specifier.startsWith('.')) {
    return path
      .relative(ROOT, path.resolve(path.dirname(fromFile), specifier))
      .split(path.sep)
      .join('/');
  }
  return undefined;
}

interface FolderImport {
  file: string;
  from: string;
  to: string;
  imported: string;
}

/** Every import from one top-level folder into another, in the given modules. */
function folderImports(files: {full: string; relative: string}[]): FolderImport[] {
  return files.flatMap(({full, relative}) => {
    const from = folderOf(relative);
    if (!from) {
      return [];
    }
    return ts.preProcessFile(readFileSync(full, 'utf8'), true, true).importedFiles.flatMap(({fileName}) => {
      const imported = target(full, fileName);
      if (imported === undefined) {
        return [];
      }
      const to = folderOf(imported);
      return to && to !== from ? [{file: relative, from, to, imported}] : [];
    });
  });
}

function repositoryModules(): {full: string; relative: string}[] {
  return FOLDERS.flatMap((folder) =>
    filesUnder(path.join(ROOT, folder))
      .filter((file) => MODULE.test(file.relative) && !file.relative.split('/').includes('node_modules'))
      .map((file) => ({full: file.full, relative: `${folder}/${file.relative}`})),
  );
}

describe('imports between top-level folders', () => {
  const imports = folderImports(repositoryModules());

  it('follow the allowed directions only', () => {
    const wrong = imports
      .filter(({from, to}) => !(ALLOWED_IMPORTS[from] ?? []).includes(to))
      .map(({file, imported}) => `${file} → ${imported}`);
    expect(wrong).toEqual([]);
  });

  it('are read from the modules (the check sees the imports it judges)', () => {
    // A reader that saw nothing would pass the first test; scripts/ imports the other three.
    expect(new Set(imports.filter(({from}) => from === 'scripts').map(({to}) => to))).toEqual(new Set(['src', 'plugins', 'server']));
  });

  it('allow no cycle', () => {
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      (ALLOWED_IMPORTS[from] ?? []).some((next) => next === to || (!seen.has(next) && reaches(next, to, seen.add(next))));
    expect(FOLDERS.filter((folder) => reaches(folder, folder))).toEqual([]);
  });
});
