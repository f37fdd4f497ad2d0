/**
 * Size budgets of the production build, measured in Chromium: the gzip size
 * of the JavaScript a first visit downloads before the page is idle, on the
 * home page and on a long doc page, and every byte one search downloads
 * (typed in the navbar box on the long doc page: the search script, its
 * WebAssembly, the index chunks and the fragments of the results shown), which
 * must also stay under SEARCH_QUERY_LIMIT (150 KB) whatever the budget says.
 *
 *   npm run budget              fail when a measure exceeds its budget by more than 10 %
 *   npm run budget -- --update  record the current measures as the budget
 */
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import {launchBrowser} from './support/browser';
import {startStack} from './support/stack';

const ROOT = path.resolve(__dirname, '..');
const BUDGET_FILE = path.join(ROOT, 'bench', 'budget.json');
export const TOLERANCE = 0.1;
/** Issue 32's goal for one search on the handbook, bytes on the wire. */
export const SEARCH_QUERY_LIMIT = 150 * 1024;
/** What the budget searches for: a variable many pages mention, so it loads several fragments. */
export const BUDGET_QUERY = 'DATABASE_URL';

/** The pages the budget and the Lighthouse benchmark (scripts/bench.mjs) both measure. */
export const MEASURED_PAGES = JSON.parse(readFileSync(path.join(ROOT, 'bench', 'pages.json'), 'utf8')) as Record<string, string>;

export type Measures = Record<string, number>;

export interface BudgetProblem {
  measure: string;
  actual: number;
  budget: number | undefined;
}

/** Measures above budget × (1 + tolerance), or with no budget recorded. */
export function overBudget(measures: Measures, budget: Measures, tolerance = TOLERANCE): BudgetProblem[] {
  return Object.entries(measures)
    .filter(([measure, actual]) => budget[measure] === undefined || actual > (budget[measure] as number) * (1 + tolerance))
    .map(([measure, actual]) => ({measure, actual, budget: budget[measure]}));
}

async function measure(): Promise<Measures> {
  const [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  const measures: Measures = {};
  try {
    for (const [name, route] of Object.entries(MEASURED_PAGES)) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts: Promise<number>[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') {
          scripts.push(response.body().then((body) => gzipSync(body, {level: 9}).length));
        }
      });
      await page.goto(`${stack.siteUrl}${route}`, {waitUntil: 'networkidle'});
      measures[`firstLoadJsGzip.${name}`] = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
      await context.close();
    }
    measures.searchOneQueryBytes = await measureOneSearch(browser, `${stack.siteUrl}${MEASURED_PAGES.longDoc}`);
  } finally {
    await browser.close();
    await stack.stop();
  }
  return measures;
}

/** Bytes on the wire (bodies as sent, headers excluded) of every search-bundle file one search fetches. */
async function measureOneSearch(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('requestfinished', (request) => {
    if (new URL(request.url()).pathname.includes('/pagefind/')) {
      sizes.push(request.sizes().then((size) => size.responseBodySize));
    }
  });
  await page.goto(url, {waitUntil: 'networkidle'});
  const box = page.locator('input[aria-label="Search"]');
  await box.click();
  await box.fill(BUDGET_QUERY);
  await page.getByRole('option').first().waitFor();
  await page.waitForLoadState('networkidle');
  const total = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  await context.close();
  return total;
}

async function main(): Promise<void> {
  const measures = await measure();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  if (process.argv.includes('--update')) {
    writeFileSync(BUDGET_FILE, `${JSON.stringify(measures, null, 2)}\n`);
    console.log(
      `budget: recorded ${Object.entries(measures)
        .map(([name, value]) => `${name}=${kb(value)}`)
        .join(', ')}`,
    );
    return;
  }
  const budget = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as Measures;
  for (const [name, value] of Object.entries(measures)) {
    console.log(
      `budget: ${name} ${kb(value)} (budget ${budget[name] === undefined ? 'none' : kb(budget[name] as number)}, +${TOLERANCE * 100} % allowed)`,
    );
  }
  const problems = overBudget(measures, budget);
  if ((measures.searchOneQueryBytes ?? 0) > SEARCH_QUERY_LIMIT) {
    problems.push({
      measure: 'searchOneQueryBytes (absolute limit)',
      actual: measures.searchOneQueryBytes as number,
      budget: SEARCH_QUERY_LIMIT,
    });
  }
  for (const problem of problems) {
    console.error(
      `budget: ${problem.measure} is ${kb(problem.actual)}, over its budget of ${problem.budget === undefined ? 'none' : kb(problem.budget)} by more than ${TOLERANCE * 100} %`,
    );
  }
  process.exitCode = problems.length > 0 ? 1 : 0;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
