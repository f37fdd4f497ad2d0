/**
 * A reader's Markdown and llms files, decided exactly as the HTTP routes
 * decide them (../decide.ts): the MCP tools never pick a file themselves, so
 * they can hand an agent nothing its reader could not fetch by URL.
 */
import {Readable} from 'node:stream';
import type {Principal} from '../../src/auth/access/rules';
import {LLMS_INDEX_FILE, MARKDOWN_EXTENSION, markdownPathFor} from '../../src/auth/access/agentDocs';
import {SMALL_FILE_BYTES} from '../buildFiles';
import {decide, type Decision, type Site} from '../decide';
import type {FileBodies} from '../fileBodies';

/**
 * The largest Markdown file a tool returns (bytes): the gate's small-file
 * size, the size up to which it reads a file whole and checks its bytes.
 * Larger files are refused with a tool error (an agent can fetch the `.md`
 * URL instead).
 */
export const MAX_MARKDOWN_BYTES = SMALL_FILE_BYTES;

export type ReaderFile = {kind: 'text'; path: string; text: string} | {kind: 'not-found'} | {kind: 'too-large'; path: string};

/**
 * Which file of which build a reader's GET of a path answers with (one
 * redirect followed), without reading it: the same key for two readers
 * means the same bytes, so a search index can hold it once for both.
 */
export type ReaderFileKey = {kind: 'file'; key: string} | {kind: 'not-found'};

export interface ReaderFiles {
  /** The key of the file this reader's GET of `urlPath` answers with (ReaderFileKey). */
  locate(urlPath: string, principal: Principal | null): Promise<ReaderFileKey>;
  /** The file at this URL path (with the baseUrl) as this reader's GET would answer it; one redirect is followed. */
  read(urlPath: string, principal: Principal | null): Promise<ReaderFile>;
  /** This reader's `llms.txt`. */
  llmsIndex(principal: Principal | null): Promise<ReaderFile>;
}

export function createReaderFiles(site: Site, bodies: FileBodies): ReaderFiles {
  async function fileOf(urlPath: string, principal: Principal | null, redirects = 1): Promise<Extract<Decision, {kind: 'file'}> | null> {
    const decision = await decide(site, urlPath, async () => principal);
    if (decision.kind === 'redirect') {
      return redirects > 0 ? fileOf(decision.location, principal, redirects - 1) : null;
    }
    return decision.kind === 'file' && decision.status === 200 ? decision : null;
  }
  async function read(urlPath: string, principal: Principal | null): Promise<ReaderFile> {
    const decision = await fileOf(urlPath, principal);
    if (!decision) {
      return {kind: 'not-found'};
    }
    const body = await bodies.read(decision.file.identity);
    if (body instanceof Readable) {
      body.destroy();
      return {kind: 'too-large', path: urlPath};
    }
    return {kind: 'text', path: urlPath, text: body.toString('utf8')};
  }
  return {
    async locate(urlPath, principal) {
      const decision = await fileOf(urlPath, principal);
      return decision ? {kind: 'file', key: `${decision.audience}:${decision.file.name}`} : {kind: 'not-found'};
    },
    read: (urlPath, principal) => read(urlPath, principal),
    llmsIndex: (principal) => read(`${site.baseUrl}${LLMS_INDEX_FILE}`, principal),
  };
}

/**
 * The Markdown URL paths a page reference may mean, most likely first:
 * `/docs/x`, `/docs/x/`, `/docs/x.md` (a route that ends in `/` may be a
 * folder's index or the same page spelled with a slash).
 */
export function markdownCandidates(pathname: string): string[] {
  if (pathname.endsWith(MARKDOWN_EXTENSION)) {
    return [pathname];
  }
  if (pathname.endsWith('/') && pathname.length > 1) {
    return [markdownPathFor(pathname.slice(0, -1)), markdownPathFor(pathname)];
  }
  return [markdownPathFor(pathname), markdownPathFor(`${pathname}/`)];
}
