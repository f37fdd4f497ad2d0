/**
 * Lists each page's own chunks for its script loader (src/ssr/pageScripts.ts).
 *
 * Docusaurus's pages name only the runtime and main.js; main.js then looks
 * up the page's route and appends a `<script>` for each of its chunks (the
 * layout, the doc, its data: eleven on a doc page) before it can hydrate.
 * That costs a round trip after main.js arrives, and the appends ran inside
 * main.js's evaluation, the longest task on the page: about 95 ms of it at
 * 4× CPU throttling on the long doc page (bench/README.md, Front-end performance). Listed in
 * the page, the chunks download beside main.js, inserted one per task by the
 * loader, and webpack waits for those instead of inserting its own. (Docusaurus means to do this with
 * react-loadable's manifest, but with Rspack the module names it records do
 * not match the manifest's keys, so pages get no chunk at all.)
 *
 * The chunks of a route are the ones Docusaurus's own prefetch uses, for
 * the page's route and the layout routes around it, and their files come
 * from the bundler's chunk graph: the one route resolver the access
 * placement uses too (../routeChunks.ts).
 */
import {readFileSync, renameSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {decodeHTMLAttribute, escapeAttribute} from 'entities';
import {CHUNKS_ATTRIBUTE} from '../../src/ssr/pageScripts';
import {bundleGraphRecorder, type BundleGraph} from '../access/bundleGraph';
import {readRoutesChunkNames, routeChunks, type RouteChunks} from '../routeChunks';

export const PAGE_SCRIPTS_PLUGIN_NAME = 'portal-page-scripts';

/** The loader's list of entry scripts, as src/ssr/pageScripts.ts writes it and the HTML minifier may requote it. */
const SCRIPTS_ATTRIBUTE = /\sdata-scripts=(?:'([^']*)'|"([^"]*)")/;

/** The scripts a page starts with beside the entry: its chunks' own (not what they load later), its layouts' first. */
export function pageScriptFiles(chunks: RouteChunks, routePath: string): string[] {
  return [...chunks.filesOf(routePath, {lazy: false})].filter((file) => file.endsWith('.js'));
}

function parseScriptList(match: RegExpExecArray): string[] {
  return JSON.parse(decodeHTMLAttribute(match[1] ?? match[2] ?? '')) as string[];
}

/** The app's entry scripts a page's loader runs, in order; none for a page without the loader. */
export function entryScriptsOf(html: string): string[] {
  const match = SCRIPTS_ATTRIBUTE.exec(html);
  return match ? parseScriptList(match) : [];
}

/**
 * The page's HTML without its script loader (the `<script>` element that
 * lists the app's scripts and the page's chunks); unchanged when it has none.
 * The two audiences' builds name different scripts there, so this is what
 * compares a page between them (plugins/search).
 */
export function withoutScriptLoader(html: string): string {
  const match = SCRIPTS_ATTRIBUTE.exec(html);
  if (!match) {
    return html;
  }
  const start = html.lastIndexOf('<script', match.index);
  const end = html.indexOf('</script>', match.index);
  if (start < 0 || end < 0) {
    return html;
  }
  return html.slice(0, start) + html.slice(end + '</script>'.length);
}

/**
 * The page's HTML with its chunks in the loader's chunk list (those not
 * already among its entry scripts); unchanged when it has no loader.
 */
export function withPageChunks(html: string, chunkUrls: string[]): string {
  const match = SCRIPTS_ATTRIBUTE.exec(html);
  // Already listed: the rest of the loader's own tag names the chunks.
  if (!match || html.slice(match.index, html.indexOf('>', match.index + match[0].length)).includes(` ${CHUNKS_ATTRIBUTE}=`)) {
    return html;
  }
  const scripts = parseScriptList(match);
  const chunks = chunkUrls.filter((url) => !scripts.includes(url));
  if (chunks.length === 0) {
    return html;
  }
  return html.replace(match[0], `${match[0]} ${CHUNKS_ATTRIBUTE}="${escapeAttribute(JSON.stringify(chunks))}"`);
}

