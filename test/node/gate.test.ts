/**
 * The gate server (server/gate.ts) on a small fixture build, through
 * Fastify's inject (no port): which build each reader gets, the session
 * cookie, and what it refuses.
 */
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {FastifyInstance} from 'fastify';
import {createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload} from 'jose';
import {createGate, SESSION_COOKIE} from '../../server/gate';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

let dir: string;
let keys: KeyPair;
let strangerKeys: KeyPair;
let gate: FastifyInstance;

const SECRET = 'The production database password rotates every Tuesday';

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), {recursive: true});
  writeFileSync(file, content);
}

async function token(claims: JWTPayload, key: KeyPair['privateKey'] = keys.privateKey, expiresIn: string | number = '10m'): Promise<string> {
  return new SignJWT({sid: 'session_1', ...claims}).setProtectedHeader({alg: 'RS256', kid: 'key-1'}).setIssuedAt().setExpirationTime(expiresIn).sign(key);
}

const developer = () => token({sub: 'user_developer', org_id: 'org_acme', role: 'member', roles: ['member'], permissions: ['docs:read']});
const admin = () => token({sub: 'user_admin', org_id: 'org_acme', role: 'admin', roles: ['admin', 'member'], permissions: ['docs:read']});
const cookie = (value: string) => ({cookie: `${SESSION_COOKIE}=${value}`});

beforeAll(async () => {
  keys = await generateKeyPair('RS256');
  strangerKeys = await generateKeyPair('RS256');
  dir = mkdtempSync(path.join(os.tmpdir(), 'portal-gate-'));
  for (const audience of ['public', 'members']) {
    const root = path.join(dir, audience);
    write(path.join(root, 'index.html'), `<h1>Home (${audience})</h1>`);
    write(path.join(root, '404.html'), `<h1>Not found (${audience})</h1>`);
    write(path.join(root, '_headers'), "/*\n  Content-Security-Policy: default-src 'self'\n  X-Content-Type-Options: nosniff\n");
    write(path.join(root, 'docs', 'guide', 'index.html'), `<h1>Guide (${audience})</h1>`);
    write(path.join(root, 'assets', 'js', 'main.js'), `/* main ${audience} */`);
  }
  write(path.join(dir, 'public', 'assets', 'js', 'public-only.5678.js'), '/* public chunk */');
  write(path.join(dir, 'public', 'docs', 'ops', 'index.html'), '<h1>Ops</h1><p>Sign in to read this page.</p>');
  write(path.join(dir, 'members', 'docs', 'ops', 'index.html'), `<h1>Ops</h1><p>${SECRET}</p>`);
  write(path.join(dir, 'public', 'docs', 'admin', 'index.html'), '<h1>Admin</h1><p>Sign in to read this page.</p>');
  write(path.join(dir, 'members', 'docs', 'admin', 'index.html'), '<h1>Admin</h1><p>Suspend a tenant with the admin console.</p>');
  write(path.join(dir, 'members', 'assets', 'js', 'admin.1234abcd.js'), 'Suspend a tenant with the admin console.');
  write(
    path.join(dir, 'access-manifest.json'),
    JSON.stringify({
      version: 1,
      baseUrl: '/',
      pages: [
        {route: '/docs/guide', source: 'docs/guide.md', title: 'Guide', rule: {kind: 'public'}, chunks: []},
        {route: '/docs/ops', source: 'docs/ops.md', title: 'Ops', rule: {kind: 'signed-in'}, chunks: []},
        {route: '/docs/admin', source: 'docs/admin.md', title: 'Admin', rule: {kind: 'roles', roles: ['admin'], permissions: []}, chunks: ['assets/js/admin.1234abcd.js']},
      ],
    }),
  );
  const jwk = {...(await exportJWK(keys.publicKey)), kid: 'key-1', alg: 'RS256'};
  gate = await createGate({buildDir: dir, jwks: createLocalJWKSet({keys: [jwk]}), organizationId: 'org_acme'});
});

afterAll(async () => {
  await gate.close();
  rmSync(dir, {recursive: true, force: true});
});

