import config from '../../docusaurus.config';
import sidebars from '../../sidebars';
import {PRODUCT_NAME} from '../../src/data/platform';

type Item = {type?: string; label?: string; position?: string; sidebarId?: string; to?: string; items?: Item[]};

// The spec's page list (section 2, "Documentation pages"), by category.
const SPEC_DOCS: Record<string, string[]> = {
  architecture: ['build-architecture', 'database-prisma', 'docker-setup'],
  deployment: ['deployment-guide', 'terraform-overview'],
  development: ['adding-api-integrations', 'adding-new-service', 'development-guidelines', 'make-commands-reference', 'makefile-commands'],
  'getting-started': ['introduction'],
  services: [
    'admin-service',
    'api-gateway',
    'auth-service',
    'cleverscreen-service',
    'file-service',
    'kira-service',
    'template-service',
    'tenant-service',
    'vera-service',
  ],
  'shared-libraries': [
    'constants',
    'database',
    'decorators',
    'filters',
    'guards',
    'interfaces',
    'middleware',
    'migrations',
    'pipes',
    'types',
    'utils',
    'validators',
  ],
};

// Guides added for issue 31 (tasks a newcomer could not do from the spec's pages alone), by category.
const GUIDE_DOCS: Record<string, string[]> = {
  deployment: ['releases-and-infrastructure', 'stateful-service-in-aws'],
  development: ['feature-flags', 'observability-and-api-contract', 'operating-queues'],
};

function docIds(docs: Record<string, string[]>): string[] {
  return Object.entries(docs).flatMap(([dir, pages]) => pages.map((page) => `internal-developers/${dir}/${page}`));
}

const themeConfig = config.themeConfig;

/** The config as Docusaurus loads it with these environment variables (unset where undefined). */
async function configWith(env: Record<string, string | undefined>): Promise<typeof config> {
  const saved = {...process.env};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    let loaded: typeof config | undefined;
    await jest.isolateModulesAsync(async () => {
      loaded = (await import('../../docusaurus.config')).default;
    });
    if (!loaded) throw new Error('docusaurus.config did not load');
    return loaded;
  } finally {
    process.env = saved;
  }
}

describe('sidebar', () => {
  const sidebar = sidebars.internalDevelopersSidebar;

  it('is the only sidebar', () => {
    expect(Object.keys(sidebars)).toEqual(['internalDevelopersSidebar']);
  });

  it('holds every one of the 32 spec docs and the 5 guides, each once, and nothing else', () => {
    const ids = sidebar.flatMap((category) => category.items);
    const spec = docIds(SPEC_DOCS);
    const guides = docIds(GUIDE_DOCS);
    expect(spec).toHaveLength(32);
    expect(guides).toHaveLength(5);
    expect(ids).toEqual(expect.arrayContaining(spec));
    expect(ids).toHaveLength(37);
    expect(new Set(ids).size).toBe(37);
    expect([...ids].sort()).toEqual([...spec, ...guides].sort());
  });

  it('lists the guides of a category after its spec docs', () => {
    const spec = new Set(docIds(SPEC_DOCS));
    for (const category of sidebar) {
      const firstGuide = category.items.findIndex((id) => !spec.has(id));
      const specCount = category.items.filter((id) => spec.has(id)).length;
      expect(firstGuide === -1 ? specCount : firstGuide).toBe(specCount);
    }
  });

  it('groups docs by category folder, getting started first and deployment last', () => {
    for (const category of sidebar) {
      const dirs = new Set(category.items.map((id) => id.split('/')[1]));
      expect(dirs.size).toBe(1);
    }
    const order = sidebar.map((category) => category.items[0]?.split('/')[1]);
    expect(order[0]).toBe('getting-started');
    expect(order[order.length - 1]).toBe('deployment');
    expect(new Set(order)).toEqual(new Set(Object.keys(SPEC_DOCS)));
  });
});

