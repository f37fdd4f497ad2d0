/**
 * `search_docs`: one MiniSearch index per reader set, built lazily from
 * that set's own `llms.txt` and the Markdown it links, read as that reader
 * (./readerFiles.ts). Never one index of everything filtered afterwards:
 * its term statistics, and so its ranking, would carry restricted text.
 *
 * Documents are sections (split at `#`, `##` and `###` headings), which
 * gives snippets near the match; results are one per page, its best section.
 * At most `maxIndexes` indexes are kept (least recently used out), so memory
 * stays bounded whatever the number of role combinations.
 */
import {setImmediate as nextTurn} from 'node:timers/promises';
import MiniSearch from 'minisearch';
import type {Principal} from '../../src/auth/access/rules';
import type {ReaderFiles} from './readerFiles';

/** Characters of a result's snippet, at most. */
export const SNIPPET_CHARS = 240;
/** Reader sets whose index is kept in memory. */
export const DEFAULT_MAX_INDEXES = 4;
/** Pages read at a time while an index is built. */
const READ_CONCURRENCY = 16;
/**
 * Distinct terms of a query that are searched; the rest are dropped. A
 * search's cost grows with its terms (each a prefix expansion), and it runs
 * on the thread that serves pages.
 */
export const MAX_QUERY_TERMS = 12;

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** The query as searched: its distinct terms (any case), at most MAX_QUERY_TERMS, in their first order. */
export function boundedQuery(query: string): string {
  const terms = new Map<string, string>();
  for (const term of tokenize(query)) {
    const key = term.toLowerCase();
    if (key !== '' && !terms.has(key)) {
      terms.set(key, term);
    }
    if (terms.size >= MAX_QUERY_TERMS) {
      break;
    }
  }
  return [...terms.values()].join(' ');
}

export interface SearchResult {
  title: string;
  /** The page's URL path (with the baseUrl). */
  url: string;
  /** Its Markdown's URL path. */
  markdownUrl: string;
  /** The section the match is in, when it is not the page's first. */
  section?: string;
  snippet: string;
}

/**
 * A section: where it is in its page's Markdown. Its text is not kept (at
 * thousands of pages it would double the index's memory): the few results'
 * snippets are cut from the page, read again.
 */
interface Section {
  id: number;
  page: number;
  heading: string;
  start: number;
  end: number;
}

interface PageEntry {
  title: string;
  url: string;
  markdownUrl: string;
  description: string;
}

interface ReaderIndex {
  pages: PageEntry[];
  sections: Section[];
  search: MiniSearch<Section & {text: string}>;
}

/** `- [Title](/path.md): description` lines of an llms.txt (llmstxt.org). */
export function linksOfLlmsIndex(text: string): {title: string; markdownUrl: string; description: string}[] {
  const links: {title: string; markdownUrl: string; description: string}[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*[-*]\s+\[([^\]]*)\]\(([^)\s]+)\)(?::\s*(.*))?$/.exec(line);
    if (match && match[2]?.startsWith('/') && !match[2].startsWith('//')) {
      links.push({title: match[1] ?? '', markdownUrl: match[2], description: match[3]?.trim() ?? ''});
    }
  }
  return links;
}

/** Sections of a Markdown page: split at headings (levels 1 to 3) outside fenced code; `start`/`end` delimit the text under the heading. */
export function sectionsOf(markdown: string): {heading: string; start: number; end: number}[] {
  const sections: {heading: string; start: number; end: number}[] = [];
  let current = {heading: '', start: 0};
  let fence: string | null = null;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fenceMatch?.[1]) {
      const marker = fenceMatch[1];
      if (fence === null) {
        fence = marker;
      } else if (marker.startsWith(fence)) {
        fence = null;
      }
    }
    const heading = fence === null ? /^(#{1,3})\s+(.*)$/.exec(line) : null;
    if (heading) {
      sections.push({...current, end: lineStart});
      current = {heading: (heading[2] ?? '').replace(/\s+#+\s*$/, '').trim(), start: offset};
    }
  }
  sections.push({...current, end: markdown.length});
  return sections.filter((section) => section.heading !== '' || markdown.slice(section.start, section.end).trim() !== '');
}

/** About SNIPPET_CHARS characters of `text` around the first query term found in it (whitespace collapsed). */
export function snippetOf(text: string, terms: string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_CHARS) {
    return flat;
  }
  const lower = flat.toLowerCase();
  const at = terms.map((term) => lower.indexOf(term.toLowerCase())).filter((index) => index >= 0);
  const hit = at.length > 0 ? Math.min(...at) : 0;
  // Room for the two ellipses within the limit.
  const width = SNIPPET_CHARS - 2;
  const start = Math.max(0, Math.min(hit - Math.floor(width / 3), flat.length - width));
  const end = Math.min(flat.length, start + width);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}

