/**
 * Structure of every page (the spec's page rules): title and description in
 * front matter and no "# " heading (the title comes from front matter), a
 * minimum length and number of "##" sections, fenced code blocks with a
 * language, a mermaid diagram on the pages that explain a flow, a link to a
 * related page, and the standard sections of service and library pages, so
 * that every page reads the same way.
 */
import {isReadableProse, parsePage, type Page, type Problem} from './pages';

export const MIN_WORDS = 350;
export const MIN_H2_SECTIONS = 3;

/** Pages that must contain at least one mermaid diagram. */
export const MERMAID_REQUIRED = [
  'internal-developers/architecture/build-architecture.md',
  'internal-developers/architecture/docker-setup.md',
  'internal-developers/architecture/database-prisma.md',
  'internal-developers/services/api-gateway.md',
  'internal-developers/services/auth-service.md',
  'internal-developers/deployment/deployment-guide.md',
];

/** The "##" sections every service page and every shared-library page has, in the spec's words. */
const SERVICE_SECTIONS = ['Purpose', 'API surface', 'Data model', 'Configuration', 'Dependencies', 'Local development', 'Troubleshooting'];
const LIBRARY_SECTIONS = ['What it provides', 'Usage example', 'Conventions', 'Pitfalls'];

/** Words a reader reads: no imports, JSX component lines, tables, markup or link targets. */
export function proseWords(prose: string): number {
  const text = prose
    .split('\n')
    .filter(isReadableProse)
    .join('\n')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[#>*_`[\]]/g, ' ');
  return text.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
}

/** The structure rules of one page. */
export function checkStructure(page: Page): Problem[] {
  const problems: Problem[] = [];
  const report = (rule: string, message: string) => problems.push({file: page.file, rule, message});
  const {frontMatter, prose, fences} = parsePage(page.source);

  // No sidebar_position: sidebars.ts lists the pages in order by hand.
  for (const field of ['title', 'description']) {
    const value = frontMatter[field];
    if (typeof value !== 'string' || value.trim() === '') {
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
  const required = page.file.includes('/services/') ? SERVICE_SECTIONS : page.file.includes('/shared-libraries/') ? LIBRARY_SECTIONS : [];
  const missing = required.filter((section) => !h2.includes(section));
  if (missing.length > 0) {
    report('structure', `missing "##" sections: ${missing.join(', ')}`);
  }
  return problems;
}
