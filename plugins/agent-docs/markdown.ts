/**
 * A built doc page's article → clean Markdown for coding agents (issue 30).
 *
 * The source is the rendered HTML, not the `.md`/`.mdx` file: MDX components
 * are then what they render (the ports table component is a table), and a
 * page withheld from the public build is exactly its placeholder, so its
 * Markdown can never say more than its HTML. Turndown does the conversion,
 * with GFM tables and rules for what this site's theme renders:
 *
 * - code blocks (src/components/CodeBlock: `div.theme-code-block.language-x`,
 *   one `.token-line` per line) → fenced blocks with their language, title
 *   and exact text;
 * - tabs (`.tabs-container`) → every panel, hidden ones included, each after
 *   its tab's label in bold;
 * - admonitions (`.theme-admonition`) → a blockquote starting with the label;
 * - `<details>` → the summary in bold, then the body;
 * - definition lists (`<dl>`, such as a service's facts) → one list item per
 *   term, `- **term**: definition`;
 * - links to the site's other doc pages → their Markdown (`/docs/x.md#a`),
 *   so an agent that follows links stays in Markdown; other links as they are;
 * - Mermaid diagrams (drawn in the browser, so absent from the HTML) → their
 *   source as a `mermaid` fence (withDiagrams);
 * - heading hash links, buttons (copy, wrap, sign-in), icons, breadcrumbs,
 *   the mobile table of contents and screen-reader-only text → dropped.
 *
 * One Turndown service is made per process and reused: its rules hold no
 * state between pages.
 */
import TurndownService from 'turndown';
import {tables} from '@joplin/turndown-plugin-gfm';
import {markdownPathFor, NOT_IN_MARKDOWN_ATTRIBUTE} from '../../src/auth/access/agentDocs';
import {signedInWithheldMessage, type AccessRule} from '../../src/auth/access/rules';

/** Where the page's own text is: what the search index reads too (plugins/search). */
const ARTICLE_START = '<article';
const ARTICLE_END = '</article>';
const MARKDOWN_CLASS = 'theme-doc-markdown';

function classesOf(node: TurndownService.Node): string[] {
  const element = node as HTMLElement;
  return typeof element.getAttribute === 'function' ? (element.getAttribute('class') ?? '').split(/\s+/) : [];
}

function hasClass(node: TurndownService.Node, name: string): boolean {
  return classesOf(node).includes(name);
}

/** CSS-module classes carry a hash suffix (`admonitionHeading_Gvgb`): match the stable part. */
function hasClassPrefix(node: TurndownService.Node, prefix: string): boolean {
  return classesOf(node).some((name) => name === prefix || name.startsWith(`${prefix}_`));
}

