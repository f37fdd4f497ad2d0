/**
 * The sign-in layer under faults and bad conditions, in Chromium. Every case
 * ends with readable docs, a clear message where the user must act, and no
 * token in the address bar, the console or a request to a third party.
 */
import type {Page} from 'playwright-core';
import {browserSuite} from './support/suite';

jest.setTimeout(90_000);

let requestedUrls: string[] = [];
let consoleText: string[] = [];

const suite = browserSuite({
  setUpContext: async (context) => {
    requestedUrls = [];
    consoleText = [];
    context.on('request', (request) => requestedUrls.push(request.url()));
    context.on('page', (page) => page.on('console', (message) => consoleText.push(message.text())));
  },
  checkContext: (context) => {
    const addressBars = context.pages().map((page) => page.url());
    // Only the site and the sign-in provider are ever contacted.
    const origins = new Set(requestedUrls.map((url) => new URL(url).origin));
    expect([...origins].filter((origin) => origin !== suite.stack.siteUrl && origin !== suite.stack.providerUrl)).toEqual([]);
    // No JWT (eyJ…eyJ…) or refresh token parameter in any URL or console message.
    const jwt = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;
    for (const text of [...requestedUrls, ...addressBars, ...consoleText]) {
      expect(text).not.toMatch(jwt);
      expect(text).not.toMatch(/refresh_token=/);
    }
  },
});
const {open, signIn, expectProblems} = suite;
const userMenu = (page: Page) => suite.userMenu(page, /Devon Developer/);
const docsReadable = async (page: Page) => expect(page.locator('h1').first().isVisible()).resolves.toBe(true);

/** A page of /docs/ with Devon signed in and the session settled. */
async function signedInOnDocs() {
  const page = await open('/docs/');
  await signIn(page, /Devon Developer/);
  await userMenu(page).waitFor();
  return page;
}

it('provider down at page load: docs readable, a notice, and the session resumes when it is back, without a reload', async () => {
  expectProblems(/ERR_CONNECTION_REFUSED|Failed to fetch|net::/);
  const page = await signedInOnDocs();

  await suite.context.route(`${suite.stack.providerUrl}/**`, (route) => route.abort('connectionrefused'));
  await page.reload({waitUntil: 'load'});
  await docsReadable(page);
  await page.getByRole('status', {name: 'Sign-in service unreachable'}).waitFor();

  await suite.context.unroute(`${suite.stack.providerUrl}/**`);
  await userMenu(page).waitFor({timeout: 10_000});
});

it('provider answering 500 then recovering: the background refresh recovers without a reload', async () => {
  expectProblems(/status of 500/);
  const page = await signedInOnDocs();
  const before = (await suite.stack.providerStats()).faultsServed;
  await suite.stack.injectFault({status: 500, count: 2});
  await page.reload({waitUntil: 'load'});
  await docsReadable(page);
  await userMenu(page).waitFor({timeout: 10_000});
  // Both 500s were answered before the session came back.
  expect((await suite.stack.providerStats()).faultsServed - before).toBe(2);
});

it('provider answering HTML instead of JSON: the session is kept and resumes', async () => {
  const page = await signedInOnDocs();
  const before = (await suite.stack.providerStats()).faultsServed;
  await suite.stack.injectFault({status: 200, body: '<html><body>Gateway maintenance</body></html>', contentType: 'text/html', count: 1});
  await page.reload({waitUntil: 'load'});
  await docsReadable(page);
  await userMenu(page).waitFor({timeout: 10_000});
  expect((await suite.stack.providerStats()).faultsServed - before).toBe(1);
});

it('a 3 s slow provider: the docs render at once, the navbar shows its loading state, and nothing shifts', async () => {
  const page = await signedInOnDocs();
  await suite.stack.injectFault({delayMs: 3000, passThrough: true, count: 1});
  await page.addInitScript(() => {
    (window as unknown as {__shift: number}).__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {value: number; hadRecentInput: boolean})[]) {
        if (!entry.hadRecentInput) {
          (window as unknown as {__shift: number}).__shift += entry.value;
        }
      }
    }).observe({type: 'layout-shift', buffered: true});
  });
  await page.reload({waitUntil: 'load'});
  await docsReadable(page);
  // The docs and the loading state are on screen while the provider still
  // holds the refresh: the slow answer has not been served yet.
  await page.locator('nav [aria-busy="true"]').waitFor();
  expect(await userMenu(page).count()).toBe(0);
  await userMenu(page).waitFor({timeout: 10_000});
  await expect(page.evaluate(() => (window as unknown as {__shift: number}).__shift)).resolves.toBe(0);
});

