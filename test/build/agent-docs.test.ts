/**
 * @jest-environment jsdom
 *
 * The docs for coding agents in the build (`npm run build` first;
 * plugins/agent-docs): each page's Markdown against the page's HTML, both
 * parsed (the article with the browser's DOM parser, the Markdown with
 * markdown-it, a CommonMark + GFM-tables parser), and the llms files of each
 * reader against the access manifest.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import type {AccessManifest} from '../../plugins/access/manifest';
import {LLMS_FULL_FILE, LLMS_INDEX_FILE, NOT_IN_MARKDOWN_ATTRIBUTE, markdownFileFor, routeForMarkdownPath} from '../../src/auth/access/agentDocs';
import {contentTypeOf, FILE_INDEX_FILE, type FileIndex} from '../../server/buildFiles';

const BUILD = path.resolve(__dirname, '../../build');
const manifest = JSON.parse(readFileSync(path.join(BUILD, 'access-manifest.json'), 'utf8')) as AccessManifest;
const {baseUrl} = manifest;
const route = (docPath: string) => `${baseUrl}docs/internal-developers/${docPath}`;

/** Three pages with what the converter must keep: the ports table and tabs, tables and code, a component-made table (the env vars). */
const PAGES = [route('getting-started/introduction'), route('services/api-gateway'), route('services/file-service')];

const markdownIt = new MarkdownIt({html: true});
const squeeze = (text: string) => text.replace(/\s+/g, '');

function article(audience: 'public' | 'members', pageRoute: string): Element {
  const relative = pageRoute.slice(baseUrl.length);
  const html = readFileSync(path.join(BUILD, audience, relative, 'index.html'), 'utf8');
  const found = new DOMParser().parseFromString(html, 'text/html').querySelector('article .theme-doc-markdown');
  if (!found) {
    throw new Error(`${pageRoute}: no article`);
  }
  found.querySelectorAll('.hash-link, button').forEach((element) => element.remove());
  return found;
}

function markdownOf(audience: 'public' | 'members', pageRoute: string): string {
  return readFileSync(path.join(BUILD, audience, markdownFileFor(pageRoute, baseUrl)), 'utf8');
}

