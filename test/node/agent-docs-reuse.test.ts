/**
 * The members build reuses the public build's page conversions
 * (plugins/agent-docs/reuse.ts): the plugin's hooks, run as the two
 * audience builds of one `npm run build` run them, on two small built sites.
 */
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {agentDocsPlugin} from '../../plugins/agent-docs';
import {readConversions} from '../../plugins/agent-docs/reuse';
import type {AccessPage, Audience} from '../../plugins/access/manifest';
import {markdownFileFor} from '../../src/auth/access/agentDocs';

const PAGES: AccessPage[] = [
  {route: '/docs/open', source: 'docs/open.md', title: 'Open', rule: {kind: 'public'}},
  {route: '/docs/inside', source: 'docs/inside.md', title: 'Inside', rule: {kind: 'signed-in'}},
];

const page = (article: string) =>
  `<html><body><nav>site</nav><article><div class="theme-doc-markdown markdown">${article}</div></article></body></html>`;

/** What each build rendered: the public build withholds the signed-in page. */
const BUILT: Record<Audience, Record<string, string>> = {
  public: {
    '/docs/open': page('<p>Everyone reads <strong>this</strong>.</p>'),
    '/docs/inside': page('<p>Sign in to read this page.</p>'),
  },
  members: {
    '/docs/open': page('<p>Everyone reads <strong>this</strong>.</p>'),
    '/docs/inside': page('<p>The members-only word is quokka.</p>'),
  },
};

let siteDir: string;
beforeEach(() => {
  siteDir = mkdtempSync(path.join(tmpdir(), 'agent-docs-reuse-'));
  mkdirSync(path.join(siteDir, 'docs'));
  for (const {source} of PAGES) {
    writeFileSync(path.join(siteDir, source), 'text\n');
  }
});
afterEach(() => rmSync(siteDir, {recursive: true, force: true}));

/** One audience build's agent docs, as Docusaurus calls the plugin; returns its log line. */
async function build(audience: Audience, reuseFile: string | undefined): Promise<string> {
  const outDir = path.join(siteDir, 'build', audience);
  for (const [route, html] of Object.entries(BUILT[audience])) {
    mkdirSync(path.join(outDir, route), {recursive: true});
    writeFileSync(path.join(outDir, route, 'index.html'), html);
  }
  const context = {siteDir, siteConfig: {baseUrl: '/', title: 'Portal', tagline: 'Docs'}} as unknown as LoadContext;
  const plugin: Plugin = agentDocsPlugin({pages: PAGES, audience, variants: [], reuseFile})(context);
  const docs = PAGES.map(({route, source, title}) => ({
    id: route,
    permalink: route,
    source: `@site/${source}`,
    title,
    description: '',
    frontMatter: {},
  }));
  const allContent = {'docusaurus-plugin-content-docs': {default: {loadedVersions: [{docs, sidebars: {}}]}}};
  await plugin.allContentLoaded?.({allContent} as unknown as Parameters<NonNullable<Plugin['allContentLoaded']>>[0]);
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await plugin.postBuild?.({outDir} as unknown as Parameters<NonNullable<Plugin['postBuild']>>[0]);
    return log.mock.calls.map((call) => String(call[0])).join('\n');
  } finally {
    log.mockRestore();
  }
}

const markdownOf = (audience: Audience, route: string) =>
  readFileSync(path.join(siteDir, 'build', audience, markdownFileFor(route, '/')), 'utf8');

it('reuses the public Markdown of a page rendered alike, and converts the page rendered differently for members', async () => {
  const reuseFile = path.join(siteDir, 'public-conversions.json');
  await build('public', reuseFile);
  const membersLog = await build('members', reuseFile);

  expect(membersLog).toContain('(1 reused from the public build)');
  expect(markdownOf('members', '/docs/open')).toBe(markdownOf('public', '/docs/open'));
  expect(markdownOf('members', '/docs/inside')).toContain('quokka');
  expect(markdownOf('public', '/docs/inside')).not.toContain('quokka');
  expect(markdownOf('public', '/docs/inside')).toContain('Sign in to read this page.');
  // What the public build leaves for the members build is only what it wrote itself.
  expect([...readConversions(reuseFile).values()].join('\n')).not.toContain('quokka');
});

it('gives the members build the same Markdown with and without the public build to reuse', async () => {
  const reuseFile = path.join(siteDir, 'public-conversions.json');
  await build('public', reuseFile);
  await build('members', reuseFile);
  const reused = PAGES.map(({route}) => markdownOf('members', route));
  rmSync(path.join(siteDir, 'build', 'members'), {recursive: true});
  const converted = await build('members', undefined);
  expect(converted).toContain('(0 reused from the public build)');
  expect(PAGES.map(({route}) => markdownOf('members', route))).toEqual(reused);
});