/** Where Docusaurus writes a route's page (trailingSlash left unset). */
function htmlFileFor(outDir: string, baseUrl: string, routePath: string): string {
  const relative = routePath.slice(baseUrl.length);
  return path.join(outDir, relative.endsWith('.html') ? relative : path.join(relative, 'index.html'));
}

/** One part of the app's entry, in its own script: the packages under node_modules that `test` matches. */
function entryPart(name: string, packages: RegExp, priority: number) {
  // Scripts only: the stylesheet stays the one file Docusaurus makes (its `styles` group), in its order.
  return {test: packages, type: /^javascript\//, chunks: 'initial' as const, name, priority, enforce: true};
}

/**
 * The app's entry (main.js) in four scripts instead of one. The browser
 * compiles each script it runs in one task: main.js whole was about 450 KB,
 * and compiling it made its evaluation the longest task on a doc page
 * (about 20 of its 45 ms unthrottled, 80 ms at 4× CPU throttling; bench/README.md,
 * Front-end performance). In parts, each compiles in a task of its own, well under
 * 50 ms at 4×, and main.js's task keeps only running the modules. The
 * loader runs them in order (async off) and webpack runs the entry once all
 * are there. React DOM is
 * one module of about 200 KB, so it is a part of its own; the theme is the
 * other large one. Priorities above Docusaurus's own groups (common 40,
 * styles 50), which concern async chunks and CSS only.
 */
export const ENTRY_SCRIPT_PARTS = {
  reactDom: entryPart('react-dom', /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/, 62),
  docusaurus: entryPart('docusaurus', /[\\/]node_modules[\\/]@docusaurus[\\/]/, 61),
  vendors: entryPart('vendors', /[\\/]node_modules[\\/]/, 60),
};

/**
 * V8's explicit compile hint (Chrome 136 and later): a script whose first
 * line is this comment is compiled whole while it streams in, on a background
 * thread, instead of function by function on the main thread the first time
 * each runs. Nearly everything in the app's scripts runs while a page starts
 * (the client entry, React's hydration, the theme, the page's own chunks), and
 * those lazy compiles were most of main.js's evaluation, the longest task on
 * a doc page: with the hint on every script, the long doc's mobile Lighthouse
 * TBT went from a median of 205 to 91 ms (bench/README.md, Front-end
 * performance). Other engines read it as a comment. The cost is memory for
 * the bytecode of functions a page never calls.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

export function pageScriptsPlugin(context: LoadContext): Plugin {
  let graph: BundleGraph | null = null;
  return {
    name: PAGE_SCRIPTS_PLUGIN_NAME,
    configureWebpack: (config, isServer, {currentBundler}) =>
      isServer
        ? {}
        : {
            optimization: {splitChunks: {cacheGroups: ENTRY_SCRIPT_PARTS}},
            // The chunk graph is read after a production build only (postBuild).
            plugins:
              config.mode === 'production'
                ? [
                    bundleGraphRecorder((recorded) => {
                      graph = recorded;
                    }),
                    new currentBundler.instance.BannerPlugin({
                      banner: COMPILE_HINT,
                      raw: true,
                      test: /\.js$/,
                      // After the minifier, which drops comments, and before the
                      // content hashes, so a file's name still follows its bytes.
                      stage: currentBundler.instance.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE,
                    }),
                  ]
                : [],
          },
    async postBuild({outDir, routes, routesPaths}) {
      if (!graph) {
        throw new Error('page-scripts: the bundler finished without handing over its chunk graph; pages cannot list their chunks');
      }
      const chunks = routeChunks(readRoutesChunkNames(context.generatedFilesDir), routes, graph);
      const {baseUrl} = context.siteConfig;
      for (const routePath of routesPaths) {
        const file = htmlFileFor(outDir, baseUrl, routePath);
        let html: string;
        try {
          html = readFileSync(file, 'utf8');
        } catch {
          continue; // a route without a page of its own (e.g. a layout)
        }
        const updated = withPageChunks(
          html,
          pageScriptFiles(chunks, routePath).map((chunk) => `${baseUrl}${chunk}`),
        );
        if (updated !== html) {
          // Other plugins read the pages meanwhile: replace, never truncate.
          writeFileSync(`${file}.tmp`, updated);
          renameSync(`${file}.tmp`, file);
        }
      }
    },
  };
}
