/**
 * A page on another origin of the same site includes a restricted page's
 * content chunk by <script src> while an admin is signed in (issue 27,
 * failure 1): Docusaurus's chunks are JSONP scripts that push the whole page
 * into a global `webpackChunk…` array, so whoever can run them reads the
 * page. The gate must give that page nothing, and the portal's own pages must
 * still load their chunks and prefetch.
 *
 * "Same site, other origin" here is the same host on another port:
 * http://localhost:<gate> and http://localhost:<other>. Sites ignore ports,
 * so Chromium treats the request as same-site (it sends `Sec-Fetch-Site:
 * same-site`, which the test checks) and attaches the SameSite=Lax session
 * cookie (also checked), exactly as for a sibling subdomain such as
 * evil.example.com including docs.example.com's chunk. This keeps the gate
 * on plain-HTTP localhost, where its cookies are the plain, non-Secure ones,
 * so no host-resolver rules or insecure-origin flags are needed; a pair of
 * *.portal.test names would exercise the same code path in the gate.
 */
import {readFileSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import path from 'node:path';
import type {Request} from 'playwright-core';
import {restrictedScripts, type AccessManifest} from '../../plugins/access/manifest';
import {freePort} from '../../scripts/support/ports';
import type {GateExchange} from '../../scripts/support/stack';
import {bodySentence} from '../support/pageText';
import {browserSuite} from './support/suite';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'build', 'access-manifest.json'), 'utf8')) as AccessManifest;
const ADMIN_SERVICE = manifest.pages.find((page) => page.source === 'docs/internal-developers/services/admin-service.md');
const ADMIN_CHUNK = ADMIN_SERVICE && restrictedScripts(ADMIN_SERVICE)[0];
if (!ADMIN_CHUNK) {
  throw new Error('the admin service page and its chunk are not in build/access-manifest.json');
}
/** The global array the chunk pushes itself into, read from the chunk itself. */
const CHUNK_GLOBAL = /self\.(webpackChunk\w+)/.exec(readFileSync(path.join(ROOT, 'build', 'members', ADMIN_CHUNK), 'utf8'))?.[1];
if (!CHUNK_GLOBAL) {
  throw new Error(`${ADMIN_CHUNK} pushes into no webpackChunk… array`);
}

/** The gate's side of each request for the admin chunk: what the browser sent (Chromium reports nothing for a response it blocked). */
const chunkExchanges: GateExchange[] = [];
const chunkWaiters: ((exchange: GateExchange) => void)[] = [];
const suite = browserSuite({
  onGateAnswer: (exchange) => {
    if (exchange.url.split('?')[0] === `/${ADMIN_CHUNK}`) {
      chunkExchanges.push(exchange);
      chunkWaiters.splice(0).forEach((wake) => wake(exchange));
    }
  },
});
/** The gate's next (or latest, if already answered) exchange for the chunk whose Referer is `page`. */
function chunkExchangeFrom(page: string): Promise<GateExchange> {
  const from = (exchange: GateExchange) => exchange.headers.referer === page;
  const answered = chunkExchanges.find(from);
  if (answered) {
    return Promise.resolve(answered);
  }
  return new Promise((resolve) => {
    const wait = (exchange: GateExchange) => (from(exchange) ? resolve(exchange) : chunkWaiters.push(wait));
    chunkWaiters.push(wait);
  });
}

/**
 * The other origin's page: catches every push into the chunk array, then
 * includes the admin chunk twice. Chromium keys its HTTP cache by the
 * top-level site, which the two origins share, so the plain URL may be
 * answered from the copy the admin's own page cached (only CORP stops
 * that); `?fresh` always reaches the gate (where Sec-Fetch-Site decides).
 */
function attackerPage(chunkUrl: string): string {
  return `<!doctype html><html><head><title>Another origin</title></head><body>
<script>
  window.received = [];
  window.outcomes = [];
  self.${CHUNK_GLOBAL} = [];
  self.${CHUNK_GLOBAL}.push = function () { window.received.push(JSON.stringify(Array.from(arguments).map(String))); return 0; };
  window.settled = new Promise(function (resolve) {
    window.settle = function (outcome) { window.outcomes.push(outcome); if (window.outcomes.length === 2) { resolve(window.outcomes); } };
  });
</script>
<script src="${chunkUrl}" onload="settle('loaded')" onerror="settle('error')"></script>
<script src="${chunkUrl}?fresh" onload="settle('loaded')" onerror="settle('error')"></script>
</body></html>`;
}

let other: Server;
let otherUrl: string;

beforeAll(async () => {
  const port = await freePort();
  other = createServer((request, response) => {
    const chunkUrl = `${suite.stack.siteUrl}/${ADMIN_CHUNK}`;
    response.writeHead(request.url === '/' ? 200 : 204, {'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store'});
    response.end(request.url === '/' ? attackerPage(chunkUrl) : '');
  });
  await new Promise<void>((resolve) => other.listen(port, 'localhost', resolve));
  otherUrl = `http://localhost:${port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => other?.close(resolve));
});

describe('another origin of the same site', () => {
  it("gets nothing of an admin's restricted chunk by <script src>, while the portal's own pages load and prefetch it", async () => {
    // The other page's include is refused (403, and CORP blocks it): Chromium reports both.
    suite.expectProblems(/status of 403/, /ERR_BLOCKED_BY_RESPONSE/);
    const chunkRequests: Request[] = [];
    suite.context.on('request', (request) => {
      if (request.url().endsWith(`/${ADMIN_CHUNK}`)) {
        chunkRequests.push(request);
      }
    });

    const portal = await suite.open('/docs/');
    await suite.signIn(portal, /Ada Admin/);
    await suite.userMenu(portal, /Ada Admin/).waitFor();

    const attacker = await suite.context.newPage();
    await attacker.goto(otherUrl);
    const outcomes = await attacker.evaluate(() => (window as unknown as {settled: Promise<string[]>}).settled);
    const received = await attacker.evaluate(() => (window as unknown as {received: string[]}).received);
    expect({outcomes, received}).toEqual({outcomes: ['error', 'error'], received: []});

    // The request really was the attack: same-site, for a script, carrying the admin's session cookie.
    const {headers, status} = await chunkExchangeFrom(otherUrl);
    expect([headers['sec-fetch-site'], headers['sec-fetch-dest']]).toEqual(['same-site', 'script']);
    expect(String(headers.cookie)).toMatch(/(^|; )portal_session=[^;]+/);
    expect(status).toBe(403);
    await attacker.close();

    // The portal itself: following the sidebar link loads the chunk (prefetched or fetched) and shows the page.
    const adminLink = portal.getByRole('navigation', {name: 'Docs sidebar'}).locator('a.menu__link', {hasText: /^Admin Service$/});
    await adminLink.hover();
    await adminLink.click();
    await portal.waitForURL(`${suite.stack.siteUrl}${ADMIN_SERVICE.route}`);
    await portal.getByText(bodySentence(ADMIN_SERVICE.source)).waitFor();
    expect(await portal.locator('[data-restricted-page]').count()).toBe(0);
    const ownAnswers = await Promise.all(
      chunkRequests
        .filter((request) => request.frame().url().startsWith(suite.stack.siteUrl))
        .map(async (request) => ({site: (await request.allHeaders())['sec-fetch-site'], status: (await request.response())?.status()})),
    );
    expect(ownAnswers).toContainEqual({site: 'same-origin', status: 200});
  });
});
