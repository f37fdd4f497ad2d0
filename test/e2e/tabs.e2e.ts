/**
 * Tabs (Docusaurus's own): the tab the server sent is the one shown once the
 * page hydrates; a reader's remembered choice still shows; mouse and keyboard
 * switch tabs.
 */
import type {Page} from 'playwright-core';
import {browserSuite, hydrated} from './support/suite';

jest.setTimeout(120_000);

/** The long doc's install steps: macOS, Linux and Windows tabs (groupId "os"), macOS first. */
const LONG_DOC = '/docs/internal-developers/getting-started/introduction';
/** Where Docusaurus keeps the choice of a tab group (`docusaurus.tab.<groupId>`, storage not namespaced). */
const OS_CHOICE_KEY = 'docusaurus.tab.os';

const suite = browserSuite();

/** The OS tabs: which tab is selected, and which panels are shown. */
function osTabs(page: Page) {
  const container = page.locator('.theme-tabs-container').filter({has: page.getByRole('tab', {name: 'Linux'})});
  return {
    tab: (name: RegExp) => container.getByRole('tab', {name}),
    state: () =>
      container.evaluate((element) => ({
        selected: Array.from(element.querySelectorAll('[role="tab"][aria-selected="true"]'), (tab) => tab.textContent),
        shown: Array.from(element.querySelectorAll('[role="tabpanel"]'))
          .filter((panel) => !panel.hasAttribute('hidden'))
          .map((panel) => panel.querySelector('pre code')?.textContent?.split('\n')[0] ?? ''),
      })),
  };
}

describe('tabs', () => {
  it('show the tab the server sent once the page hydrates, when no choice is remembered', async () => {
    const page = await suite.context.newPage();
    await page.goto(`${suite.stack.siteUrl}${LONG_DOC}`, {waitUntil: 'domcontentloaded'});
    const tabs = osTabs(page);
    const sent = await tabs.state();
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    expect(sent).toEqual({selected: ['macOS'], shown: [expect.stringContaining('xcode-select')]});
    await expect(tabs.state()).resolves.toEqual(sent);
  });

  it("show the reader's remembered choice once the page hydrates", async () => {
    const page = await suite.open('/');
    await page.evaluate((key) => localStorage.setItem(key, 'linux'), OS_CHOICE_KEY);
    await suite.open(LONG_DOC, page);
    await hydrated(page);
    const tabs = osTabs(page);
    await expect(tabs.state()).resolves.toEqual({selected: ['Linux'], shown: [expect.stringContaining('sudo apt-get update')]});
  });

  it('switch with the mouse and the keyboard, and remember the choice', async () => {
    const page = await suite.open(LONG_DOC);
    await hydrated(page);
    const tabs = osTabs(page);
    await expect(tabs.state()).resolves.toEqual({selected: ['macOS'], shown: [expect.stringContaining('xcode-select')]});

    await tabs.tab(/Windows/).click();
    await expect(tabs.state()).resolves.toMatchObject({selected: ['Windows (WSL 2)']});
    expect(await page.evaluate((key) => localStorage.getItem(key), OS_CHOICE_KEY)).toBe('windows');

    // Arrow keys move the focus along the tab list (wrapping round); Enter selects.
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await tabs.tab(/Windows/).focus();
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('macOS');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('Linux');
    await page.keyboard.press('Enter');
    await expect(tabs.state()).resolves.toEqual({selected: ['Linux'], shown: [expect.stringContaining('sudo apt-get update')]});
  });
});
