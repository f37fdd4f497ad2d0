import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';

/**
 * The benchmark's reference: the same documentation with a stock classic
 * theme: no sign-in layer, no swizzles, no local search, no custom CSS.
 * `npm run bench` builds it beside the real site and measures both in the
 * same run. (src/components and src/data are links to the real ones, which
 * the pages import.)
 */
const config: Config = {
  title: 'Developer Portal',
  tagline: 'Build on Acme AI',
  url: 'http://localhost:3000',
  baseUrl: '/',
  future: {v4: true},
  onBrokenLinks: 'warn',
  markdown: {mermaid: true},
  themes: ['@docusaurus/theme-mermaid'],
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
