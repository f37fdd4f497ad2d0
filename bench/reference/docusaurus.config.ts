import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import path from 'node:path';
import {writeSearchBundle} from '../../plugins/search';

/**
 * The benchmark's reference: the same documentation with a stock classic
 * theme: no sign-in layer, no swizzles, no local search, no custom CSS.
 * `npm run bench` builds it beside the real site and measures both in the
 * same run. (src/components and src/data are links to the real ones, which
 * the pages import.)
 *
 * BENCH_REFERENCE_SEARCH=1 adds the portal's search indexing, as the portal
 * runs it (plugins/search: Pagefind over every doc page, one bundle), so
 * `npm run bench:scale` can tell what access control costs from what search
 * costs.
 */
const withSearch = process.env.BENCH_REFERENCE_SEARCH === '1';
const config: Config = {
  title: 'Developer Portal',
  tagline: 'Build on Acme AI',
  url: 'http://localhost:3000',
  baseUrl: '/',
  future: {v4: true},
  onBrokenLinks: 'warn',
  markdown: {mermaid: true},
  themes: ['@docusaurus/theme-mermaid'],
  plugins: withSearch
    ? [
        (context) => ({
          name: 'reference-search',
          async postBuild({outDir, routesPaths}) {
            await writeSearchBundle({
              outDir,
              baseUrl: '/',
              bundle: {dir: '', routes: routesPaths.filter((route) => route.startsWith('/docs/') && !route.startsWith('/docs/tags'))},
              pagefindBin: path.join(context.siteDir, '..', '..', 'node_modules', '.bin', 'pagefind'),
            });
          },
        }),
      ]
    : [],
  presets: [
    [
      'classic',
      {
        docs: {path: '../../docs', sidebarPath: '../../sidebars.ts'},
        blog: false,
      } satisfies Preset.Options,
    ],
  ],
  themeConfig: {
    navbar: {
      title: 'Developer Portal',
      items: [{type: 'docSidebar', sidebarId: 'internalDevelopersSidebar', position: 'left', label: 'Documentation'}],
    },
  } satisfies Preset.ThemeConfig,
};

export default config;
