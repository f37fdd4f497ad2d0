import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import {PRODUCT_NAME} from './src/data/platform';
import {readAuthSettings} from './src/auth/config';
import {SSR_TEMPLATE} from './src/ssr/pageScripts';
import {readAudience, scanAccessRules} from './plugins/access/manifest';
import {accessMarkdownHooks, accessPlugin} from './plugins/access/plugin';
import {searchIndexVariants} from './plugins/access/searchIndexes';
import {portalSearchPlugin} from './plugins/search';
import {agentDocsPlugin} from './plugins/agent-docs';
import {codeBlocksPlugin} from './plugins/code-blocks';
import {pageScriptsPlugin} from './plugins/page-scripts';
import {postcssPlugin} from './plugins/postcss';
import {CODE_THEMES, stylesheetPrismTheme} from './plugins/code-blocks/theme';

// This runs in Node.js at build/start time: never import client code here.

/** Public origin of the site, e.g. https://docs.example.com (no trailing slash). */
const siteUrl = (process.env.SITE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

/**
 * Bump this id whenever the announcement text changes: visitors who closed
 * the previous announcement will see the new one (the dismissal is stored
 * per id).
 */
const ANNOUNCEMENT_ID = 'welcome-2025';

/** Base path the site is served under, e.g. /portal/ on GitHub Pages (BASE_URL). */
const baseUrl = `/${(process.env.BASE_URL ?? '').trim().replace(/^\/+|\/+$/g, '')}/`.replace(/\/\/$/, '/');

/**
 * "Edit this page" links and last-updated dates, only when the repository is
 * known (e.g. https://github.com/acme/developer-portal/edit/main/). Dates come
 * from git history, which only means something in a real checkout.
 */
const docsEditUrl = process.env.DOCS_EDIT_URL?.trim() || undefined;

// Throws with the variable's name on an invalid value, which stops the build.
const auth = readAuthSettings(process.env, baseUrl);

/**
 * Who this build is for (PORTAL_AUDIENCE): `public` (the default, so a bare
 * `docusaurus build` never ships a restricted page) withholds every page
 * whose front matter restricts it; `members` has everything. `npm run build`
 * makes both (scripts/build.ts) and the gate server picks one per request.
 */
const audience = readAudience(process.env);
const accessPages = scanAccessRules({siteDir: __dirname, baseUrl});
const accessHooks = accessMarkdownHooks(__dirname, accessPages, audience);
/** The members build's extra reader sets (one per set of role rules): search indexes and llms files. */
const readerVariants = audience === 'members' ? searchIndexVariants(accessPages) : [];
const codeTheme = stylesheetPrismTheme(CODE_THEMES.light, CODE_THEMES.dark);

const config = {
  title: 'Developer Portal',
  tagline: `Build on ${PRODUCT_NAME}`,
  favicon: 'img/favicon.svg',

  url: siteUrl,
  baseUrl,
  titleDelimiter: '|',
  trailingSlash: undefined,

  future: {
    // v4 flags turn on Docusaurus Faster (Rspack, SWC, Lightning CSS).
    v4: true,
    // Git history is read only for what shows it (last-updated dates, on
    // when DOCS_EDIT_URL is set): otherwise Docusaurus reads the whole
    // repository's history eagerly in every build (about 1.3 s cold).
    experimental_vcs: Boolean(docsEditUrl),
  },
  // v4 namespaces browser storage keys per site (`theme-xxxx`); the spec wants
  // the plain `theme` key, so we opt out of namespacing.
  storage: {
    type: 'localStorage',
    namespace: false,
  },

  customFields: {
    // Read by src/theme/Root.tsx in the browser; public values only.
    auth,
  },

  onBrokenLinks: 'throw',
  // Replaced by our own banner (src/components/BaseUrlIssueBanner) whose
  // wording is product-neutral.
  baseUrlIssueBanner: false,
  // Broken anchors only warn in a writer's build (the spec). The members
  // build holds every page, so it checks every link to a section, and in CI
  // (CI set, as GitHub Actions and .ci/run do) it fails on a missing one:
  // this check is the one home of anchor checking (scripts/lint-docs/ checks
  // content only). The public build's withheld pages are stubs without the
  // sections that public pages link to: it would warn about those links in
  // every build, so it does not check.
  onBrokenAnchors: audience === 'members' ? (process.env.CI ? 'throw' : 'warn') : 'ignore',

  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
    localeConfigs: {
      en: {label: 'English', direction: 'ltr', htmlLang: 'en'},
    },
  },

  markdown: {
    mermaid: true,
    // Withholds restricted pages from the public build (plugins/access/plugin.ts).
    parseFrontMatter: accessHooks.parseFrontMatter,
    preprocessor: accessHooks.preprocessor,
    hooks: {
      onBrokenMarkdownLinks: 'throw',
      onBrokenMarkdownImages: 'throw',
    },
  },

  // Scripts start after the first paint (src/ssr/pageScripts.ts says why);
  // measured with Lighthouse mobile on the long doc, LCP went from 4.8 s to
  // 1.8 s (bench/results.json).
  ssrTemplate: SSR_TEMPLATE,

  // Runs in the browser before hydration (see the file for why).
  clientModules: ['./src/clientModules/announcementBar.ts', './src/clientModules/idlePrefetch.ts', './src/clientModules/keepHashTarget.ts'],

  plugins: [
    accessPlugin(accessPages, audience, process.env.PORTAL_ACCESS_MANIFEST),
    codeBlocksPlugin(codeTheme.css),
    pageScriptsPlugin,
    postcssPlugin,
    // Search (Pagefind), one index per kind of reader: plugins/search.
    portalSearchPlugin({
      pages: accessPages,
      audience,
      variants: readerVariants,
    }),
    // Every page as Markdown and llms.txt per reader set, for coding agents: plugins/agent-docs.
    // PORTAL_AGENT_DOCS_REUSE is set by scripts/build.ts; PORTAL_BENCH_WITHOUT_AGENT_DOCS=1 only
    // for timing a build without these outputs (bench/README.md: the build is then not servable).
    ...(process.env.PORTAL_BENCH_WITHOUT_AGENT_DOCS === '1'
      ? []
      : [agentDocsPlugin({pages: accessPages, audience, variants: readerVariants, reuseFile: process.env.PORTAL_AGENT_DOCS_REUSE})]),
  ],

  themes: ['@docusaurus/theme-mermaid'],

  presets: [
    [
      'classic',
      {
        docs: {
          path: 'docs',
          routeBasePath: 'docs',
          sidebarPath: './sidebars.ts',
          lastVersion: 'current',
          editUrl: docsEditUrl,
          showLastUpdateTime: Boolean(docsEditUrl),
          versions: {
            current: {label: 'Next', path: ''},
          },
        },
        blog: false,
        theme: {
          customCss: './src/css/custom.css',
        },
      } satisfies Preset.Options,
    ],
  ],

  themeConfig: {
    metadata: [{name: 'description', content: `Internal developer documentation for the ${PRODUCT_NAME} backend.`}],
    colorMode: {
      defaultMode: 'light',
      disableSwitch: false,
      // Needed for the toggle's third state ("system").
      respectPrefersColorScheme: true,
    },
    announcementBar: {
      id: ANNOUNCEMENT_ID,
      content: `New here? Start with the <a href="${baseUrl}docs/internal-developers/getting-started/introduction">getting started introduction</a>.`,
      isCloseable: true,
    },
    docs: {
      sidebar: {
        hideable: true,
        autoCollapseCategories: false,
      },
    },
    navbar: {
      title: 'Developer Portal',
      hideOnScroll: true,
      logo: {
        alt: 'Developer Portal logo',
        src: 'img/logo.svg',
        width: 32,
        height: 32,
      },
      items: [
        {
          type: 'docSidebar',
          sidebarId: 'internalDevelopersSidebar',
          position: 'left',
          label: 'Documentation',
        },
        {type: 'localeDropdown', position: 'right'},
        // With one version Docusaurus shows a plain link, which never records
        // the reader's preferred version; the note below makes it the spec's
        // dropdown, whose version entry records it in local storage.
        {
          type: 'docsVersionDropdown',
          position: 'right',
          dropdownItemsAfter: [{type: 'html', value: '<span class="portal-version-note">No earlier versions published</span>'}],
        },
        {type: 'search', position: 'right'},
        // Sign in / user menu (src/auth/components/AuthNavbarItem.tsx).
        {type: 'custom-auth', position: 'right'},
      ],
    },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Docs',
          items: [{label: 'Get Started', to: '/docs/internal-developers/getting-started/introduction'}],
        },
      ],
      logo: {
        alt: 'Developer Portal logo',
        src: 'img/logo.svg',
        width: 40,
        height: 40,
      },
      copyright: `Copyright © 2025 ${PRODUCT_NAME}`,
    },
    tableOfContents: {
      minHeadingLevel: 2,
      maxHeadingLevel: 3,
    },
    prism: {
      // One theme for both colour modes, coloured by a stylesheet
      // (plugins/code-blocks/theme.ts): the server's HTML is right in both.
      theme: codeTheme.theme,
      darkTheme: codeTheme.theme,
      additionalLanguages: ['bash', 'hcl', 'makefile', 'json', 'yaml', 'http'],
    },
    mermaid: {
      theme: {light: 'neutral', dark: 'dark'},
    },
  } satisfies Preset.ThemeConfig,
} satisfies Config;

export default config;
