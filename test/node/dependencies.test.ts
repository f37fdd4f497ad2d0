/**
 * Docusaurus's packages are released together and check each other's
 * versions at start-up; a range on one of them lets a fresh `npm install`
 * mix releases. So every `@docusaurus/*` dependency is one exact version, and
 * the lock file installs that version.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface PackageFile {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
interface LockFile {
  packages: Record<string, {version?: string}>;
}

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageFile;
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;
const declared = Object.entries({...pkg.dependencies, ...pkg.devDependencies}).filter(([name]) => name.startsWith('@docusaurus/'));
// What an exact version looks like in package.json: no range operator, no tag.
const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

describe('@docusaurus/* packages', () => {
  it('are declared', () => {
    expect(declared.map(([name]) => name)).toEqual(expect.arrayContaining(['@docusaurus/core', '@docusaurus/preset-classic']));
  });

  it.each(declared)('%s is pinned to an exact version', (_name, version) => {
    expect(version).toMatch(EXACT);
  });

  it('are all at the same version, the one the lock file installs', () => {
    const [[, coreVersion] = ['', '']] = declared.filter(([name]) => name === '@docusaurus/core');
    for (const [name, version] of declared) {
      expect({name, version}).toEqual({name, version: coreVersion});
      expect({name, installed: lock.packages[`node_modules/${name}`]?.version}).toEqual({name, installed: coreVersion});
    }
  });
});
