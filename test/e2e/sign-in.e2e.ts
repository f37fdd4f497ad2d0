/**
 * Sign-in in Chromium against the production build and the local provider.
 */
import type {Page} from 'playwright-core';
import {browserSuite} from './support/suite';

jest.setTimeout(60_000);

const DEEP_PAGE = '/docs/internal-developers/services/api-gateway#rate-limiting';

const suite = browserSuite();
const {open, signIn, expectProblems} = suite;
const userMenu = (page: Page, name: string) => suite.userMenu(page, new RegExp(name));

describe('sign-in in the browser', () => {
  it('signs in from a deep page and returns to it with its hash, stays signed in on reload, and signs out', async () => {
    const page = await open(DEEP_PAGE);
    await signIn(page, /Ada Admin/);
    await userMenu(page, 'Ada Admin').waitFor();
    expect(page.url()).toBe(`${suite.stack.siteUrl}${DEEP_PAGE}`);
    // No code, state or token ever stays in the address bar.
    expect(new URL(page.url()).search).toBe('');

    await page.reload({waitUntil: 'networkidle'});
    await userMenu(page, 'Ada Admin').waitFor();

    await userMenu(page, 'Ada Admin').click();
    await page.getByRole('group', {name: 'Account'}).getByRole('button', {name: 'Sign out'}).click();
    await page.waitForURL(`${suite.stack.siteUrl}${DEEP_PAGE}`);
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
    await page.reload({waitUntil: 'networkidle'});
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
  });

  it("signing out in one tab signs out the reader's other tabs", async () => {
    const first = await open('/docs/');
    await signIn(first, /Devon Developer/);
    await userMenu(first, 'Devon Developer').waitFor();
    const second = await open(DEEP_PAGE, await suite.context.newPage());
    await userMenu(second, 'Devon Developer').waitFor();

    await userMenu(first, 'Devon Developer').click();
    await first.getByRole('group', {name: 'Account'}).getByRole('button', {name: 'Sign out'}).click();
    await first.getByRole('button', {name: 'Sign in'}).waitFor();
    // The other tab shows itself signed out, on the same page, without the reader doing anything.
    await second.getByRole('status', {name: 'Signed out'}).waitFor();
    await second.getByRole('button', {name: 'Sign in'}).waitFor();
    expect(second.url()).toBe(`${suite.stack.siteUrl}${DEEP_PAGE}`);
    // Its next page load is signed out too.
    await second.reload({waitUntil: 'networkidle'});
    await second.getByRole('button', {name: 'Sign in'}).waitFor();
  });

  it('ignores a forged callback with a visible message, and the docs stay readable', async () => {
    expectProblems(/Couldn't exchange code/);
    const page = await open('/?code=forged-code');
    await page.getByRole('alert', {name: 'Sign-in link ignored'}).waitFor();
    await expect(page.locator('h1').first().isVisible()).resolves.toBe(true);
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
    expect(new URL(page.url()).search).toBe('');
  });

  it('shows "Sign-in failed" when the provider answers 500 to the code exchange, and the docs stay readable', async () => {
    expectProblems(/status of 500/, /Injected failure/);
    const page = await open('/docs/');
    await page.getByRole('button', {name: 'Sign in'}).click();
    await page.waitForURL(`${suite.stack.providerUrl}/**`);
    await suite.stack.injectFault({status: 500, count: 1});
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
    const [second, third] = await Promise.all([suite.context.newPage(), suite.context.newPage()]);
    await Promise.all([open('/docs/', second), open('/', third)]);
    await Promise.all([userMenu(second, 'Devon Developer').waitFor(), userMenu(third, 'Devon Developer').waitFor()]);
    await first.reload({waitUntil: 'networkidle'});
    await userMenu(first, 'Devon Developer').waitFor();
  });
});
