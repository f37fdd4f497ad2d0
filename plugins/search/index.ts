/**
 * The local search theme (@easyops-cn/docusaurus-search-local), used as it
 * is, plus, in the members build, the extra indexes of
 * plugins/access/searchIndexes.ts: for each variant the same plugin, with
 * the role-restricted pages that variant may hold taken out of its
 * `ignoreFiles`, builds its index, which is then moved to the variant's file.
 * They run one after the other, and the default index is written last.
 */
import {mkdirSync, renameSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
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
    const postBuild = plugin.postBuild?.bind(plugin);
    if (!postBuild || variants.length === 0) {
      return plugin;
    }
    // The search plugin matches routes without the baseUrl or a trailing slash.
    const route = (full: string) => full.slice(baseUrl.length).replace(/\/$/, '');
    const variantPlugins = variants.map((variant) => {
      const included = new Set(variant.routes.map(route));
      const ignoreFiles = ([] as (string | RegExp)[])
        .concat(search.ignoreFiles ?? [])
        .filter((entry) => typeof entry !== 'string' || !included.has(entry));
      return {variant, plugin: searchLocal(context, {...search, ignoreFiles})};
    });
    return {
      ...plugin,
      async postBuild(props) {
        for (const {variant, plugin: variantPlugin} of variantPlugins) {
          await variantPlugin.postBuild?.(props);
          mkdirSync(path.dirname(path.join(props.outDir, variant.file)), {recursive: true});
          renameSync(path.join(props.outDir, SEARCH_INDEX_FILE), path.join(props.outDir, variant.file));
        }
        await postBuild(props);
      },
    };
  };
}
