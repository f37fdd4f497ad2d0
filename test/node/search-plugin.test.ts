/**
 * The members build writes all its search indexes from one reading of its
 * pages (writeSearchIndexes in plugins/search), through steps of the search
 * plugin that its package does not export. Each index must hold what the
 * plugin's own postBuild writes for that index's options: the same
 * documents and the same terms (document numbers aside, which the plugin
 * counts per process).
 */
import {cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {LoadContext, Plugin, Props} from '@docusaurus/types';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {PluginOptions as SearchOptions} from '@easyops-cn/docusaurus-search-local';
import {writeSearchIndexes} from '../../plugins/search';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const searchLocal = require('@easyops-cn/docusaurus-search-local') as {
  default: (context: LoadContext, options: SearchOptions) => Plugin;
  validateOptions: (context: {options: SearchOptions; validate: typeof normalizePluginOptions}) => SearchOptions;
};

const PAGES: Record<string, {title: string; body: string}> = {
  'docs/intro': {title: 'Introduction', body: 'Welcome to the gateway handbook.'},
  'docs/deploy': {title: 'Deploying', body: 'Terraform applies the plan in stages.'},
  'docs/members-only': {title: 'Signed-in notes', body: 'Rotation of the signing keys happens weekly.'},
  'docs/admin-runbook': {title: 'Admin runbook', body: 'Restore the ledger database from snapshots.'},
  'docs/ops-runbook': {title: 'Ops runbook', body: 'Drain the queue before scaling workers.'},
};

function html({title, body}: {title: string; body: string}): string {
  return `<!doctype html><html><head><title>${title}</title><meta name="description" content="${body}"></head><body>
<div class="main-wrapper"><article><header><h1>${title}</h1></header><p>${body}</p>
<h2>Details<a class="hash-link" href="#details">#</a></h2><p>More about ${title.toLowerCase()}: ${body}</p></article></div></body></html>`;
}

let work: string;
let outDir: string;
let context: LoadContext;
let props: Props;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'search-plugin-'));
  outDir = path.join(work, 'build');
  for (const [route, page] of Object.entries(PAGES)) {
    mkdirSync(path.join(outDir, route), {recursive: true});
    writeFileSync(path.join(outDir, route, 'index.html'), html(page));
  }
  const permalinks = Object.keys(PAGES).map((route) => `/${route}`);
  context = {
    siteDir: work,
    baseUrl: '/',
    generatedFilesDir: path.join(work, '.docusaurus'),
    i18n: {currentLocale: 'en', defaultLocale: 'en', locales: ['en'], path: 'i18n', localeConfigs: {}},
    siteConfig: {themeConfig: {navbar: {items: []}}, trailingSlash: undefined},
  } as unknown as LoadContext;
  props = {
    outDir,
    baseUrl: '/',
    routesPaths: ['/', '/search', '/404.html', ...permalinks],
    siteConfig: context.siteConfig,
    plugins: [
      {
        name: 'docusaurus-plugin-content-docs',
        content: {loadedVersions: [{path: '/docs', isLast: true, docs: permalinks.map((permalink) => ({permalink}))}]},
      },
    ],
  } as unknown as Props;
});

afterAll(() => {
  rmSync(work, {recursive: true, force: true});
});

const options = (ignoreFiles: string[]): SearchOptions =>
  searchLocal.validateOptions({
    options: {
      hashed: true,
      language: ['en'],
      indexDocs: true,
      indexBlog: false,
      indexPages: false,
      docsRouteBasePath: '/docs',
      ignoreFiles,
    },
    validate: normalizePluginOptions,
  });

/** Documents without their numbers, and the index's terms and entries. */
function normalised(file: string) {
  const sections = JSON.parse(readFileSync(file, 'utf8')) as {
    documents: Record<string, unknown>[];
    index: {invertedIndex: [string, unknown][]; fieldVectors: unknown[]};
  }[];
  return sections.map(({documents, index}) => ({
    documents: documents.map(({i: _id, p: _parent, ...rest}) => JSON.stringify(rest)).sort(),
    terms: index.invertedIndex.map(([term]) => term).sort(),
    entries: index.fieldVectors.length,
  }));
}

/** What the plugin's own postBuild writes for these options, on a copy of the build. */
async function byThePlugin(ignoreFiles: string[]) {
  const copy = mkdtempSync(path.join(work, 'plugin-'));
  cpSync(outDir, copy, {recursive: true});
  const plugin = searchLocal.default({...context, generatedFilesDir: path.join(copy, '.generated')}, options(ignoreFiles));
  await plugin.postBuild!({...props, outDir: copy} as Parameters<NonNullable<Plugin['postBuild']>>[0]);
  return normalised(path.join(copy, 'search-index.json'));
}

test('each index holds what the plugin itself writes for its options', async () => {
  const targets = [
    {file: 'search-index.json', ignoreFiles: ['docs/admin-runbook', 'docs/ops-runbook']},
    {file: '_portal/search/admin.json', ignoreFiles: ['docs/ops-runbook']},
    {file: '_portal/search/ops.json', ignoreFiles: ['docs/admin-runbook']},
    {file: '_portal/search/both.json', ignoreFiles: []},
  ];
  await writeSearchIndexes(
    context,
    props,
    targets.map(({file, ignoreFiles}) => ({file, options: options(ignoreFiles)})),
  );
  for (const {file, ignoreFiles} of targets) {
    const written = normalised(path.join(outDir, file));
    expect({file, index: written}).toEqual({file, index: await byThePlugin(ignoreFiles)});
  }
  // Not vacuous: the indexes differ where their pages do.
  const titles = (file: string) => normalised(path.join(outDir, file))[0]!.documents.join(' ');
  expect(titles('search-index.json')).not.toContain('Admin runbook');
  expect(titles('_portal/search/admin.json')).toContain('Admin runbook');
  expect(titles('_portal/search/admin.json')).not.toContain('Ops runbook');
  expect(titles('_portal/search/both.json')).toContain('Ops runbook');
  expect(normalised(path.join(outDir, 'search-index.json'))[4]!.terms).toContain('rotat');
});
