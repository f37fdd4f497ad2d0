/**
 * The shared set-up of the browser suites: one stack (site + local provider)
 * and one Chromium per file, a fresh browser context per test, and a check
 * after each test that no page reported an unexpected console error, page
 * error or failed request.
 */
import type {Browser, BrowserContext, Locator, Page} from 'playwright-core';
import {launchBrowser, watchProblems, type PageProblems} from '../../../scripts/support/browser';
import {startStack, type GateExchange, type Stack} from '../../../scripts/support/stack';

export interface BrowserSuite {
  readonly stack: Stack;
  readonly browser: Browser;
  /** This test's browser context. */
  readonly context: BrowserContext;
  /** Problems this test provokes on purpose (a 404, a logged SDK error); any other fails it. */
  expectProblems: (...patterns: RegExp[]) => void;
  /** Opens a route of the site in `page` (or a new page) and waits for it. */
  open: (route: string, page?: Page, waitUntil?: 'load' | 'networkidle') => Promise<Page>;
  /** Clicks "Sign in", picks the test user on the provider's page, and waits to be back on the site. */
  signIn: (page: Page, userName: RegExp) => Promise<void>;
  /** The signed-in user's menu button in the navbar. */
  userMenu: (page: Page, name: RegExp) => Locator;
}

/** Reports CSP violations as console errors, so the suite's problem check sees them (a setUpContext). */
export async function reportCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}`);
    });
  });
}

export interface SuiteOptions {
  server?: 'gate' | 'nginx';
  /** Extra set-up of each test's context, e.g. init scripts. */
  setUpContext?: (context: BrowserContext) => Promise<void>;
  /** Extra checks after each test, before its context closes. */
  checkContext?: (context: BrowserContext) => Promise<void> | void;
  /** Sees every request the gate answered, as the gate received it. */
  onGateAnswer?: (exchange: GateExchange) => void;
}

export function browserSuite({server = 'gate', setUpContext, checkContext, onGateAnswer}: SuiteOptions = {}): BrowserSuite {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let problems: PageProblems = {list: []};
  let expected: RegExp[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack({server, onGateAnswer}), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  beforeEach(async () => {
    context = await (browser as Browser).newContext({viewport: {width: 1280, height: 800}});
    problems = watchProblems(context);
    expected = [];
    await setUpContext?.(context);
  });

  afterEach(async () => {
    const current = context as BrowserContext;
    await checkContext?.(current);
    await current.close();
    expect(problems.list.filter((problem) => !expected.some((pattern) => pattern.test(problem)))).toEqual([]);
  });

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) {
      throw new Error(`${what} is not ready: use the suite inside tests`);
    }
    return value;
  };

  return {
    get stack() {
      return need(stack, 'the stack');
    },
    get browser() {
      return need(browser, 'the browser');
    },
    get context() {
      return need(context, 'the browser context');
    },
    expectProblems: (...patterns) => {
      expected.push(...patterns);
    },
    open: async (route, page, waitUntil = 'networkidle') => {
      const target = page ?? (await need(context, 'the browser context').newPage());
      await target.goto(`${need(stack, 'the stack').siteUrl}${route}`, {waitUntil});
      return target;
    },
    signIn: async (page, userName) => {
      const {siteUrl, providerUrl} = need(stack, 'the stack');
      await page.getByRole('button', {name: 'Sign in'}).click();
      await page.waitForURL(`${providerUrl}/**`);
      // With the gate, the first session request after sign-in reloads the
      // page into the members build: wait for that, so tests act on the page
      // the reader ends up with.
      const session = (server === 'gate' ? page : null)
        ?.waitForResponse((response) => response.url().endsWith('/_portal/session') && response.request().method() === 'POST', {
          timeout: 15_000,
        })
        .catch(() => null);
      await page.getByRole('button', {name: userName}).click();
      await page.waitForURL(`${siteUrl}/**`);
      const answer = (await session) ?? null;
      const started = answer?.ok() ? ((await answer.json().catch(() => ({}))) as {hadSession?: boolean}).hadSession === false : false;
      if (started) {
        await page.waitForEvent('load');
      }
    },
    userMenu: (page, name) => page.getByRole('navigation', {name: 'Main'}).getByRole('button', {name}),
  };
}

/** Waits until Docusaurus has hydrated the page (it marks `<html data-has-hydrated="true">`). */
export function hydrated(page: Page): Promise<unknown> {
  return page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
}
