/**
 * The site as a reader sees it, in Chromium against the production build.
 */
import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import type {Page} from 'playwright-core';
import config from '../../docusaurus.config';
import sidebars from '../../sidebars';
import {frontMatterTitle as readTitle} from '../../plugins/support/frontMatter';
import {browserSuite, hydrated} from './support/suite';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
const DOC_IDS = sidebars.internalDevelopersSidebar.flatMap((category) => category.items);

const suite = browserSuite();
const {open, expectProblems} = suite;

/** Client-side navigation changes the URL before the new page renders: wait for its h1. */
async function waitForHeading(page: Page, text: string): Promise<void> {
  await page.waitForFunction((expected) => document.querySelector('h1')?.textContent === expected, text);
}

const frontMatterTitle = (file: string) => readTitle(path.join(ROOT, file));

describe('routes', () => {
  it('serves every spec route with its title and h1', async () => {
    const routes: [string, string, string][] = [
      ['/', 'Developer Portal', `${config.tagline} | Developer Portal`],
      ...[
        ['/markdown-page', frontMatterTitle('src/pages/markdown-page.md')],
        ['/docs/', frontMatterTitle('docs/internal-developers/README.md')],
        ...DOC_IDS.map((id) => [`/docs/${id}`, frontMatterTitle(`docs/${id}.md`)]),
      ].map(([route, title]): [string, string, string] => [route as string, title as string, `${title} | Developer Portal`]),
    ];
    const page = await suite.context.newPage();
    for (const [route, heading, title] of routes) {
      await open(route, page, 'load');
      await expect(page.locator('h1').first().textContent()).resolves.toBe(heading);
      // The head is managed by React after hydration: wait for it to settle.
      await page.waitForFunction((expected) => document.title === expected, title);
    }
  });

  it('shows the not-found page for an unknown path', async () => {
    // The browser logs the 404 status itself; that is this test's expected outcome.
    expectProblems(/status of 404/);
    const page = await suite.context.newPage();
    for (const path of ['/no/such/page', '/docs/no-such-page', '/docs/internal-developers/services/api-gateway/extra']) {
      const response = await page.goto(`${suite.stack.siteUrl}${path}`, {waitUntil: 'load'});
      expect(response?.status()).toBe(404);
      await expect(page.locator('h1').textContent()).resolves.toBe('Page Not Found');
      // Also once the scripts have taken over (under /docs/ the docs plugin renders the not-found content itself).
      await hydrated(page);
      await expect(page.title()).resolves.toMatch(/^Page Not Found \|/);
    }
  });

  it.each([
    ['/docs/internal-developers/services/api-gateway.html', '/docs/internal-developers/services/api-gateway'],
    ['/docs/index.html', '/docs'],
  ])('normalises %s to the clean route', async (from, to) => {
    const page = await open(from);
    expect(new URL(page.url()).pathname.replace(/\/$/, '')).toBe(to);
    await expect(page.locator('article h1, main h1').first().isVisible()).resolves.toBe(true);
  });
});

