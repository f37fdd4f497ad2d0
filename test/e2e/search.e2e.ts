/**
 * Search finds exactly what each reader may read, in the navbar's
 * suggestions and on the /search page: a signed-out reader, a member without
 * the admin role and an admin search for a word only the Admin Service page
 * uses (only the admin finds it) and for a word of a public page (all three
 * find it); and the first two never download an index holding the Admin
 * Service text.
 */
import {gunzipSync} from 'node:zlib';
import path from 'node:path';
import type {Page} from 'playwright-core';
import sidebars from '../../sidebars';
import {markdownBody} from '../../plugins/support/frontMatter';
import {browserSuite} from './support/suite';

jest.setTimeout(90_000);

const ROOT = path.resolve(__dirname, '../..');
const DOC_IDS = sidebars.internalDevelopersSidebar.flatMap((category) => category.items);
const ADMIN_ID = 'internal-developers/services/admin-service';
const PUBLIC_ID = 'internal-developers/services/api-gateway';

/** A long word that only this page's body uses (in no other page, the handbook home or its own title). */
function wordOnlyIn(id: string): string {
  const text = (docId: string) => markdownBody(path.join(ROOT, 'docs', `${docId}.md`)).toLowerCase();
  const others = [...DOC_IDS.filter((other) => other !== id).map(text), text('internal-developers/README')].join('\n');
  const words = new Set(text(id).match(/\b[a-z]{9,}\b/g) ?? []);
  const word = [...words].sort().find((candidate) => !others.includes(candidate));
  if (!word) {
    throw new Error(`no word is used by ${id} alone`);
  }
  return word;
}

const ADMIN_WORD = wordOnlyIn(ADMIN_ID);
const PUBLIC_WORD = wordOnlyIn(PUBLIC_ID);

const suite = browserSuite();

/**
 * Every file of the search bundle this page downloads (`pagefind/…`: the
 * index chunks and the pages' fragments, gzip inside), as text: each answer
 * passes through this route handler, which reads it in full before handing
 * it to the page, so none can slip past.
 */
async function recordIndexes(page: Page): Promise<string[]> {
  const bodies: string[] = [];
  await page.route('**/pagefind/**', async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    bodies.push((body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body).toString('utf8'));
    await route.fulfill({response});
  });
  return bodies;
}

async function suggestions(page: Page, word: string): Promise<string[]> {
  const input = page.locator('input[aria-label="Search"]');
  await input.fill('');
  await input.fill(word);
  // Either suggestions or "No results" appear once the index has answered.
  await page.locator('[role="option"], :text("No results")').first().waitFor();
  return page.getByRole('option').allInnerTexts();
}

async function searchPage(page: Page, word: string): Promise<string> {
  await page.goto(`${suite.stack.siteUrl}/search?q=${encodeURIComponent(word)}`, {waitUntil: 'networkidle'});
  // The results (each an <article> with the page's path), or the empty state.
  await page.locator('article h2, :text("No documents were found")').first().waitFor();
  return (await page.locator('article').allInnerTexts()).join('\n');
}

describe('search respects access', () => {
  it.each([
    ['signed out', null, false],
    ['a member without the admin role', /Devon Developer/, false],
    ['an admin', /Ada Admin/, true],
  ] as const)('%s', async (_who, user, findsAdmin) => {
    const page = await suite.open('/docs/');
    const indexes = await recordIndexes(page);
    if (user) {
      await suite.signIn(page, user);
      await suite.userMenu(page, user).waitFor();
    }

    const adminHits = await suggestions(page, ADMIN_WORD);
    expect(adminHits.some((hit) => hit.includes('Admin Service'))).toBe(findsAdmin);
    const publicHits = await suggestions(page, PUBLIC_WORD);
    expect(publicHits.some((hit) => hit.includes('API Gateway'))).toBe(true);

    const adminResults = await searchPage(page, ADMIN_WORD);
    expect(adminResults.includes('Admin Service')).toBe(findsAdmin);
    const publicResults = await searchPage(page, PUBLIC_WORD);
    expect(publicResults).toContain('API Gateway');

    expect(indexes.length).toBeGreaterThan(0);
    expect(indexes.some((body) => body.toLowerCase().includes(ADMIN_WORD))).toBe(findsAdmin);
  });
});

describe('search box and keyboard focus', () => {
  it('a reader who tabs past the search box keeps focus where they went once its index has loaded, and can come back', async () => {
    const page = await suite.open('/docs/');
    const box = page.locator('.navbar__search-input');
    const onBox = () => page.evaluate(() => document.activeElement?.matches('.navbar__search-input') ?? false);
    // Focus on the box starts loading its index; the reader moves on straight away.
    await box.focus();
    await page.keyboard.press('Tab');
    const went = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
    expect(await onBox()).toBe(false);
    // The search script has loaded (a search box that took focus back would have done it by now).
    await page.waitForFunction(() => document.querySelector('[data-search-ready]') !== null);
    expect(await onBox()).toBe(false);
    await expect(page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))).resolves.toBe(went);

    // Coming back on purpose works: a click focuses the box and it searches.
    await box.click();
    expect(await onBox()).toBe(true);
    await page.keyboard.type(PUBLIC_WORD);
    await page.getByRole('option').filter({hasText: 'API Gateway'}).first().waitFor();
  });
});
