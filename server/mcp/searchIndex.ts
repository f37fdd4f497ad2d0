/**
 * `search_docs`: one shared index of every file any reader set has needed,
 * searched per reader set. A reader's set is read from their own
 * `llms.txt` and the Markdown it links, as that reader (./readerFiles.ts).
 *
 * The index is shared, the ranking is not: a document is the exact file a
 * reader's GET answers with (build and name, with the title and description
 * of the reader's llms.txt), so a page whose Markdown differs per reader is
 * two documents, and every statistic BM25 uses (how many documents hold a
 * term, how many documents, their average field lengths) is computed over
 * the reader's own documents only, at query time. A reader's results,
 * snippets, counts and order are what an index of their set alone would
 * give: nothing of a page they may not read, not even its word counts,
 * moves them.
 *
 * Memory: each file's terms are held once, whatever the number of reader
 * sets (the members' set holds the public one's pages, an admin's set the
 * members' and a few more); a reader set is a list of document numbers and
 * its statistics. Documents are pages (title, headings, description,
 * text); the text is not kept: the few results' snippets are cut from the
 * page, read again, at its best section.
 */
import {setImmediate as nextTurn} from 'node:timers/promises';
import MiniSearch from 'minisearch';
import type {Principal} from '../../src/auth/access/rules';
import type {ReaderFiles} from './readerFiles';

/** Characters of a result's snippet, at most. */
export const SNIPPET_CHARS = 240;
/** Reader sets kept (their document lists and statistics; the documents themselves are shared). */
export const DEFAULT_MAX_READER_SETS = 16;
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

/** Markdown's lines, each with whether it belongs to fenced code (its fence lines included) and where it starts. */
function* linesOf(markdown: string): Generator<{line: string; start: number; inFence: boolean}> {
  let fence: string | null = null;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === null || marker.startsWith(fence))) {
      // A fence opens, or closes with a marker of its kind at least as long.
      fence = fence === null ? marker : null;
      yield {line, start, inFence: true};
    } else {
      yield {line, start, inFence: fence !== null};
    }
  }
}