function routeOfMarkdownUrl(markdownUrl: string): string {
  return markdownUrl.replace(/\/index\.md$/, '/').replace(/\.md$/, '');
}

async function buildIndex(files: ReaderFiles, principal: Principal | null): Promise<ReaderIndex> {
  const llms = await files.llmsIndex(principal);
  const links = llms.kind === 'text' ? linksOfLlmsIndex(llms.text) : [];
  const pages: PageEntry[] = [];
  const sections: Section[] = [];
  const search = new MiniSearch<Section & {text: string}>({
    fields: ['title', 'heading', 'description', 'text'],
    extractField: (section, field) => {
      const page = pages[section.page] as PageEntry;
      switch (field) {
        case 'title':
          return page.title;
        case 'description':
          return page.description;
        case 'heading':
          return section.heading;
        case 'text':
          return section.text;
        default:
          // The id field (MiniSearch reads it through this function too).
          return String(section[field as keyof Section]);
      }
    },
    searchOptions: {boost: {title: 4, heading: 2, description: 1.5}, prefix: (term) => term.length >= 3, combineWith: 'AND'},
  });
  for (let start = 0; start < links.length; start += READ_CONCURRENCY) {
    const batch = await Promise.all(links.slice(start, start + READ_CONCURRENCY).map((link) => files.read(link.markdownUrl, principal)));
    batch.forEach((file, offset) => {
      const link = links[start + offset];
      if (!link || file.kind !== 'text') {
        return;
      }
      const page = pages.push({...link, url: routeOfMarkdownUrl(link.markdownUrl)}) - 1;
      for (const section of sectionsOf(file.text)) {
        const id = sections.push({id: sections.length, page, ...section}) - 1;
        // Indexed now, while the text is at hand; only the positions are kept.
        search.add({...(sections[id] as Section), text: file.text.slice(section.start, section.end)});
      }
    });
    // Indexing a batch is synchronous work: let waiting page requests in between batches.
    await nextTurn();
  }
  return {pages, sections, search};
}

export interface ReaderSearch {
  /** Ranked results, one per page, from the index of `key`'s reader set (built as `principal` on first use). */
  search(key: string, principal: Principal | null, query: string, limit: number): Promise<SearchResult[]>;
  /** Reader sets whose index is in memory now. */
  cachedKeys(): string[];
}

export function createReaderSearch(files: ReaderFiles, maxIndexes = DEFAULT_MAX_INDEXES): ReaderSearch {
  /** Insertion order is recency order. A failed build is dropped, so the next request tries again. */
  const indexes = new Map<string, Promise<ReaderIndex>>();

  function indexFor(key: string, principal: Principal | null): Promise<ReaderIndex> {
    const cached = indexes.get(key);
    if (cached) {
      indexes.delete(key);
      indexes.set(key, cached);
      return cached;
    }
    const building = buildIndex(files, principal);
    building.catch(() => indexes.delete(key));
    indexes.set(key, building);
    while (indexes.size > maxIndexes) {
      indexes.delete(indexes.keys().next().value as string);
    }
    return building;
  }

  return {
    cachedKeys: () => [...indexes.keys()],
    async search(key, principal, query, limit) {
      const index = await indexFor(key, principal);
      const terms = boundedQuery(query);
      let hits = index.search.search(terms);
      if (hits.length === 0) {
        // No section holds every term: the sections that hold any, still ranked.
        hits = index.search.search(terms, {combineWith: 'OR'});
      }
      const results: SearchResult[] = [];
      const seen = new Set<number>();
      for (const hit of hits) {
        const section = index.sections[Number(hit.id)] as Section;
        if (seen.has(section.page)) {
          continue;
        }
        seen.add(section.page);
        const page = index.pages[section.page] as PageEntry;
        const file = await files.read(page.markdownUrl, principal);
        const text = file.kind === 'text' ? file.text.slice(section.start, section.end) : '';
        results.push({
          title: page.title,
          url: page.url,
          markdownUrl: page.markdownUrl,
          ...(section.heading && section.heading !== page.title ? {section: section.heading} : {}),
          snippet: snippetOf(text.trim() === '' ? page.description : text, hit.terms),
        });
        if (results.length >= limit) {
          break;
        }
      }
      return results;
    },
  };
}
