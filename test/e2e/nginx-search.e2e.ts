/**
 * Search on the static host: nginx serves the public build alone, with its
 * own search bundle and the production CSP. A signed-out reader's search
 * suggests public pages, with no CSP violation (Pagefind compiles
 * WebAssembly), and the /search page lists them; a word only a restricted
 * page uses finds nothing there.
 */
import path from 'node:path';
import {filesUnder} from '../../plugins/support/files';
import {markdownBody} from '../../plugins/support/frontMatter';
import {browserSuite, reportCspViolations} from './support/suite';

jest.setTimeout(90_000);

const ROOT = path.resolve(__dirname, '../..');

/** A long word the Admin Service page's body uses and no other page does. */
function adminOnlyWord(): string {
  const docs = path.join(ROOT, 'docs');
  const text = (file: string) => markdownBody(file).toLowerCase();
  const admin = path.join(docs, 'internal-developers', 'services', 'admin-service.md');
  const others = filesUnder(docs)
    .filter((file) => /\.mdx?$/.test(file.relative) && file.full !== admin)
    .map((file) => text(file.full))
    .join('\n');
  const word = [...new Set(text(admin).match(/\b[a-z]{10,}\b/g) ?? [])].sort().find((candidate) => !others.includes(candidate));
  if (!word) {
    throw new Error('no word of the admin page alone to search for');
  }
  return word;
}

const suite = browserSuite({
  server: 'nginx',
  // CSP violations count as console errors, which the suite's problem check fails on.
  setUpContext: reportCspViolations,
});

it('a signed-out reader searches the public pages from the navbar and on /search', async () => {
  const page = await suite.open('/docs/');
  const box = page.locator('input[aria-label="Search"]');
  await box.fill('gateway');
  await page.getByRole('option').filter({hasText: 'API Gateway'}).first().waitFor();

  await page.goto(`${suite.stack.siteUrl}/search?q=${encodeURIComponent('gateway')}`, {waitUntil: 'networkidle'});
  await page.locator('article h2').filter({hasText: 'API Gateway'}).first().waitFor();

  await box.fill(adminOnlyWord());
  // The index has answered once suggestions or "No results" show.
  await page.locator('[role="option"], :text("No results")').first().waitFor();
  expect((await page.getByRole('option').allInnerTexts()).filter((text) => text.includes('Admin Service'))).toEqual([]);
});
