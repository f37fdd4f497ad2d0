/**
 * The local search theme (@easyops-cn/docusaurus-search-local), used as it
 * is but for how its index files are written (writeSearchIndexes: the same
 * indexes, from fewer readings of the pages), plus, in the members build,
 * the extra indexes of
 * plugins/access/searchIndexes.ts: for each variant the same plugin, with
 * the role-restricted pages that variant may hold taken out of its
 * `ignoreFiles`, has its own index, written to the variant's file.
 *
 * The members build makes all its indexes from one reading of its pages:
 * reading and parsing the HTML is most of an index's cost (about 0.9 of
 * 1.4 s here), and every index reads the same pages but for a few. And a
 * page reads the same in both audiences' builds unless its HTML differs
 * (pageReadings below), so the members build reads again only the pages the
 * public build withheld. It uses the plugin's own steps for this (reading
 * the pages, then building an index from the documents found), which its
 * package does not export: the version is pinned in package.json, and
 * test/node/search-plugin.test.ts checks that the indexes hold what the
 * plugin's own postBuild writes for each.
 */
import {createHash} from 'node:crypto';
import {writeFileSync, mkdirSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin, Props} from '@docusaurus/types';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {PluginOptions as SearchOptions} from '@easyops-cn/docusaurus-search-local';
import {SEARCH_INDEX_FILE} from '../../src/auth/access/searchIndex';
import type {SearchIndexVariant} from '../access/searchIndexes';
import {withoutScriptLoader} from '../page-scripts';

/** The package types its options only; these are its CommonJS exports. */
interface SearchLocalModule {
  default: (context: LoadContext, options: SearchOptions) => Plugin;
  validateOptions: (context: {options: SearchOptions; validate: typeof normalizePluginOptions}) => SearchOptions;
}

/** Loaded when Docusaurus builds, not when the config is merely read (tests read it in jsdom). */
function loadSearchLocal(): SearchLocalModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@easyops-cn/docusaurus-search-local') as SearchLocalModule;
}

/** The plugin's options after its own processing (lists made arrays, paths resolved). */
type ProcessedOptions = SearchOptions & {__processed: true};

/** A page the plugin indexes. */
interface IndexedPage {
  filePath: string;
  url: string;
  type: string;
}

/** A searchable item (title, heading, description, keywords or a paragraph): its number in `i`, its page's URL in `u`. */
interface SearchDocument {
  i: number;
  u: string;
}

/** The plugin's steps between a finished build and its index files (dist/server/server/utils/). */
interface SearchLocalSteps {
  processPluginOptions(options: SearchOptions, context: LoadContext): ProcessedOptions;
  processDocInfos(props: Props, config: ProcessedOptions): {outDir: string; paths: IndexedPage[]}[];
  /** Five lists: titles, headings, descriptions, keywords, content. */
  scanDocuments(pages: IndexedPage[], config: ProcessedOptions): Promise<SearchDocument[][]>;
  buildIndex(documents: SearchDocument[][], config: ProcessedOptions): unknown;
}

function loadSearchLocalSteps(): SearchLocalSteps {
  const step = (name: string) =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(`@easyops-cn/docusaurus-search-local/dist/server/server/utils/${name}`) as Record<string, unknown>;
  const steps = {
    processPluginOptions: step('processPluginOptions').processPluginOptions,
    processDocInfos: step('processDocInfos').processDocInfos,
    scanDocuments: step('scanDocuments').scanDocuments,
    buildIndex: step('buildIndex').buildIndex,
  };
  for (const [name, value] of Object.entries(steps)) {
    if (typeof value !== 'function') {
      throw new Error(`search: @easyops-cn/docusaurus-search-local no longer has its ${name} step; see plugins/search/index.ts`);
    }
  }
  return steps as unknown as SearchLocalSteps;
}

/** What reading one page gave: its documents in each of the plugin's lists. */
type PageReading = SearchDocument[][];

const PAGE_READINGS = Symbol.for('developer-portal:search-page-readings');

/**
 * The pages read in this process, by everything a reading depends on. They
 * live on globalThis because Docusaurus evaluates this module afresh for
 * each build, and the point is to carry them from the public build to the
 * members build.
 */
function pageReadings(): Map<string, PageReading> {
  const store = globalThis as typeof globalThis & {[PAGE_READINGS]?: Map<string, PageReading>};
  store[PAGE_READINGS] ??= new Map();
  return store[PAGE_READINGS];
}

/**
 * What a page's reading depends on: its URL and type, the reading's options,
 * and its HTML without the script loader. The loader names the app's
 * scripts, which differ between the audiences' builds; the reading takes
 * the page's text, never a script. Any other difference, such as a withheld
 * page's real content, makes a new key, so a reading is reused only for a
 * page it was made from.
 */