it('a clock 10 minutes ahead: sign-in and reload still work', async () => {
  const page = await suite.context.newPage();
  await page.clock.setSystemTime(new Date(Date.now() + 10 * 60 * 1000));
  await open('/docs/', page);
  await signIn(page, /Devon Developer/);
  await userMenu(page).waitFor();
  await page.reload({waitUntil: 'networkidle'});
  await userMenu(page).waitFor();
});

it('10 pages refreshing at once: one refresh at a time, and all end signed in', async () => {
  const first = await open('/docs/');
  await signIn(first, /Devon Developer/);
  await userMenu(first).waitFor();
  const before = await suite.stack.providerStats();

  const pages = await Promise.all(Array.from({length: 10}, () => suite.context.newPage()));
  await Promise.all(pages.map((page) => open('/docs/', page)));
  await Promise.all(pages.map((page) => userMenu(page).waitFor({timeout: 20_000})));
  const after = await suite.stack.providerStats();
  expect(after.authenticateCalls).toBeGreaterThanOrEqual(before.authenticateCalls + 10);
  expect(after.maxInFlight).toBe(1);
});

it('storage that throws (private mode): the docs render and sign-in explains why it is unavailable', async () => {
  // Docusaurus itself reports that it cannot read the stored colour mode.
  expectProblems(/Docusaurus storage error/);
  await suite.context.addInitScript(() => {
    for (const name of ['localStorage', 'sessionStorage']) {
      Object.defineProperty(window, name, {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    }
  });
  const page = await open('/docs/');
  await docsReadable(page);
  await page.getByRole('button', {name: 'Sign in'}).click();
  await page.getByRole('status', {name: 'Sign-in unavailable'}).waitFor();
});

describe('hostile or broken callbacks', () => {
  /** Starts a sign-in as Devon and returns the callback URL the provider redirects to, without following it. */
  async function callbackUrl(page: Page): Promise<URL> {
    await open('/docs/', page);
    await page.getByRole('button', {name: 'Sign in'}).click();
    await page.waitForURL(`${suite.stack.providerUrl}/**`);
    // Playwright cannot intercept the redirect target itself, so catch the
    // provider's answer to the user's choice and read its Location header.
    const complete = `${suite.stack.providerUrl}/user_management/authorize/complete`;
    const captured = new Promise<URL>((resolve) => {
      void page.route(complete, async (route) => {
        const response = await route.fetch({maxRedirects: 0});
        resolve(new URL(response.headers().location ?? ''));
        // An empty icon link: no favicon request (and its 404) from this stand-in page.
        await route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: '<!doctype html><link rel="icon" href="data:,"><p>Redirect captured by the test.</p>',
        });
      });
    });
    await page.getByRole('button', {name: /Devon Developer/}).click();
    const target = await captured;
    await page.unroute(complete);
    return target;
  }

  it('a 10 KB code: refused with a visible message, the query cleared, the docs readable', async () => {
    expectProblems(/status of 400/, /authorization code is invalid/);
    const page = await suite.context.newPage();
    const target = await callbackUrl(page);
    target.searchParams.set('code', 'x'.repeat(10 * 1024));
    await page.goto(target.toString(), {waitUntil: 'load'});
    await page.getByRole('alert', {name: 'Sign-in failed'}).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await docsReadable(page);
  });

  it('a state that is not JSON: signed in, on the callback page', async () => {
    const page = await suite.context.newPage();
    const target = await callbackUrl(page);
    target.searchParams.set('state', 'not-json{');
    await page.goto(target.toString(), {waitUntil: 'load'});
    await userMenu(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(new URL(page.url()).search).toBe('');
  });

  it('a returnTo on another origin: signed in and kept on the site', async () => {
    const page = await suite.context.newPage();
    const target = await callbackUrl(page);
    target.searchParams.set('state', JSON.stringify({returnTo: 'https://evil.example/phish'}));
    await page.goto(target.toString(), {waitUntil: 'load'});
    await userMenu(page).waitFor();
    expect(new URL(page.url()).origin).toBe(suite.stack.siteUrl);
  });

  it('an expired or revoked refresh token: quietly signed out, nothing to act on', async () => {
    // The refused refresh (400) is logged by the browser; the user sees no error.
    expectProblems(/status of 400/);
    const page = await open('/docs/');
    await page.evaluate(() => localStorage.setItem('workos:refresh-token:client_local', 'expired-refresh-token'));
    await page.reload({waitUntil: 'networkidle'});
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
    await expect(page.evaluate(() => localStorage.getItem('workos:refresh-token:client_local'))).resolves.toBeNull();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
  });
});