/** The plain text of an inline token (text and code spans; markup dropped). */
function inlineText(token: {children: {type: string; content: string}[] | null}): string {
  return (token.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

function parsedMarkdown(markdown: string) {
  const tokens = markdownIt.parse(markdown, {});
  const headings: string[] = [];
  const rows: string[] = [];
  const fences: {language: string; text: string}[] = [];
  let row: string[] | null = null;
  tokens.forEach((token, index) => {
    const next = tokens[index + 1];
    if (token.type === 'heading_open' && next) {
      headings.push(squeeze(inlineText(next)));
    } else if (token.type === 'tr_open') {
      row = [];
    } else if ((token.type === 'th_open' || token.type === 'td_open') && next && row) {
      row.push(squeeze(inlineText(next)));
    } else if (token.type === 'tr_close' && row) {
      rows.push(row.join('|'));
      row = null;
    } else if (token.type === 'fence') {
      fences.push({language: token.info.split(' ')[0] ?? '', text: token.content.replace(/\n$/, '')});
    }
  });
  return {tokens, headings, rows, fences};
}

describe.each(PAGES)('the Markdown of %s (members build)', (pageRoute) => {
  const html = article('members', pageRoute);
  const markdown = markdownOf('members', pageRoute);
  const parsed = parsedMarkdown(markdown);

  it('holds every heading the page shows', () => {
    const headings = Array.from(html.querySelectorAll('h1, h2, h3, h4, h5, h6'), (heading) => squeeze(heading.textContent ?? ''));
    expect(headings.length).toBeGreaterThan(3);
    for (const heading of headings) {
      expect(parsed.headings).toContain(heading);
    }
  });

  it('holds every table row the page shows', () => {
    const rows = Array.from(html.querySelectorAll('tr'), (tr) =>
      Array.from(tr.querySelectorAll('th, td'), (cell) => squeeze(cell.textContent ?? '')).join('|'),
    );
    expect(rows.length).toBeGreaterThan(3);
    for (const tableRow of rows) {
      expect(parsed.rows).toContain(tableRow);
    }
  });

  it('keeps every code block, in order, with its language and its exact text', () => {
    const blocks = Array.from(html.querySelectorAll('.theme-code-block'), (block) => ({
      language: /(?:^|\s)language-(\S+)/.exec(block.className)?.[1] ?? '',
      text: Array.from(block.querySelectorAll('.token-line'), (line) => line.textContent ?? '').join('\n'),
    })).map((block) => ({...block, language: block.language === 'text' ? '' : block.language}));
    expect(blocks.length).toBeGreaterThan(0);
    // Mermaid diagrams are drawn in the browser: not in the HTML, their source in the Markdown.
    expect(parsed.fences.filter((fence) => fence.language !== 'mermaid')).toEqual(blocks);
    const source = readFileSync(path.resolve(__dirname, '../..', manifest.pages.find((page) => page.route === pageRoute)?.source ?? ''), 'utf8');
    expect(parsed.fences.filter((fence) => fence.language === 'mermaid').length).toBe(source.match(/^```mermaid$/gm)?.length ?? 0);
  });

  it('has no import line, no JSX and no HTML besides line breaks in table cells', () => {
    const prose = parsed.tokens.filter((token) => token.type !== 'fence' && token.type !== 'code_block');
    expect(prose.filter((token) => token.type === 'html_block')).toEqual([]);
    const inlineHtml = prose.flatMap((token) => (token.children ?? []).filter((child) => child.type === 'html_inline'));
    expect(inlineHtml.map((child) => child.content).filter((tag) => tag !== '<br>')).toEqual([]);
    expect(prose.filter((token) => token.type === 'inline' && /^import\s/.test(token.content))).toEqual([]);
    expect(markdown.startsWith(`# ${html.querySelector('h1')?.textContent ?? ''}\n`)).toBe(true);
  });

  it('leaves out the page chrome: the "Copy page" controls the HTML shows are not in its Markdown', () => {
    const controls = new DOMParser()
      .parseFromString(readFileSync(path.join(BUILD, 'members', pageRoute.slice(baseUrl.length), 'index.html'), 'utf8'), 'text/html')
      .querySelector(`[${NOT_IN_MARKDOWN_ATTRIBUTE}]`);
    expect(controls?.textContent).toContain('View as Markdown');
    expect(markdown).not.toContain('View as Markdown');
    expect(markdown).not.toContain(markdownFileFor(pageRoute, baseUrl));
  });
});

it('writes every tab of the introduction, each after its label', () => {
  const markdown = markdownOf('members', route('getting-started/introduction'));
  const labels = Array.from(article('members', route('getting-started/introduction')).querySelectorAll('[role="tab"]'), (tab) =>
    (tab.textContent ?? '').trim(),
  );
  expect(labels).toEqual(['macOS', 'Linux', 'Windows (WSL 2)']);
  for (const label of labels) {
    expect(markdown).toContain(`\n**${label}**\n`);
  }
});

describe('Markdown of restricted pages', () => {
  const restricted = manifest.pages.filter((page) => page.rule.kind !== 'public');

  it.each(restricted.map((page) => page.route))(
    '%s: the public build has the withheld text, the members build the page, listed with the page in the manifest',
    (pageRoute) => {
      const page = restricted.find((candidate) => candidate.route === pageRoute)!;
      const file = markdownFileFor(pageRoute, baseUrl);
      const withheld = markdownOf('public', pageRoute);
      expect(withheld).toMatch(/Sign in to read this page|You need/);
      expect(withheld.split('\n').length).toBeLessThan(12);
      expect(markdownOf('members', pageRoute).length).toBeGreaterThan(withheld.length * 10);
      expect(page.files).toContain(file);
      expect(manifest.files[file]).toEqual([page.rule]);
    },
  );
});

describe('llms.txt and llms-full.txt of each reader', () => {
  const routesOf = (kinds: string[]) => manifest.pages.filter((page) => kinds.includes(page.rule.kind)).map((page) => page.route);
  const adminRoute = route('services/admin-service');
  const adminVariant = (manifest.searchIndexes ?? []).find((variant) => variant.routes.includes(adminRoute));
  const listed = (dir: string) => {
    const index = readFileSync(path.join(BUILD, dir, LLMS_INDEX_FILE), 'utf8');
    return [...index.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
  };
  const readers = [
    {name: 'public', build: 'public', dir: 'public', expected: routesOf(['public'])},
    {name: 'members', build: 'members', dir: 'members', expected: routesOf(['public', 'signed-in'])},
    {name: 'admin', build: 'members', dir: `members/${adminVariant?.dir}`, expected: [...routesOf(['public', 'signed-in']), adminRoute]},
  ];

  it('the public llms.txt lists no restricted page, the members one the signed-in pages but no role page, the admin one the admin page', () => {
    expect(adminVariant).toBeDefined();
    const routes = Object.fromEntries(readers.map((reader) => [reader.name, listed(reader.dir).map((url) => routeForMarkdownPath(url))]));
    expect(routes.public).not.toContain(adminRoute);
    expect(routes.public).not.toContain(route('deployment/deployment-guide'));
    expect(routes.members).toContain(route('deployment/deployment-guide'));
    expect(routes.members).not.toContain(adminRoute);
    expect(routes.admin).toContain(adminRoute);
    for (const reader of readers) {
      expect([...(routes[reader.name] ?? [])].sort()).toEqual([...reader.expected].sort());
    }
  });

  it.each(readers)('$name: each link of llms.txt is a Markdown file of the build, and llms-full.txt holds each of them', ({build, dir}) => {
    const full = readFileSync(path.join(BUILD, dir, LLMS_FULL_FILE), 'utf8');
    for (const url of listed(dir)) {
      const file = path.join(BUILD, build, url.slice(baseUrl.length));
      expect(existsSync(file)).toBe(true);
      expect(full).toContain(readFileSync(file, 'utf8'));
    }
  });

  it('are indexed with gzip and brotli siblings, and the Markdown is served as text/markdown', () => {
    const index = JSON.parse(readFileSync(path.join(BUILD, FILE_INDEX_FILE), 'utf8')) as FileIndex;
    const files = [LLMS_INDEX_FILE, LLMS_FULL_FILE, markdownFileFor(route('services/api-gateway'), baseUrl)];
    for (const file of files) {
      expect(Object.keys(index.audiences.public?.[file]?.encodings ?? {}).sort()).toEqual(['br', 'gzip']);
    }
    expect(contentTypeOf(files[2]!)).toBe('text/markdown; charset=utf-8');
  });
});
