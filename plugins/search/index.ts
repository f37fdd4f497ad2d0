/**
 * The local search theme (@easyops-cn/docusaurus-search-local), used as it
 * is, plus, in the members build, the extra indexes of
 * plugins/access/searchIndexes.ts: for each variant the same plugin, with
 * the role-restricted pages that variant may hold taken out of its
 * `ignoreFiles`, has its own index, written to the variant's file.
 *
 * The members build makes all its indexes from one reading of its pages:
 * reading and parsing the HTML is most of an index's cost (about 0.8 of
 * 1.1 s here), and every index reads the same pages but for a few. It uses
 * the plugin's own steps for this (reading the pages, then building an index
 * from the documents found), which its package does not export: the version
 * is pinned in package.json, and test/node/search-plugin.test.ts checks that
 * the indexes hold what the plugin's own postBuild writes for each.
 */
import {writeFileSync, mkdirSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin, Props} from '@docusaurus/types';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {PluginOptions as SearchOptions} from '@easyops-cn/docusaurus-search-local';
import {SEARCH_INDEX_FILE} from '../../src/auth/access/searchIndex';
import type {SearchIndexVariant} from '../access/searchIndexes';

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

/** A searchable item (title, heading, description, keywords or a paragraph), with its page's URL in `u`. */
interface SearchDocument {
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
  const scanned = await steps.scanDocuments([...allPages.values()], planned[0]!.config);
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
    if (!plugin.postBuild || variants.length === 0) {
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