describe('site chrome', () => {
  it('a healthy home page never shows the base-URL banner, also after its scripts have run', async () => {
    const page = await open('/');
    await page.waitForFunction(() => typeof (window as {docusaurus?: unknown}).docusaurus !== 'undefined');
    await page.getByRole('heading', {level: 1}).waitFor();
    expect(await page.locator('#portal-base-url-issue-banner').count()).toBe(0);
  });

  it('skip-to-content moves focus to the main content', async () => {
    const page = await open('/docs/');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', {name: 'Skip to main content'});
    await expect(skip.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    // Docusaurus focuses <main> and moves the keyboard's starting point there
    // (Chromium then drops focus from the non-focusable main, by design), so
    // the next Tab lands on the first control inside the main content.
    await page.keyboard.press('Tab');
    const focusedInMain = await page.evaluate(() => Boolean(document.activeElement?.closest('main')));
    expect(focusedInMain).toBe(true);
  });

  it('the announcement bar closes, stays closed after reload, and returns when its id changes', async () => {
    const page = await open('/');
    const bar = page.locator('.theme-announcement-bar');
    await expect(bar.isVisible()).resolves.toBe(true);
    await bar.getByRole('button', {name: 'Close'}).click();
    await expect(bar.count()).resolves.toBe(0);
    await page.reload({waitUntil: 'networkidle'});
    await expect(page.locator('.theme-announcement-bar').count()).resolves.toBe(0);

    // A new announcement (another id) must show even to people who closed the old one.
    await page.evaluate(() => localStorage.setItem('docusaurus.announcement.id', 'an-older-announcement'));
    await page.reload({waitUntil: 'networkidle'});
    await expect(page.locator('.theme-announcement-bar').isVisible()).resolves.toBe(true);
  });

  it('the navbar hides when scrolling down and returns when scrolling up', async () => {
    const page = await open('/docs/internal-developers/services/api-gateway');
    const isHidden = () =>
      Array.from(document.querySelector('nav.navbar')?.classList ?? []).some((name) => name.startsWith('navbarHidden'));
    await page.mouse.move(640, 400);
    for (const delta of [300, 300, 300]) {
      await page.mouse.wheel(0, delta);
      await page.waitForFunction((target) => window.scrollY >= target, delta);
    }
    await page.waitForFunction(isHidden);
    await page.mouse.wheel(0, -200);
    await page.waitForFunction(
      () => !Array.from(document.querySelector('nav.navbar')?.classList ?? []).some((name) => name.startsWith('navbarHidden')),
    );
  });

  it('the docs-version dropdown lists the version and remembers it as the preferred one in local storage', async () => {
    const page = await open('/docs/internal-developers/services/api-gateway');
    await hydrated(page);
    const dropdown = page.locator('.navbar__items--right .dropdown').filter({has: page.getByRole('button', {name: 'Next'})});
    await dropdown.hover();
    const menu = dropdown.locator('.dropdown__menu');
    await menu.getByText('No earlier versions published').waitFor({state: 'visible'});
    await menu.getByRole('link', {name: 'Next'}).click();
    await page.waitForFunction(() => localStorage.getItem('docs-preferred-version-default') === 'current');
  });

  it('"Documentation" opens the docs', async () => {
    const page = await open('/');
    await page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: 'Documentation'}).click();
    await page.waitForURL(/\/docs\/internal-developers\/getting-started\/introduction$/);
    await waitForHeading(page, 'Introduction');
  });

  it('at 800 px the menu button opens the mobile sidebar with the same items', async () => {
    const page = await suite.context.newPage();
    await page.setViewportSize({width: 800, height: 900});
    await open('/', page);
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    const sidebar = page.locator('.navbar-sidebar');
    // The sidebar slides in: wait for it to be shown before checking what it holds.
    await page.locator('.navbar-sidebar--show').waitFor();
    await sidebar.getByRole('link', {name: 'Documentation'}).waitFor();
    await expect(sidebar.getByRole('link', {name: 'Documentation'}).isVisible()).resolves.toBe(true);
    await expect(sidebar.getByRole('button', {name: 'Sign in'}).isVisible()).resolves.toBe(true);
    await expect(sidebar.getByText('Languages').isVisible()).resolves.toBe(true);
  });

  it('on a phone, nothing of the navbar shows through the open mobile menu', async () => {
    const page = await suite.context.newPage();
    await page.setViewportSize({width: 390, height: 844});
    await open('/docs/internal-developers/services/api-gateway', page);
    await hydrated(page);
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    await page.locator('.navbar-sidebar--show').waitFor();
    await page.locator('.navbar-sidebar').getByText('Back to main menu').waitFor({state: 'visible'});
    // What the reader sees at each navbar control's centre is the menu or its
    // backdrop. Hit testing skips elements without pointer events (such as the
    // search icon), so they get them back for the test; painting order is unchanged.
    await page.addStyleTag({content: '.navbar__inner * { pointer-events: auto !important; }'});
    const covered = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.navbar__inner *'))
        .filter((element) => element.getBoundingClientRect().width > 0 && !element.closest('.navbar-sidebar'))
        .map((element) => {
          const box = element.getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return {element: element.outerHTML.slice(0, 80), covered: Boolean(top?.closest('.navbar-sidebar, .navbar-sidebar__backdrop'))};
        })
        .filter(({covered: isCovered}) => !isCovered),
    );
    expect(covered).toEqual([]);
  });

  it('the open mobile menu keeps keyboard focus inside it, and Escape or its close button closes it back onto the menu button', async () => {
    const page = await suite.context.newPage();
    await page.setViewportSize({width: 412, height: 823});
    await open('/docs/internal-developers/services/api-gateway', page);
    const insideMenu = () => page.evaluate(() => document.querySelector('.navbar-sidebar')?.contains(document.activeElement) ?? false);
    const onMenuButton = () => page.evaluate(() => document.activeElement?.matches('.navbar__toggle') ?? false);

    for (const close of ['Escape', 'close button'] as const) {
      await page.getByRole('button', {name: 'Toggle navigation bar'}).focus();
      await page.keyboard.press('Enter');
      await page.locator('.navbar-sidebar--show').waitFor();
      await page.waitForFunction(() => document.querySelector('.navbar-sidebar')?.contains(document.activeElement));
      // Forwards past the end and backwards past the start, focus stays in the menu.
      for (let step = 0; step < 30; step += 1) {
        await page.keyboard.press('Tab');
        expect([close, 'Tab', step, await insideMenu()]).toEqual([close, 'Tab', step, true]);
      }
      for (let step = 0; step < 30; step += 1) {
        await page.keyboard.press('Shift+Tab');
        expect([close, 'Shift+Tab', step, await insideMenu()]).toEqual([close, 'Shift+Tab', step, true]);
      }
      if (close === 'Escape') {
        await page.keyboard.press('Escape');
      } else {
        await page.getByRole('button', {name: 'Close navigation bar'}).focus();
        await page.keyboard.press('Enter');
      }
      await page.locator('.navbar-sidebar--show').waitFor({state: 'detached'});
      expect([close, await onMenuButton()]).toEqual([close, true]);
    }
  });

  it('colour mode cycles light, dark, system; is stored under "theme"; survives reload; follows a second tab', async () => {
    const page = await open('/docs/');
    const other = await open('/');
    const theme = (target: Page) => target.evaluate(() => document.documentElement.dataset.theme);
    const stored = () => page.evaluate(() => localStorage.getItem('theme'));
    const toggle = () => page.getByRole('button', {name: /Switch between dark and light mode/});
    const mode = async () => /\(currently (\w+) mode\)/.exec((await toggle().getAttribute('aria-label')) ?? '')?.[1];

    // First visit: following the system preference (light here), nothing stored.
    await expect(mode()).resolves.toBe('system');
    await expect(theme(page)).resolves.toBe('light');
    await expect(stored()).resolves.toBeNull();

    await toggle().click();
    await expect(mode()).resolves.toBe('light');
    await expect(stored()).resolves.toBe('light');

    await toggle().click();
    await expect(mode()).resolves.toBe('dark');
    await expect(theme(page)).resolves.toBe('dark');
    await expect(stored()).resolves.toBe('dark');
    await other.waitForFunction(() => document.documentElement.dataset.theme === 'dark');

    await page.reload({waitUntil: 'networkidle'});
    await expect(theme(page)).resolves.toBe('dark');
    await expect(mode()).resolves.toBe('dark');

    await toggle().click();
    await expect(mode()).resolves.toBe('system');
    await expect(theme(page)).resolves.toBe('light');
    await expect(stored()).resolves.toBeNull();
    await other.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  });

  it('search finds a page by a word that appears only in its body, and opens it', async () => {
    const {word, id} = wordOnlyInOneBody();
    const page = await open('/');
    // The search box becomes an ARIA combobox once its script starts: target it by label.
    await page.locator('input[aria-label="Search"]').fill(word);
    const suggestion = page.getByRole('option').first();
    await suggestion.waitFor();
    await suggestion.click();
    await page.waitForURL(new RegExp(`/docs/${id}`));
    await waitForHeading(page, frontMatterTitle(`docs/${id}.md`));
  });

  it('the table of contents lists h2 and h3 but not h4, and headings have "Direct link to" anchors', async () => {
    const page = await open('/docs/internal-developers/getting-started/introduction');
    const article = page.locator('article');
    const h4Count = await article.locator('h4').count();
    expect(h4Count).toBeGreaterThan(0);
    const tocTargets = await page
      .locator('.table-of-contents a')
      .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).hash.slice(1)));
    const h2h3 = await article.locator('h2[id], h3[id]').evaluateAll((headings) => headings.map((heading) => heading.id));
    const h4 = await article.locator('h4[id]').evaluateAll((headings) => headings.map((heading) => heading.id));
    expect(tocTargets).toEqual(h2h3.filter((id) => id !== ''));
    expect(tocTargets).toEqual(expect.not.arrayContaining(h4));

    const headings = await article.locator('h2, h3').evaluateAll((nodes) =>
      nodes.map((node) => ({
        text: node.textContent?.replace(/\u200b/g, '').trim(),
        label: node.querySelector('a.hash-link')?.getAttribute('aria-label'),
      })),
    );
    for (const heading of headings) {
      expect(heading.label).toBe(`Direct link to ${heading.text}`);
    }
  });

  it('a link to a section below diagrams lands on its heading, and stays there once they have rendered', async () => {
    for (const [route, id] of [
      ['/docs/internal-developers/services/api-gateway', 'rate-limiting'],
      ['/docs/internal-developers/services/auth-service', 'api-surface'],
    ] as const) {
      const page = await suite.context.newPage();
      await page.setViewportSize({width: 1280, height: 800});
      await page.goto(`${suite.stack.siteUrl}${route}#${id}`, {waitUntil: 'load'});
      // The diagrams above the heading are rendered in the browser, after the scripts run.
      await page.locator('.docusaurus-mermaid-container svg').first().waitFor();
      await headingLandsAtTop(page, id);
      await page.close();
    }
  });

  it('on a phone, a link to the last section of the long doc lands on its heading while the blocks above are not laid out yet', async () => {
    const route = '/docs/internal-developers/getting-started/introduction';
    const id = (await (await open(route)).locator('article h2[id]').last().getAttribute('id')) ?? '';
    expect(id).not.toBe('');
    const page = await suite.context.newPage();
    await page.setViewportSize({width: 390, height: 800});
    await page.goto(`${suite.stack.siteUrl}${route}#${id}`, {waitUntil: 'load'});
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    await headingLandsAtTop(page, id);
    // Scrolling back to the top, as a reader does (a key; a script's scrollTo is not the reader acting, and
    // keepHashTarget would bring the heading back while blocks above are laid out), shows the first block.
    await page.keyboard.press('Home');
    await page.waitForFunction(() => {
      const top = document.querySelector('article h1')?.getBoundingClientRect().top ?? -1;
      return window.scrollY === 0 && top > 0 && top < window.innerHeight;
    });
  });

  it('the footer "Get Started" reaches the introduction, with a 2025 copyright', async () => {
    const page = await open('/');
    const footer = page.locator('footer');
    await expect(footer.textContent()).resolves.toContain('Copyright © 2025');
    await footer.getByRole('link', {name: 'Get Started'}).click();
    await page.waitForURL(/\/docs\/internal-developers\/getting-started\/introduction$/);
    await waitForHeading(page, 'Introduction');
  });
});

