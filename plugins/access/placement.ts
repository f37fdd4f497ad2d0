/**
 * Which readers each file of the members build may reach: computed from the
 * build's own data, never matched by file-name patterns.
 *
 * - Docusaurus's routes (the `routes` its postBuild hands every plugin) say
 *   which page each route is: a doc (its source, hence its access rule), a
 *   tag page (the docs it lists), or another plugin's page.
 * - The route resolver (../routeChunks.ts: `routesChunkNames.json` and the
 *   bundler's chunk graph, ./bundleGraph.ts) gives every file a route's
 *   chunks bring, lazily loaded chunks, images and attachments included.
 *
 * The rule: a file is readable by whoever may read at least one page that
 * uses it, so a file any public page uses is public. A file only restricted
 * pages use gets their rules (any of them lets a reader in). Files every page
 * starts with (runtime, main, styles), what the app's own code loads lazily
 * (the code highlighter, the search client) and the site's outputs (404 page,
 * sitemap, search indexes, copied static files) are for any member. Any
 * other file fails the build with its name: nothing defaults to "any member".
 */
import {existsSync} from 'node:fs';
import path from 'node:path';
import {isRestricted, PUBLIC_RULE, type AccessRule} from '../../src/auth/access/rules';
import {LLMS_FULL_FILE, LLMS_INDEX_FILE, markdownFileFor} from '../../src/auth/access/agentDocs';
import {SEARCH_BUNDLE_DIR, SEARCH_VARIANTS_DIR} from '../../src/auth/access/searchIndex';
import {filesUnder} from '../support/files';
import {routeChunks} from '../routeChunks';
import {siteWideFiles, type BundleGraph} from './bundleGraph';
import type {AccessPage} from './manifest';

/** The parts of a Docusaurus route config read here (PluginRouteConfig). */
export interface RouteLike {
  path: string;
  plugin?: {name: string};
  routes?: RouteLike[];
  metadata?: {sourceFilePath?: string};
  props?: Record<string, unknown>;
  modules?: Record<string, unknown>;
}

export interface Placement {
  /** Files only restricted pages use, with those pages' rules (a reader who may read any one of them may read the file). */
  files: Record<string, AccessRule[]>;
  /** For each restricted page's route, the files it brings that need a rule (its HTML included). */
  byRoute: Record<string, string[]>;
}

const DOCS_PLUGIN = 'docusaurus-plugin-content-docs';

/**
 * Files the site writes for every reader besides the routes' own: the 404
 * page, the sitemap, the search indexes and the llms files (the root's are
 * the members' set, each variant folder's that variant's; plugins/agent-docs).
 */
function isSiteOutput(file: string): boolean {
  return (
    file === '404.html' ||
    file === 'sitemap.xml' ||
    file === LLMS_INDEX_FILE ||
    file === LLMS_FULL_FILE ||
    file.startsWith(`${SEARCH_BUNDLE_DIR}/`) ||
    file.startsWith(`${SEARCH_VARIANTS_DIR}/`)
  );
}

/** Every leaf route (a page) with the plugin that made it. */
function leaves(routes: RouteLike[], plugin?: string): {route: RouteLike; plugin: string}[] {
  return routes.flatMap((route) => {
    const owner = route.plugin?.name ?? plugin ?? 'unknown';
    return route.routes && route.routes.length > 0 ? leaves(route.routes, owner) : [{route, plugin: owner}];
  });
}

/** The HTML file Docusaurus wrote for a route, relative to the build. */
function htmlOf(outDir: string, baseUrl: string, routePath: string): string | null {
  const relative = routePath.slice(baseUrl.length).replace(/\/$/, '');
  const candidates = relative === '' ? ['index.html'] : [`${relative}/index.html`, `${relative}.html`];
  return candidates.find((candidate) => existsSync(path.join(outDir, candidate))) ?? null;
}

