/**
 * The minified-script cache (plugins/minify-cache): a build over it emits the
 * bytes Rspack's own minimizer would, takes from it only a script with the
 * same text and minimizer options, and stands aside when the output would
 * depend on more than the text. Real Rspack compiles of a two-entry project.
 */
import {mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {rspack, type RspackPluginInstance, type SwcJsMinimizerRspackPluginOptions} from '@rspack/core';
import type {LoadContext} from '@docusaurus/types';
import {MinifiedScriptCache, minifyCacheDir, minifyCachePlugin} from '../../plugins/minify-cache';
import {filesUnder} from '../../scripts/support/files';

const MINIMIZER_OPTIONS = {
  minimizerOptions: {minify: true, mangle: true, compress: {ecma: 5}, format: {comments: false}},
} satisfies SwcJsMinimizerRspackPluginOptions;

let work: string;
let project: string;
let cacheDir: string;

beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), 'minify-cache-'));
  project = path.join(work, 'project');
  cacheDir = path.join(work, 'cache');
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'a.js'),
    "export function greeting(name) {\n  const message = 'hello, ' + name;\n  return message;\n}\nconsole.log(greeting('a'));\n",
  );
  writeFileSync(
    path.join(project, 'b.js'),
    "const values = [1, 2, 3];\nconst doubled = values.map((value) => value * 2);\nconsole.log('b', doubled);\n",
  );
});

afterEach(() => {
  rmSync(work, {recursive: true, force: true});
});

/** Compiles both entries into a fresh folder; returns the emitted scripts by name. */
async function compile(
  plugins: RspackPluginInstance[],
  minimizerOptions: SwcJsMinimizerRspackPluginOptions = MINIMIZER_OPTIONS,
): Promise<Map<string, string>> {
  const outDir = mkdtempSync(path.join(work, 'out-'));
  const compiler = rspack({
    mode: 'production',
    context: project,
    entry: {a: './a.js', b: './b.js'},
    output: {path: outDir, filename: '[name].[contenthash:8].js'},
    devtool: false,
    optimization: {minimize: true, minimizer: [new rspack.SwcJsMinimizerRspackPlugin(minimizerOptions)]},
    plugins,
  });
  await new Promise<void>((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) return reject(error);
      if (stats?.hasErrors()) return reject(new Error(stats.toString({all: false, errors: true})));
      resolve();
    });
  });
  return new Map(readdirSync(outDir).map((name) => [name, readFileSync(path.join(outDir, name), 'utf8')]));
}

function cache(options: object = MINIMIZER_OPTIONS): RspackPluginInstance {
  return new MinifiedScriptCache(cacheDir, JSON.stringify([options])) as unknown as RspackPluginInstance;
}

function cachedFiles(): string[] {
  return filesUnder(cacheDir).map((file) => file.full);
}

test('a build over the cache emits the same bytes as the minimizer alone, and fills the cache once', async () => {
  const uncached = await compile([]);
  const first = await compile([cache()]);
  expect(cachedFiles()).toHaveLength(2);
  const second = await compile([cache()]);
  expect(first).toEqual(uncached);
  expect(second).toEqual(uncached);
  expect(cachedFiles()).toHaveLength(2);
  // Minified for real: no local names or whitespace left from the sources.
  expect([...uncached.values()].join('')).not.toContain('doubled');
});

test('a script in the cache is taken from it, not minified again', async () => {
  await compile([cache()]);
  for (const file of cachedFiles()) {
    writeFileSync(file, `${readFileSync(file, 'utf8')}/*taken from the cache*/`);
  }
  const output = await compile([cache()]);
  expect([...output.values()].every((script) => script.endsWith('/*taken from the cache*/'))).toBe(true);
});

test('a changed script is minified afresh; the unchanged one is still reused', async () => {
  await compile([cache()]);
  for (const file of cachedFiles()) {
    writeFileSync(file, `${readFileSync(file, 'utf8')}/*taken from the cache*/`);
  }
  writeFileSync(path.join(project, 'b.js'), "console.log('b changed');\n");
  const output = await compile([cache()]);
  const [a, b] = ['a.', 'b.'].map((prefix) => [...output].find(([name]) => name.startsWith(prefix))![1]);
  expect(a).toMatch(/\/\*taken from the cache\*\/$/);
  expect(b).toContain('b changed');
  expect(b).not.toContain('taken from the cache');
  expect(cachedFiles()).toHaveLength(3);
});

test('other minimizer options never share an entry', async () => {
  await compile([cache()]);
  for (const file of cachedFiles()) {
    writeFileSync(file, `${readFileSync(file, 'utf8')}/*taken from the cache*/`);
  }
  const otherOptions = {minimizerOptions: {...MINIMIZER_OPTIONS.minimizerOptions, mangle: false}};
  const output = await compile([cache(otherOptions)], otherOptions);
  expect([...output.values()].some((script) => script.includes('taken from the cache'))).toBe(false);
  expect(cachedFiles()).toHaveLength(4);
});

describe('the Docusaurus plugin', () => {
  const context = {siteDir: '/site'} as LoadContext;
  const plugin = minifyCachePlugin(context);
  const rspackBundler = {currentBundler: {name: 'rspack', instance: rspack}} as never;
  const minimizer = new rspack.SwcJsMinimizerRspackPlugin(MINIMIZER_OPTIONS);
  const configure = (config: object, isServer = false) =>
    plugin.configureWebpack!(config as never, isServer, rspackBundler, undefined as never);

  test('adds the cache to the client build when the minimizer runs', () => {
    const result = configure({optimization: {minimize: true, minimizer: [minimizer]}}) as {plugins?: unknown[]};
    expect(result.plugins).toEqual([expect.any(MinifiedScriptCache)]);
    expect(minifyCacheDir('/site')).toBe('/site/node_modules/.cache/portal-minify-cache');
  });

  test.each([
    ['the server build', {optimization: {minimize: true, minimizer: [minimizer]}}, true],
    ['a build without minification (--no-minify)', {optimization: {minimize: false, minimizer: [minimizer]}}, false],
    ['a build with source maps', {devtool: 'source-map', optimization: {minimize: true, minimizer: [minimizer]}}, false],
    [
      'a minimizer that extracts comments',
      {optimization: {minimize: true, minimizer: [new rspack.SwcJsMinimizerRspackPlugin({...MINIMIZER_OPTIONS, extractComments: true})]}},
      false,
    ],
    ['another minimizer', {optimization: {minimize: true, minimizer: [{name: 'TerserPlugin'}]}}, false],
  ])('stands aside for %s', (_name, config, isServer) => {
    expect(configure(config, isServer)).toEqual({});
  });
});
