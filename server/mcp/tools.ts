/**
 * The MCP server of one request (stateless: a new one per request, as the
 * SDK's stateless Streamable HTTP example does), with the portal's two
 * tools, each answering exactly as the HTTP routes would answer this reader.
 */
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type {Principal} from '../../src/auth/access/rules';
import {MAX_MARKDOWN_BYTES, markdownCandidates, type ReaderFiles} from './readerFiles';
import {SNIPPET_CHARS, type ReaderSearch} from './searchIndex';

export const MAX_QUERY_CHARS = 200;
export const MAX_SEARCH_RESULTS = 20;
export const DEFAULT_SEARCH_RESULTS = 5;
/** Longest `path` argument of read_page (characters). */
const MAX_PATH_CHARS = 2048;

export interface ToolContext {
  files: ReaderFiles;
  search: ReaderSearch;
  /** The reader (null: signed out) and the key of their reader set (which index they search). */
  principal: Principal | null;
  readerKey: string;
  /** `https://host`, for absolute URLs in results and to accept this site's absolute URLs in read_page. */
  origin: string;
  baseUrl: string;
  version: string;
}

function toolError(message: string): CallToolResult {
  return {isError: true, content: [{type: 'text', text: message}]};
}

/** The URL path a read_page argument names on this site, or null for another site or something that is not a path. */
function pathOnThisSite(reference: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(reference, `${origin}/`);
  } catch {
    return null;
  }
  if (url.origin !== origin || !(reference.startsWith('/') || /^https?:\/\//i.test(reference)) || reference.startsWith('//')) {
    return null;
  }
  return url.pathname;
}

export function createPortalMcpServer(context: ToolContext): McpServer {
  const {files, search, principal, readerKey, origin, baseUrl} = context;
  const server = new McpServer({name: 'developer-portal', version: context.version});
  const resultShape = z.object({
    title: z.string(),
    url: z.string().describe('The page, as an absolute URL'),
    markdownUrl: z.string().describe('The page as Markdown (read_page takes it, or any page URL)'),
    section: z.string().optional().describe('The heading of the section that matched'),
    snippet: z.string().describe(`At most ${SNIPPET_CHARS} characters around the match`),
  });

  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Full-text search over the Developer Portal pages this reader may read (signed out: public pages only). ' +
        'Returns the best-matching pages, best first, each with its URL, its Markdown URL and a snippet around the match. ' +
        'Read a whole page with read_page.',
      inputSchema: {
        query: z.string().min(1).max(MAX_QUERY_CHARS).describe('Words to look for, e.g. "file service port"'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_RESULTS)
          .optional()
          .describe(`How many pages to return (1 to ${MAX_SEARCH_RESULTS}, default ${DEFAULT_SEARCH_RESULTS})`),
      },
      outputSchema: {results: z.array(resultShape)},
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    async ({query, limit}) => {
      const found = await search.search(readerKey, principal, query, limit ?? DEFAULT_SEARCH_RESULTS);
      const results = found.map((result) => ({
        ...result,
        url: `${origin}${result.url}`,
        markdownUrl: `${origin}${result.markdownUrl}`,
      }));
      return {content: [{type: 'text', text: JSON.stringify({results}, null, 2)}], structuredContent: {results}};
    },
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a page',
      description:
        'The Markdown of one Developer Portal page, as this reader may read it (a page that needs sign-in or a role ' +
        'answers with its title and what is needed, never its text). `path` is the page URL path (`/docs/x`), with a ' +
        `trailing slash or \`.md\`, or an absolute URL of this site. Pages over ${MAX_MARKDOWN_BYTES / 1024} KB are refused.`,
      inputSchema: {
        path: z.string().min(1).max(MAX_PATH_CHARS).describe('e.g. "/docs/internal-developers/services/api-gateway" or its URL'),
      },
      annotations: {readOnlyHint: true, openWorldHint: false},
    },
    async ({path}) => {
      const pathname = pathOnThisSite(path.trim(), origin);
      if (pathname === null || !pathname.startsWith(baseUrl)) {
        return toolError(
          `"${path.slice(0, 200)}" is not a page of this site: give a path such as ${baseUrl}docs/… or a URL under ${origin}${baseUrl}`,
        );
      }
      for (const candidate of markdownCandidates(pathname)) {
        const file = await files.read(candidate, principal);
        if (file.kind === 'too-large') {
          return toolError(`${candidate} is larger than ${MAX_MARKDOWN_BYTES / 1024} KB; fetch ${origin}${candidate} instead`);
        }
        if (file.kind === 'text') {
          return {content: [{type: 'text', text: file.text}]};
        }
      }
      return toolError(`No page at ${pathname}. Use search_docs to find pages, or the links of ${origin}${baseUrl}llms.txt.`);
    },
  );
  return server;
}
