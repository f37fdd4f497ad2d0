/**
 * The browser's side of search: Pagefind's own script, loaded from the site
 * (`<baseUrl>pagefind/pagefind.js`) the first time a reader searches. The gate
 * answers every file under `pagefind/` from the index of exactly the pages
 * the reader may read, so this code never filters anything itself.
 */
import {SEARCH_BUNDLE_DIR} from '@site/src/auth/access/searchIndex';

/** What Pagefind returns for one page (its documented result data, the fields read here). */
interface PagefindResultData {
  url: string;
  meta: {title?: string};
  excerpt: string;
  sub_results?: {title: string; url: string; excerpt: string; locations?: number[]}[];
}

interface PagefindApi {
  options(options: {baseUrl: string; excerptLength?: number}): Promise<void>;
  init(): Promise<void>;
  search(query: string): Promise<{results: {id: string; data(): Promise<PagefindResultData>}[]}>;
}

/** A run of an excerpt: the words that matched the query are marked. */
export interface ExcerptPart {
  text: string;
  marked: boolean;
}

export interface SearchHit {
  title: string;
  /** The page's route (with a section's hash when the match is in one). */
  url: string;
  /** The heading of the section that matched, when it is not the page's top. */
  section: string | null;
  excerpt: ExcerptPart[];
}

export interface SearchAnswer {
  query: string;
  hits: SearchHit[];
  /** How many pages matched in all (hits holds at most the limit asked for). */
  total: number;
}

/** Longest query sent (characters): longer input is cut, not refused. */
export const MAX_QUERY_LENGTH = 200;

let loading: Promise<PagefindApi> | null = null;

/** Loads Pagefind once per page load; a failed load is tried again on the next search. */
export function loadSearch(baseUrl: string): Promise<PagefindApi> {
  if (!loading) {
    const url = `${baseUrl}${SEARCH_BUNDLE_DIR}/pagefind.js`;
    loading = (import(/* webpackIgnore: true */ url) as Promise<PagefindApi>).then(async (api) => {
      await api.options({baseUrl, excerptLength: 24});
      await api.init();
      return api;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

const ENTITIES: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1]?.toLowerCase() === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return ENTITIES[body.toLowerCase()] ?? entity;
  });
}

/** Pagefind's excerpt (escaped text with `<mark>` around matches) as runs of text, never as HTML. */
export function parseExcerpt(excerpt: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  let marked = false;
  for (const piece of excerpt.split(/(<\/?mark>)/)) {
    if (piece === '<mark>' || piece === '</mark>') {
      marked = piece === '<mark>';
    } else if (piece !== '') {
      parts.push({text: decodeEntities(piece.replace(/<[^>]*>/g, '')), marked});
    }
  }
  return parts;
}

/** Pagefind's URL (`/docs/x/`, `/docs/x/#part`) as the site's route (`/docs/x`, `/docs/x#part`); the docs root keeps its slash. */
export function routeOf(url: string, baseUrl: string): string {
  const [pathname = '', hash] = url.split('#');
  const docsRoot = `${baseUrl}docs/`;
  const clean = pathname === docsRoot || pathname === baseUrl ? pathname : pathname.replace(/\/$/, '');
  return hash ? `${clean}#${hash}` : clean;
}

/** The pages that match, best first, with their best section; at most `limit` loaded. */
export async function searchDocs(api: PagefindApi, rawQuery: string, baseUrl: string, limit: number): Promise<SearchAnswer> {
  const query = rawQuery.trim().slice(0, MAX_QUERY_LENGTH);
  if (query === '') {
    return {query, hits: [], total: 0};
  }
  const {results} = await api.search(query);
  const hits = await Promise.all(
    results.slice(0, limit).map(async (result) => {
      const data = await result.data();
      // The part of the page where most of the matches are (Pagefind lists them in page order); the page's top is no section.
      const top = [...(data.sub_results ?? [])].sort((a, b) => (b.locations?.length ?? 0) - (a.locations?.length ?? 0))[0];
      const section = top && top.url !== data.url && top.title !== data.meta.title ? top : null;
      const best = section ?? data;
      return {
        title: data.meta.title ?? routeOf(data.url, baseUrl),
        url: routeOf(best.url, baseUrl),
        section: section?.title ?? null,
        excerpt: parseExcerpt(best.excerpt),
      };
    }),
  );
  return {query, hits, total: results.length};
}
