/**
 * axe-core over representative pages, in light and dark mode: no violation
 * of impact "serious" or "critical".
 */
import AxeBuilder from '@axe-core/playwright';
import type {Page} from 'playwright-core';
import {browserSuite} from './support/suite';

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

const suite = browserSuite();

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({page}).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${page.url()} [${violation.id}] ${violation.help}: ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
}

describe.each(['light', 'dark'] as const)('accessibility in %s mode', (mode) => {
  async function newPage(): Promise<Page> {
    const page = await suite.context.newPage();
    await page.emulateMedia({colorScheme: mode});
    // Choose the mode explicitly, as a reader using the toggle would.
    await page.addInitScript((theme) => localStorage.setItem('theme', theme), mode);
    return page;
  }

  it.each(PAGES)('%s has no serious or critical violations', async (route) => {
    if (route === '/no/such/page') {
      suite.expectProblems(/status of 404/);
    }
    const page = await suite.open(route, await newPage());
    // Mermaid diagrams render after load.
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.docusaurus-mermaid-container').length ===
        document.querySelectorAll('.docusaurus-mermaid-container svg').length,
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('the open user menu of a signed-in user has no serious or critical violations', async () => {
    const page = await suite.open('/docs/', await newPage());
    await suite.signIn(page, /Ada Admin/);
    await suite.userMenu(page, /Ada Admin/).click();
    await page.getByRole('group', {name: 'Account'}).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
