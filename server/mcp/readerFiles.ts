/**
 * A reader's Markdown and llms files, decided exactly as the HTTP routes
 * decide them (../decide.ts): the MCP tools never pick a file themselves, so
 * they can hand an agent nothing its reader could not fetch by URL.
 */
import {Readable} from 'node:stream';
import type {Principal} from '../../src/auth/access/rules';
import {LLMS_INDEX_FILE, MARKDOWN_EXTENSION, markdownPathFor} from '../../src/auth/access/agentDocs';
import {SMALL_FILE_BYTES} from '../buildFiles';
import {decide, type Site} from '../decide';
import type {FileBodies} from '../fileBodies';

/**
 * The largest Markdown file a tool returns (bytes): the gate's small-file
 * size, the size up to which it reads a file whole and checks its bytes.
 * Larger files are refused with a tool error (an agent can fetch the `.md`
 * URL instead).
 */
export const MAX_MARKDOWN_BYTES = SMALL_FILE_BYTES;

export type ReaderFile = {kind: 'text'; path: string; text: string} | {kind: 'not-found'} | {kind: 'too-large'; path: string};

export interface ReaderFiles {
  /** The file at this URL path (with the baseUrl) as this reader's GET would answer it; one redirect is followed. */
  read(urlPath: string, principal: Principal | null): Promise<ReaderFile>;
  /** This reader's `llms.txt`. */
  llmsIndex(principal: Principal | null): Promise<ReaderFile>;
}

export function createReaderFiles(site: Site, bodies: FileBodies): ReaderFiles {
  async function read(urlPath: string, principal: Principal | null, redirects = 1): Promise<ReaderFile> {
    const decision = await decide(site, urlPath, async () => principal);
    if (decision.kind === 'redirect') {
      return redirects > 0 ? read(decision.location, principal, redirects - 1) : {kind: 'not-found'};
    }
    if (decision.kind !== 'file' || decision.status !== 200) {
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
