/**
 * Stylesheets take their PostCSS options from Docusaurus alone
 * (plugins/postcss): the plugin turns off postcss-loader's search for a
 * config file, which is only right while there is no such file to find.
 * These tests run the loader's own search from every folder that holds a
 * stylesheet, in the site and in its packages.
 */
import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import * as fs from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {PostCssOptions} from '@docusaurus/types';
import {postcssPlugin} from '../../plugins/postcss';

const ROOT = path.resolve(__dirname, '../..');

/** What postcss-loader's config search reads of the loader's context. */
interface LoaderContext {
  fs: typeof fs;
  /** The stylesheet: the search starts from its folder. */
  resourcePath: string;
  addBuildDependency(file: string): void;
  addDependency(file: string): void;
}
// postcss-loader's own config search: not exported by its entry point (the package has no exports map).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const {loadConfig} = require('postcss-loader/dist/utils') as {
  loadConfig(context: LoaderContext, config: true, options: object): Promise<{filepath?: string}>;
};

/** The config file postcss-loader would use for a stylesheet in `dir`, if any. */
async function configFoundFrom(dir: string): Promise<string | undefined> {
  const context: LoaderContext = {
    fs,
    resourcePath: path.join(dir, 'stylesheet.css'),
    addBuildDependency: () => undefined,
    addDependency: () => undefined,
  };
  return (await loadConfig(context, true, {})).filepath;
}

/** Every folder below `dir` that holds a .css file. */
function stylesheetFolders(dir: string): string[] {
  return [
    ...new Set(
      readdirSync(dir, {recursive: true, withFileTypes: true})
        .filter((entry) => entry.isFile() && entry.name.endsWith('.css'))
        .map((entry) => entry.parentPath),
    ),
  ];
}

test('the plugin keeps Docusaurus options and turns off the config search', () => {
  const plugin = postcssPlugin();
  const options: PostCssOptions = {ident: 'postcss', plugins: ['postcss-preset-env']};
  expect(plugin.configurePostCss?.(options)).toEqual({ident: 'postcss', plugins: ['postcss-preset-env'], config: false});
});

test('the loader finds no PostCSS config for any stylesheet of the site or its packages', async () => {
  const folders = [...stylesheetFolders(path.join(ROOT, 'src')), ...stylesheetFolders(path.join(ROOT, 'node_modules'))];
  expect(folders.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const folder of folders) {
    const config = await configFoundFrom(folder);
    if (config) {
      found.push(`${path.relative(ROOT, folder)} → ${config}`);
    }
  }
  // A config file here would be ignored by the build: pass its path in plugins/postcss instead.
  expect(found).toEqual([]);
}, 60_000);

test('the search used above does find a config file when there is one', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'postcss-config-'));
  try {
    writeFileSync(path.join(dir, '.postcssrc.json'), '{"plugins": {}}');
    expect(await configFoundFrom(dir)).toBe(path.join(dir, '.postcssrc.json'));
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
