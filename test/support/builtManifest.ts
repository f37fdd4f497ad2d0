/**
 * The access manifest of the build under test (`build/access-manifest.json`,
 * written by `npm run build`), and its pages by source file, for the tests
 * that run against the real build.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {AccessManifest} from '../../src/auth/access/manifest';

export const builtManifest = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../build/access-manifest.json'), 'utf8'),
) as AccessManifest;

/** The manifest's entry of a doc (its repository path), or a clear error when the build does not have it. */
export function builtPage(source: string): AccessManifest['pages'][number] {
  const page = builtManifest.pages.find((candidate) => candidate.source === source);
  if (!page) {
    throw new Error(`${source} is not in build/access-manifest.json`);
  }
  return page;
}