describe('gate server', () => {
  it('serves the public build, marked as gated, to a reader without a session', async () => {
    const response = await gate.inject({url: '/docs/ops'});
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Sign in to read this page');
    expect(response.body).not.toContain(SECRET);
    expect(response.headers['content-security-policy']).toBe("default-src 'self'");
    expect(response.headers.vary).toBe('Cookie');
    expect(String(response.headers['set-cookie'])).toContain('portal_gate=1');
  });

  it('serves the members build to a valid session, with private caching', async () => {
    const response = await gate.inject({url: '/docs/ops/', headers: cookie(await developer())});
    expect(response.body).toContain(SECRET);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const asset = await gate.inject({url: '/assets/js/main.js', headers: cookie(await developer())});
    expect(asset.body).toContain('main members');
    expect(asset.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    // A page loaded from the public build just before sign-in still gets its own files.
    const publicChunk = await gate.inject({url: '/assets/js/public-only.5678.js', headers: cookie(await developer())});
    expect(publicChunk.statusCode).toBe(200);
    expect((await gate.inject({url: '/assets/js/nope.js', headers: cookie(await developer())})).statusCode).toBe(404);
  });

  it.each([
    ['a token signed by another key', async () => token({org_id: 'org_acme'}, strangerKeys.privateKey)],
    ['an expired token', async () => token({org_id: 'org_acme'}, keys.privateKey, Math.floor(Date.now() / 1000) - 60)],
    ['a token of another organisation', async () => token({org_id: 'org_other'})],
    ['garbage', async () => 'not-a-jwt'],
  ])('treats %s as no session', async (_name, make) => {
    const response = await gate.inject({url: '/docs/ops', headers: cookie(await make())});
    expect(response.body).not.toContain(SECRET);
  });

  it('enforces roles for the HTML and the chunk of a role-restricted page', async () => {
    const asDeveloper = await gate.inject({url: '/docs/admin', headers: cookie(await developer())});
    expect(asDeveloper.body).toContain('Sign in to read this page');
    const chunkAsDeveloper = await gate.inject({url: '/assets/js/admin.1234abcd.js', headers: cookie(await developer())});
    expect(chunkAsDeveloper.statusCode).toBe(403);
    expect(chunkAsDeveloper.body).not.toContain('Suspend a tenant');
    expect((await gate.inject({url: '/assets/js/admin.1234abcd.js'})).statusCode).toBe(403);
    // A prefetch (a link in view) gets an empty answer rather than an error in the reader's console.
    const prefetch = await gate.inject({url: '/assets/js/admin.1234abcd.js', headers: {...cookie(await developer()), 'sec-purpose': 'prefetch'}});
    expect(prefetch.statusCode).toBe(204);
    expect(prefetch.body).toBe('');

    const asAdmin = await gate.inject({url: '/docs/admin', headers: cookie(await admin())});
    expect(asAdmin.body).toContain('Suspend a tenant');
    expect((await gate.inject({url: '/assets/js/admin.1234abcd.js', headers: cookie(await admin())})).statusCode).toBe(200);
  });

  it('sets an HttpOnly session cookie that expires with the token, and deletes it on sign-out', async () => {
    const accessToken = await developer();
    const started = await gate.inject({method: 'POST', url: '/_portal/session', headers: {authorization: `Bearer ${accessToken}`, host: 'localhost:3000'}});
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({hadSession: false});
    const session = ([] as string[]).concat(started.headers['set-cookie'] ?? []).find((value) => value.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(Number(/Max-Age=(\d+)/.exec(session)?.[1])).toBeGreaterThan(590);
    expect(Number(/Max-Age=(\d+)/.exec(session)?.[1])).toBeLessThanOrEqual(600);
    expect(session).not.toMatch(/Secure/);

    const renewed = await gate.inject({method: 'POST', url: '/_portal/session', headers: {authorization: `Bearer ${accessToken}`, ...cookie(accessToken)}});
    expect(renewed.json()).toMatchObject({hadSession: true});

    const ended = await gate.inject({method: 'DELETE', url: '/_portal/session'});
    expect(ended.statusCode).toBe(204);
    expect(String(ended.headers['set-cookie'])).toMatch(new RegExp(`${SESSION_COOKIE}=;.*Max-Age=0`));
  });

  it('marks cookies Secure on any host but localhost', async () => {
    const response = await gate.inject({method: 'POST', url: '/_portal/session', headers: {authorization: `Bearer ${await developer()}`, host: 'docs.example.com'}});
    expect(String(response.headers['set-cookie'])).toMatch(/Secure/);
  });

  it('refuses bad tokens and cross-site session requests without setting a cookie', async () => {
    const bad = await gate.inject({method: 'POST', url: '/_portal/session', headers: {authorization: 'Bearer a.b.c'}});
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['set-cookie']).toBeUndefined();
    const missing = await gate.inject({method: 'POST', url: '/_portal/session'});
    expect(missing.statusCode).toBe(401);
    const crossSite = await gate.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {authorization: `Bearer ${await developer()}`, origin: 'https://evil.example', host: 'localhost:3000'},
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.headers['set-cookie']).toBeUndefined();
  });

  it('serves clean URLs like the nginx config, a real 404, and hides its own files', async () => {
    expect((await gate.inject({url: '/docs/guide.html?x=1'})).headers.location).toBe('/docs/guide?x=1');
    expect((await gate.inject({url: '/docs/guide/index.html'})).headers.location).toBe('/docs/guide/');
    const missing = await gate.inject({url: '/docs/nope'});
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Not found (public)');
    expect((await gate.inject({url: '/access-manifest.json'})).statusCode).toBe(404);
    expect((await gate.inject({url: '/_headers'})).statusCode).toBe(404);
    expect((await gate.inject({url: '/docs/%2e%2e/%2e%2e/etc/passwd'})).statusCode).toBe(404);
  });
});
