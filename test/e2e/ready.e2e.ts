/**
 * The speed work moved code out of the first load (src/ssr/pageScripts.ts,
 * src/clientModules/idlePrefetch.ts, src/components/MobileMenu,
 * src/components/CodeBlock). This checks it did not move what readers reach
 * for first: on a desktop, with no input, the app takes over by itself, and
 * the navbar, the colour toggle, search, sign-in and the mobile menu each
 * become ready, and then do their job.
 *
 * "Ready" is seen in the page, in the first animation frame in which the
 * control can act: the app has hydrated (React handles its events) and the
 * control is enabled. How soon that happens is a benchmark's question
 * (`npm run bench`, Lighthouse), not a pass/fail threshold here: these assert the
 * order of events and the state, never a duration.
 */
import type {BrowserContext, Page} from 'playwright-core';
import {browserSuite, hydrated} from './support/suite';

jest.setTimeout(120_000);

const LONG_DOC = '/docs/internal-developers/getting-started/introduction';

/** What makes each control ready, besides the app having hydrated. */
const CONTROLS = {
  navbar: 'nav.navbar a.navbar__link',
  colourToggle: 'button[aria-label^="Switch between dark and light mode"]:not([disabled])',
  search: 'input[aria-label="Search"]:not([disabled])',
  // Disabled ("Checking your session…") until the sign-in SDK has answered.
  signIn: 'nav.navbar button[class*="signIn"]:not([disabled])',
  mobileMenu: 'button[aria-label="Toggle navigation bar"]',
} as const;
type Control = keyof typeof CONTROLS;

/** What the page saw of a control becoming ready: how many input events had reached the page by then. */
interface Readiness {
  inputsBefore: number;
}

/**
 * Records, per control, the first frame it is ready, and counts the reader's
 * input events (pointer, key, wheel, touch) the page receives. Runs in every
 * page before its scripts.
 */
async function recordReadiness(context: BrowserContext): Promise<void> {
  await context.addInitScript((controls: Record<string, string>) => {
    const ready: Record<string, {inputsBefore: number}> = {};
    let inputs = 0;
    for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart']) {
      window.addEventListener(type, () => (inputs += 1), {capture: true, passive: true});
    }
    Object.assign(window, {portalReady: ready});
    const frame = () => {
      if (document.documentElement.dataset.hasHydrated === 'true') {
        for (const [name, selector] of Object.entries(controls)) {
          if (ready[name] === undefined && document.querySelector(selector)) {
            ready[name] = {inputsBefore: inputs};
          }
        }
      }
      if (Object.keys(ready).length < Object.keys(controls).length) {
        requestAnimationFrame(frame);
      }
    };
    requestAnimationFrame(frame);
  }, CONTROLS);
}

const suite = browserSuite({setUpContext: recordReadiness});

async function open(route: string, width = 1280): Promise<Page> {
  const page = await suite.context.newPage();
  await page.setViewportSize({width, height: 800});
  await page.goto(`${suite.stack.siteUrl}${route}`, {waitUntil: 'load'});
  return page;
}

/** Waits for the frame in which the control became ready (after hydration), and returns what the page saw then. */
async function becomesReady(page: Page, control: Control): Promise<Readiness> {
  await page.waitForFunction((name) => (window as {portalReady?: Record<string, Readiness>}).portalReady?.[name] !== undefined, control);
  return page.evaluate((name) => (window as unknown as {portalReady: Record<string, Readiness>}).portalReady[name]!, control);
}

/** Ready after hydration, with no input from the reader before it. */
async function expectReadyByItself(page: Page, control: Control): Promise<void> {
  expect(await becomesReady(page, control)).toEqual({inputsBefore: 0});
  expect(await page.evaluate(() => document.documentElement.dataset.hasHydrated)).toBe('true');
}

