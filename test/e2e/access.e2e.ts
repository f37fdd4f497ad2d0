/**
 * Pages that need sign-in, in Chromium against the gate server: what a
 * signed-out reader, a developer and an admin each get, from the HTML and the
 * JS chunks (the server's answer, not only what the page shows).
 */
import type {Page} from 'playwright-core';
import {restrictedScripts} from '../../plugins/access/manifest';
import {builtPage} from '../support/builtManifest';
import {bodySentence} from '../support/pageText';
import {browserSuite} from './support/suite';

jest.setTimeout(60_000);

const DEPLOYMENT_GUIDE = builtPage('docs/internal-developers/deployment/deployment-guide.md');
const ADMIN_SERVICE = builtPage('docs/internal-developers/services/admin-service.md');

const suite = browserSuite();
const {open, expectProblems} = suite;

async function signInFromPage(page: Page, userName: RegExp): Promise<void> {
  const {siteUrl, providerUrl} = suite.stack;
  await page.getByRole('navigation', {name: 'Main'}).getByRole('button', {name: 'Sign in'}).click();
  await page.waitForURL(`${providerUrl}/**`);
  await page.getByRole('button', {name: userName}).click();
  await page.waitForURL(`${siteUrl}/**`);
}

const sidebarLink = (page: Page, label: string) =>
  page.getByRole('navigation', {name: 'Docs sidebar'}).locator('a.menu__link', {hasText: new RegExp(`^${label}$`)});
/** The lock's CSS content ('none' without a lock); its text alternative is part of the link's accessible name. */
const lockOf = (page: Page, label: string) =>
  sidebarLink(page, label).evaluate((link) => getComputedStyle(link, '::after').getPropertyValue('content'));

