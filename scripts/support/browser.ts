/**
 * Debian's Chromium driven by playwright-core (no browser downloads here).
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {chromium, type Browser, type BrowserContext, type Page} from 'playwright-core';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Headless, sandbox-free, and silent on the network (shared with scripts/bench.mjs). */
const CHROMIUM_FLAGS = JSON.parse(readFileSync(path.resolve(__dirname, '../chromium-flags.json'), 'utf8')) as string[];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(`Chromium not found at ${CHROME_PATH}. Install it with "apt-get install chromium" or set CHROME_PATH.`);
  }
  return chromium.launch({
    executablePath: CHROME_PATH,
    args: CHROMIUM_FLAGS,
  });
}

/** Problems a page reported: console errors, uncaught exceptions, failed requests. */
export interface PageProblems {
  list: string[];
}

/** Records console errors, page errors and failed requests of every page in a context. */
export function watchProblems(context: BrowserContext): PageProblems {
  const problems: PageProblems = {list: []};
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') {
        problems.list.push(`console error on ${page.url()}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.list.push(`uncaught on ${page.url()}: ${error.message}`));
    page.on('requestfailed', (request) => {
      // A navigation away (e.g. to the provider) aborts pending requests: not a failure.
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') {
        problems.list.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
      }
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return problems;
}