/** A fence longer than any run of backticks in the code, so the code never ends it. */
function fenceFor(code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The exact text of a rendered code block: one line per `.token-line` (the highlighter's), else the `<code>`'s text. */
function codeText(container: HTMLElement): string {
  const lines = container.querySelectorAll('.token-line');
  if (lines.length > 0) {
    return Array.from(lines, (line) => line.textContent ?? '').join('\n');
  }
  return (container.querySelector('code')?.textContent ?? '').replace(/\n$/, '');
}

function codeBlock(container: HTMLElement): string {
  const language = classesOf(container)
    .find((name) => name.startsWith('language-'))
    ?.slice('language-'.length);
  const titleElement = Array.from(container.querySelectorAll('div')).find((element) => hasClassPrefix(element, 'codeBlockTitle'));
  const title = titleElement?.textContent?.trim();
  const code = codeText(container);
  const fence = fenceFor(code);
  const info = [language && language !== 'text' ? language : '', title ? `title=${JSON.stringify(title)}` : ''].filter(Boolean).join(' ');
  return `\n\n${fence}${info}\n${code}\n${fence}\n\n`;
}

function blockquote(content: string): string {
  return `\n\n${content
    .trim()
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n')}\n\n`;
}

/** The label of the tab a panel belongs to: tabs and panels are in the same order. */
function tabLabel(panel: HTMLElement): string {
  const container = panel.closest('.tabs-container');
  const panels = container ? Array.from(container.querySelectorAll('[role="tabpanel"]')) : [];
  const tabs = container ? Array.from(container.querySelectorAll('[role="tab"]')) : [];
  return tabs[panels.indexOf(panel)]?.textContent?.trim() ?? '';
}

function isDropped(node: TurndownService.Node): boolean {
  const element = node as HTMLElement;
  const name = element.nodeName;
  return (
    name === 'BUTTON' ||
    name === 'svg' ||
    name === 'SVG' ||
    name === 'SCRIPT' ||
    name === 'STYLE' ||
    name === 'NOSCRIPT' ||
    hasClass(node, 'hash-link') ||
    hasClass(node, 'theme-doc-breadcrumbs') ||
    hasClass(node, 'theme-doc-toc-mobile') ||
    hasClass(node, 'theme-doc-footer') ||
    hasClass(node, 'sr-only') ||
    element.hasAttribute?.(NOT_IN_MARKDOWN_ATTRIBUTE) ||
    hasClassPrefix(node, 'visuallyHidden') ||
    // The tab labels: each panel says its own (below).
    element.getAttribute?.('role') === 'tablist'
  );
}

/** The doc routes of the page being converted (articleMarkdown sets them for one synchronous conversion). */
interface Conversion {
  docRoutes: ReadonlySet<string>;
}

/**
 * The Markdown URL of a link to one of the site's doc pages (its anchor
 * kept), or null for any other link: another site, an asset, a page that
 * is not a doc, an anchor in the same page.
 */
export function markdownLinkTarget(href: string, docRoutes: ReadonlySet<string>): string | null {
  if (!href.startsWith('/') || href.startsWith('//')) {
    return null;
  }
  const hashAt = href.indexOf('#');
  const beforeHash = hashAt < 0 ? href : href.slice(0, hashAt);
  const anchor = hashAt < 0 ? '' : href.slice(hashAt);
  // Docusaurus links pages by their route; a query says nothing to a Markdown file.
  const route = beforeHash.split('?')[0] ?? '';
  if (docRoutes.has(route)) {
    return `${markdownPathFor(route)}${anchor}`;
  }
  // The same page spelled with or without its trailing slash.
  const otherSpelling = route.endsWith('/') ? route.slice(0, -1) : `${route}/`;
  return docRoutes.has(otherSpelling) ? `${markdownPathFor(otherSpelling)}${anchor}` : null;
}

/** Turndown's own link form, `[text](href "title")`. */
function inlineLink(content: string, href: string, title: string | null): string {
  const escapedTitle = title ? ` "${title.replace(/\n+/g, ' ').replace(/"/g, '\\"')}"` : '';
  return `[${content}](${href.replace(/([()])/g, '\\$1')}${escapedTitle})`;
}

function elementSibling(node: TurndownService.Node, direction: 'previous' | 'next'): string | undefined {
  const element = node as HTMLElement;
  return (direction === 'previous' ? element.previousElementSibling : element.nextElementSibling)?.nodeName;
}

function createService(conversion: Conversion): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    hr: '---',
  });
  service.use(tables);
  service.addRule('codeBlock', {
    filter: (node) => node.nodeName === 'DIV' && hasClass(node, 'theme-code-block'),
    replacement: (_content, node) => codeBlock(node as HTMLElement),
  });
  // A bare <pre> (no highlighter): its text as is.
  service.addRule('preformatted', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const code = (element.textContent ?? '').replace(/\n$/, '');
      const language = classesOf(element.querySelector('code') ?? element)
        .find((name) => name.startsWith('language-'))
        ?.slice('language-'.length);
      const fence = fenceFor(code);
      return `\n\n${fence}${language ?? ''}\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule('tabPanel', {
    filter: (node) => (node as HTMLElement).getAttribute?.('role') === 'tabpanel',
    replacement: (content, node) => `\n\n**${tabLabel(node as HTMLElement)}**\n\n${content.trim()}\n\n`,
  });
  service.addRule('admonitionHeading', {
    filter: (node) => hasClassPrefix(node, 'admonitionHeading'),
    replacement: (content) => {
      const label = content.trim();
      return `**${label.charAt(0).toUpperCase()}${label.slice(1)}**\n\n`;
    },
  });
  service.addRule('admonition', {
    filter: (node) => hasClass(node, 'theme-admonition'),
    replacement: (content) => blockquote(content),
  });
  service.addRule('detailsSummary', {
    filter: 'summary',
    replacement: (content) => `\n\n**${content.trim()}**\n\n`,
  });
  service.addRule('details', {
    filter: 'details',
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  // A definition list as a list: `- **term**: definition` (terms that share a
  // definition joined by " / ", further definitions of a term on their own lines).
  service.addRule('definitionList', {
    filter: 'dl',
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  service.addRule('definitionTerm', {
    filter: 'dt',
    replacement: (content, node) =>
      `${elementSibling(node, 'previous') === 'DT' ? ' / ' : '\n- '}**${content.trim()}**${elementSibling(node, 'next') === 'DD' ? ':' : ''}`,
  });
  service.addRule('definitionDescription', {
    filter: 'dd',
    replacement: (content, node) => {
      const text = content.trim().replace(/\n+/g, (breaks) => `${breaks}  `);
      return elementSibling(node, 'previous') === 'DD' ? `\n  ${text}` : ` ${text}`;
    },
  });
  service.addRule('docPageLink', {
    filter: (node) => {
      const href = (node as HTMLElement).getAttribute?.('href');
      return node.nodeName === 'A' && typeof href === 'string' && markdownLinkTarget(href, conversion.docRoutes) !== null;
    },
    replacement: (content, node) => {
      const element = node as HTMLElement;
      const target = markdownLinkTarget(element.getAttribute('href') ?? '', conversion.docRoutes) as string;
      return inlineLink(content, target, element.getAttribute('title'));
    },
  });
  // The page's title: the file starts with its own `# title` (pageMarkdown).
  service.addRule('articleHeader', {
    filter: (node) => node.nodeName === 'HEADER' && node.parentNode !== null && hasClass(node.parentNode as HTMLElement, MARKDOWN_CLASS),
    replacement: () => '',
  });
  // Added last, so it comes before every other rule (Turndown tries the latest first): a hash link is a link too.
  service.addRule('dropped', {filter: isDropped, replacement: () => ''});
  return service;
}

