/**
 * Wires the access manifest into Docusaurus through its official extension
 * points (site `markdown` hooks and a local plugin), for one audience:
 *
 * - `members`: every page as written; restricted pages get a sidebar class
 *   (the lock) and their rule in front matter (`portal_access`) for the UI.
 * - `public`: a restricted page keeps its route, title and sidebar entry, but
 *   its Markdown is replaced by `<RestrictedPage />` before MDX or the docs
 *   plugin ever read it, so no sentence of it reaches the HTML, the JS
 *   chunks, the description meta tag or the search index.
 */
import {createHash} from 'node:crypto';
import {statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, MarkdownConfig, ParseFrontMatter, Plugin} from '@docusaurus/types';
import {ACCESS_PLUGIN_NAME, type AccessGlobalData} from '../../src/auth/access/audience';
import {isRestricted, RULE_FRONT_MATTER_KEY} from '../../src/auth/access/rules';
import type {AccessManifest, AccessPage, Audience} from './manifest';
import {filesUnder} from '../support/files';
import {bundleGraphRecorder, type BundleGraph} from './bundleGraph';
import {placeFiles, type RouteLike} from './placement';
import {readRoutesChunkNames} from '../routeChunks';
import {searchIndexVariants} from './searchIndexes';

type MarkdownPreprocessor = NonNullable<MarkdownConfig['preprocessor']>;

/** The whole body of a withheld page. The component is registered in src/theme/MDXComponents.tsx. */
export const RESTRICTED_PAGE_BODY = '<RestrictedPage />\n';

export const RESTRICTED_SIDEBAR_CLASS = 'portal-restricted';

/** The description a role-restricted page has in files every member downloads. */
export const ROLE_RESTRICTED_DESCRIPTION = 'A page for readers with a particular role.';

/** Front matter a withheld page may keep: where it sits and what it is called, nothing it says. */
const PUBLIC_FRONT_MATTER_KEYS = [
  'id',
  'title',
  'sidebar_label',
  'sidebar_position',
  'slug',
  'displayed_sidebar',
  'pagination_label',
  'pagination_next',
  'pagination_prev',
];

function restrictedBySource(siteDir: string, pages: AccessPage[]): Map<string, AccessPage> {
  return new Map(pages.filter((page) => isRestricted(page.rule)).map((page) => [path.resolve(siteDir, page.source), page]));
}

export function accessMarkdownHooks(
  siteDir: string,
  pages: AccessPage[],
  audience: Audience,
): {parseFrontMatter: ParseFrontMatter; preprocessor: MarkdownPreprocessor} {
  const restricted = restrictedBySource(siteDir, pages);
  return {
    parseFrontMatter: async (params) => {
      const result = await params.defaultParseFrontMatter(params);
      const page = restricted.get(path.resolve(params.filePath));
      if (!page) {
        return result;
      }
      const modifier = `${RESTRICTED_SIDEBAR_CLASS}--${page.rule.kind}`;
      const className = [result.frontMatter.sidebar_class_name, RESTRICTED_SIDEBAR_CLASS, modifier].filter(Boolean).join(' ');
      const marks = {[RULE_FRONT_MATTER_KEY]: page.rule, sidebar_class_name: className};
      if (audience === 'members') {
        // Docusaurus copies a doc's description (or, without one, its first
        // paragraph) into the version data that every member downloads. A
        // page that needs a role keeps its words to its own HTML and chunk.
        const shared = page.rule.kind === 'roles' ? {description: ROLE_RESTRICTED_DESCRIPTION} : {};
        return {frontMatter: {...result.frontMatter, ...marks, ...shared}, content: result.content};
      }
      const kept = Object.fromEntries(Object.entries(result.frontMatter).filter(([key]) => PUBLIC_FRONT_MATTER_KEYS.includes(key)));
      return {
        frontMatter: {...kept, ...marks, title: page.title, description: 'Sign in to read this page.'},
        content: RESTRICTED_PAGE_BODY,
      };
    },
    preprocessor: ({filePath, fileContent}) =>
      audience === 'public' && restricted.has(path.resolve(filePath)) ? RESTRICTED_PAGE_BODY : fileContent,
  };
}

