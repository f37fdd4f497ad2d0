/**
 * "Copy page" and "View as Markdown" at the top of a doc (issue 30 item 4,
 * src/components/CopyPage): the button puts the page's Markdown, as the
 * server answers its `.md` for this reader, on the clipboard; focus stays on
 * it and the status region says "Copied"; it works from the keyboard alone;
 * the served HTML names the Markdown in a `<link rel="alternate">`; on a
 * phone the controls fit and are big enough to tap.
 */
import AxeBuilder from '@axe-core/playwright';
import type {Page} from 'playwright-core';
import {markdownPathFor} from '../../src/auth/access/agentDocs';
import {browserSuite, hydrated} from './support/suite';

jest.setTimeout(120_000);

/** A public doc page. */
const DOC = '/docs/internal-developers/getting-started/introduction';
const COPY_BUTTON = {name: 'Copy page as Markdown'} as const;

const suite = browserSuite();

/** The page's Markdown as the server answers it to this reader (same cookies as the button's fetch). */
async function servedMarkdown(page: Page): Promise<string> {
  const response = await page.request.get(`${suite.stack.siteUrl}${markdownPathFor(DOC)}`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/markdown/);
  return response.text();
}

async function openDoc(): Promise<Page> {
  // Playwright grants these through CDP Browser.grantPermissions (clipboardReadWrite, clipboardSanitizedWrite).
  await suite.context.grantPermissions(['clipboard-read', 'clipboard-write'], {origin: suite.stack.siteUrl});
  const page = await suite.open(DOC);
  await hydrated(page);
  return page;
}

const focusedName = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? null);

describe('Copy page', () => {
  it('puts the page’s Markdown on the clipboard, keeps focus on the button and announces "Copied"', async () => {
    const page = await openDoc();
    const expected = await servedMarkdown(page);
    expect(expected.length).toBeGreaterThan(0);

    await page.getByRole('button', COPY_BUTTON).click();

    await expect(page.getByRole('status').filter({hasText: 'Copied'}).textContent()).resolves.toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
    expect(await focusedName(page)).toBe(COPY_BUTTON.name);
  });

  it('works from the keyboard alone: Tab onto "Copy page", Enter copies', async () => {
    const page = await openDoc();
    const expected = await servedMarkdown(page);
    // Start from the breadcrumbs just above, as a reader tabbing down the page does.
    await page.getByRole('navigation', {name: 'Breadcrumbs'}).getByRole('link').first().focus();
    for (let tabs = 0; tabs < 10 && (await focusedName(page)) !== COPY_BUTTON.name; tabs += 1) {
      await page.keyboard.press('Tab');
    }
    expect(await focusedName(page)).toBe(COPY_BUTTON.name);

    await page.keyboard.press('Enter');

    await page.getByRole('status').filter({hasText: 'Copied'}).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('View as Markdown');
  });

  it('"View as Markdown" opens the page’s .md, which the served HTML also names as its alternate', async () => {
    const page = await openDoc();
    await expect(page.getByRole('link', {name: 'View as Markdown'}).getAttribute('href')).resolves.toBe(markdownPathFor(DOC));
    // The HTML as served, before any script runs.
    const html = await (await page.request.get(`${suite.stack.siteUrl}${DOC}`)).text();
    const alternate = await page.evaluate((source) => {
      const link = new DOMParser().parseFromString(source, 'text/html').head.querySelector('link[rel="alternate"][type="text/markdown"]');
      return link?.getAttribute('href') ?? null;
    }, html);
    expect(alternate).toBe(markdownPathFor(DOC));
  });

  it('says so, and copies nothing, when the Markdown cannot be loaded', async () => {
    const page = await openDoc();
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.route(`**${markdownPathFor(DOC)}`, (route) => route.fulfill({status: 500, body: 'down'}));
    suite.expectProblems(/status of 500/);

    await page.getByRole('button', COPY_BUTTON).click();

    await page.getByRole('status').filter({hasText: 'Could not load this page’s Markdown'}).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('before');
  });

  it('on a phone, the controls fit the page with no sideways scroll and are big enough to tap', async () => {
    const page = await suite.context.newPage();
    await page.setViewportSize({width: 360, height: 740});
    await suite.open(DOC, page);
    for (const control of [page.getByRole('button', COPY_BUTTON), page.getByRole('link', {name: 'View as Markdown'})]) {
      const box = await control.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  it.each(['light', 'dark'] as const)('adds no accessibility violation in %s mode, with "Copied" or the error showing', async (mode) => {
    await suite.context.grantPermissions(['clipboard-read', 'clipboard-write'], {origin: suite.stack.siteUrl});
    const page = await suite.context.newPage();
    await page.emulateMedia({colorScheme: mode});
    // Choose the mode explicitly, as a reader using the toggle would.
    await page.addInitScript((theme) => localStorage.setItem('theme', theme), mode);
    await suite.open(DOC, page);
    await hydrated(page);
    const seriousViolations = async () =>
      (await new AxeBuilder({page}).include('div:has(> [role="status"])').analyze()).violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `[${violation.id}] ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);

    await page.getByRole('button', COPY_BUTTON).click();
    await page.getByRole('status').filter({hasText: 'Copied'}).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(mode);
    expect(await seriousViolations()).toEqual([]);

    await page.route(`**${markdownPathFor(DOC)}`, (route) => route.fulfill({status: 500, body: 'down'}));
    suite.expectProblems(/status of 500/);
    await page.getByRole('button', COPY_BUTTON).click();
    await page.getByRole('status').filter({hasText: 'Could not load'}).waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('is on doc pages only, not on the home page', async () => {
    const page = await suite.open('/');
    expect(await page.getByRole('button', COPY_BUTTON).count()).toBe(0);
    expect(await page.locator('link[rel="alternate"][type="text/markdown"]').count()).toBe(0);
  });
});