function sameRule(a: AccessRule, b: AccessRule): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function placeFiles({
  outDir,
  siteDir,
  baseUrl,
  routes,
  routesChunkNames,
  graph,
  pages,
}: {
  outDir: string;
  siteDir: string;
  baseUrl: string;
  routes: RouteLike[];
  routesChunkNames: Record<string, unknown>;
  graph: BundleGraph;
  pages: AccessPage[];
}): Placement {
  const bySource = new Map(pages.map((page) => [page.source, page]));
  const byRoute = new Map(pages.map((page) => [page.route, page]));

  /** The rules of the pages a route shows: one for a doc, those of its docs for a tag page. */
  function rulesOf(route: RouteLike, plugin: string): AccessRule[] {
    if (plugin !== DOCS_PLUGIN) {
      // Pages, the search page: `access:` outside docs stops the build (manifest.ts).
      return [PUBLIC_RULE];
    }
    const source = route.metadata?.sourceFilePath;
    if (source !== undefined) {
      const page = bySource.get(source);
      if (!page) {
        throw new Error(`access: the doc ${source} (${route.path}) is not in the access manifest`);
      }
      return [page.rule];
    }
    const tag = route.props?.tag as {items?: {permalink?: unknown}[]} | undefined;
    if (tag && Array.isArray(tag.items)) {
      // A tag page exists because of the docs it lists: readable by whoever may read one of them.
      return tag.items.map((item) => {
        const page = typeof item.permalink === 'string' ? byRoute.get(item.permalink) : undefined;
        if (!page) {
          throw new Error(`access: the tag page ${route.path} lists ${String(item.permalink)}, which is not in the access manifest`);
        }
        return page.rule;
      });
    }
    if (route.props?.tags !== undefined) {
      // The list of tags: their labels, for every reader (like titles and sidebar labels).
      return [PUBLIC_RULE];
    }
    throw new Error(
      `access: cannot tell which pages the docs route ${route.path} shows (keys: ${Object.keys({...route.props, ...route.modules}).join(', ') || 'none'}), ` +
        `so its files cannot be placed; extend plugins/access/placement.ts before using this kind of route`,
    );
  }

  const chunks = routeChunks(routesChunkNames, routes, graph);

  /** File → the rules of each route that uses it. */
  const users = new Map<string, AccessRule[][]>();
  const filesOfRoute = new Map<string, Set<string>>();
  for (const {route, plugin} of leaves(routes)) {
    const rules = rulesOf(route, plugin);
    const files = chunks.filesOf(route.path, {lazy: true});
    const html = htmlOf(outDir, baseUrl, route.path);
    if (html) {
      files.add(html);
    }
    if (plugin === DOCS_PLUGIN && route.metadata?.sourceFilePath !== undefined) {
      // The doc's Markdown (plugins/agent-docs), one more file of the page, by
      // name: that plugin's postBuild runs at the same time as this one, so
      // the file may not be written yet. scripts/build.ts stops the build if
      // a file the manifest lists is then missing.
      files.add(markdownFileFor(route.path, baseUrl));
    }
    filesOfRoute.set(route.path, files);
    for (const file of files) {
      // Pushed in place: files every page uses have as many users as there are routes.
      const list = users.get(file);
      if (list) {
        list.push(rules);
      } else {
        users.set(file, [rules]);
      }
    }
  }

  const placed: Record<string, AccessRule[]> = {};
  for (const [file, ruleLists] of users) {
    const rules = ruleLists.flat();
    if (rules.some((rule) => !isRestricted(rule))) {
      continue;
    }
    placed[file] = rules.filter((rule, index) => rules.findIndex((other) => sameRule(rule, other)) === index);
  }

  // Every file of the build must be placed: by a route, as an entry file, as
  // a site output or as a copy of static/.
  const entries = siteWideFiles(graph, chunks.chunkNames);
  const staticDir = path.join(siteDir, 'static');
  const unplaced = filesUnder(outDir)
    .map(({relative}) => relative)
    .filter((file) => !users.has(file) && !entries.has(file) && !isSiteOutput(file) && !existsSync(path.join(staticDir, file)));
  if (unplaced.length > 0) {
    throw new Error(
      `access: ${unplaced.length} file(s) of the build are used by no route, entry or known site output, so no rule can be given to them: ${unplaced.join(', ')}`,
    );
  }

  const restrictedRoutes: Record<string, string[]> = {};
  for (const [routePath, files] of filesOfRoute) {
    const own = [...files].filter((file) => placed[file] !== undefined).sort();
    if (own.length > 0) {
      restrictedRoutes[routePath] = own;
    }
  }
  return {files: placed, byRoute: restrictedRoutes};
}