function readingKey(page: IndexedPage, html: string, config: ProcessedOptions): string {
  const {ignoreCssSelectors, forceIgnoreNoIndex} = config;
  return createHash('sha256')
    .update(JSON.stringify([page.url, page.type, ignoreCssSelectors, forceIgnoreNoIndex, withoutScriptLoader(html)]))
    .digest('hex');
}

/**
 * The documents of these pages, in the plugin's lists and page order, as its
 * own reading gives them; pages read before in this process are not read
 * again. Their documents keep their numbers: the plugin numbers documents
 * with one counter for the process (Node keeps its package loaded between
 * builds), so numbers stay distinct, which is checked.
 */
async function readPages(steps: SearchLocalSteps, pages: IndexedPage[], config: ProcessedOptions): Promise<SearchDocument[][]> {
  const readings = pageReadings();
  const keys = await Promise.all(pages.map(async (page) => readingKey(page, await readFile(page.filePath, 'utf8'), config)));
  const unread = keys.flatMap((key, index) => (readings.has(key) ? [] : [index]));
  const scanned = await steps.scanDocuments(
    unread.map((index) => pages[index]!),
    config,
  );
  for (const index of unread) {
    readings.set(
      keys[index]!,
      scanned.map((list) => list.filter((document) => document.u === pages[index]!.url)),
    );
  }
  const lists: SearchDocument[][] = scanned.map(() => []);
  for (const key of keys) {
    readings.get(key)!.forEach((documents, list) => lists[list]!.push(...documents));
  }
  for (const list of lists) {
    if (new Set(list.map((document) => document.i)).size !== list.length) {
      throw new Error('search: pages read by an earlier build share document numbers with new ones; see readPages in plugins/search');
    }
  }
  return lists;
}

/** An index to write: the plugin's options for it, and its file, relative to the build. */
export interface SearchIndexTarget {
  options: SearchOptions;
  file: string;
}

/**
 * Writes several indexes of one build from a single reading of its pages:
 * each gets the documents of exactly the pages the plugin would index with
 * that index's options.
 */
export async function writeSearchIndexes(context: LoadContext, props: Props, targets: SearchIndexTarget[]): Promise<void> {
  const steps = loadSearchLocalSteps();
  const planned = targets.map((target) => {
    const config = steps.processPluginOptions(target.options, context);
    if (config.searchContextByPaths) {
      throw new Error('search: searchContextByPaths writes several files per index, which plugins/search does not handle');
    }
    const versions = steps.processDocInfos(props, config);
    if (versions.length > 1) {
      throw new Error('search: more than one docs version, which plugins/search does not handle');
    }
    return {...target, config, pages: versions[0]?.paths ?? []};
  });
  const allPages = new Map(planned.flatMap(({pages}) => pages.map((page) => [page.filePath, page] as const)));
  const scanned = await readPages(steps, [...allPages.values()], planned[0]!.config);
  for (const {file, config, pages} of planned) {
    const urls = new Set(pages.map((page) => page.url));
    const documents = scanned.map((list) => list.filter((document) => urls.has(document.u)));
    const destination = path.join(props.outDir, file);
    mkdirSync(path.dirname(destination), {recursive: true});
    writeFileSync(destination, JSON.stringify(steps.buildIndex(documents, config)));
  }
}

export interface PortalSearchOptions {
  search: SearchOptions;
  /** Members build only: the variants to write. */
  variants: SearchIndexVariant[];
  baseUrl: string;
}

/** The search theme for this build: its options validated by its own schema, as Docusaurus would. */
export function portalSearch({search: rawSearch, variants, baseUrl}: PortalSearchOptions) {
  return function portalSearchPlugin(context: LoadContext): Plugin {
    const searchLocalModule = loadSearchLocal();
    const searchLocal = searchLocalModule.default;
    const search = searchLocalModule.validateOptions({options: rawSearch, validate: normalizePluginOptions});
    const plugin = searchLocal(context, search);
    if (!plugin.postBuild) {
      return plugin;
    }
    // The search plugin matches routes without the baseUrl or a trailing slash.
    const route = (full: string) => full.slice(baseUrl.length).replace(/\/$/, '');
    const targets: SearchIndexTarget[] = [
      {options: search, file: SEARCH_INDEX_FILE},
      ...variants.map((variant) => {
        const included = new Set(variant.routes.map(route));
        const ignoreFiles = ([] as (string | RegExp)[])
          .concat(search.ignoreFiles ?? [])
          .filter((entry) => typeof entry !== 'string' || !included.has(entry));
        return {options: {...search, ignoreFiles}, file: variant.file};
      }),
    ];
    return {
      ...plugin,
      postBuild: (props) => writeSearchIndexes(context, props, targets),
    };
  };
}
