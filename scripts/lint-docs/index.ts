/**
 * `npm run lint:docs`: our own content rules for the documentation, the
 * things a machine can check that neither markdownlint-cli2 (Markdown style,
 * run after this) nor the build (broken links fail it; broken anchors fail
 * the members build in CI, docusaurus.config.ts) checks. One module per family:
 *   structure.ts      front matter, length, sections, code block languages, diagrams, related links
 *   platformFacts.ts  drift from src/data/platform.ts and sidebars.ts (make targets, ports, base URLs,
 *                     permissions, owners, fact components, the sidebar, "Called by")
 *   homes.ts          the facts with one home of issue 31
 *   repetition.ts     no paragraph copied between pages, a budget for prose repeated across pages
 *   pages.ts          how pages are read (front matter by the one parser, lines as prose or code)
 * Usage:
 *   npm run lint:docs       (every page under docs/, then markdownlint-cli2)
 *   npx ts-node -P test/tsconfig.json --transpile-only scripts/lint-docs/index.ts [files...]
 *       (only the problems of these files; shared paragraphs and repeated prose are
 *       still measured on every page. `npm run lint:docs -- <files>` hands the files
 *       to markdownlint-cli2 only, so lint-docs then reports every page.)
 *   npx ts-node -P test/tsconfig.json --transpile-only scripts/lint-docs/index.ts --shingles-at <git revision>
 *       (prints the repeated-prose figure of the pages at that revision)
 * Prints `docs/<file>[:<line>]: <rule>: <message>` per problem (problems in the
 * data files name `src/data/platform.ts` or `sidebars.ts`) and exits 1 when there is any.
 */
import path from 'node:path';
import sidebars from '../../sidebars';
import {checkHomes} from './homes';
import {pagesAt, readPages, type Page, type Problem} from './pages';
import {
  checkAddresses,
  checkCallers,
  checkComponents,
  checkMakeTargets,
  checkOwners,
  checkPermissions,
  checkSidebar,
  PLATFORM,
  sidebarDocIds,
  type PlatformFacts,
} from './platformFacts';
import {
  checkRepetitionBudget,
  findSharedParagraphs,
  REPEATED_SHINGLES_BASELINE,
  repeatedProse,
  repetitionLimit,
  SHINGLE_WORDS,
  type RepeatedProse,
} from './repetition';
import {checkStructure} from './structure';

/** Every rule of one page. */
export function lintPage(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  return [
    ...checkStructure(page),
    ...checkMakeTargets(page, facts),
    ...checkAddresses(page, facts),
    ...checkPermissions(page, facts),
    ...checkOwners(page, facts),
    ...checkComponents(page, facts),
    ...checkHomes(page, facts),
  ];
}

/** The rules of every page, and the paragraphs shared between pages. */
export function lintPages(pages: Page[], facts: PlatformFacts = PLATFORM): Problem[] {
  return [...pages.flatMap((page) => lintPage(page, facts)), ...findSharedParagraphs(pages)];
}

export interface LintResult {
  problems: Problem[];
  repeated: RepeatedProse;
}

/** Everything `npm run lint:docs` checks: the pages, the data files and the repetition budget. */
export function lintAll(pages: Page[], docIds: string[], facts: PlatformFacts = PLATFORM): LintResult {
  const repeated = repeatedProse(pages);
  return {
    problems: [...lintPages(pages, facts), ...checkSidebar(docIds, facts), ...checkCallers(facts), ...checkRepetitionBudget(repeated)],
    repeated,
  };
}

/** Where a problem is, relative to the repository root, e.g. `docs/internal-developers/x.md:12`. */
export function location(problem: Problem): string {
  const file = path.posix.normalize(`docs/${problem.file}`);
  return problem.line ? `${file}:${problem.line}` : file;
}

function main(): void {
  const root = path.resolve(__dirname, '../..');
  const args = process.argv.slice(2);
  const at = args.indexOf('--shingles-at');
  if (at >= 0) {
    const revision = args[at + 1] ?? 'HEAD';
    const pages = pagesAt(revision, root);
    console.log(`lint-docs: ${pages.length} pages at ${revision}, repeated prose: ${repeatedProse(pages).count} shingles`);
    return;
  }
  const pages = readPages(path.join(root, 'docs'));
  const only = new Set(args.map((file) => path.relative(root, path.resolve(file)).split(path.sep).join('/')));
  // Shared paragraphs and repeated prose are always measured on every page, even for a subset.
  const {problems: all, repeated} = lintAll(pages, sidebarDocIds(sidebars));
  const problems = all.filter((problem) => only.size === 0 || only.has(location({...problem, line: undefined})));
  for (const problem of problems) {
    console.error(`${location(problem)}: ${problem.rule}: ${problem.message}`);
  }
  const limit = repetitionLimit();
  console.log(
    `lint-docs: ${pages.length} pages checked, ${problems.length} problem(s); repeated prose: ${repeated.count} ${SHINGLE_WORDS}-word shingles on 2+ pages ` +
      `(${Math.round((repeated.count / REPEATED_SHINGLES_BASELINE) * 100)} % of the baseline ${REPEATED_SHINGLES_BASELINE}, budget ${limit})`,
  );
  process.exitCode = problems.length > 0 ? 1 : 0;
}

if (require.main === module) {
  main();
}
