/**
 * Stylesheets are processed with Docusaurus's PostCSS options only.
 *
 * Docusaurus hands postcss-loader its whole configuration (postcss-preset-env,
 * through `configurePostCss`), but the loader still looks for a PostCSS
 * config file for every stylesheet: from the stylesheet's folder up to the
 * file system's root, 27 file names per folder, each a failed read that
 * throws. A cold build ran that search for each of its stylesheets on
 * Node's one thread: about 1.3 s of CPU profile, and interleaved cold
 * builds were about 1.7 s faster without it.
 *
 * Neither the site nor any package it installs has such a file (the
 * loader's search places, and a `postcss` key in package.json);
 * test/node/postcss.test.ts keeps it that way. Should the site ever need
 * one, pass its path as `config` here instead of `false`.
 */
import type {Plugin, PostCssOptions} from '@docusaurus/types';

export const POSTCSS_PLUGIN_NAME = 'portal-postcss';

export function postcssPlugin(): Plugin {
  return {
    name: POSTCSS_PLUGIN_NAME,
    configurePostCss: (options: PostCssOptions): PostCssOptions => ({...options, config: false}),
  };
}