describe('ready by itself after load, on a desktop', () => {
  it('takes over with no input at all (no wait for a click, a key or an idle period)', async () => {
    // Nothing is sent to the page: the loader starts the scripts after the
    // first frame (test/unit/page-scripts.test.ts) and hydration follows.
    const page = await open(LONG_DOC);
    await expectReadyByItself(page, 'navbar');
  });

  it('the colour toggle switches the mode', async () => {
    const page = await open(LONG_DOC);
    await expectReadyByItself(page, 'colourToggle');
    const toggle = page.getByRole('button', {name: /Switch between dark and light mode/});
    const before = await toggle.getAttribute('aria-label');
    await toggle.click();
    // The label names the mode (light, dark or system); the page's theme follows it.
    await page.waitForFunction(
      (previous) =>
        document.querySelector('button[aria-label^="Switch between dark and light mode"]')?.getAttribute('aria-label') !== previous,
      before,
    );
  });

  it('a navbar link navigates inside the app, without a page load', async () => {
    const page = await open('/');
    await expectReadyByItself(page, 'navbar');
    await page.evaluate(() => Object.assign(window, {portalSamePage: true}));
    await page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: 'Documentation', exact: true}).click();
    await page.waitForURL(/\/getting-started\/introduction$/, {waitUntil: 'commit'});
    await page.getByRole('heading', {level: 1}).waitFor();
    expect(await page.evaluate(() => (window as {portalSamePage?: boolean}).portalSamePage)).toBe(true);
  });

  it('search suggests pages for a typed word', async () => {
    const page = await open(LONG_DOC);
    await expectReadyByItself(page, 'search');
    // The index (about 400 KB gzip) loads on first use.
    await page.locator('input[aria-label="Search"]').fill('gateway');
    await page.getByRole('option').first().waitFor();
    expect((await page.getByRole('option').allInnerTexts()).join(' ')).toMatch(/gateway/i);
  });

  it('"Sign in" starts the sign-in at the provider', async () => {
    const page = await open(LONG_DOC);
    await expectReadyByItself(page, 'signIn');
    await page.getByRole('button', {name: 'Sign in'}).click();
    await page.waitForURL(`${suite.stack.providerUrl}/**`);
  });

  it('the mobile menu opens with the docs sidebar in it, and its links navigate', async () => {
    const page = await open(LONG_DOC, 390);
    await expectReadyByItself(page, 'mobileMenu');
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    const menu = page.locator('.navbar-sidebar');
    // The docs panel (src/theme/DocSidebar hands it over), with this page marked as the current one.
    await expect(menu.locator('.theme-doc-sidebar-menu a[aria-current="page"]').innerText()).resolves.toBe('Introduction');
    await menu.getByRole('link', {name: 'API Gateway'}).click();
    await page.waitForURL(/\/services\/api-gateway$/, {waitUntil: 'commit'});
    // The menu closes after the reader picks a page.
    await page.locator('nav.navbar:not(.navbar-sidebar--show)').waitFor();
  });
});

describe('work kept out of the first load', () => {
  it('a phone loading doc pages never sets up collation data (no localeCompare call)', async () => {
    // The page's first localeCompare loads the browser's collation data, a
    // task of 40 to 90 ms at 4× CPU throttling (bench/README.md, Front-end performance); the
    // docs menu's hand-over used to make it (src/theme/DocSidebar).
    const page = await suite.context.newPage();
    await page.setViewportSize({width: 390, height: 800});
    await page.addInitScript(() => {
      const localeCompare = String.prototype.localeCompare;
      const callers: string[] = [];
      Object.assign(window, {portalLocaleCompareCallers: callers});
      String.prototype.localeCompare = function (this: string, ...args: Parameters<typeof localeCompare>) {
        callers.push(new Error().stack?.split('\n').slice(2, 4).join(' ') ?? '?');
        return localeCompare.apply(this, args);
      };
    });
    for (const route of [LONG_DOC, '/docs/internal-developers/services/api-gateway', '/']) {
      await page.goto(`${suite.stack.siteUrl}${route}`, {waitUntil: 'load'});
      await hydrated(page);
      // Let the takeover's transition and the effects after it finish.
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, {timeout: 5000})));
      const callers = await page.evaluate(() => (window as unknown as {portalLocaleCompareCallers: string[]}).portalLocaleCompareCallers);
      expect([route, callers]).toEqual([route, []]);
    }
  });
});