/** The modules docusaurus.config.ts loads at build time: a change to any of them must drop the bundler's cache. */
const CONFIG_MODULE_DIRS = ['plugins', 'src/ssr', 'src/auth/access', 'src/auth/config.ts', 'src/data/platform.ts'];

function configModules(siteDir: string): string[] {
  return CONFIG_MODULE_DIRS.flatMap((entry) => {
    const full = path.join(siteDir, entry);
    return statSync(full).isDirectory()
      ? filesUnder(full)
          .filter((file) => /\.(ts|tsx|cjs|js)$/.test(file.relative))
          .map((file) => file.full)
      : [full];
  });
}

/** A bundler cache kept on disk: Rspack 1's `experiments.cache`, Rspack 2's and webpack's `cache`. */
interface DiskCache {
  type: 'persistent' | 'filesystem';
  version?: string;
  buildDependencies?: string[] | {config?: string[]};
}

function isDiskCache(value: unknown): value is DiskCache {
  return typeof value === 'object' && value !== null && ['persistent', 'filesystem'].includes((value as {type?: unknown}).type as string);
}

/**
 * Appends `key` to the version of every cache the bundler keeps on disk
 * (caches of different versions are kept apart) and adds the config's own
 * modules to what drops it. A disk cache in a shape this does not know
 * stops the build: sharing it between the audiences could bring a module
 * compiled for members into the public build.
 */
export function keyPersistentCache(config: object, key: string, configModulePaths: string[]): void {
  const {cache, experiments} = config as {cache?: unknown; experiments?: {cache?: unknown}};
  const caches = [cache, experiments?.cache].filter(isDiskCache);
  for (const diskCache of caches) {
    diskCache.version = `${diskCache.version ?? ''}-${key}`;
    if (Array.isArray(diskCache.buildDependencies)) {
      diskCache.buildDependencies.push(...configModulePaths);
    } else if (diskCache.buildDependencies === undefined && diskCache.type === 'persistent') {
      // Rspack takes a list; webpack's filesystem cache takes named lists.
      diskCache.buildDependencies = [...configModulePaths];
    } else {
      diskCache.buildDependencies = {
        ...diskCache.buildDependencies,
        config: [...(diskCache.buildDependencies?.config ?? []), ...configModulePaths],
      };
    }
  }
  const unknown = [cache, experiments?.cache].find(
    (value) => typeof value === 'object' && value !== null && !isDiskCache(value) && (value as {type?: unknown}).type !== 'memory',
  );
  if (unknown) {
    throw new Error(
      `access: the bundler's cache is configured in a shape this plugin cannot key per audience (${JSON.stringify(unknown).slice(0, 200)}); see UPGRADING.md`,
    );
  }
}

interface LoadedDocs {
  loadedVersions: {docs: {source: string; permalink: string}[]}[];
}

/**
 * The local plugin: checks the manifest's routes against Docusaurus's real
 * permalinks, exposes the rules to the browser (global data), and after the
 * members build writes build/access-manifest.json with every file each
 * restricted page brings (./placement.ts, computed from the bundler's chunk
 * graph and Docusaurus's routes) for the gate and the leak check
 * (PORTAL_ACCESS_MANIFEST is set by scripts/build.ts).
 */