const conversion: Conversion = {docRoutes: new Set()};
let shared: TurndownService | null = null;

/**
 * Markup that says nothing in Markdown, taken out before parsing: every
 * token of a code block is a `<span class="token …">` holding text only
 * (prism-react-renderer renders each line's tokens flat), the inline colours
 * are per line, each line ends in a `<br>`, icons are SVG. Parsing and
 * walking them was most of the conversion's time: the token spans are 39 of
 * the introduction's 90 KB of article, and without the line breaks and icons
 * too, plain Turndown took 37 ms a page of the handbook instead of 79
 * (bench/README.md). The code's text is unchanged: only the tags go, not what is
 * between them; the fidelity test (test/build/agent-docs.test.ts) compares
 * every code block's text with the page's.
 */
function withoutHighlighting(articleHtml: string): string {
  return (
    articleHtml
      .replace(/<span class="token [^"<>]*">([^<]*)<\/span>/g, '$1')
      .replace(/<div class=token-line style=[^>]*>/g, '<div class=token-line>')
      // Each code line ends in a <br>; a break at the end of a block says nothing.
      .replace(/<br\/?><\/div>/g, '</div>')
      // Icons (admonitions, breadcrumbs): dropped anyway, and many nodes each.
      .replace(/<svg[\s\S]*?<\/svg>/g, '')
  );
}

/** A built page's `<article>`, all of the page that its Markdown is made from. */
function articleOf(pageHtml: string): string {
  const start = pageHtml.indexOf(ARTICLE_START);
  const end = pageHtml.indexOf(ARTICLE_END, start);
  if (start < 0 || end < 0) {
    throw new Error('agent-docs: the page has no <article>');
  }
  return pageHtml.slice(start, end + ARTICLE_END.length);
}

/**
 * A built page file's `<article>`, from its bytes: only the article is
 * decoded. The rest of the page (navigation, sidebar, scripts; about 50 KB of
 * a generated page's 56) is never read as text; decoding whole pages took
 * about 0.9 s per 1,000 (bench/README.md).
 */
