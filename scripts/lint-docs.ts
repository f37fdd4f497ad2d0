/**
 * Our own documentation rules (markdownlint-cli2 checks Markdown style):
 * front matter, length, structure, code block languages, required diagrams,
 * and no paragraph copied between pages. Usage:
 *   npm run lint:docs -- [files...]   (default: every page under docs/)
 * Prints `docs/<file>: <rule>: <message>` per problem and exits 1 when there is any.
 */
import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';

export const MIN_WORDS = 350;
export const MIN_H2_SECTIONS = 3;
/** A paragraph shorter than this may repeat (e.g. "See the reference."). */
export const MIN_DUPLICATE_WORDS = 12;

/** Pages that must contain at least one mermaid diagram. */
export const MERMAID_REQUIRED = [
  'internal-developers/architecture/build-architecture.md',
  'internal-developers/architecture/docker-setup.md',
  'internal-developers/architecture/database-prisma.md',
  'internal-developers/services/api-gateway.md',
  'internal-developers/services/auth-service.md',
  'internal-developers/deployment/deployment-guide.md',
];

const SERVICE_SECTIONS = ['Purpose', 'API surface', 'Data model', 'Configuration', 'Dependencies', 'Local development', 'Troubleshooting'];
const LIBRARY_SECTIONS = ['What it provides', 'Usage example', 'Conventions', 'Pitfalls'];

export interface Problem {
  file: string;
  rule: string;
  message: string;
}

export interface Page {
  /** Path relative to docs/, with forward slashes. */
  file: string;
  source: string;
}

interface ParsedPage {
  frontMatter: Record<string, string>;
  /** Body without fenced code blocks. */
  prose: string;
  fences: {language: string}[];
}

function parse(source: string): ParsedPage {
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(source);
  const frontMatter: Record<string, string> = {};
  for (const line of (match?.[1] ?? '').split('\n')) {
    const field = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (field?.[1]) {
      frontMatter[field[1]] = (field[2] ?? '').trim();
    }
  }
  const body = match ? source.slice(match[0].length) : source;
  const fences: ParsedPage['fences'] = [];
  const prose = body.replace(/^[ \t]*(```+|~~~+)([^\n]*)\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, (_all, _fence: string, info: string) => {
    fences.push({language: info.trim().split(/\s+/)[0] ?? ''});
    return '\n';
  });
  return {frontMatter, prose, fences};
}

/** Words a reader reads: no imports, JSX component lines, tables, markup or link targets. */
export function proseWords(prose: string): number {
  const text = prose
    .split('\n')
    .filter((line) => !/^\s*(import|export)\s/.test(line))
    .filter((line) => !/^\s*\|/.test(line))
    .filter((line) => !/^\s*<\/?[A-Z][^>]*>\s*$/.test(line))
    .filter((line) => !/^\s*:::/.test(line))
    .join('\n')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[#>*_`[\]]/g, ' ');
  return text.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
}

function paragraphs(prose: string): string[] {
  return prose
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => !/^(#|\||import |export |<|:::)/.test(block))
    .map((block) => block.replace(/\s+/g, ' ').toLowerCase());
}

export function lintPage(page: Page): Problem[] {
  const problems: Problem[] = [];
  const report = (rule: string, message: string) => problems.push({file: page.file, rule, message});
  const {frontMatter, prose, fences} = parse(page.source);

  for (const field of ['title', 'description', 'sidebar_position']) {
    if (!frontMatter[field]) {
      report('front-matter', `missing "${field}"`);
    }
  }
  if (/^#\s/m.test(prose)) {
    report('no-h1', 'the title comes from front matter; remove the "# " heading');
  }
  const words = proseWords(prose);
  if (words < MIN_WORDS) {
    report('min-words', `${words} words of prose, at least ${MIN_WORDS} required`);
  }
  const h2 = [...prose.matchAll(/^##\s+(.+?)\s*$/gm)].map((heading) => heading[1] ?? '');
  if (h2.length < MIN_H2_SECTIONS) {
    report('min-sections', `${h2.length} "##" sections, at least ${MIN_H2_SECTIONS} required`);
  }
  if (fences.length === 0) {
    report('code-block', 'at least one fenced code block with a language is required');
  }
  fences.forEach((fence, index) => {
    if (!fence.language) {
      report('code-language', `fenced code block #${index + 1} has no language tag`);
    }
  });
  if (MERMAID_REQUIRED.includes(page.file) && !fences.some((fence) => fence.language === 'mermaid')) {
    report('mermaid', 'this page must contain a mermaid diagram');
  }
  if (!/\]\((\.{1,2}\/|\/docs\/)[^)]+\)/.test(prose)) {
    report('related-links', 'link at least one related page');
  }
  const required = page.file.includes('/services/')
    ? SERVICE_SECTIONS
    : page.file.includes('/shared-libraries/')
      ? LIBRARY_SECTIONS
      : [];
  const missing = required.filter((section) => !h2.includes(section));
  if (missing.length > 0) {
    report('structure', `missing "##" sections: ${missing.join(', ')}`);
  }
  return problems;
}

/** Paragraphs (of MIN_DUPLICATE_WORDS words or more) that appear on two pages. */
export function findSharedParagraphs(pages: Page[]): Problem[] {
  const seen = new Map<string, string>();
  const problems: Problem[] = [];
  for (const page of pages) {
    for (const paragraph of new Set(paragraphs(parse(page.source).prose))) {
      if (paragraph.split(' ').length < MIN_DUPLICATE_WORDS) {
        continue;
      }
      const first = seen.get(paragraph);
      if (first && first !== page.file) {
        problems.push({file: page.file, rule: 'shared-paragraph', message: `paragraph also in docs/${first}: "${paragraph.slice(0, 80)}…"`});
      } else {
        seen.set(paragraph, page.file);
      }
    }
  }
  return problems;
}

export function lintPages(pages: Page[]): Problem[] {
  return [...pages.flatMap(lintPage), ...findSharedParagraphs(pages)];
}

function listDocs(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return listDocs(full);
    }
    return /\.mdx?$/.test(entry.name) ? [full] : [];
  });
}

function main(): void {
  const docsDir = path.resolve(__dirname, '..', 'docs');
  const toDocsPath = (file: string) => path.relative(docsDir, path.resolve(file)).split(path.sep).join('/');
  const pages = listDocs(docsDir).map((file) => ({file: toDocsPath(file), source: readFileSync(file, 'utf8')}));
  const only = new Set(process.argv.slice(2).map(toDocsPath));
  // Shared paragraphs are always checked against every page, even for a subset.
  const problems = lintPages(pages).filter((problem) => only.size === 0 || only.has(problem.file));
  for (const problem of problems) {
    console.error(`docs/${problem.file}: ${problem.rule}: ${problem.message}`);
  }
  console.log(`lint-docs: ${pages.length} pages checked, ${problems.length} problem(s)`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}

if (require.main === module) {
  main();
}
