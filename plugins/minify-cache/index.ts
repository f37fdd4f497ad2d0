/**
 * Minified scripts reused between builds.
 *
 * Rspack's persistent cache keeps compiled modules, not minified chunks: a
 * build over a full cache still minifies every script, about 2.5 of its 3.7
 * seconds of bundling here. The two audience builds emit the same chunks but
 * for a handful (main.js, the runtime and the restricted pages' chunks: 7 of
 * 126), so the second build minified again what the first had just minified.
 *
 * This plugin keeps each minified script on disk, keyed by the SHA-256 of
 * the script as the minimizer receives it, the minimizer's options and the
 * Rspack version. Before the minimizer runs, a script whose key is on disk
 * gets its minified form and is marked `minimized`, which Rspack's minimizer
 * skips (as it skips anything already minimized); after it runs, the new
 * results are written. The minimizer's output depends only on its input and
 * options (no source maps or extracted comments in this site's production
 * build; the plugin stands aside if either is configured), so the result is
 * the same bytes the minimizer would have produced, whichever build wrote
 * them: a key is the exact input, and the same input is the same chunk in
 * both audiences. The files sit beside the bundler's own cache and are
 * cleared with it.
 */
import {createHash} from 'node:crypto';
import {mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {WebpackPluginInstance as WebpackPlugin} from 'webpack';

export const MINIFY_CACHE_PLUGIN_NAME = 'portal-minify-cache';

/** Rspack's JavaScript minimizer, as Docusaurus Faster configures it. */
const JS_MINIMIZER = 'SwcJsMinimizerRspackPlugin';
/** The scripts Rspack's minimizer takes by default. */
const SCRIPT = /\.[cm]?js(\?.*)?$/i;

/** The parts of Rspack's compiler this plugin uses (the config is typed for webpack). */
interface Source {
  source(): string | Buffer;
}
interface Asset {
  name: string;
  source: Source;
  info: {minimized?: boolean};
}
interface Compilation {
  getAssets(): readonly Asset[];
  getAsset(name: string): Asset | undefined;
  updateAsset(name: string, source: Source, info: (info: Asset['info']) => Asset['info']): void;
  hooks: {processAssets: {tap(options: {name: string; stage: number}, callback: () => void): void}};
}
interface Compiler {
  webpack: {
    version?: string;
    rspackVersion?: string;
    Compilation: {PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE: number};
    sources: {RawSource: new (source: string) => Source};
  };
  hooks: {thisCompilation: {tap(name: string, callback: (compilation: Compilation) => void): void}};
}
interface BundlerConfig {
  devtool?: unknown;
  optimization?: {minimize?: boolean; minimizer?: unknown[]};
}
interface JsMinimizer {
  name?: string;
  _args?: unknown[];
}

function isJsMinimizer(plugin: unknown): plugin is JsMinimizer {
  return typeof plugin === 'object' && plugin !== null && (plugin as JsMinimizer).name === JS_MINIMIZER;
}

/** The minimizer's options, as text: what its output depends on besides its input (with the Rspack version). */
function minimizerOptions(minimizer: JsMinimizer): string {
  return JSON.stringify(minimizer._args ?? [], (_key, value: unknown) => (value instanceof RegExp ? String(value) : value));
}

/** True when a minimized script would depend on more than its text (a source map, an extracted-comments banner). */
function dependsOnMoreThanInput(config: BundlerConfig, minimizer: JsMinimizer): boolean {
  const options = (minimizer._args?.[0] ?? {}) as {extractComments?: unknown};
  return Boolean(config.devtool) || Boolean(options.extractComments);
}

export class MinifiedScriptCache {
  private fingerprint = '';

  constructor(
    private readonly dir: string,
    private readonly options: string,
  ) {}

  apply(compiler: Compiler): void {
    const {Compilation, sources, rspackVersion, version} = compiler.webpack;
    this.fingerprint = createHash('sha256')
      .update(`rspack ${rspackVersion ?? version ?? 'unknown'}\n${this.options}`)
      .digest('hex');
    const stage = Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE;
    compiler.hooks.thisCompilation.tap(MINIFY_CACHE_PLUGIN_NAME, (compilation) => {
      /** Scripts the minimizer will minify in this build, by name: their key. */
      const misses = new Map<string, string>();
      compilation.hooks.processAssets.tap({name: MINIFY_CACHE_PLUGIN_NAME, stage: stage - 1}, () => {
        for (const asset of compilation.getAssets()) {
          if (!SCRIPT.test(asset.name) || asset.info.minimized) {
            continue;
          }
          const key = this.key(asset.source.source());
          const cached = this.read(key);
          if (cached === undefined) {
            misses.set(asset.name, key);
          } else {
            compilation.updateAsset(asset.name, new sources.RawSource(cached), (info) => ({...info, minimized: true}));
          }
        }
      });
      compilation.hooks.processAssets.tap({name: MINIFY_CACHE_PLUGIN_NAME, stage: stage + 1}, () => {
        for (const [name, key] of misses) {
          const asset = compilation.getAsset(name);
          // Only what the minimizer did minify (it leaves a script it failed on as it was, with an error).
          if (asset?.info.minimized) {
            this.write(key, String(asset.source.source()));
          }
        }
      });
    });
  }

  private key(script: string | Buffer): string {
    return createHash('sha256').update(this.fingerprint).update('\n').update(script).digest('hex');
  }

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.js`);
  }

  private read(key: string): string | undefined {
    try {
      return readFileSync(this.file(key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return undefined;
      }
      throw error;
    }
  }

  private write(key: string, minified: string): void {
    const file = this.file(key);
    mkdirSync(path.dirname(file), {recursive: true});
    // Written whole, then renamed: a build that stops half-way leaves no truncated script to reuse.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, minified);
    renameSync(partial, file);
  }
}

/** The cache's folder: beside the bundler's own, so whatever clears one clears both. */
export function minifyCacheDir(siteDir: string): string {
  return path.join(siteDir, 'node_modules', '.cache', MINIFY_CACHE_PLUGIN_NAME);
}

export function minifyCachePlugin(context: LoadContext): Plugin {
  return {
    name: MINIFY_CACHE_PLUGIN_NAME,
    configureWebpack(config, isServer, {currentBundler}) {
      const bundlerConfig = config as BundlerConfig;
      const minimizer = bundlerConfig.optimization?.minimizer?.find(isJsMinimizer);
      if (isServer || currentBundler.name !== 'rspack' || bundlerConfig.optimization?.minimize === false || !minimizer) {
        return {};
      }
      if (dependsOnMoreThanInput(bundlerConfig, minimizer)) {
        return {};
      }
      const cache = new MinifiedScriptCache(minifyCacheDir(context.siteDir), minimizerOptions(minimizer));
      // Typed for webpack's compiler; Rspack's, which it runs in, has the parts it uses (interface Compiler).
      return {plugins: [cache as unknown as WebpackPlugin]};
    },
  };
}