/** Sections of a Markdown page: split at headings (levels 1 to 3) outside fenced code; `start`/`end` delimit the text under the heading. */
export function sectionsOf(markdown: string): {heading: string; start: number; end: number}[] {
  const sections: {heading: string; start: number; end: number}[] = [];
  let current = {heading: '', start: 0};
  for (const {line, start, inFence} of linesOf(markdown)) {
    const heading = inFence ? null : /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      sections.push({...current, end: start});
      current = {heading: (heading[2] ?? '').replace(/\s+#+\s*$/, '').trim(), start: start + line.length + 1};
    }
  }
  sections.push({...current, end: markdown.length});
  return sections.filter((section) => section.heading !== '' || markdown.slice(section.start, section.end).trim() !== '');
}

/** The text to cut a snippet from: its prose (fenced code left out) when a query term is there, else all of it. */
export function snippetSource(text: string, queryTerms: string[]): string {
  const prose = [...linesOf(text)]
    .filter((line) => !line.inFence)
    .map((line) => line.line)
    .join('\n');
  return termsOf(prose).some((word) => queryTerms.some((term) => word.startsWith(term))) ? prose : text;
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

/** The indexed fields, each with its boost (a match in the title counts most). */
const FIELDS = ['title', 'headings', 'description', 'text'] as const;
const FIELD_BOOSTS = [4, 2, 1.5, 1];
/** BM25+ as MiniSearch ranks (its defaults), so results rank as the reader's site search does. */
const BM25 = {k: 1.2, b: 0.7, d: 0.5};
/** A prefix match (`gate` for `gateway`) counts less than the word itself, and less the longer the word. */
const PREFIX_WEIGHT = 0.375;
/** Query terms this long or longer also match as prefixes. */
const MIN_PREFIX_CHARS = 3;

/** The index's terms of a text: MiniSearch's tokenizer, lower case. */
function termsOf(text: string): string[] {
  return tokenize(text)
    .map((term) => term.toLowerCase())
    .filter((term) => term !== '');
}

interface Document {
  title: string;
  url: string;
  markdownUrl: string;
  description: string;
  /** Terms per field, in FIELDS order. */
  lengths: number[];
}

interface ReaderSet {
  /** Whether document n is in the set (documents added later are not). */
  has: Uint8Array;
  size: number;
  /** Average terms per field over the set's documents, in FIELDS order. */
  averageLengths: number[];
}

/** The documents, and per field and term the postings: document number, term frequency, document number, … */
class SharedIndex {
  readonly documents: Document[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly postings = FIELDS.map(() => new Map<string, number[]>());
  private sortedTerms: string[] | null = [];

  numberOf(key: string): number | undefined {
    return this.byKey.get(key);
  }

  add(key: string, document: Omit<Document, 'lengths'>, markdown: string): number {
    const known = this.byKey.get(key);
    if (known !== undefined) {
      return known;
    }
    const number = this.documents.length;
    const headings = sectionsOf(markdown)
      .map((section) => section.heading)
      .join('\n');
    const texts = [document.title, headings, document.description, markdown];
    const lengths = texts.map((text, field) => {
      const terms = termsOf(text);
      const frequencies = new Map<string, number>();
      for (const term of terms) {
        frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
      }
      const postings = this.postings[field] as Map<string, number[]>;
      for (const [term, frequency] of frequencies) {
        const list = postings.get(term);
        if (list) {
          list.push(number, frequency);
        } else {
          postings.set(term, [number, frequency]);
          this.sortedTerms = null;
        }
      }
      return terms.length;
    });
    this.documents.push({...document, lengths});
    this.byKey.set(key, number);
    return number;
  }

  readerSet(numbers: number[]): ReaderSet {
    const has = new Uint8Array(this.documents.length);
    const totals = FIELDS.map(() => 0);
    for (const number of numbers) {
      if (has[number] === 1) {
        continue;
      }
      has[number] = 1;
      (this.documents[number] as Document).lengths.forEach((length, field) => {
        totals[field] = (totals[field] as number) + length;
      });
    }
    const size = has.reduce((count, member) => count + member, 0);
    return {has, size, averageLengths: totals.map((total) => (size === 0 ? 0 : total / size))};
  }

  /** The index's terms that a query term matches, with their weight: itself, and longer terms it starts (MIN_PREFIX_CHARS or more). */
  private expansions(queryTerm: string): {term: string; weight: number}[] {
    if (queryTerm.length < MIN_PREFIX_CHARS) {
      return [{term: queryTerm, weight: 1}];
    }
    if (this.sortedTerms === null) {
      const all = new Set<string>();
      for (const postings of this.postings) {
        for (const term of postings.keys()) {
          all.add(term);
        }
      }
      this.sortedTerms = [...all].sort();
    }
    const terms = this.sortedTerms;
    let low = 0;
    let high = terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((terms[middle] as string) < queryTerm) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    const found: {term: string; weight: number}[] = [];
    for (let at = low; at < terms.length && (terms[at] as string).startsWith(queryTerm); at += 1) {
      const term = terms[at] as string;
      const extra = term.length - queryTerm.length;
      found.push({term, weight: extra === 0 ? 1 : (PREFIX_WEIGHT * queryTerm.length) / (queryTerm.length + 0.3 * extra)});
    }
    return found;
  }

  /** Each query term's scores, by document of the set (BM25+ with the set's own statistics). */
  private scoresOf(queryTerm: string, set: ReaderSet): Map<number, number> {
    const scores = new Map<number, number>();
    for (const {term, weight} of this.expansions(queryTerm)) {
      this.postings.forEach((postings, field) => {
        const list = postings.get(term);
        if (!list) {
          return;
        }
        let inSet = 0;
        for (let at = 0; at < list.length; at += 2) {
          inSet += set.has[list[at] as number] ?? 0;
        }
        if (inSet === 0) {
          return;
        }
        const inverseFrequency = Math.log(1 + (set.size - inSet + 0.5) / (inSet + 0.5));
        const average = set.averageLengths[field] || 1;
        for (let at = 0; at < list.length; at += 2) {
          const number = list[at] as number;
          if (set.has[number] !== 1) {
            continue;
          }
          const frequency = list[at + 1] as number;
          const length = (this.documents[number] as Document).lengths[field] as number;
          const saturation = BM25.d + (frequency * (BM25.k + 1)) / (frequency + BM25.k * (1 - BM25.b + (BM25.b * length) / average));
          const score = weight * (FIELD_BOOSTS[field] as number) * inverseFrequency * saturation;
          scores.set(number, (scores.get(number) ?? 0) + score);
        }
      });
    }
    return scores;
  }

  /** The set's documents, best first: those that match every term, else (none does) those that match any. */
  search(queryTerms: string[], set: ReaderSet): number[] {
    const perTerm = queryTerms.map((term) => this.scoresOf(term, set));
    const combine = (every: boolean) => {
      const total = new Map<number, number>();
      for (const scores of perTerm) {
        for (const [number, score] of scores) {
          total.set(number, (total.get(number) ?? 0) + score);
        }
      }
      if (every) {
        for (const number of [...total.keys()]) {
          if (!perTerm.every((scores) => scores.has(number))) {
            total.delete(number);
          }
        }
      }
      return total;
    };
    let scored = combine(true);
    if (scored.size === 0) {
      scored = combine(false);
    }
    return [...scored].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([number]) => number);
  }
}

/** The section of a page where the query's terms are most often (a term counts where a word starts with it), the first on a tie. */
function bestSection(markdown: string, queryTerms: string[]): {heading: string; text: string} {
  let best = {heading: '', text: markdown, hits: -1};
  for (const section of sectionsOf(markdown)) {
    const text = markdown.slice(section.start, section.end);
    const words = termsOf(`${section.heading} ${text}`);
    const hits = words.filter((word) => queryTerms.some((term) => word.startsWith(term))).length;
    if (hits > best.hits) {
      best = {heading: section.heading, text, hits};
    }
  }
  return best;
}

export interface ReaderSearch {
  /** Ranked results, one per page, from the documents of `key`'s reader set (read as `principal` on first use). */
  search(key: string, principal: Principal | null, query: string, limit: number): Promise<SearchResult[]>;
  /** Reader sets in memory now. */
  cachedKeys(): string[];
  /** Documents in the shared index (files of every reader set read so far). */
  documentCount(): number;
}

export function createReaderSearch(files: ReaderFiles, maxReaderSets = DEFAULT_MAX_READER_SETS): ReaderSearch {
  const index = new SharedIndex();
  /** Insertion order is recency order. A failed build is dropped, so the next request tries again. */
  const readerSets = new Map<string, Promise<ReaderSet>>();

  async function buildReaderSet(principal: Principal | null): Promise<ReaderSet> {
    const llms = await files.llmsIndex(principal);
    const links = llms.kind === 'text' ? linksOfLlmsIndex(llms.text) : [];
    const numbers: number[] = [];
    for (let start = 0; start < links.length; start += READ_CONCURRENCY) {
      const batch = links.slice(start, start + READ_CONCURRENCY);
      await Promise.all(
        batch.map(async (link) => {
          const located = await files.locate(link.markdownUrl, principal);
          if (located.kind !== 'file') {
            return;
          }
          // The file, and how this reader's llms.txt lists it: the same key is the same document for every reader.
          const key = JSON.stringify([located.key, link.title, link.description]);
          const known = index.numberOf(key);
          if (known !== undefined) {
            numbers.push(known);
            return;
          }
          const file = await files.read(link.markdownUrl, principal);
          if (file.kind === 'text') {
            numbers.push(index.add(key, {...link, url: routeOfMarkdownUrl(link.markdownUrl)}, file.text));
          }
        }),
      );
      // Indexing a batch is synchronous work: let waiting page requests in between batches.
      await nextTurn();
    }
    return index.readerSet(numbers);
  }

  function readerSetFor(key: string, principal: Principal | null): Promise<ReaderSet> {
    const cached = readerSets.get(key);
    if (cached) {
      readerSets.delete(key);
      readerSets.set(key, cached);
      return cached;
    }
    const building = buildReaderSet(principal);
    building.catch(() => readerSets.delete(key));
    readerSets.set(key, building);
    while (readerSets.size > maxReaderSets) {
      readerSets.delete(readerSets.keys().next().value as string);
    }
    return building;
  }

  return {
    cachedKeys: () => [...readerSets.keys()],
    documentCount: () => index.documents.length,
    async search(key, principal, query, limit) {
      const set = await readerSetFor(key, principal);
      const queryTerms = [...new Set(termsOf(boundedQuery(query)))];
      const results: SearchResult[] = [];
      for (const number of queryTerms.length === 0 ? [] : index.search(queryTerms, set)) {
        const document = index.documents[number] as Document;
        // Read as this reader: the snippet is cut from exactly what they may read.
        const file = await files.read(document.markdownUrl, principal);
        const section = file.kind === 'text' ? bestSection(file.text, queryTerms) : {heading: '', text: ''};
        results.push({
          title: document.title,
          url: document.url,
          markdownUrl: document.markdownUrl,
          ...(section.heading && section.heading !== document.title ? {section: section.heading} : {}),
          snippet: snippetOf(snippetSource(section.text.trim() === '' ? document.description : section.text, queryTerms), queryTerms),
        });
        if (results.length >= limit) {
          break;
        }
      }
      return results;
    },
  };
}
