/**
 * Checks the production build (`npm run build` must have run first): every
 * route of the spec has its own static HTML page with the right <title>.
 */
import {existsSync, readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {gunzipSync} from 'node:zlib';
import {decodeHTML} from 'entities';
import config from '../../docusaurus.config';
import {filesUnder} from '../../plugins/support/files';
import {frontMatterTitle as readTitle} from '../../plugins/support/frontMatter';
import sidebars from '../../sidebars';
import type {AccessManifest} from '../../plugins/access/manifest';
import {COMPILE_HINT, entryScriptsOf} from '../../plugins/page-scripts';
import {CHUNKS_ATTRIBUTE} from '../../src/ssr/pageScripts';

const root = path.resolve(__dirname, '../..');
const buildDir = path.join(root, 'build', 'public');
const SITE = 'Developer Portal';

function htmlFor(route: string): string {
  const file = path.join(buildDir, route, 'index.html');
  if (!existsSync(file)) {
    throw new Error(`No static page for ${route}: ${path.relative(root, file)} is missing (did "npm run build" run?)`);
  }
  return readFileSync(file, 'utf8');
}

function titleOf(html: string): string {
  const match = /<title[^>]*>([^<]*)<\/title>/.exec(html);
  return decodeHTML(match?.[1] ?? '');
}

const frontMatterTitle = (sourceFile: string) => readTitle(path.join(root, sourceFile));

const docIds = sidebars.internalDevelopersSidebar.flatMap((category) => category.items);

describe('production build', () => {
  beforeAll(() => {
    if (!existsSync(buildDir)) {
      throw new Error('build/ does not exist: run "npm run build" before these tests');
    }
  });

  it('has a home page titled with the tagline', () => {
    expect(titleOf(htmlFor('/'))).toBe(`${config.tagline} | ${SITE}`);
  });

  it('has the markdown page', () => {
    expect(titleOf(htmlFor('/markdown-page'))).toBe(`${frontMatterTitle('src/pages/markdown-page.md')} | ${SITE}`);
  });

  it('serves the internal developers readme at /docs/', () => {
    expect(titleOf(htmlFor('/docs'))).toBe(`${frontMatterTitle('docs/internal-developers/README.md')} | ${SITE}`);
  });

  it.each(docIds)('has a static page for %s with "<doc title> | Developer Portal"', (id) => {
    const html = htmlFor(`/docs/${id}`);
    expect(titleOf(html)).toBe(`${frontMatterTitle(`docs/${id}.md`)} | ${SITE}`);
  });

  it('starts the app from several scripts: React DOM, the theme and other packages apart from main.js', () => {
    const scripts = entryScriptsOf(htmlFor('/'));
    const parts = scripts.map((url) => path.basename(url).replace(/\.[0-9a-f]+\.js$/, ''));
    expect(parts).toEqual(['vendors', 'docusaurus', 'react-dom', 'runtime~main', 'main']);
    const textOf = new Map(scripts.map((url, index) => [parts[index], readFileSync(path.join(buildDir, url), 'utf8')]));
    const holds = (part: string, text: string) => textOf.get(part)?.includes(text);
    // React DOM names its version (React, in vendors, the same one); the theme's skip link names its fallback target.
    const reactDomVersion = `"${(JSON.parse(readFileSync(require.resolve('react-dom/package.json'), 'utf8')) as {version: string}).version}"`;
    const skipLinkTarget = '__docusaurus_skipToContent_fallback';
    expect({reactDom: holds('react-dom', reactDomVersion), theme: holds('docusaurus', skipLinkTarget)}).toEqual({reactDom: true, theme: true});
    expect({reactDom: holds('main', reactDomVersion), theme: holds('main', skipLinkTarget)}).toEqual({reactDom: false, theme: false});
    // main.js starts the client entry once every chunk of its entry has run, so each of their scripts must be in the
    // list, before main.js. Which chunks those are comes from the bundler's entrypoint as Docusaurus's client manifest
    // records it (the file plugins/page-scripts reads, UPGRADING.md), not from the minified runtime. The manifest is the
    // last audience's; the split is the same in both.
    const manifest = JSON.parse(readFileSync(path.join(root, '.docusaurus', 'client-manifest.json'), 'utf8')) as {
      entrypoints: string[];
      origins: Record<string, string[]>;
      assets: Record<string, {js?: {file: string}[]}>;
    };
    const partOf = (file: string) => path.basename(file).replace(/\.[0-9a-f]+\.js$/, '');
    expect(manifest.entrypoints).toEqual(['main']);
    const needed = (manifest.origins.main ?? []).flatMap((id) => manifest.assets[id]?.js ?? []).map((asset) => partOf(asset.file));
    expect(needed).toContain('main');
    for (const audience of ['public', 'members']) {
      const listed = entryScriptsOf(readFileSync(path.join(root, 'build', audience, 'index.html'), 'utf8'));
      const listedParts = listed.map(partOf);
      expect([audience, listed.filter((url) => !existsSync(path.join(root, 'build', audience, url)))]).toEqual([audience, []]);
      const missingOrLate = needed.filter((part) => !listedParts.includes(part) || listedParts.indexOf(part) > listedParts.indexOf('main'));
      expect([audience, missingOrLate]).toEqual([audience, []]);
    }
  });

  // plugins/page-scripts lists each page's chunks from Docusaurus's
  // routesChunkNames.json (an internal file, UPGRADING.md) and the chunk graph.
  it.each(docIds)("%s lists its own chunks in its script loader, each a file of the build", (id) => {
    const match = new RegExp(`\\s${CHUNKS_ATTRIBUTE}=(?:'([^']*)'|"([^"]*)")`).exec(htmlFor(`/docs/${id}`));
    const chunks = JSON.parse(decodeHTML(match?.[1] ?? match?.[2] ?? '[]')) as string[];
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) {
      expect(existsSync(path.join(buildDir, chunk.slice(config.baseUrl.length)))).toBe(true);
    }
  });

  // A page's start is mostly compiling its scripts' functions; the hint moves that off the main thread
  // (plugins/page-scripts). It has to survive the minifier, which drops comments, and be the very first line.
  it.each(['public', 'members'])("opens every script of the %s build with V8's compile hint", (audience) => {
    const scriptsDir = path.join(root, 'build', audience, 'assets', 'js');
    const scripts = filesUnder(scriptsDir).filter((file) => file.relative.endsWith('.js'));
    // The entry's five parts and the pages' chunks.
    expect(scripts.length).toBeGreaterThan(20);
    const withoutHint = scripts.filter((file) => !readFileSync(file.full, 'utf8').startsWith(`${COMPILE_HINT}\n`)).map((file) => file.relative);
    expect(withoutHint).toEqual([]);
  });

  // Both servers cache everything under assets/ for a year (server/routes/files.ts,
  // deploy/nginx.conf), which is only right for names that change with the bytes.
  it.each(['public', 'members'])('names every file under %s/assets/ with a content hash', (audience) => {
    const unhashed = filesUnder(path.join(root, 'build', audience, 'assets'))
      // A precompressed sibling (x.js.gz, x.js.br) is named after its file.
      .map((file) => file.relative.replace(/\.(?:gz|br)$/, ''))
      .filter((name) => !/[.-][0-9a-f]{8,}\.[a-z0-9]+$/i.test(name));
    expect(unhashed).toEqual([]);
  });

  it('links one stylesheet, the one Docusaurus makes (the script parts take no CSS)', () => {
    const stylesheets = htmlFor('/docs/internal-developers/getting-started/introduction').match(/<link[^>]*rel="?stylesheet/g) ?? [];
    expect(stylesheets).toHaveLength(1);
  });

  it('has a not-found page', () => {
    const html = readFileSync(path.join(buildDir, '404.html'), 'utf8');
    expect(titleOf(html)).toMatch(/Page Not Found/);
  });

  it('emits no page outside the spec routes', () => {
    const expected = new Set(['/', '/markdown-page', '/docs', '/search', ...docIds.map((id) => `/docs/${id}`)]);
    const pages = filesUnder(buildDir)
      .filter(({relative}) => relative === 'index.html' || relative.endsWith('/index.html'))
      .map(({relative}) => `/${relative.replace(/\/?index\.html$/, '')}`);
    expect(pages.filter((route) => !expected.has(route))).toEqual([]);
  });

  it('gives the members build the same security headers, and every rendering of them the same list', () => {
    expect(readFileSync(path.join(root, 'build', 'members', '_headers'), 'utf8')).toBe(readFileSync(path.join(buildDir, '_headers'), 'utf8'));
    const headers = JSON.parse(readFileSync(path.join(buildDir, '_headers.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(headers)).toEqual(expect.arrayContaining(['Content-Security-Policy', 'X-Content-Type-Options']));
    const netlify = readFileSync(path.join(buildDir, '_headers'), 'utf8');
    const nginx = readFileSync(path.join(buildDir, '_nginx', 'security-headers.conf'), 'utf8');
    for (const [name, value] of Object.entries(headers)) {
      expect(netlify).toContain(`  ${name}: ${value}\n`);
      expect(nginx).toContain(`add_header ${name} "${value}" always;`);
    }
  });

  describe('restricted pages in the public build', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'build', 'access-manifest.json'), 'utf8')) as AccessManifest;
    const restricted = manifest.pages.filter((page) => page.rule.kind !== 'public');
    /** The URLs of the pages a build's search bundle holds (one fragment per page, gzip inside). */
    const searchIndex = (audience: string) =>
      readdirSync(path.join(root, 'build', audience, 'pagefind', 'fragment'))
        .map(
          (file) =>
            // Pagefind marks its decompressed files with a signature before the JSON.
            JSON.parse(
              gunzipSync(readFileSync(path.join(root, 'build', audience, 'pagefind', 'fragment', file)))
                .toString('utf8')
                .replace(/^pagefind_dcd/, ''),
            ) as {url: string},
        )
        // Pagefind keeps the folder's slash (/docs/x/); routes have none.
        .map((fragment) => `"${fragment.url.replace(/(.)\/$/, '$1')}"`)
        .join('\n');

    it('restricts at least three pages', () => {
      expect(restricted.length).toBeGreaterThanOrEqual(3);
    });

    it.each(restricted.map((page) => [page.route, page]))('%s: title only, noindex, and absent from the sitemap and the search index', (route, page) => {
      const html = readFileSync(path.join(buildDir, page.route.slice(manifest.baseUrl.length), 'index.html'), 'utf8');
      expect(titleOf(html)).toBe(`${page.title} | ${SITE}`);
      expect(html).toMatch(/<meta[^>]*name="?robots"?[^>]*content="noindex, nofollow"/);
      expect(readFileSync(path.join(buildDir, 'sitemap.xml'), 'utf8')).not.toContain(`${route}<`);
      expect(searchIndex('public')).not.toContain(`"${route}"`);
      // The members build has the page (so these checks are not vacuous).
      expect(readFileSync(path.join(root, 'build', 'members', 'sitemap.xml'), 'utf8')).toContain(`${route}<`);
    });

    it('keeps role-restricted pages out of the members search index too, and signed-in pages in it', () => {
      const members = searchIndex('members');
      for (const page of restricted) {
        expect(members.includes(`"${page.route}"`)).toBe(page.rule.kind === 'signed-in');
      }
    });
  });
});
