/**
 * `npm start` (the dev server) renders in the browser only, with no server
 * HTML to hydrate: code blocks must still render and highlight there
 * (src/components/CodeBlock keeps server HTML only where there is some), and
 * the page must report no error.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import path from 'node:path';
import type {Browser} from 'playwright-core';
import {launchBrowser, watchProblems} from '../../scripts/support/browser';
import {freePort, waitForHttp} from '../../scripts/support/ports';

// The dev server compiles the whole site before it answers.
jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '../..');
const LONG_DOC = '/docs/internal-developers/getting-started/introduction';

let devServer: ChildProcess | undefined;
let browser: Browser | undefined;
let siteUrl = '';

beforeAll(async () => {
  const port = await freePort();
  siteUrl = `http://localhost:${port}`;
  // Sign-in is not under test here: no local provider, so its port stays free for the other suites.
  devServer = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'docusaurus'),
    ['start', '--port', String(port), '--host', 'localhost', '--no-open'],
    {
      cwd: ROOT,
      // jest sets NODE_ENV=test, with which the dev server exits.
      env: {...process.env, NODE_ENV: 'development', PORTAL_AUDIENCE: 'members', AUTH_DISABLED: 'true', BROWSER: 'none'},
      stdio: 'ignore',
      detached: true,
    },
  );
  const server = devServer;
  [browser] = await Promise.all([
    launchBrowser(),
    waitForHttp(`${siteUrl}${LONG_DOC}`, {
      attempts: 900,
      intervalMs: 200,
      exited: () => (server.exitCode === null ? null : `the dev server exited with code ${server.exitCode}`),
    }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  if (devServer?.pid) {
    // The dev server's own children (the bundler's workers) go with it.
    process.kill(-devServer.pid, 'SIGTERM');
  }
});

it('renders and highlights code blocks, with no page error', async () => {
  const context = await (browser as Browser).newContext();
  const problems = watchProblems(context);
  const page = await context.newPage();
  await page.goto(`${siteUrl}${LONG_DOC}`);
  await page.locator('pre.prism-code .token.keyword').first().waitFor();
  expect(await page.locator('.theme-code-block').count()).toBeGreaterThan(20);
  expect(await page.locator('.theme-code-block pre.prism-code').count()).toBe(await page.locator('.theme-code-block').count());
  // The dev server's hot-reload socket is not a page problem.
  expect(problems.list.filter((problem) => !/\/ws\b|websocket/i.test(problem))).toEqual([]);
  await context.close();
});
