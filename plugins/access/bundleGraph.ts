/**
 * The bundler's chunk graph, as the files a route needs. Recorded by a
 * bundler plugin (Docusaurus's `configureWebpack`, webpack's public plugin
 * API, which Rspack implements: `compilation.chunkGroups`, each group's
 * `chunks`, their `files` and `auxiliaryFiles`, and `childrenIterable`), so
 * the access plugin can compute every file a restricted page alone brings:
 * its content chunk, the chunks it loads lazily (`import()`), and the images
 * and attachments its modules emit.
 *
 * A chunk group's children are the groups its modules' `import()`s load.
 * Following them from a route's named groups gives everything that route can
 * ever load; a module that a public page also reaches makes its lazy chunks
 * reachable from that page too, which is right: that page can load them.
 */

import type {Compiler, WebpackPluginInstance} from 'webpack';

/** One chunk group: what loading it fetches, and the groups it can load later. */
export interface BundleGroup {
  /** The `webpackChunkName` Docusaurus gives a route module (routesChunkNames.json), or an entry's name. */
  name: string | null;
  /** An entry point's group (the app's start), fetched by every page. */
  initial: boolean;
  /** Files of its chunks (scripts, styles) and their auxiliary files (images, attachments). */
  files: string[];
  /** Indexes (in `groups`) of the groups its `import()`s load. */
  children: number[];
}

export interface BundleGraph {
  groups: BundleGroup[];
}

/** The parts of the bundler's compilation read here (webpack's public API, as Rspack exposes it). */
interface ChunkLike {
  files: Iterable<string>;
  auxiliaryFiles: Iterable<string>;
  groupsIterable: Iterable<ChunkGroupLike>;
  hasRuntime(): boolean;
}
interface ChunkGroupLike {
  name?: string | null;
  chunks: ChunkLike[];
  childrenIterable: Iterable<ChunkGroupLike>;
  isInitial(): boolean;
}
interface BlockLike {
  blocks: BlockLike[];
}
interface ModuleLike {
  blocks: BlockLike[];
}
export interface CompilationLike {
  chunkGroups: ChunkGroupLike[];
  modules: Iterable<ModuleLike>;
  chunkGraph: {getModuleChunks(module: ModuleLike): ChunkLike[]; getBlockChunkGroup(block: BlockLike): ChunkGroupLike | null};
}

const RECORDER = 'portal-access-bundle-graph';

export function readBundleGraph(compilation: CompilationLike): BundleGraph {
  const {chunkGroups} = compilation;
  const index = new Map(chunkGroups.map((group, position) => [group, position]));
  const positionOf = (group: ChunkGroupLike) => {
    const position = index.get(group);
    if (position === undefined) {
      // The guarantee rests on this graph: never guess a missing edge.
      throw new Error(`access: the bundler named a chunk group (${group.name ?? 'unnamed'}) outside its own list of groups`);
    }
    return position;
  };
  const groups: BundleGroup[] = chunkGroups.map((group) => ({
    name: group.name ?? null,
    initial: group.isInitial(),
    files: [...new Set(group.chunks.flatMap((chunk) => [...chunk.files, ...chunk.auxiliaryFiles]))].sort(),
    children: [...group.childrenIterable].map(positionOf),
  }));
  // A web worker's entry (`new Worker(new URL(...))`) has a runtime of its
  // own and is no group's child: it belongs to the groups holding the module
  // whose async block starts it.
  const isWorkerEntry = (group: ChunkGroupLike) => !group.isInitial() && group.chunks.some((chunk) => chunk.hasRuntime());
  const attachWorkers = (module: ModuleLike, block: BlockLike) => {
    const started = compilation.chunkGraph.getBlockChunkGroup(block);
    if (started && isWorkerEntry(started)) {
      const worker = positionOf(started);
      for (const chunk of compilation.chunkGraph.getModuleChunks(module)) {
        for (const parent of chunk.groupsIterable) {
          const children = groups[positionOf(parent)]?.children;
          if (children && !children.includes(worker)) {
            children.push(worker);
          }
        }
      }
    }
    block.blocks.forEach((inner) => attachWorkers(module, inner));
  };
  for (const module of compilation.modules) {
    module.blocks.forEach((block) => attachWorkers(module, block));
  }
  return {groups};
}

/** A bundler plugin that hands the finished client compilation's graph to `onGraph`. */
export function bundleGraphRecorder(onGraph: (graph: BundleGraph) => void): WebpackPluginInstance {
  return {
    apply(compiler: Compiler) {
      compiler.hooks.done.tap(RECORDER, (stats) =>
        // Docusaurus types its bundler as webpack; Rspack implements the same
        // public compilation API, of which CompilationLike names the parts read.
        onGraph(readBundleGraph(stats.compilation as unknown as CompilationLike)),
      );
    },
  };
}

/**
 * Every file reached from the named groups: theirs and, with `lazy`, their
 * lazy descendants', transitively. A name the bundle does not know throws.
 */
export function filesReachedFrom(graph: BundleGraph, chunkNames: Iterable<string>, {lazy}: {lazy: boolean}): Set<string> {
  const byName = new Map<string, number[]>();
  graph.groups.forEach((group, position) => {
    if (group.name !== null) {
      byName.set(group.name, [...(byName.get(group.name) ?? []), position]);
    }
  });
  const files = new Set<string>();
  const seen = new Set<number>();
  const pending: number[] = [];
  for (const name of chunkNames) {
    const positions = byName.get(name);
    if (!positions) {
      throw new Error(`access: the route chunk ${name} is not a chunk group of the bundle`);
    }
    pending.push(...positions);
  }
  // In the order named (a page's layouts before the page), each group's files in name order.
  for (let next = 0; next < pending.length; next += 1) {
    const position = pending[next] as number;
    if (seen.has(position)) {
      continue;
    }
    seen.add(position);
    const group = graph.groups[position] as BundleGroup;
    group.files.forEach((file) => files.add(file));
    if (lazy) {
      pending.push(...group.children);
    }
  }
  return files;
}

/**
 * Files every page may load whatever its route: the entry points' own files
 * (runtime, main and its parts, the global styles) and what the app's own
 * code loads lazily (the code highlighter, the search client), transitively.
 * The entries' other children are the routes' chunks (the route registry's
 * `import()`s live in main), which the routes place themselves: the walk
 * stops at every group named as a route chunk.
 */
export function siteWideFiles(graph: BundleGraph, routeChunkNames: Set<string>): Set<string> {
  const files = new Set<string>();
  const seen = new Set<number>();
  const pending = graph.groups.flatMap((group, position) => (group.initial ? [position] : []));
  for (let position = pending.pop(); position !== undefined; position = pending.pop()) {
    const group = graph.groups[position] as BundleGroup;
    if (seen.has(position) || (group.name !== null && routeChunkNames.has(group.name))) {
      continue;
    }
    seen.add(position);
    group.files.forEach((file) => files.add(file));
    pending.push(...group.children);
  }
  return files;
}
