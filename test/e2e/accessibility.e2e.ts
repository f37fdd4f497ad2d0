/**
 * axe-core over representative pages, in light and dark mode: no violation
 * of impact "serious" or "critical".
 */
import AxeBuilder from '@axe-core/playwright';
import type {Browser, Page} from 'playwright-core';
import {launchBrowser} from './support/browser';
import {startStack, type Stack} from './support/stack';

jest.setTimeout(120_000);

const PAGES = [
  '/',
  '/docs/',
  '/markdown-page',
  '/docs/internal-developers/getting-started/introduction',
  '/docs/internal-developers/architecture/docker-setup',
  '/docs/internal-developers/development/make-commands-reference',
  '/docs/internal-developers/services/api-gateway',
  '/docs/internal-developers/shared-libraries/guards',
  '/docs/internal-developers/deployment/deployment-guide',
  '/no/such/page',
];

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({page}).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${page.url()} [${violation.id}] ${violation.help}: ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 5).join(', ')}`);
}

describe.each(['light', 'dark'] as const)('accessibility in %s mode', (mode) => {
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({viewport: {width: 1280, height: 800}, colorScheme: mode});
    const page = await context.newPage();
    // Choose the mode explicitly, as a reader using the toggle would.
    await page.addInitScript((theme) => localStorage.setItem('theme', theme), mode);
    return page;
  }

  it.each(PAGES)('%s has no serious or critical violations', async (route) => {
    const page = await newPage();
    await page.goto(`${stack.siteUrl}${route}`, {waitUntil: 'networkidle'});
    // Mermaid diagrams render after load.
    await page.waitForFunction(() => document.querySelectorAll('.docusaurus-mermaid-container').length === document.querySelectorAll('.docusaurus-mermaid-container svg').length);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('the open user menu of a signed-in user has no serious or critical violations', async () => {
    const page = await newPage();
    await page.goto(`${stack.siteUrl}/docs/`, {waitUntil: 'networkidle'});
    await page.getByRole('button', {name: 'Sign in'}).click();
    await page.getByRole('button', {name: /Ada Admin/}).click();
    await page.waitForURL(`${stack.siteUrl}/**`);
    await page.getByRole('navigation', {name: 'Main'}).getByRole('button', {name: /Ada Admin/}).click();
    await page.getByRole('group', {name: 'Account'}).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
