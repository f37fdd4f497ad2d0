/**
 * Where the docs for coding agents live (issue 30), shared by the build that
 * writes them (plugins/agent-docs), the gate that chooses them per reader
 * (server/), the "Copy page" button (src/theme) and the leak check. No
 * imports: it runs in all of those places.
 *
 * - Every doc page has its Markdown next to its HTML: the URL is
 *   `markdownPathFor(route)`, e.g. `/docs/a/b` → `/docs/a/b.md`. In a build
 *   the file is that path without the site's baseUrl. A restricted page's
 *   `.md` is one more file of the page (the access manifest lists it with
 *   the page's HTML), so it is decided exactly as the page is: a reader who
 *   may not read the page gets the public build's `.md`, which, like its HTML,
 *   holds the title and "sign in / you need …", never the text. A
 *   signed-in member who lacks a role page's role is told so, as the page's
 *   HTML tells them: the members build holds that answer for each role page
 *   at `withheldMarkdownFileFor(file)`, and the gate serves it instead of the
 *   public placeholder (server/decide.ts); it is never fetched by its name.
 * - `llms.txt` and `llms-full.txt` (llmstxt.org) list exactly the pages of one
 *   reader set: each build's root holds its least-privileged reader's (public
 *   build: public pages; members build: also signed-in pages), and every
 *   search-index variant folder of the members build (`<variant dir>/`, next
 *   to its `pagefind/`) holds that variant's. The gate answers
 *   `<baseUrl>llms.txt` and `<baseUrl>llms-full.txt` from the one that matches
 *   the verified session, as it does for the search bundle.
 */

/** The llmstxt.org index: title, summary, one section per sidebar category, a link to each page's Markdown. */
export const LLMS_INDEX_FILE = 'llms.txt';
/** Every page of the reader's set, in sidebar order, as one Markdown file. */
export const LLMS_FULL_FILE = 'llms-full.txt';
/** Files at the site's root that the gate chooses per reader (like the search bundle). */
export const PER_READER_ROOT_FILES: readonly string[] = [LLMS_INDEX_FILE, LLMS_FULL_FILE];

/** The MCP endpoint, under the site's baseUrl. */
export const MCP_PATH = '_portal/mcp';
/** OAuth 2.0 Protected Resource Metadata (RFC 9728), at the origin's root (not under baseUrl). */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

export const MARKDOWN_EXTENSION = '.md';

/** In the members build: what a signed-in member who lacks a role page's role gets for its Markdown (never served by this name). */
export const WITHHELD_MARKDOWN_DIR = '_portal/withheld';

/** Where the members build holds the "you need the role" answer for the Markdown file `markdownFile` (markdownFileFor). */
export function withheldMarkdownFileFor(markdownFile: string): string {
  return `${WITHHELD_MARKDOWN_DIR}/${markdownFile}`;
}

/** The page's Markdown file a withheld answer stands for (withheldMarkdownFileFor's inverse), or null for any other file. */
export function markdownFileOfWithheld(name: string): string | null {
  return name.startsWith(`${WITHHELD_MARKDOWN_DIR}/`) ? name.slice(WITHHELD_MARKDOWN_DIR.length + 1) : null;
}

/** Marks page chrome that is not the page's content (the "Copy page" controls): left out of its Markdown. */
export const NOT_IN_MARKDOWN_ATTRIBUTE = 'data-portal-not-markdown';

/**
 * The URL path of a page's Markdown: the route plus `.md`; a route that ends
 * in `/` (a folder's index, such as the site's root) gets `index.md`.
 */
export function markdownPathFor(route: string): string {
  return route.endsWith('/') ? `${route}index${MARKDOWN_EXTENSION}` : `${route}${MARKDOWN_EXTENSION}`;
}

/** The page route a Markdown URL path belongs to, or null when the path is not a page's Markdown. */
export function routeForMarkdownPath(markdownPath: string): string | null {
  if (!markdownPath.endsWith(MARKDOWN_EXTENSION)) {
    return null;
  }
  const withoutExtension = markdownPath.slice(0, -MARKDOWN_EXTENSION.length);
  if (withoutExtension.endsWith('/index')) {
    return withoutExtension.slice(0, -'index'.length);
  }
  return withoutExtension;
}

/**
 * The file of a page's Markdown inside a build (relative, no leading slash):
 * its URL path without the site's baseUrl. What the build writes and the
 * access manifest lists with the page.
 */
export function markdownFileFor(route: string, baseUrl: string): string {
  const urlPath = markdownPathFor(route);
  if (!urlPath.startsWith(baseUrl)) {
    throw new Error(`agent docs: the route ${route} is not under the site's baseUrl ${baseUrl}`);
  }
  return urlPath.slice(baseUrl.length);
}