/** A word that only one doc's body contains (not its title), so search must use the body index. */
function wordOnlyInOneBody(): {word: string; id: string} {
  const sources = DOC_IDS.map((id) => ({id, text: readFileSync(path.join(ROOT, 'docs', `${id}.md`), 'utf8').toLowerCase()}));
  const extra = readdirSync(path.join(ROOT, 'docs', 'internal-developers'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => readFileSync(path.join(ROOT, 'docs', 'internal-developers', name), 'utf8').toLowerCase());
  const candidates = ['quarantined', 'diarisation', 'shortlist', 'idempotency', 'presigned', 'backoff', 'tombstone'];
  for (const word of candidates) {
    const hits = sources.filter((source) => new RegExp(`\\b${word}\\b`).test(source.text));
    const inExtra = extra.some((text) => new RegExp(`\\b${word}\\b`).test(text));
    if (hits.length === 1 && !inExtra && hits[0] && !frontMatterTitle(`docs/${hits[0].id}.md`).toLowerCase().includes(word)) {
      return {word, id: hits[0].id};
    }
  }
  // Fall back to scanning every word of every page.
  const counts = new Map<string, Set<string>>();
  for (const source of sources) {
    for (const word of new Set(source.text.match(/\b[a-z]{9,}\b/g) ?? [])) {
      counts.set(word, (counts.get(word) ?? new Set()).add(source.id));
    }
  }
  for (const [word, ids] of counts) {
    const [id] = [...ids];
    if (ids.size === 1 && id && !extra.some((text) => text.includes(word))) {
      return {word, id};
    }
  }
  throw new Error('no word appears in exactly one page');
}

/** Waits (up to 5 s) until the heading `id` sits at the top of the viewport, below its scroll margin (the navbar). */
async function headingLandsAtTop(page: Page, id: string): Promise<void> {
  const wantedTop = await page.locator(`#${id}`).evaluate((heading) => parseFloat(getComputedStyle(heading).scrollMarginTop) || 0);
  await page.waitForFunction(
    ({id, wantedTop}) => {
      const heading = document.getElementById(id);
      return heading !== null && Math.abs(heading.getBoundingClientRect().top - wantedTop) <= 2;
    },
    {id, wantedTop},
    {timeout: 5_000},
  );
}
