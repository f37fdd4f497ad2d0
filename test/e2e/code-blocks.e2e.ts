/**
 * Code blocks without a highlighter on page load (src/components/CodeBlock,
 * plugins/code-blocks): the server's highlighting survives hydration and no
 * Prism code runs for it; the colours are right in dark mode before any
 * script runs; a block rendered in the browser (after a client-side
 * navigation) is highlighted; the copy and word-wrap buttons work on both.
 */
import type {Page, Response} from 'playwright-core';
import {browserSuite, hydrated} from './support/suite';

jest.setTimeout(120_000);

const LONG_DOC = '/docs/internal-developers/getting-started/introduction';
/** A name only Prism's core uses (its hook before tokenising): its presence marks the highlighter's code. */
const PRISM_MARKER = 'before-tokenize';

const suite = browserSuite();

/** Bodies of the scripts the page executes (not prefetches), by URL. */
function executedScripts(page: Page): Map<string, Promise<string | null>> {
  const bodies = new Map<string, Promise<string | null>>();
  page.on('response', (response: Response) => {
    if (response.request().resourceType() === 'script') {
      // Read at once (the body goes when the page does); a body that cannot be read is reported, never assumed clean.
      bodies.set(
        response.url(),
        response.text().catch(() => null),
      );
    }
  });
  return bodies;
}

/** URLs of executed scripts holding Prism, and of any whose body could not be read. */
async function withPrism(bodies: Map<string, Promise<string | null>>): Promise<string[]> {
  const found: string[] = [];
  for (const [url, body] of bodies) {
    const text = await body;
    if (text === null) {
      found.push(`unreadable: ${url}`);
    } else if (text.includes(PRISM_MARKER)) {
      found.push(url);
    }
  }
  return found;
}

const tokenCount = (page: Page) => page.locator('pre.prism-code .token').count();