describe('site config', () => {
  it('has the spec title, tagline, base URL, delimiter and locale', () => {
    expect(config.title).toBe('Developer Portal');
    expect(config.tagline).toBe(`Build on ${PRODUCT_NAME}`);
    expect(config.baseUrl).toBe('/');
    expect(config.titleDelimiter).toBe('|');
    expect(config.i18n.locales).toEqual(['en']);
    expect(config.i18n.localeConfigs?.en?.direction).toBe('ltr');
  });

  it('stores the colour mode under the plain `theme` key (no namespace) in localStorage', () => {
    expect(config.storage).toEqual({type: 'localStorage', namespace: false});
  });

  it('fails the build on broken links and markdown links; the members build warns about broken anchors, and fails on them in CI', async () => {
    expect(config.onBrokenLinks).toBe('throw');
    expect(config.markdown.hooks.onBrokenMarkdownLinks).toBe('throw');
    expect((await configWith({PORTAL_AUDIENCE: 'members', CI: undefined})).onBrokenAnchors).toBe('warn');
    // The one anchor check (lint-docs checks content only): CI fails on a link to a missing section.
    expect((await configWith({PORTAL_AUDIENCE: 'members', CI: 'true'})).onBrokenAnchors).toBe('throw');
    // The public build's withheld pages are stubs without the sections public pages link to.
    expect((await configWith({PORTAL_AUDIENCE: 'public', CI: undefined})).onBrokenAnchors).toBe('ignore');
    expect((await configWith({PORTAL_AUDIENCE: 'public', CI: 'true'})).onBrokenAnchors).toBe('ignore');
  });

  it('offers light, dark and system colour modes, light by default', () => {
    expect(themeConfig.colorMode).toMatchObject({defaultMode: 'light', disableSwitch: false, respectPrefersColorScheme: true});
  });

  it('has a closeable announcement bar with an id', () => {
    expect(themeConfig.announcementBar.isCloseable).toBe(true);
    expect(themeConfig.announcementBar.id).toMatch(/\S/);
  });

  it('has a navbar that hides on scroll with exactly one left item, Documentation, opening the sidebar', () => {
    const navbar = themeConfig.navbar;
    expect(navbar.hideOnScroll).toBe(true);
    const items = navbar.items as Item[];
    const left = items.filter((item) => item.position === 'left');
    expect(left).toEqual([{type: 'docSidebar', sidebarId: 'internalDevelopersSidebar', position: 'left', label: 'Documentation'}]);
    const rightTypes = items.filter((item) => item.position === 'right').map((item) => item.type);
    expect(rightTypes).toEqual(expect.arrayContaining(['localeDropdown', 'docsVersionDropdown', 'search']));
  });

  it('has a footer Docs group whose Get Started link reaches the introduction, a logo and a 2025 copyright', () => {
    const footer = themeConfig.footer;
    const docs = (footer.links as Item[]).find((group) => (group as {title?: string}).title === 'Docs');
    expect(docs?.items).toEqual([{label: 'Get Started', to: '/docs/internal-developers/getting-started/introduction'}]);
    expect(footer.logo?.src).toBeTruthy();
    expect(footer.copyright).toBe(`Copyright © 2025 ${PRODUCT_NAME}`);
  });

  it('shows heading levels 2 to 3 in the table of contents', () => {
    expect(themeConfig.tableOfContents).toEqual({minHeadingLevel: 2, maxHeadingLevel: 3});
  });

  it('has a single docs version, current, labelled Next, at /docs', () => {
    const [, presetOptions] = config.presets[0] ?? [];
    const docs = typeof presetOptions === 'object' ? presetOptions.docs : undefined;
    expect(docs?.routeBasePath).toBe('docs');
    expect(docs?.versions).toEqual({current: {label: 'Next', path: ''}});
  });
});

describe('git history', () => {
  it('is not read when no page shows it (no DOCS_EDIT_URL)', async () => {
    const site = await configWith({DOCS_EDIT_URL: undefined});
    expect(site.future?.experimental_vcs).toBe(false);
  });

  it('is read for the last-updated dates when DOCS_EDIT_URL is set', async () => {
    const site = await configWith({DOCS_EDIT_URL: 'https://github.com/acme/developer-portal/edit/main/'});
    expect(site.future?.experimental_vcs).toBe(true);
    const docs = (site.presets?.[0] as [string, {docs: {showLastUpdateTime?: boolean}}])[1].docs;
    expect(docs.showLastUpdateTime).toBe(true);
  });
});
