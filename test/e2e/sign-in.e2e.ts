/**
 * Sign-in in Chromium against the production build and the local provider.
 */
import type {Browser, BrowserContext, Page} from 'playwright-core';
import {launchBrowser, watchProblems, type PageProblems} from './support/browser';
import {startStack, type Stack} from './support/stack';

jest.setTimeout(60_000);

const DEEP_PAGE = '/docs/internal-developers/services/api-gateway#rate-limiting';

let stack: Stack;
let browser: Browser;
let context: BrowserContext;
let problems: PageProblems;
/** Console messages a test expects (the SDK logs failures it handles). */
let expectedProblems: RegExp[];

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

beforeEach(async () => {
  context = await browser.newContext({viewport: {width: 1280, height: 800}});
  problems = watchProblems(context);
  expectedProblems = [];
});

afterEach(async () => {
  await context.close();
  expect(problems.list.filter((problem) => !expectedProblems.some((pattern) => pattern.test(problem)))).toEqual([]);
});

async function open(route: string, page?: Page): Promise<Page> {
  const target = page ?? (await context.newPage());
  await target.goto(`${stack.siteUrl}${route}`, {waitUntil: 'networkidle'});
  return target;
}

/** Clicks "Sign in", picks the test user on the provider's page, and waits to be back on the site. */
async function signIn(page: Page, userName: RegExp): Promise<void> {
  await page.getByRole('button', {name: 'Sign in'}).click();
  await page.waitForURL(`${stack.providerUrl}/**`);
  await page.getByRole('button', {name: userName}).click();
  await page.waitForURL(`${stack.siteUrl}/**`);
}

function userMenu(page: Page, name: string) {
  return page.getByRole('navigation', {name: 'Main'}).getByRole('button', {name: new RegExp(name)});
}

describe('sign-in in the browser', () => {
  it('signs in from a deep page and returns to it with its hash, stays signed in on reload, and signs out', async () => {
    const page = await open(DEEP_PAGE);
    await signIn(page, /Ada Admin/);
    await userMenu(page, 'Ada Admin').waitFor();
    expect(page.url()).toBe(`${stack.siteUrl}${DEEP_PAGE}`);
    // No code, state or token ever stays in the address bar.
    expect(new URL(page.url()).search).toBe('');

    await page.reload({waitUntil: 'networkidle'});
    await userMenu(page, 'Ada Admin').waitFor();

    await userMenu(page, 'Ada Admin').click();
    await page.getByRole('group', {name: 'Account'}).getByRole('button', {name: 'Sign out'}).click();
    await page.waitForURL(`${stack.siteUrl}${DEEP_PAGE}`);
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
    await page.reload({waitUntil: 'networkidle'});
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
  });

  it('ignores a forged callback with a visible message, and the docs stay readable', async () => {
    expectedProblems = [/Couldn't exchange code/];
    const page = await open('/?code=forged-code');
    await page.getByRole('alert', {name: 'Sign-in link ignored'}).waitFor();
    await expect(page.locator('h1').first().isVisible()).resolves.toBe(true);
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
    expect(new URL(page.url()).search).toBe('');
  });

  it('shows "Sign-in failed" when the provider answers 500 to the code exchange, and the docs stay readable', async () => {
    expectedProblems = [/status of 500/, /Injected failure/];
    const page = await open('/docs/');
    await page.getByRole('button', {name: 'Sign in'}).click();
    await page.waitForURL(`${stack.providerUrl}/**`);
    await stack.injectFault({status: 500, count: 1});
    await page.getByRole('button', {name: /Devon Developer/}).click();
    await page.getByRole('alert', {name: 'Sign-in failed'}).waitFor();
    await expect(page.locator('h1').first().isVisible()).resolves.toBe(true);
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
  });

  it('shows the impersonation banner for an impersonated session', async () => {
    const page = await open('/docs/');
    await signIn(page, /Imani Customer/);
    const banner = page.getByRole('status', {name: 'Impersonation'});
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toContain('impersonated by support.lead@acme.test');
    await expect(banner.textContent()).resolves.toContain('Reason: Reproducing ticket SUP-4821.');
  });

  it('ends signed in on two tabs that refresh the session at the same time', async () => {
    const first = await open('/docs/');
    await signIn(first, /Devon Developer/);
    await userMenu(first, 'Devon Developer').waitFor();

    // Both tabs load at once: each refreshes with the rotating refresh token,
    // one at a time under the SDK's cross-tab lock.
    const [second, third] = await Promise.all([context.newPage(), context.newPage()]);
    await Promise.all([open('/docs/', second), open('/', third)]);
    await Promise.all([userMenu(second, 'Devon Developer').waitFor(), userMenu(third, 'Devon Developer').waitFor()]);
    await first.reload({waitUntil: 'networkidle'});
    await userMenu(first, 'Devon Developer').waitFor();
  });
});