describe('code blocks', () => {
  it('keep the server highlighting through hydration, with no Prism code run', async () => {
    const page = await suite.context.newPage();
    const scripts = executedScripts(page);
    await page.goto(`${suite.stack.siteUrl}${LONG_DOC}`, {waitUntil: 'domcontentloaded'});
    const served = await tokenCount(page);
    expect(served).toBeGreaterThan(100);
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    expect(await tokenCount(page)).toBe(served);
    expect(await page.locator('pre.prism-code .token[style*="color"]').count()).toBe(0);
    expect(await withPrism(scripts)).toEqual([]);
  });

  it('are coloured for dark mode before any script runs', async () => {
    const page = await suite.context.newPage();
    await page.goto(`${suite.stack.siteUrl}/`);
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.route('**/assets/js/**', (route) => route.abort());
    suite.expectProblems(/assets\/js\//, /net::ERR_FAILED/);
    await page.goto(`${suite.stack.siteUrl}${LONG_DOC}`);
    const colours = await page.evaluate(() => {
      const pre = document.querySelector('pre.prism-code');
      const keyword = document.querySelector('pre.prism-code .token.keyword');
      return {
        theme: document.documentElement.dataset.theme,
        background: pre ? getComputedStyle(pre).backgroundColor : null,
        keyword: keyword ? getComputedStyle(keyword).color : null,
      };
    });
    // VS Code Dark (prism-react-renderer's vsDark): background #1E1E1E, keywords rgb(86, 156, 214).
    expect(colours).toEqual({theme: 'dark', background: 'rgb(30, 30, 30)', keyword: 'rgb(86, 156, 214)'});
  });

  // The spec: prefetching is skipped on 2g connections or with data saving on.
  // Links in view prefetch their pages on a normal connection (the control).
  it.each([
    {connection: 'a normal connection', slow: false},
    {connection: '2g', slow: true, effectiveType: '2g', saveData: false},
    {connection: 'data saving on', slow: true, effectiveType: '4g', saveData: true},
  ])('prefetch on $connection only when it is not slow (slow: $slow)', async ({slow, effectiveType, saveData}) => {
    const page = await suite.context.newPage();
    if (slow) {
      await page.addInitScript(
        ([type, save]) => {
          const connection = {effectiveType: type, saveData: save, addEventListener: () => undefined, removeEventListener: () => undefined};
          Object.defineProperty(Navigator.prototype, 'connection', {configurable: true, get: () => connection});
        },
        [effectiveType, saveData] as const,
      );
    }
    await page.goto(`${suite.stack.siteUrl}${LONG_DOC}`);
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    const prefetches = () =>
      page.evaluate(() => Array.from(document.querySelectorAll('link[rel="prefetch"]')).map((link) => link.getAttribute('href')));
    if (slow) {
      expect(await prefetches()).toEqual([]);
    } else {
      await page.waitForFunction(() => document.querySelectorAll('link[rel="prefetch"]').length > 0);
      expect((await prefetches()).length).toBeGreaterThan(0);
    }
  });

  it('rendered after a client-side navigation are highlighted', async () => {
    const page = await suite.open(LONG_DOC);
    const scripts = executedScripts(page);
    await page.evaluate(() => Object.assign(window, {portalSamePage: true}));
    await page.locator('nav.menu a[href$="/services/api-gateway"]').first().click();
    await page.waitForURL(/\/services\/api-gateway$/);
    await page.locator('pre.prism-code .token.keyword, pre.prism-code .token.string').first().waitFor();
    expect(await page.evaluate(() => (window as {portalSamePage?: boolean}).portalSamePage)).toBe(true);
    expect(await withPrism(scripts)).toHaveLength(1);
  });

  it('copy their code, on a hydrated page and after a navigation', async () => {
    await suite.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await suite.open(LONG_DOC);
    const copyFirst = async () => {
      const block = page.locator('.theme-code-block').first();
      const code = (await block.locator('pre code').innerText()).trim();
      await block.hover();
      await block.getByRole('button', {name: /Copy code/}).click();
      await page.waitForFunction((expected) => navigator.clipboard.readText().then((text) => text.trim() === expected), code);
    };
    await copyFirst();
    await page.locator('nav.menu a[href$="/services/api-gateway"]').first().click();
    await page.waitForURL(/\/services\/api-gateway$/);
    await page.locator('pre.prism-code .token').first().waitFor();
    await copyFirst();
  });

  it('wrap long lines on request', async () => {
    const page = await suite.open(LONG_DOC);
    await page.setViewportSize({width: 390, height: 800});
    // A block whose first line is wider than a phone, outside the tabs. Its
    // button shows once the block is laid out and measured, which the page
    // does when the block comes near the viewport (content-visibility).
    const wrappable = page.locator('.theme-code-block', {hasText: 'node --version && docker compose version'}).first();
    await wrappable.scrollIntoViewIfNeeded();
    await wrappable.hover();
    await wrappable.getByRole('button', {name: 'Toggle word wrap'}).click();
    await expect(wrappable.locator('pre code').evaluate((code) => getComputedStyle(code).whiteSpace)).resolves.toBe('pre-wrap');
  });

  it('offer wrapping exactly on the blocks whose code is wider than the block, as the width changes', async () => {
    const page = await suite.open(LONG_DOC);
    await hydrated(page);
    // The blocks the browser has laid out: shown (not in a hidden tab) and near the viewport (the article's blocks
    // are laid out when they come near it: content-visibility in src/css/custom.css).
    /** For each block laid out: whether its code overflows, and whether it offers the wrap button. */
    const visibleBlocks = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('.theme-code-block'))
          .filter((block) => block.querySelector('pre')?.checkVisibility({contentVisibilityAuto: true}))
          .map((block) => {
            const pre = block.querySelector('pre');
            return {
              overflows: Boolean(pre && pre.scrollWidth > pre.clientWidth),
              offersWrap: block.querySelector('button[aria-label="Toggle word wrap"]') !== null,
            };
          }),
      );
    /** Waits (in the page, frame by frame) until every block laid out offers the button exactly when it overflows. */
    const offeredExactlyWhereNeeded = async (when: string, {someBlock = true} = {}) => {
      try {
        await page.waitForFunction(
          (someBlock) => {
            const blocks = Array.from(document.querySelectorAll('.theme-code-block')).filter((block) =>
              block.querySelector('pre')?.checkVisibility({contentVisibilityAuto: true}),
            );
            return (
              (blocks.length > 0 || !someBlock) &&
              blocks.every((block) => {
                const pre = block.querySelector('pre');
                const overflows = Boolean(pre && pre.scrollWidth > pre.clientWidth);
                return overflows === (block.querySelector('button[aria-label="Toggle word wrap"]') !== null);
              })
            );
          },
          someBlock,
          {timeout: 5_000},
        );
      } catch {
        throw new Error(`${when}: the wrap buttons do not match the overflowing blocks: ${JSON.stringify(await visibleBlocks())}`);
      }
    };

    // From the first block on, so that some blocks are laid out at every width.
    await page.locator('.theme-code-block').first().scrollIntoViewIfNeeded();
    for (const width of [390, 1280, 700]) {
      await page.setViewportSize({width, height: 800});
      await offeredExactlyWhereNeeded(`at ${width} px`);
    }
    // Back on a phone, where most blocks overflow (so the check above was not vacuous), and through the whole page
    // as a reader scrolls it: each block offers the button once it comes into view.
    await page.setViewportSize({width: 390, height: 800});
    await offeredExactlyWhereNeeded('back at 390 px');
    for (let top = 0; top < (await page.evaluate(() => document.documentElement.scrollHeight)); top += 800) {
      await page.evaluate((y) => window.scrollTo(0, y), top);
      await offeredExactlyWhereNeeded(`at 390 px, scrolled to ${top} px`, {someBlock: false});
    }
    // Blocks keep their button once offered, so the page now holds those of every overflowing block it went past.
    expect(await page.locator('button[aria-label="Toggle word wrap"]').count()).toBeGreaterThan(3);
    await page.evaluate(() => window.scrollTo(0, 0));

    // A block in a tab shown later is measured when it appears.
    await page.getByRole('tab', {name: 'Linux'}).first().click();
    await offeredExactlyWhereNeeded('after showing the Linux tab');
    const linuxPanel = page
      .locator('[role=tabpanel]:not([hidden])')
      .filter({has: page.locator('.theme-code-block')})
      .first();
    await expect(linuxPanel.getByRole('button', {name: 'Toggle word wrap'}).count()).resolves.toBeGreaterThan(0);
  });
});
