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

/** A page as a build writes it: its text, and the script loader naming that build's scripts. */
function html({title, body}: {title: string; body: string}, build = 'public'): string {
  return `<!doctype html><html><head><title>${title}</title><meta name="description" content="${body}"></head><body>
<div class="main-wrapper"><article><header><h1>${title}</h1></header><p>${body}</p>
<h2>Details<a class="hash-link" href="#details">#</a></h2><p>More about ${title.toLowerCase()}: ${body}</p></article></div>
<script data-scripts='["/assets/js/main.${build}.js"]'>start()</script></body></html>`;
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

/** What the plugin's own postBuild writes for these options, on a copy of a build. */
async function byThePlugin(ignoreFiles: string[], build = outDir) {
  const copy = mkdtempSync(path.join(work, 'plugin-'));
  cpSync(build, copy, {recursive: true});
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

test('a later build in the process reads again only the pages whose HTML differs, and indexes what they say now', async () => {
  // As the members build after the public one: every page names other
  // scripts, and one page's text is not what the earlier build had.
  const later = mkdtempSync(path.join(work, 'later-'));
  for (const [route, page] of Object.entries(PAGES)) {
    mkdirSync(path.join(later, route), {recursive: true});
    const text = route === 'docs/deploy' ? {...page, body: 'Blue-green switches happen behind the gateway.'} : page;
    writeFileSync(path.join(later, route, 'index.html'), html(text, 'members'));
  }
  const target = {file: 'search-index.json', options: options([])};
  await writeSearchIndexes(context, props, [target]);
  await writeSearchIndexes(context, {...props, outDir: later}, [target]);

  expect(normalised(path.join(later, 'search-index.json'))).toEqual(await byThePlugin([], later));
  const content = normalised(path.join(later, 'search-index.json'))[4]!;
  expect(content.terms).toContain('blue');
  expect(content.terms).not.toContain('terraform');
  // The documents of the pages that read the same keep the earlier build's numbers: they were not read again.
  const titleNumbers = (build: string) =>
    new Map(
      (
        JSON.parse(readFileSync(path.join(build, 'search-index.json'), 'utf8')) as {documents: {i: number; u: string}[]}[]
      )[0]!.documents.map(({u, i}) => [u, i]),
    );
  const before = titleNumbers(outDir);
  const after = titleNumbers(later);
  expect(after.size).toBe(Object.keys(PAGES).length);
  for (const [url, number] of after) {
    if (url === '/docs/deploy') {
      expect(before.get(url)).not.toBe(number);
    } else {
      expect(before.get(url)).toBe(number);
    }
  }
});
