/**
 * Search that scales: Pagefind (docs/decisions/0001-search.md says why).
 * After a build, its doc pages are indexed with Pagefind's own command line
 * into a search bundle split into small files: the search script and its
 * WebAssembly, index chunks fetched by the words of a query, and one fragment
 * per page fetched for the results shown. A query downloads a small part of
 * the index whatever the site's size, from any static host.
 *
 * Each bundle holds exactly the pages one kind of reader may read:
 * - public build: `pagefind/` with the public pages;
 * - members build: `pagefind/` with the public and signed-in pages, and one
 *   bundle per set of role rules (plugins/access/searchIndexes.ts) under
 *   `_portal/search/<id>/pagefind/`, which the gate serves in place of
 *   `pagefind/` to the readers those rules let in (server/decide.ts).
 *
 * Pagefind reads the pages from a folder: each bundle's pages are linked
 * into a temporary folder of their own, so a page a reader may not read is
 * never in that reader's bundle, by construction.
 *
 * The plugin also adds the `/search` page (src/components/search).
 */
import {spawn} from 'node:child_process';
import {copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {isRestricted} from '../../src/auth/access/rules';
import {SEARCH_BUNDLE_DIR} from '../../src/auth/access/searchIndex';
import type {AccessPage, Audience} from '../access/manifest';
import type {SearchIndexVariant} from '../access/searchIndexes';
import {filesUnder} from '../support/files';

/** What Pagefind indexes of a page: the doc's own text (title, headings, prose, code, tables), not the navigation. */
export const SEARCH_ROOT_SELECTOR = '.theme-doc-markdown';
/** Left out of the index: heading anchors ("Direct link to …") and the withheld-page notice. */
const EXCLUDE_SELECTORS = ['.hash-link', '[data-portal-restricted]'];
/** Kept inside words: env vars (`DATABASE_URL`), make targets (`db-migrate`), ports in `host:port`. */
const INCLUDE_CHARACTERS = '_-';
/** Pagefind writes these for its own ready-made interfaces; the portal has its own search box. */
const UNUSED_BUNDLE_FILES = /^pagefind-(?:ui|component-ui|modular-ui|highlight)\.(?:js|css)$/;

export interface SearchBundle {
  /** Folder, relative to the build, that holds the bundle's `pagefind/`. '' for the build's own. */
  dir: string;
  /** Routes of the pages it holds. */
  routes: string[];
}

/** The bundles a build gets: its own, and in the members build one per role variant. */
export function searchBundles(pages: AccessPage[], audience: Audience, variants: SearchIndexVariant[]): SearchBundle[] {
  const base = pages
    .filter((page) => (audience === 'public' ? !isRestricted(page.rule) : page.rule.kind !== 'roles'))
    .map((page) => page.route);
  return [
    {dir: '', routes: base},
    ...(audience === 'members' ? variants.map((variant) => ({dir: variant.dir, routes: [...base, ...variant.routes]})) : []),
  ];
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {stdio: ['ignore', 'pipe', 'pipe']});
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`search: pagefind exited with ${code}:\n${output.slice(-2000)}`)),
    );
  });
}

/** The HTML file of a route in a build (Docusaurus writes `x/index.html`, or `x.html` without trailing slashes). */
export function htmlOf(outDir: string, baseUrl: string, route: string): string {
  const relative = route.slice(baseUrl.length).replace(/\/$/, '');
  const candidates = relative === '' ? ['index.html'] : [`${relative}/index.html`, `${relative}.html`];
  const found = candidates.find((candidate) => existsSync(path.join(outDir, candidate)));
  if (!found) {
    throw new Error(`search: no HTML file for ${route} in ${outDir}`);
  }
  return found;
}

/** Writes one bundle: the pages linked into a folder of their own, indexed by Pagefind's command line. */
export async function writeSearchBundle({
  outDir,
  baseUrl,
  bundle,
  pagefindBin,
}: {
  outDir: string;
  baseUrl: string;
  bundle: SearchBundle;
  /** Pagefind's command (the package's `bin`; its `exports` name no other file). */
  pagefindBin: string;
}): Promise<string> {
  const site = mkdtempSync(path.join(tmpdir(), 'portal-search-'));
  try {
    for (const route of bundle.routes) {
      const html = htmlOf(outDir, baseUrl, route);
      const target = path.join(site, html);
      mkdirSync(path.dirname(target), {recursive: true});
      try {
        linkSync(path.join(outDir, html), target);
      } catch {
        // Another file system: a copy reads the same.
        copyFileSync(path.join(outDir, html), target);
      }
    }
    const output = path.join(outDir, bundle.dir, SEARCH_BUNDLE_DIR);
    rmSync(output, {recursive: true, force: true});
    await run(pagefindBin, [
      '--site',
      site,
      '--output-path',
      output,
      '--root-selector',
      SEARCH_ROOT_SELECTOR,
      '--exclude-selectors',
      EXCLUDE_SELECTORS.join(', '),
      '--force-language',
      'en',
      '--include-characters',
      INCLUDE_CHARACTERS,
      '--quiet',
    ]);
    for (const file of readdirSync(output)) {
      if (UNUSED_BUNDLE_FILES.test(file)) {
        rmSync(path.join(output, file));
      }
    }
    return output;
  } finally {
    rmSync(site, {recursive: true, force: true});
  }
}

export function portalSearchPlugin({pages, audience, variants}: {pages: AccessPage[]; audience: Audience; variants: SearchIndexVariant[]}) {
  return function portalSearch(context: LoadContext): Plugin {
    const {baseUrl} = context.siteConfig;
    return {
      name: 'portal-search',
      async contentLoaded({actions}) {
        actions.addRoute({path: `${baseUrl}search`, component: '@site/src/components/search/SearchPage.tsx', exact: true});
      },
      async postBuild({outDir}) {
        const bundles = searchBundles(pages, audience, variants);
        // One after the other: each run uses both cores.
        for (const bundle of bundles) {
          const started = performance.now();
          const written = await writeSearchBundle({
            outDir,
            baseUrl,
            bundle,
            pagefindBin: path.join(context.siteDir, 'node_modules', '.bin', 'pagefind'),
          });
          const files = filesUnder(written);
          const bytes = files.reduce((sum, file) => sum + statSync(file.full).size, 0);
          console.log(
            `[search] ${path.relative(outDir, written)}/: ${bundle.routes.length} pages in ${((performance.now() - started) / 1000).toFixed(1)} s, ${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MB`,
          );
        }
      },
    };
  };
}