export function articleOfBytes(pageBytes: Buffer): string {
  const start = pageBytes.indexOf(ARTICLE_START);
  const end = pageBytes.indexOf(ARTICLE_END, start);
  if (start < 0 || end < 0) {
    throw new Error('agent-docs: the page has no <article>');
  }
  return pageBytes.toString('utf8', start, end + ARTICLE_END.length);
}

/**
 * The Markdown of the doc's text in a built page: the `.theme-doc-markdown`
 * element of its `<article>`. Only the article is parsed (the page's
 * navigation, sidebar and scripts are most of its bytes).
 */
export function articleMarkdown(pageHtml: string, diagrams: string[] = [], docRoutes: ReadonlySet<string> = new Set()): string {
  shared ??= createService(conversion);
  const {html, placed} = withDiagrams(withoutHighlighting(articleOf(pageHtml)), diagrams);
  // Turndown converts synchronously: the routes hold for exactly this page.
  conversion.docRoutes = docRoutes;
  let converted: string;
  try {
    converted = shared.turndown(html);
  } finally {
    conversion.docRoutes = new Set();
  }
  const markdown = converted.replace(/\n{3,}/g, '\n\n').trim();
  return placed ? markdown : [markdown, '## Diagrams', ...diagrams.map((diagram) => fenced('mermaid', diagram))].join('\n\n');
}

/** Where a component that renders nothing on the server stood: React's separator between the text nodes around it. */
const EMPTY_BLOCK = '\n<!-- -->\n';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fenced(language: string, code: string): string {
  const fence = fenceFor(code);
  return `${fence}${language}\n${code}\n${fence}`;
}

/**
 * Mermaid diagrams are drawn in the browser only: the built page has an
 * empty place (EMPTY_BLOCK) where each stood, and its source is in the
 * page's Markdown file (read by the plugin, and only for a page this build
 * shows in full). When the page has exactly one empty place per diagram,
 * each goes to its place, in order; otherwise (another component that
 * renders nothing) they come last, under "Diagrams", rather than at a guess.
 */
function withDiagrams(articleHtml: string, diagrams: string[]): {html: string; placed: boolean} {
  if (diagrams.length === 0) {
    return {html: articleHtml, placed: true};
  }
  const places = articleHtml.split(EMPTY_BLOCK);
  if (places.length !== diagrams.length + 1) {
    return {html: articleHtml, placed: false};
  }
  const html = places.reduce(
    (joined, part, index) =>
      index === 0 ? part : `${joined}\n<pre><code class="language-mermaid">${escapeHtml(diagrams[index - 1] ?? '')}</code></pre>\n${part}`,
    '',
  );
  return {html, placed: true};
}

/** The source of each Mermaid diagram of a Markdown/MDX page, in order. */
export function mermaidDiagrams(source: string): string[] {
  return [...source.matchAll(/^(`{3,}|~{3,})mermaid[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm)].map((match) => (match[2] ?? '').replace(/\n$/, ''));
}

/** A page's Markdown file: `# title`, the description when the page has one, then its text. */
export function pageMarkdown({
  title,
  description,
  html,
  diagrams = [],
  docRoutes = new Set(),
}: {
  title: string;
  description?: string;
  html: string;
  /** The page's Mermaid sources (mermaidDiagrams), when this build shows the page in full. */
  diagrams?: string[];
  /** The routes of the site's doc pages: links to them point to their Markdown. */
  docRoutes?: ReadonlySet<string>;
}): string {
  const parts = [`# ${title}`, description ? `> ${description}` : '', articleMarkdown(html, diagrams, docRoutes)].filter(Boolean);
  return `${parts.join('\n\n')}\n`;
}

/**
 * A role page's Markdown for a signed-in member who lacks its role: the
 * title, then what the page's HTML tells that member (signedInWithheldMessage,
 * for a member without any of its roles or permissions), never its text.
 * Null for a rule every signed-in member meets.
 */
export function withheldPageMarkdown({title, rule}: {title: string; rule: AccessRule}): string | null {
  const message = signedInWithheldMessage(rule, {roles: [], permissions: []});
  return message ? `# ${title}\n\n**${message.title}**\n\n${message.body}\n` : null;
}
