/**
 * Repetition between pages: no paragraph copied from one page to another,
 * and a budget for prose repeated across pages (word shingles shared by two
 * or more pages; issue 16), so that a fact is told on its page and linked
 * from the others instead of retold.
 */
import {isReadableProse, parsePage, sourceLines, type Page, type Problem} from './pages';

/** A paragraph shorter than this may repeat (e.g. "See the reference."). */
export const MIN_DUPLICATE_WORDS = 12;

/** Length of the word shingles that measure prose repeated across pages. */
export const SHINGLE_WORDS = 8;
/**
 * Distinct prose 8-word shingles that occur on two or more pages, measured on the
 * 33 handbook pages at commit 42a6c3f (before the handbook rework of issue 16):
 * `scripts/lint-docs/index.ts --shingles-at 42a6c3f` (see its Usage). Repeated prose must stay at or
 * below REPEATED_PROSE_BUDGET of it (issue 16: at least 20 % less repetition).
 */
export const REPEATED_SHINGLES_BASELINE = 29;
export const REPEATED_PROSE_BUDGET = 0.8;

/** Paragraphs of prose (no headings, tables, imports, JSX or admonition blocks), lower case with spaces collapsed. */
function paragraphs(prose: string): string[] {
  return prose
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => !/^(#|\||import |export |<|:::)/.test(block))
    .map((block) => block.replace(/\s+/g, ' ').toLowerCase());
}

/** Paragraphs (of MIN_DUPLICATE_WORDS words or more) that appear on two pages. */
export function findSharedParagraphs(pages: Page[]): Problem[] {
  const seen = new Map<string, string>();
  const problems: Problem[] = [];
  for (const page of pages) {
    for (const paragraph of new Set(paragraphs(parsePage(page.source).prose))) {
      if (paragraph.split(' ').length < MIN_DUPLICATE_WORDS) {
        continue;
      }
      const first = seen.get(paragraph);
      if (first && first !== page.file) {
        problems.push({
          file: page.file,
          rule: 'shared-paragraph',
          message: `paragraph also in docs/${first}: "${paragraph.slice(0, 80)}…"`,
        });
      } else {
        seen.set(paragraph, page.file);
      }
    }
  }
  return problems;
}

/** Words of a prose block, lower case, with code, markup and link targets left out. */
function shingleWords(block: string): string[] {
  const text = block
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .toLowerCase();
  return text.match(/[a-z0-9]+(?:['’._:/-][a-z0-9]+)*/g) ?? [];
}

/** Prose blocks of a page (paragraphs, list items, headings), without code blocks, tables, imports or JSX lines. */
function proseBlocks(source: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) {
      blocks.push(current.join(' '));
      current = [];
    }
  };
  for (const line of sourceLines(source)) {
    if (line.code !== null || !isReadableProse(line.text) || line.text.trim() === '') {
      flush();
      continue;
    }
    if (/^\s*(#{1,6}\s|[-*+]\s|\d+\.\s)/.test(line.text)) {
      flush();
    }
    current.push(line.text);
  }
  flush();
  return blocks;
}

/** The distinct SHINGLE_WORDS-word shingles of a page's prose. */
export function shingles(source: string): Set<string> {
  const result = new Set<string>();
  for (const block of proseBlocks(source)) {
    const words = shingleWords(block);
    for (let index = 0; index + SHINGLE_WORDS <= words.length; index += 1) {
      result.add(words.slice(index, index + SHINGLE_WORDS).join(' '));
    }
  }
  return result;
}

export interface RepeatedProse {
  /** Distinct shingles that occur on two or more pages. */
  count: number;
  /** Per page, how many of its shingles occur on another page too. */
  byPage: Map<string, number>;
}

/** (e) Prose repeated across pages, as word shingles shared by two or more pages. */
export function repeatedProse(pages: Page[]): RepeatedProse {
  const pagesOf = new Map<string, Set<string>>();
  for (const page of pages) {
    for (const shingle of shingles(page.source)) {
      const seen = pagesOf.get(shingle) ?? new Set<string>();
      seen.add(page.file);
      pagesOf.set(shingle, seen);
    }
  }
  let count = 0;
  const byPage = new Map<string, number>();
  for (const files of pagesOf.values()) {
    if (files.size < 2) {
      continue;
    }
    count += 1;
    for (const file of files) {
      byPage.set(file, (byPage.get(file) ?? 0) + 1);
    }
  }
  return {count, byPage};
}

/** The largest number of repeated shingles allowed. */
export function repetitionLimit(baseline = REPEATED_SHINGLES_BASELINE, budget = REPEATED_PROSE_BUDGET): number {
  return Math.floor(baseline * budget);
}

export function checkRepetitionBudget(
  repeated: RepeatedProse,
  baseline = REPEATED_SHINGLES_BASELINE,
  budget = REPEATED_PROSE_BUDGET,
): Problem[] {
  const limit = repetitionLimit(baseline, budget);
  if (repeated.count <= limit) {
    return [];
  }
  const worst = [...repeated.byPage.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([file, count]) => `${file} ${count}`)
    .join(', ');
  return [
    {
      file: 'internal-developers',
      rule: 'repeated-prose',
      message: `${repeated.count} ${SHINGLE_WORDS}-word shingles of prose occur on two or more pages, at most ${limit} allowed (${Math.round(budget * 100)} % of the baseline ${baseline}); most shared: ${worst}. Link to the canonical page instead of retelling it.`,
    },
  ];
}
