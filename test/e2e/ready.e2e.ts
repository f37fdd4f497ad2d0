/**
 * The speed work moved code out of the first load (src/ssr/pageScripts.ts,
 * src/clientModules/idlePrefetch.ts, src/components/MobileMenu,
 * src/components/CodeBlock). This checks it did not move what readers reach
 * for first: on a desktop, with no input, the app's scripts start right after
 * the first paint, and the navbar, the colour toggle, search, sign-in and the
 * mobile menu each do their job within 1 s of the page's load event.
 */
import type {Page} from 'playwright-core';
import {browserSuite} from './support/suite';

jest.setTimeout(120_000);

const READY_WITHIN_MS = 1000;
const LONG_DOC = '/docs/internal-developers/getting-started/introduction';

const suite = browserSuite();

/** Milliseconds since the page's load event, in the page's own clock. */
function sinceLoad(page: Page): Promise<number> {
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return performance.now() - (navigation?.loadEventEnd ?? 0);
  });
}

/** Opens the page and returns as soon as its load event has fired: nothing waits for the app. */
async function openAtLoad(route: string, width = 1280): Promise<Page> {
  const page = await suite.context.newPage();
  await page.setViewportSize({width, height: 800});
  await page.goto(`${suite.stack.siteUrl}${route}`, {waitUntil: 'load'});
  return page;
}

/**
 * Waits for the app to take over, does what a reader does, waits for its
 * effect, and returns when that happened, in ms after the load event. Each
 * wait is bounded by what is left of the second.
 */
async function readyAndDone(page: Page, act: () => Promise<void>, effect: (timeout: number) => Promise<unknown>): Promise<number> {
  const left = async () => Math.max(1, READY_WITHIN_MS - (await sinceLoad(page)));
  await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true', undefined, {timeout: await left()});
  await act();
  await effect(await left());
  return sinceLoad(page);
}

describe('ready within a second of load, on a desktop', () => {
  it('takes over with no input at all (no wait for a click, a key or an idle period)', async () => {
    const page = await openAtLoad(LONG_DOC);
    // No input is sent: the loader starts the scripts after the first frame
    // (test/unit/page-scripts.test.ts), and hydration follows.
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true', undefined, {
      timeout: Math.max(1, READY_WITHIN_MS - (await sinceLoad(page))),
    });
    expect(await sinceLoad(page)).toBeLessThanOrEqual(READY_WITHIN_MS);
  });

  it('the colour toggle switches the mode', async () => {
    const page = await openAtLoad(LONG_DOC);
    const toggle = page.getByRole('button', {name: /Switch between dark and light mode/});
    const before = await toggle.getAttribute('aria-label');
    const at = await readyAndDone(
      page,
      () => toggle.click(),
      // The label names the mode (light, dark or system); the page's theme follows it.
      (timeout) =>
        page.waitForFunction(
          (previous) =>
            document.querySelector('button[aria-label^="Switch between dark and light mode"]')?.getAttribute('aria-label') !== previous,
          before,
          {timeout},
        ),
    );
    expect(at).toBeLessThanOrEqual(READY_WITHIN_MS);
  });

  it('a navbar link navigates inside the app, without a page load', async () => {
    const page = await openAtLoad('/');
    await page.evaluate(() => Object.assign(window, {portalSamePage: true}));
    const at = await readyAndDone(
      page,
      () => page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: 'Documentation', exact: true}).click(),
      (timeout) => page.waitForURL(/\/getting-started\/introduction$/, {timeout, waitUntil: 'commit'}),
    );
    expect(at).toBeLessThanOrEqual(READY_WITHIN_MS);
    expect(await page.evaluate(() => (window as {portalSamePage?: boolean}).portalSamePage)).toBe(true);
  });

  it('search answers a typed word: at once with its loading state or suggestions, then with pages', async () => {
    const page = await openAtLoad(LONG_DOC);
    const at = await readyAndDone(
      page,
      async () => {
        const input = page.locator('input[aria-label="Search"]');
        await input.waitFor({timeout: READY_WITHIN_MS});
        await input.fill('gateway');
      },
      // The index (about 400 KB gzip) loads on first use; until it has, the
      // box shows the plugin's loading indicator.
      (timeout) => page.locator('.navbar__search[class*="searchIndexLoading"], [role="option"]').first().waitFor({timeout}),
    );
    expect(at).toBeLessThanOrEqual(READY_WITHIN_MS);
    await page.getByRole('option').first().waitFor();
    expect((await page.getByRole('option').allInnerTexts()).join(' ')).toMatch(/gateway/i);
  });

  it('"Sign in" starts the sign-in at the provider', async () => {
    const page = await openAtLoad(LONG_DOC);
    const at = await readyAndDone(
      page,
      () => page.getByRole('button', {name: 'Sign in'}).click(),
      (timeout) => page.waitForURL(`${suite.stack.providerUrl}/**`, {timeout}),
    );
    expect(at).toBeLessThanOrEqual(READY_WITHIN_MS);
  });

  it('the mobile menu opens with the docs sidebar in it, and its links navigate', async () => {
    const page = await openAtLoad(LONG_DOC, 390);
    const menu = page.locator('.navbar-sidebar');
    const at = await readyAndDone(
      page,
      () => page.getByRole('button', {name: 'Toggle navigation bar'}).click(),
      (timeout) => menu.getByRole('link', {name: 'API Gateway'}).waitFor({state: 'visible', timeout}),
    );
    expect(at).toBeLessThanOrEqual(READY_WITHIN_MS);
    await menu.getByRole('link', {name: 'API Gateway'}).click();
    await page.waitForURL(/\/services\/api-gateway$/, {waitUntil: 'commit'});
    // The menu closes after the reader picks a page.
    await page.locator('nav.navbar:not(.navbar-sidebar--show)').waitFor();
  });
});
