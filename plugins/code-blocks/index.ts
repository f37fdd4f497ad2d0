/**
 * Code blocks without a highlighter on page load (src/components/CodeBlock
 * says why): this local plugin
 *
 * - adds the stylesheet that colours code tokens
 *   (plugins/code-blocks/theme.ts) to the site's CSS, and
 * - takes theme-classic's `prism-include-languages` client module out of the
 *   bundles. That module only imports Prism and registers the extra
 *   languages, at start-up, on every page, whether it has code or not; the
 *   highlighter's own chunk does the same when a block first needs it
 *   (src/components/CodeBlock/HighlightedContent.tsx);
 * - gives the server bundle that chunk's module directly instead of the
 *   browser's lazy loader, so pages are rendered highlighted in one pass.
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export const CODE_BLOCKS_PLUGIN_NAME = 'portal-code-blocks';

const COMPONENT_DIR = path.resolve(__dirname, '../../src/components/CodeBlock');
/** How ServerHighlightedContent imports the lazy loader; the server bundle gets the eager module instead. */
const LAZY_MODULE_REQUEST = /[\\/]LazyHighlightedContent(\.tsx)?$/;

/** theme-classic's client module that registers `prism.additionalLanguages` at start-up. */
function eagerPrismClientModule(): string {
  return require.resolve('@docusaurus/theme-classic/lib/prism-include-languages.js');
}

export function codeBlocksPlugin(themeCss: string) {
  return function portalCodeBlocksPlugin(context: LoadContext): Plugin {
    const cssFile = path.join(context.generatedFilesDir, CODE_BLOCKS_PLUGIN_NAME, 'prism-theme.css');
    mkdirSync(path.dirname(cssFile), {recursive: true});
    writeFileSync(cssFile, themeCss);
    return {
      name: CODE_BLOCKS_PLUGIN_NAME,
      getClientModules: () => [cssFile],
      configureWebpack: (_config, isServer, {currentBundler}) => ({
        // An alias to `false` makes the module empty.
        resolve: {alias: {[eagerPrismClientModule()]: false}},
        plugins: isServer
          ? [
              new currentBundler.instance.NormalModuleReplacementPlugin(
                LAZY_MODULE_REQUEST,
                path.join(COMPONENT_DIR, 'HighlightedContent.tsx'),
              ),
            ]
          : [],
      }),
    };
  };
}
