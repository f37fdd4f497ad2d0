/**
 * The production server config (deploy/nginx.conf) with Debian's nginx:
 * clean URLs, caching, security headers, and every page working under the
 * strict Content-Security-Policy, sign-in included.
 */
import type {Page} from 'playwright-core';
import sidebars from '../../sidebars';
import {readFileSync, statSync} from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {brotliDecompressSync} from 'node:zlib';
import {brotliStaticModule, testNginxConfig} from '../../scripts/serve-nginx';
import {browserSuite, reportCspViolations} from './support/suite';

jest.setTimeout(90_000);

const ROUTES = [
  '/',
  '/markdown-page',
  '/docs/',
  ...sidebars.internalDevelopersSidebar.flatMap((category) => category.items).map((id) => `/docs/${id}`),
];

const suite = browserSuite({
  server: 'nginx',
  // CSP violations count as console errors, which the suite's problem check fails on.
  setUpContext: reportCspViolations,
});

it('passes nginx -t', () => {
  const result = testNginxConfig();
  expect(result.output).toContain('test is successful');
  expect(result.ok).toBe(true);
});

it('passes nginx -t without the brotli_static module too (it is loaded only where installed)', () => {
  const saved = process.env.NGINX_BROTLI_STATIC_MODULE;
  process.env.NGINX_BROTLI_STATIC_MODULE = '/nonexistent/ngx_http_brotli_static_module.so';
  try {
    expect(brotliStaticModule()).toBeNull();
    const result = testNginxConfig();
    expect(result.output).toContain('test is successful');
  } finally {
    if (saved === undefined) {
      delete process.env.NGINX_BROTLI_STATIC_MODULE;
    } else {
      process.env.NGINX_BROTLI_STATIC_MODULE = saved;
    }
  }
});

describe('nginx serving the build', () => {
  it('serves clean URLs, redirects .html and /index.html to them, and answers 404 with the not-found page', async () => {
    const get = (route: string) => fetch(`${suite.stack.siteUrl}${route}`, {redirect: 'manual'});
    for (const route of ['/docs/internal-developers/services/api-gateway', '/docs/internal-developers/services/api-gateway/']) {
      expect((await get(route)).status).toBe(200);
    }
    const html = await get('/docs/internal-developers/services/api-gateway.html');
    expect(html.status).toBe(301);
    expect(html.headers.get('location')).toBe('/docs/internal-developers/services/api-gateway');
    const index = await get('/docs/internal-developers/services/api-gateway/index.html');
    expect(index.status).toBe(301);
    expect(index.headers.get('location')).toBe('/docs/internal-developers/services/api-gateway/');
    const missing = await get('/no/such/page');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page Not Found');
    expect((await get('/_nginx/security-headers.conf')).status).toBe(404);
  });

  it('caches hashed assets for a year and revalidates HTML, and compresses', async () => {
    const page = await fetch(`${suite.stack.siteUrl}/docs/`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    // The page's scripts are listed in the loader's data-scripts attribute (ssrTemplate in docusaurus.config.ts);
    // the theme's part of the entry (plugins/page-scripts) is well above nginx's gzip_min_length (main.js is not).
    const asset = /(\/assets\/js\/docusaurus\.[0-9a-f]+\.js)/.exec(await page.text())?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${suite.stack.siteUrl}${asset}`, {headers: {'Accept-Encoding': 'gzip'}});
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('content-encoding')).toBe('gzip');
  });

  it("sends the build's precompressed sibling the client accepts, never compressing on the fly", async () => {
    const name = 'docs/internal-developers/services/api-gateway/index.html';
    const file = path.join(__dirname, '..', '..', 'build', 'public', name);
    const raw = (accept: string) =>
      // fetch() would decompress: ask node:http for the bytes as sent.
      new Promise<{encoding: string | undefined; vary: string | undefined; body: Buffer}>((resolve, reject) => {
        const url = new URL(`${suite.stack.siteUrl}/docs/internal-developers/services/api-gateway`);
        http
          .get({host: '127.0.0.1', port: url.port, path: url.pathname, headers: {'accept-encoding': accept}}, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({encoding: response.headers['content-encoding'], vary: response.headers.vary, body: Buffer.concat(chunks)}),
            );
          })
          .on('error', reject);
      });
    const gzip = await raw('gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(gzip.vary).toBe('Accept-Encoding');
    expect(gzip.body.equals(readFileSync(`${file}.gz`))).toBe(true);
    const both = await raw('gzip, br');
    if (brotliStaticModule()) {
      expect(both.encoding).toBe('br');
      expect(both.body.equals(readFileSync(`${file}.br`))).toBe(true);
      expect(brotliDecompressSync(both.body).equals(readFileSync(file))).toBe(true);
    } else {
      expect(both.encoding).toBe('gzip');
    }
    const refused = await raw('gzip;q=0');
    expect(refused.encoding).toBeUndefined();
    expect(refused.body.length).toBe(statSync(file).size);
  });

  it('sends the security headers, with no unsafe-inline scripts and connect-src limited to the site and the sign-in provider', async () => {
    for (const route of ['/', '/docs/', '/no/such/page']) {
      const response = await fetch(`${suite.stack.siteUrl}${route}`);
      const csp = response.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(
        csp.split(';').map((directive) => {
          const [name, ...values] = directive.trim().split(/\s+/);
          return [name, values];
        }),
      );
      expect(directives['script-src']).toContain("'self'");
      expect(directives['script-src']).not.toContain("'unsafe-inline'");
      expect(directives['connect-src']).toEqual(["'self'", suite.stack.providerUrl]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('permissions-policy')).toContain('camera=()');
    }
  });
});

describe('pages under the Content-Security-Policy', () => {
  it('renders every page with no CSP violation or console error', async () => {
    const page = await suite.context.newPage();
    for (const route of ROUTES) {
      await page.goto(`${suite.stack.siteUrl}${route}`, {waitUntil: 'load'});
      await page.waitForFunction(
        () =>
          document.querySelectorAll('.docusaurus-mermaid-container').length ===
          document.querySelectorAll('.docusaurus-mermaid-container svg').length,
      );
      // The colour-mode inline script ran (allowed by its hash).
      await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('light');
    }
  });

  it('signs in and out under the CSP', async () => {
    const page: Page = await suite.context.newPage();
    await page.goto(`${suite.stack.siteUrl}/docs/internal-developers/services/kira-service`, {waitUntil: 'networkidle'});
    await page.getByRole('button', {name: 'Sign in'}).click();
    await page.getByRole('button', {name: /Devon Developer/}).click();
    await page.waitForURL(`${suite.stack.siteUrl}/docs/internal-developers/services/kira-service`);
    const menu = page.getByRole('navigation', {name: 'Main'}).getByRole('button', {name: /Devon Developer/});
    await menu.waitFor();
    await menu.click();
    await page.getByRole('group', {name: 'Account'}).getByRole('button', {name: 'Sign out'}).click();
    await page.getByRole('button', {name: 'Sign in'}).waitFor();
  });
});