describe('restricted pages', () => {
  it('signed out: the server sends the title and no content, for HTML fetched without JavaScript and for the chunk', async () => {
    const sentence = bodySentence(DEPLOYMENT_GUIDE.source);
    const response = await fetch(`${suite.stack.siteUrl}${DEPLOYMENT_GUIDE.route}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(DEPLOYMENT_GUIDE.title);
    expect(html).toContain('noindex');
    expect(html).not.toContain(sentence);
    // The members' chunk of a restricted page is refused outright.
    const chunk = await fetch(`${suite.stack.siteUrl}/${restrictedScripts(DEPLOYMENT_GUIDE)[0]}`);
    expect(chunk.status).toBe(403);
    expect(await chunk.text()).not.toContain(sentence.slice(0, 40));
  });

  it('signed out: a lock in the sidebar and "Sign in to read this page"; after sign-in the reader lands on the page with its content', async () => {
    const page = await open(DEPLOYMENT_GUIDE.route);
    await page.getByText('Sign in to read this page').waitFor();
    expect(await lockOf(page, 'Deployment Guide')).not.toBe('none');
    await page.getByRole('link', {name: 'Deployment Guide (sign-in required)'}).waitFor();
    expect(await lockOf(page, 'Introduction')).toBe('none');

    await page.locator('[data-restricted-page]').getByRole('button', {name: 'Sign in'}).click();
    await page.waitForURL(`${suite.stack.providerUrl}/**`);
    await page.getByRole('button', {name: /Devon Developer/}).click();
    await page.waitForURL(`${suite.stack.siteUrl}${DEPLOYMENT_GUIDE.route}`);
    await page.getByText(bodySentence(DEPLOYMENT_GUIDE.source)).waitFor();
    expect(await page.locator('[data-restricted-page]').count()).toBe(0);
    // Only-sign-in pages lose their lock; the admin page keeps it.
    await suite.userMenu(page, /Devon Developer/).waitFor();
    expect(await lockOf(page, 'Deployment Guide')).toBe('none');
    expect(await lockOf(page, 'Admin Service')).not.toBe('none');
  });

  it('as a developer: the admin page says which role is missing, and the gate refuses its chunk', async () => {
    // The refused chunk when following the sidebar link (Docusaurus then loads the page from the server);
    // the refusal is text with nosniff, which the browser also reports as a script it will not run.
    expectProblems(/status of 403/, /Loading chunk|ChunkLoadError/, /Refused to execute script from .*MIME type \('text\/plain'\)/);
    const page = await open('/docs/');
    await signInFromPage(page, /Devon Developer/);
    await suite.userMenu(page, /Devon Developer/).waitFor();

    const refused = await page.request.get(`${suite.stack.siteUrl}/${restrictedScripts(ADMIN_SERVICE)[0]}`);
    expect(refused.status()).toBe(403);

    await page.getByRole('link', {name: 'Admin Service (restricted by role)'}).click();
    await page.getByText('You need the admin role').waitFor();
    await expect(page.locator('h1').first().textContent()).resolves.toBe(ADMIN_SERVICE.title);
    expect(await page.content()).not.toContain(bodySentence(ADMIN_SERVICE.source));

    // The admin page came from the public build; a page the developer may read,
    // reached from there by a client-side navigation, opens with its content.
    await sidebarLink(page, 'Deployment Guide').click();
    await page.waitForURL(`${suite.stack.siteUrl}${DEPLOYMENT_GUIDE.route}`);
    await page.getByText(bodySentence(DEPLOYMENT_GUIDE.source)).waitFor({timeout: 10_000});
    expect(await page.locator('[data-restricted-page]').count()).toBe(0);
  });

  it('as an admin: the admin page renders, and sign-out withholds restricted pages again', async () => {
    const page = await open(ADMIN_SERVICE.route);
    await page.getByText('Sign in to read this page').waitFor();
    await signInFromPage(page, /Ada Admin/);
    const sentence = bodySentence(ADMIN_SERVICE.source);
    await page.getByText(sentence).waitFor();
    const allowed = await page.request.get(`${suite.stack.siteUrl}/${restrictedScripts(ADMIN_SERVICE)[0]}`);
    expect(allowed.status()).toBe(200);
    const sessionCookie = async () => (await suite.context.cookies()).find((candidate) => candidate.name === 'portal_session');
    const cookie = await sessionCookie();
    expect(cookie).toMatchObject({httpOnly: true, sameSite: 'Lax'});

    // Every SDK refresh renews the gate's cookie: a reload restores the session with a new token.
    // The answer is read in full before the page gets it, so a later navigation cannot take its body away.
    const renewal = new Promise<unknown>((resolve) => {
      void page.route('**/_portal/session', async (route) => {
        if (route.request().method() !== 'POST') {
          return route.continue();
        }
        const response = await route.fetch();
        resolve(await response.json());
        return route.fulfill({response});
      });
    });
    await page.reload();
    await expect(renewal).resolves.toMatchObject({hadSession: true});
    await page.unroute('**/_portal/session');
    await page.getByText(sentence).waitFor();
    expect((await sessionCookie())?.value).not.toBe(cookie?.value);

    await suite.userMenu(page, /Ada Admin/).click();
    await page.getByRole('group', {name: 'Account'}).getByRole('button', {name: 'Sign out'}).click();
    await page.getByText('Sign in to read this page').waitFor();
    expect((await suite.context.cookies()).some((candidate) => candidate.name === 'portal_session')).toBe(false);
    const afterSignOut = await page.request.get(`${suite.stack.siteUrl}${ADMIN_SERVICE.route}`);
    expect(await afterSignOut.text()).not.toContain(sentence);
  });

  it('refuses a forged token and a cross-site session request', async () => {
    const {header, payload} = {
      header: Buffer.from(JSON.stringify({alg: 'RS256', kid: 'x'})).toString('base64url'),
      payload: Buffer.from(JSON.stringify({sub: 'user_admin', roles: ['admin'], exp: 4_102_444_800, iat: 1, sid: 's'})).toString(
        'base64url',
      ),
    };
    const forged = await fetch(`${suite.stack.siteUrl}/_portal/session`, {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({accessToken: `${header}.${payload}.c2ln`}),
    });
    expect(forged.status).toBe(401);
    // A refused token ends any session: the cookie is cleared, never set.
    expect(forged.headers.get('set-cookie') ?? '').toMatch(/^portal_session=;.*Max-Age=0/);
    const crossSite = await fetch(`${suite.stack.siteUrl}/_portal/session`, {
      method: 'POST',
      headers: {Origin: 'https://evil.example', 'Content-Type': 'application/json'},
      body: JSON.stringify({accessToken: 'a.b.c'}),
    });
    expect(crossSite.status).toBe(403);
    // A forged cookie gets the public page.
    const withForgedCookie = await fetch(`${suite.stack.siteUrl}${ADMIN_SERVICE.route}`, {
      headers: {Cookie: `portal_session=${header}.${payload}.c2ln`},
    });
    expect(await withForgedCookie.text()).not.toContain(bodySentence(ADMIN_SERVICE.source));
  });
});
