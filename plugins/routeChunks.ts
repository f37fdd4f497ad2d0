/**
 * The one resolver from a Docusaurus route to the files of its chunks, for
 * every plugin that needs them: the access placement (every file a page can
 * load, lazily loaded ones included: plugins/access/placement.ts) and the
 * page scripts (the scripts a page starts with: plugins/page-scripts).
 *
 * - Docusaurus's `routesChunkNames.json` (in the generated files) names each
 *   route's chunks, keyed by its path plus a short hash ("/docs/x-a3c"),
 *   read here as Docusaurus's own prefetching reads that key.
 * - A page's chunks are its route's and those of the layout routes around it
 *   (the route tree Docusaurus hands every plugin's postBuild).
 * - The bundler's chunk graph (./access/bundleGraph.ts) turns chunk names
 *   into files.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {filesReachedFrom, type BundleGraph} from './access/bundleGraph';

/** The parts of a Docusaurus route read here: its path and the routes it wraps. */
export interface RouteTree {
  path: string;
  routes?: RouteTree[];
}

/** `routesChunkNames.json` from Docusaurus's generated files. */
export function readRoutesChunkNames(generatedFilesDir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(generatedFilesDir, 'routesChunkNames.json'), 'utf8')) as Record<string, unknown>;
}

function routePathOfChunkKey(key: string): string {
  return key.replace(/-[^-]+$/, '');
}

function chunkNamesIn(value: unknown): string[] {
  if (typeof value === 'string') {
    return [value];
  }
  if (value && typeof value === 'object') {
    return Object.values(value).flatMap(chunkNamesIn);
  }
  return [];
}

/** Each page route's path → the paths of the layout routes around it. */
function layoutsByPage(routes: RouteTree[], layouts: string[] = [], into = new Map<string, string[]>()): Map<string, string[]> {
  for (const route of routes) {
    if (route.routes && route.routes.length > 0) {
      layoutsByPage(route.routes, [...layouts, route.path], into);
    } else {
      into.set(route.path, layouts);
    }
  }
  return into;
}

export interface RouteChunks {
  /** Every chunk name any route names. */
  chunkNames: Set<string>;
  /** A page's chunk names: its route's and its layout routes'; none for a path that is no page route. */
  chunkNamesOf(routePath: string): string[];
  /**
   * A page's files: those of its chunks (scripts, styles, the images and
   * attachments they emit) and, with `lazy`, those of every chunk they can
   * load later, transitively.
   */
  filesOf(routePath: string, options: {lazy: boolean}): Set<string>;
}

export function routeChunks(routesChunkNames: Record<string, unknown>, routes: RouteTree[], graph: BundleGraph): RouteChunks {
  const namesByPath = new Map<string, string[]>();
  for (const [key, names] of Object.entries(routesChunkNames)) {
    const routePath = routePathOfChunkKey(key);
    namesByPath.set(routePath, [...(namesByPath.get(routePath) ?? []), ...chunkNamesIn(names)]);
  }
  const layouts = layoutsByPage(routes);
  const chunkNamesOf = (routePath: string): string[] => {
    const around = layouts.get(routePath);
    if (!around) {
      return [];
    }
    return [...new Set([...new Set([...around, routePath])].flatMap((own) => namesByPath.get(own) ?? []))];
  };
  return {
    chunkNames: new Set([...namesByPath.values()].flat()),
    chunkNamesOf,
    filesOf: (routePath, {lazy}) => filesReachedFrom(graph, chunkNamesOf(routePath), {lazy}),
  };
}