export function accessPlugin(pages: AccessPage[], audience: Audience, manifestPath: string | undefined) {
  return function portalAccessPlugin(context: LoadContext): Plugin {
    let graph: BundleGraph | null = null;
    return {
      name: ACCESS_PLUGIN_NAME,
      // The bundler's persistent cache (Rspack's `experiments.cache`, on
      // through Docusaurus Faster) keys compiled modules by file content, and
      // a restricted page compiles differently per audience (withheld from
      // the public build). So each audience has a cache of its own (its name
      // is in the cache's version, which Rspack keeps apart): the public
      // build never reads a module the members build compiled, by
      // construction, whichever ran before it. Each cache is also dropped
      // when which pages are restricted, or how, changes (a rule can come
      // from a category file, not the page), and when the config's own
      // modules change, which Docusaurus does not track beyond
      // docusaurus.config.ts. A disk cache in a shape keyPersistentCache
      // does not know stops the build. `npm test` runs the leak check on a second
      // build over the first one's caches (leak-check:warm-cache).
      configureWebpack(config, isServer) {
        const rules = pages.filter((page) => isRestricted(page.rule)).map((page) => [page.source, page.rule]);
        keyPersistentCache(
          config,
          `${audience}-access-${createHash('sha256').update(JSON.stringify(rules)).digest('hex').slice(0, 16)}`,
          configModules(context.siteDir),
        );
        return {
          // The browser's bundle: which files each route's chunks bring (postBuild
          // places them when it writes the manifest, so only then).
          plugins:
            isServer || audience !== 'members' || !manifestPath
              ? []
              : [
                  bundleGraphRecorder((recorded) => {
                    graph = recorded;
                  }),
                ],
        };
      },
      async allContentLoaded({allContent, actions}) {
        const docs = allContent['docusaurus-plugin-content-docs']?.default as LoadedDocs | undefined;
        const permalinks = new Map<string, string>();
        for (const version of docs?.loadedVersions ?? []) {
          for (const doc of version.docs) {
            permalinks.set(doc.source.replace(/^@site\//, ''), doc.permalink);
          }
        }
        const wrong = pages.filter((page) => permalinks.get(page.source) !== page.route);
        if (wrong.length > 0) {
          throw new Error(
            `access: routes computed for the access manifest differ from Docusaurus's: ${wrong
              .map((page) => `${page.source}: ${page.route} vs ${permalinks.get(page.source) ?? 'no such doc'}`)
              .join('; ')}`,
          );
        }
        actions.setGlobalData({audience} satisfies AccessGlobalData);
      },
      async postBuild({outDir, routesBuildMetadata, routes}) {
        const restricted = pages.filter((page) => isRestricted(page.rule));
        if (audience === 'public') {
          // The withheld page says noindex, which also keeps it out of the sitemap.
          const indexed = restricted.filter((page) => !routesBuildMetadata[page.route]?.noIndex);
          if (indexed.length > 0) {
            throw new Error(`access: withheld pages without noindex: ${indexed.map((page) => page.route).join(', ')}`);
          }
        }
        if (audience !== 'members' || !manifestPath) {
          return;
        }
        if (!graph) {
          throw new Error(
            'access: the bundler finished without handing over its chunk graph; the files of restricted pages cannot be placed',
          );
        }
        const placement = placeFiles({
          outDir,
          siteDir: context.siteDir,
          baseUrl: context.siteConfig.baseUrl,
          routes: routes as RouteLike[],
          routesChunkNames: readRoutesChunkNames(context.generatedFilesDir),
          graph,
          pages,
        });
        const missing = restricted.filter((page) => !placement.byRoute[page.route]);
        if (missing.length > 0) {
          throw new Error(
            `access: no files placed for the restricted route(s) ${missing.map((page) => page.route).join(', ')}; the gate could not protect them`,
          );
        }
        // The operator's figure: how many files the restricted pages bring.
        const perPage = restricted.map((page) => placement.byRoute[page.route]?.length ?? 0);
        console.log(
          `[access] ${Object.keys(placement.files).length} restricted files placed for ${restricted.length} restricted pages ` +
            `(${Math.min(...perPage)} to ${Math.max(...perPage)} files each)`,
        );
        const manifest: AccessManifest = {
          version: 1,
          baseUrl: context.siteConfig.baseUrl,
          pages: pages.map((page) => ({...page, files: placement.byRoute[page.route] ?? []})),
          files: placement.files,
          searchIndexes: searchIndexVariants(pages),
        };
        writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
      },
    };
  };
}
