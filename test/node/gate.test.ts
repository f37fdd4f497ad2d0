/**
 * The gate server (server/gate.ts) on a small fixture build, through
 * Fastify's inject (no port): which build each reader gets, the session
 * cookie, what it refuses, and the ways an attacker would try around it
 * (other spellings of a URL, hostile redirects, huge tokens, a failing key
 * endpoint, replayed cookies).
 */
import {execFileSync} from 'node:child_process';
import {createHash, randomBytes} from 'node:crypto';
import {cpSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import {brotliDecompressSync, gunzipSync} from 'node:zlib';
import {PassThrough} from 'node:stream';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type {FastifyInstance} from 'fastify';
import type {JWTPayload} from 'jose';
import {createGate, SESSION_COOKIE, type GateOptions} from '../../server/gate';
import {loadSite} from '../../server/decide';
import {etagOf, SMALL_FILE_BYTES, type FileIndex} from '../../server/buildFiles';
import {createFileBodies} from '../../server/fileBodies';
import {createKeyStore, type KeyStore} from '../../server/keys';
import {writeFileIndex} from '../../scripts/build-index';
import {
  createProviderKeys,
  fixtureGateOptions,
  ISSUER,
  JWKS_URL,
  signToken,
  write,
  writeGateBuild,
  type KeyPair,
} from '../support/gateFixture';
import {rawGet, rawGetFollowing, rawRequest} from '../support/rawHttp';
import {isSameOriginPath, spellingsOf} from '../support/urlSpellings';

const SECRET = 'The production database password rotates every Tuesday';
const ADMIN_TEXT = 'Suspend a tenant with the admin console.';
const ADMIN_CHUNK = '/assets/js/admin.1234abcd.js';

let dir: string;
let keys: KeyPair;
let strangerKeys: KeyPair;
let jwks: {keys: unknown[]};
let gate: FastifyInstance;
/** The same gate on a loopback port, for requests sent byte for byte (test/support/rawHttp.ts). */
let origin: string;

function token(claims: JWTPayload, key: KeyPair['privateKey'] = keys.privateKey, expiresIn: string | number = '10m'): Promise<string> {
  return signToken(key, claims, expiresIn);
}

const developer = () => token({sub: 'user_developer', org_id: 'org_acme', role: 'member', roles: ['member'], permissions: ['docs:read']});
const admin = () => token({sub: 'user_admin', org_id: 'org_acme', role: 'admin', roles: ['admin', 'member'], permissions: ['docs:read']});
/** WorkOS puts every permission of the role in the token: 300 of them make a ~12 KB token. */
const hugeAdmin = () =>
  token({
    sub: 'user_admin',
    org_id: 'org_acme',
    role: 'admin',
    roles: ['admin'],
    permissions: Array.from({length: 300}, (_, index) => `service-${String(index).padStart(3, '0')}:manage-everything-in-this-area`),
  });

/** A key store whose endpoint a test can break: `ok`, `fail` (HTTP 503) or `hang` (never answers). */
function controllableKeyStore(initialMode: 'ok' | 'fail' | 'hang' = 'ok'): KeyStore & {mode: 'ok' | 'fail' | 'hang'; fetches: number} {
  const control = {mode: initialMode, fetches: 0};
  const store = createKeyStore({
    url: JWKS_URL,
    refreshIntervalMs: 3_600_000,
    fetchJwks: async (_url, signal) => {
      control.fetches += 1;
      if (control.mode === 'fail') {
        return new Response('upstream down', {status: 503});
      }
      if (control.mode === 'hang') {
        return new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      }
      return Response.json(jwks);
    },
  });
  return Object.assign(control, store);
}

/**
 * Servers started inside a test (not in a `beforeAll`): closed after it by
 * the `afterEach` below, whether it passed or failed. Closing twice is
 * harmless, so a test may still close its own.
 */
const startedInTest = new Set<FastifyInstance>();
let inTest = false;

beforeEach(() => {
  inTest = true;
});

afterEach(async () => {
  inTest = false;
  const servers = [...startedInTest];
  startedInTest.clear();
  await Promise.all(servers.map((server) => server.close()));
});

async function gateWith(overrides: Partial<GateOptions> = {}): Promise<FastifyInstance> {
  const server = await createGate(fixtureGateOptions(dir, controllableKeyStore(), overrides));
  if (inTest) {
    startedInTest.add(server);
  }
  return server;
}

function setCookies(response: {headers: Record<string, unknown>}): string[] {
  return ([] as string[]).concat((response.headers['set-cookie'] as string | string[] | undefined) ?? []);
}

/** Hands the session endpoint an access token, as the browser does after sign-in and every refresh. */
function postSession(server: FastifyInstance, accessToken: string) {
  return server.inject({method: 'POST', url: '/_portal/session', headers: {host: 'localhost:3000'}, payload: {accessToken}});
}

/** Signs in through the session endpoint, as the browser does; returns the Cookie header the browser then sends. */
async function sessionCookie(server: FastifyInstance, accessToken: string): Promise<string> {
  const response = await postSession(server, accessToken);
  expect(response.statusCode).toBe(200);
  const session = setCookies(response).find((value) => value.startsWith(`${SESSION_COOKIE}=`));
  if (!session) {
    throw new Error('no session cookie was set');
  }
  return session.split(';')[0] as string;
}

beforeAll(async () => {
  ({keys, strangerKeys, jwks} = await createProviderKeys());
  dir = mkdtempSync(path.join(os.tmpdir(), 'portal-gate-'));
  const guidePage = (audience: string) => `<h1>Guide (${audience})</h1>`;
  const mainChunk = (audience: string) => `/* main ${audience} */`;
  await writeGateBuild(dir, {
    both: {
      'assets/js/shared.abcd.js': '/* the same in both builds */',
      '_nginx/security-headers.conf': 'add_header X-Test 1;',
    },
    public: {
      'docs/guide/index.html': guidePage('public'),
      'assets/js/main.js': mainChunk('public'),
      'assets/js/public-only.5678.js': '/* public chunk */',
      'docs/ops/index.html': '<h1>Ops</h1><p>Sign in to read this page.</p>',
      'docs/admin/index.html': '<h1>Admin</h1><p>Sign in to read this page.</p>',
      // The search bundles (plugins/search): each holds the pages its readers may read.
      'pagefind/pagefind-entry.json': '{"pages": "public pages"}',
    },
    members: {
      'docs/guide/index.html': guidePage('members'),
      'assets/js/main.js': mainChunk('members'),
      'docs/ops/index.html': `<h1>Ops</h1><p>${SECRET}</p>`,
      'docs/admin/index.html': `<h1>Admin</h1><p>${ADMIN_TEXT}</p>`,
      [ADMIN_CHUNK.slice(1)]: ADMIN_TEXT,
      // A page only a restricted page brings (a tag page): no public version exists.
      'docs/tags/admin-only/index.html': `<h1>Tagged</h1><p>${ADMIN_TEXT}</p>`,
      'pagefind/pagefind-entry.json': '{"pages": "public and signed-in pages"}',
      '_portal/search/v1/pagefind/pagefind-entry.json': `{"pages": "${ADMIN_TEXT}"}`,
      '_portal/search/v1/pagefind/fragment/en_admin.pf_fragment': ADMIN_TEXT,
    },
    manifest: {
      pages: [
        {route: '/docs/guide', source: 'docs/guide.md', title: 'Guide', rule: {kind: 'public'}, files: []},
        {route: '/docs/ops', source: 'docs/ops.md', title: 'Ops', rule: {kind: 'signed-in'}, files: ['docs/ops/index.html']},
        {
          route: '/docs/admin',
          source: 'docs/admin.md',
          title: 'Admin',
          rule: {kind: 'roles', roles: ['admin'], permissions: []},
          files: [ADMIN_CHUNK.slice(1), 'docs/admin/index.html'],
        },
      ],
      files: {
        'docs/ops/index.html': [{kind: 'signed-in'}],
        'docs/admin/index.html': [{kind: 'roles', roles: ['admin'], permissions: []}],
        [ADMIN_CHUNK.slice(1)]: [{kind: 'roles', roles: ['admin'], permissions: []}],
        'docs/tags/admin-only/index.html': [{kind: 'roles', roles: ['admin'], permissions: []}],
      },
      searchIndexes: [{dir: '_portal/search/v1', routes: ['/docs/admin']}],
    },
  });
  gate = await gateWith();
  origin = await gate.listen({port: 0, host: '127.0.0.1'});
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
    const cookie = await sessionCookie(gate, await developer());
    const response = await gate.inject({url: '/docs/ops/', headers: {cookie}});
    expect(response.body).toContain(SECRET);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const asset = await gate.inject({url: '/assets/js/main.js', headers: {cookie}});
    expect(asset.body).toContain('main members');
    expect(asset.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    // A page loaded from the public build just before sign-in still gets its own files.
    const publicChunk = await gate.inject({url: '/assets/js/public-only.5678.js', headers: {cookie}});
    expect(publicChunk.statusCode).toBe(200);
    expect((await gate.inject({url: '/assets/js/nope.js', headers: {cookie}})).statusCode).toBe(404);
  });

  it('answers a file that is the same for every reader without looking at the session', async () => {
    const response = await gate.inject({url: '/assets/js/shared.abcd.js', headers: {cookie: `${SESSION_COOKIE}=garbage`}});
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toBeUndefined();
  });

  it.each([
    ['a token signed by another key', async () => token({org_id: 'org_acme'}, strangerKeys.privateKey)],
    ['an expired token', async () => token({org_id: 'org_acme'}, keys.privateKey, Math.floor(Date.now() / 1000) - 60)],
    ['a token of another organisation', async () => token({org_id: 'org_other'})],
    ['a token from another issuer', async () => token({org_id: 'org_acme', iss: 'https://evil.example/user_management/client_test'})],
    ['a token without a session id', async () => token({org_id: 'org_acme', sid: undefined})],
    ['garbage', async () => 'not-a-jwt'],
  ])('refuses %s at the session endpoint and clears any earlier session', async (_name, make) => {
    const earlier = await sessionCookie(gate, await developer());
    const response = await gate.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {cookie: earlier},
      payload: {accessToken: await make()},
    });
    expect(response.statusCode).toBe(401);
    const cleared = setCookies(response).find((value) => value.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(cleared).toMatch(/Max-Age=0/);
  });

  it('treats the provider token itself, or a forged cookie, as no session', async () => {
    for (const value of [await admin(), 'a.b.c', 'garbage']) {
      const response = await gate.inject({url: '/docs/ops', headers: {cookie: `${SESSION_COOKIE}=${value}`}});
      expect(response.body).not.toContain(SECRET);
    }
  });

  it('gives each reader the search bundle of exactly what they may read, and never a variant by its own name', async () => {
    const asDeveloper = await sessionCookie(gate, await developer());
    const asAdmin = await sessionCookie(gate, await admin());
    const signedOut = await gate.inject({url: '/pagefind/pagefind-entry.json?ts=abc'});
    expect(signedOut.body).toContain('public pages');
    const developerIndex = await gate.inject({url: '/pagefind/pagefind-entry.json?ts=abc', headers: {cookie: asDeveloper}});
    expect(developerIndex.body).toContain('public and signed-in pages');
    expect(developerIndex.body).not.toContain(ADMIN_TEXT);
    const adminIndex = await gate.inject({url: '/pagefind/pagefind-entry.json?ts=abc', headers: {cookie: asAdmin}});
    expect(adminIndex.body).toContain(ADMIN_TEXT);
    // A fragment only the admin's bundle holds: nobody else gets it, under any name.
    const fragment = '/pagefind/fragment/en_admin.pf_fragment';
    expect((await gate.inject({url: fragment})).statusCode).toBe(404);
    expect((await gate.inject({url: fragment, headers: {cookie: asDeveloper}})).statusCode).toBe(404);
    expect((await gate.inject({url: fragment, headers: {cookie: asAdmin}})).body).toBe(ADMIN_TEXT);
    // Chosen by the session: never cached for another reader.
    expect(adminIndex.headers['cache-control']).toBe('private, no-cache');
    expect(adminIndex.headers.vary).toContain('Cookie');
    for (const cookie of [undefined, asDeveloper, asAdmin]) {
      for (const spelling of [
        ...spellingsOf('/_portal/search/v1/pagefind/pagefind-entry.json'),
        ...spellingsOf('/_portal/search/v1/pagefind/fragment/en_admin.pf_fragment'),
      ]) {
        const direct = await rawGetFollowing(origin, spelling.url, cookie ? {cookie} : {});
        expect([400, 404]).toContain(direct.status);
        expect(direct.body).not.toContain(ADMIN_TEXT);
      }
    }
    // Other spellings of the index itself are decided the same way.
    const spelledAsDeveloper = await rawGetFollowing(origin, '//pagefind/pagefind-entry.json?ts=abc', {cookie: asDeveloper});
    expect(spelledAsDeveloper.body).not.toContain(ADMIN_TEXT);
    expect((await rawGetFollowing(origin, '/%70agefind/pagefind-entry.json', {cookie: asAdmin})).body).toContain(ADMIN_TEXT);
  });

  it('chooses the search bundle by the session even when both builds have the same default bundle', async () => {
    // A copy of the fixture build: the shared gate keeps serving the build it indexed.
    const copy = mkdtempSync(path.join(os.tmpdir(), 'portal-gate-same-bundle-'));
    cpSync(dir, copy, {recursive: true});
    write(
      path.join(copy, 'members', 'pagefind', 'pagefind-entry.json'),
      readFileSync(path.join(dir, 'public', 'pagefind', 'pagefind-entry.json'), 'utf8'),
    );
    await writeFileIndex(copy);
    const server = await gateWith({buildDir: copy});
    try {
      const asAdmin = await sessionCookie(server, await admin());
      const answer = await server.inject({url: '/pagefind/pagefind-entry.json', headers: {cookie: asAdmin}});
      expect(answer.body).toContain(ADMIN_TEXT);
      expect(answer.headers['cache-control']).toBe('private, no-cache');
      const signedOut = await server.inject({url: '/pagefind/pagefind-entry.json'});
      expect(signedOut.body).not.toContain(ADMIN_TEXT);
      expect(signedOut.headers.vary).toContain('Cookie');
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('enforces roles for the HTML and the chunk of a role-restricted page', async () => {
    const asDeveloper = await sessionCookie(gate, await developer());
    expect((await gate.inject({url: '/docs/admin', headers: {cookie: asDeveloper}})).body).toContain('Sign in to read this page');
    const chunkAsDeveloper = await gate.inject({url: ADMIN_CHUNK, headers: {cookie: asDeveloper}});
    expect(chunkAsDeveloper.statusCode).toBe(403);
    expect(chunkAsDeveloper.body).not.toContain('Suspend a tenant');
    expect((await gate.inject({url: ADMIN_CHUNK})).statusCode).toBe(403);
    // A prefetch (a link in view) gets an empty answer rather than an error in the reader's console.
    const prefetch = await gate.inject({url: ADMIN_CHUNK, headers: {cookie: asDeveloper, 'sec-purpose': 'prefetch'}});
    expect(prefetch.statusCode).toBe(204);
    expect(prefetch.body).toBe('');

    const asAdmin = await sessionCookie(gate, await admin());
    expect((await gate.inject({url: '/docs/admin', headers: {cookie: asAdmin}})).body).toContain('Suspend a tenant');
    expect((await gate.inject({url: ADMIN_CHUNK, headers: {cookie: asAdmin}})).statusCode).toBe(200);
  });

  describe.each([
    ['the restricted page', '/docs/admin', ADMIN_TEXT],
    ['its content chunk', ADMIN_CHUNK, ADMIN_TEXT],
  ])('every spelling of %s', (_what, cleanPath, text) => {
    const readers: [string, () => Promise<string | undefined>, boolean][] = [
      ['signed out', async () => undefined, false],
      ['a member without the admin role', async () => sessionCookie(gate, await developer()), false],
      ['an admin', async () => sessionCookie(gate, await admin()), true],
    ];
    it.each(
      spellingsOf(cleanPath).flatMap((spelling) =>
        readers.map(([reader, cookieFor, mayRead]) => ({...spelling, reader, cookieFor, mayRead})),
      ),
    )('$name ($url) as $reader', async ({url, expect: expected, cookieFor, mayRead}) => {
      const cookie = await cookieFor();
      const response = await rawGetFollowing(origin, url, cookie ? {cookie} : {});
      if (!mayRead || expected === 'refused') {
        expect(response.body).not.toContain(text);
      }
      if (expected === 'refused') {
        expect([400, 404]).toContain(response.status);
      } else if (expected === 'same' && mayRead) {
        expect(response.status).toBe(200);
        expect(response.body).toContain(text);
      } else if (expected === 'same') {
        // Withheld: the page from the public build, or the chunk refused.
        expect(cleanPath.startsWith('/assets/') ? response.status : response.body).toEqual(
          cleanPath.startsWith('/assets/') ? 403 : expect.stringContaining('Sign in to read this page'),
        );
      }
    });
  });

  it.each([
    '/%2Fevil.example/x.html',
    '//evil.example/index.html',
    '//evil.example/x.html',
    '/%5Cevil.example/x.html',
    '/%09/evil.example/x.html',
    '/.//evil.example/x.html',
    '/%2e//evil.example/x.html',
    '///evil.example/',
    '/\\evil.example/x.html',
    '/x/..//evil.example/index.html',
    '/docs/guide.html?next=//evil.example',
    '/../evil.example/x.html',
  ])('never redirects %p off the site', async (url) => {
    const response = await rawGet(origin, url);
    if (response.status === 301 || response.status === 302) {
      expect(isSameOriginPath(response.headers.location)).toBe(true);
    } else {
      expect([400, 404]).toContain(response.status);
    }
  });

  it('keeps the session a few hundred bytes for a 12 KB token with 300 permissions, and the admin reads the page', async () => {
    const accessToken = await hugeAdmin();
    expect(accessToken.length).toBeGreaterThan(12_000);
    const response = await gate.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {host: 'localhost:3000'},
      payload: {accessToken},
    });
    expect(response.statusCode).toBe(200);
    const total = setCookies(response).reduce((sum, value) => sum + value.length, 0);
    expect(total).toBeLessThan(4096);
    const cookie = (setCookies(response).find((value) => value.startsWith(`${SESSION_COOKIE}=`)) ?? '').split(';')[0] as string;
    expect((await gate.inject({url: '/docs/admin', headers: {cookie}})).body).toContain(ADMIN_TEXT);
  });

  it('sets an HttpOnly session cookie that expires with the token; sign-out deletes it and the old value stops working', async () => {
    const accessToken = await developer();
    const started = await postSession(gate, accessToken);
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({hadSession: false});
    const session = setCookies(started).find((value) => value.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toContain(accessToken);
    expect(Number(/Max-Age=(\d+)/.exec(session)?.[1])).toBeGreaterThan(590);
    expect(Number(/Max-Age=(\d+)/.exec(session)?.[1])).toBeLessThanOrEqual(600);
    expect(session).not.toMatch(/Secure/);
    const cookie = session.split(';')[0] as string;

    const renewed = await gate.inject({method: 'POST', url: '/_portal/session', headers: {cookie}, payload: {accessToken}});
    expect(renewed.json()).toMatchObject({hadSession: true, changed: false});
    // The same browser, now with the admin role: the rules see something else, and the browser is told so.
    const promoted = await gate.inject({method: 'POST', url: '/_portal/session', headers: {cookie}, payload: {accessToken: await admin()}});
    expect(promoted.json()).toMatchObject({hadSession: true, changed: true});

    const ended = await gate.inject({method: 'DELETE', url: '/_portal/session', headers: {cookie}});
    expect(ended.statusCode).toBe(204);
    // Members' files the browser cached (private, immutable) go with the session.
    expect(ended.headers['clear-site-data']).toBe('"cache"');
    expect(String(ended.headers['set-cookie'])).toMatch(new RegExp(`${SESSION_COOKIE}=;.*Max-Age=0`));
    // Replaying the old value after sign-out opens nothing.
    expect((await gate.inject({url: '/docs/ops', headers: {cookie}})).body).not.toContain(SECRET);
    // Nor does the signed-out session's access token, still valid for minutes: it starts no new session.
    const replayed = await postSession(gate, accessToken);
    expect(replayed.statusCode).toBe(401);
    expect(setCookies(replayed).some((value) => value.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
    // Another sign-in (a new provider session) still works.
    await sessionCookie(gate, await developer());
  });

  it('marks cookies Secure on any host but localhost', async () => {
    const response = await gate.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {host: 'docs.example.com'},
      payload: {accessToken: await developer()},
    });
    expect(String(response.headers['set-cookie'])).toMatch(/Secure/);
  });

  it('refuses cross-site and non-JSON session requests without touching the cookie', async () => {
    const accessToken = await developer();
    for (const headers of [
      {origin: 'https://evil.example', host: 'localhost:3000'},
      {'sec-fetch-site': 'cross-site', host: 'localhost:3000'},
    ]) {
      const crossSite = await gate.inject({method: 'POST', url: '/_portal/session', headers, payload: {accessToken}});
      expect(crossSite.statusCode).toBe(403);
      expect(crossSite.headers['set-cookie']).toBeUndefined();
      const signOut = await gate.inject({method: 'DELETE', url: '/_portal/session', headers});
      expect(signOut.statusCode).toBe(403);
      expect(signOut.headers['set-cookie']).toBeUndefined();
    }
    const plain = await gate.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {'content-type': 'text/plain'},
      payload: accessToken,
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.headers['set-cookie']).toBeUndefined();
    const inHeader = await gate.inject({method: 'POST', url: '/_portal/session', headers: {authorization: `Bearer ${accessToken}`}});
    expect(inHeader.statusCode).not.toBe(200);
  });

  it('serves clean URLs like the nginx config, a real 404, and hides its own files', async () => {
    expect((await gate.inject({url: '/docs/guide.html?x=1'})).headers.location).toBe('/docs/guide?x=1');
    expect((await gate.inject({url: '/docs/guide/index.html'})).headers.location).toBe('/docs/guide/');
    const missing = await gate.inject({url: '/docs/nope'});
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Not found (public)');
    for (const url of ['/access-manifest.json', '/_headers', '/_headers.json', '/_nginx/security-headers.conf']) {
      expect((await gate.inject({url})).statusCode).toBe(404);
    }
    expect((await rawGet(origin, '/docs/%2e%2e/%2e%2e/etc/passwd')).status).toBe(400);
    expect((await rawGet(origin, '/docs/../../etc/passwd')).status).toBe(400);
  });

  it("refuses a session cookie issued by another deployment that shares the secret (staging's cookie on production)", async () => {
    const secret = randomBytes(32);
    const staging = await gateWith({sessionSecrets: [secret], organizationId: 'org_staging'});
    const production = await gateWith({sessionSecrets: [secret]});
    const cookie = await sessionCookie(staging, await token({org_id: 'org_staging', role: 'admin', roles: ['admin']}));
    expect((await staging.inject({url: '/docs/admin', headers: {cookie}})).body).toContain(ADMIN_TEXT);
    expect((await production.inject({url: '/docs/admin', headers: {cookie}})).body).not.toContain(ADMIN_TEXT);
    await staging.close();
    await production.close();
  });

  it("gives every answer the site's security headers: redirects, refusals and the session endpoint too", async () => {
    const asDeveloper = await sessionCookie(gate, await developer());
    const answers = {
      redirect: await gate.inject({url: '/docs/guide/index.html'}),
      'refused chunk': await gate.inject({url: ADMIN_CHUNK, headers: {cookie: asDeveloper}}),
      'refused prefetch': await gate.inject({url: ADMIN_CHUNK, headers: {cookie: asDeveloper, 'sec-purpose': 'prefetch'}}),
      'session JSON': await gate.inject({
        method: 'POST',
        url: '/_portal/session',
        headers: {host: 'localhost:3000', 'content-type': 'application/json'},
        payload: {accessToken: 'not-a-token'},
      }),
      'sign-out': await gate.inject({method: 'DELETE', url: '/_portal/session', headers: {host: 'localhost:3000', cookie: asDeveloper}}),
      health: await gate.inject({url: '/_portal/health'}),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([what, response]) => [what, response.statusCode]))).toEqual({
      redirect: 301,
      'refused chunk': 403,
      'refused prefetch': 204,
      'session JSON': 401,
      'sign-out': 204,
      health: 200,
    });
    for (const [what, response] of Object.entries(answers)) {
      expect([what, response.headers['x-content-type-options'], response.headers['content-security-policy']]).toEqual([
        what,
        'nosniff',
        "default-src 'self'",
      ]);
    }
  });

  it("answers what Fastify itself refuses with a fixed text, the site's headers and no-store, never echoing the request", async () => {
    for (const [method, target, status] of [
      ['GET', '/docs/x%C0%A5<script>', 400],
      ['OPTIONS', '/anything<script>', 404],
      ['POST', '/anything<script>', 404],
    ] as const) {
      const response = await rawRequest(origin, method, target);
      expect(response.status).toBe(status);
      expect(response.body).not.toContain('script');
      expect(response.body).not.toContain('anything');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
    const badJson = await gate.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {'content-type': 'application/json'},
      payload: '{"accessToken": <script>',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.body).not.toContain('script');
    expect(badJson.headers['cache-control']).toBe('no-store');
  });

  it("gives the answers node's parser and Fastify make before any route (431, 400, 413) the site's headers", async () => {
    // Bytes on a socket: an HTTP client would refuse to send these requests.
    const rawExchange = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const {hostname, port} = new URL(origin);
        const socket = net.connect({host: hostname, port: Number(port)}, () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
        socket.on('close', () => resolve(answer));
        socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(answer) : reject(error)));
      });
    const headersOf = (answer: string) => {
      const [head = ''] = answer.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      return {status: Number(statusLine.split(' ')[1]), headers, body: answer.slice(head.length + 4)};
    };
    const oversize = headersOf(
      await rawExchange(`GET /docs/guide HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}<script>\r\n\r\n`),
    );
    const malformed = headersOf(await rawExchange('GET /<script> NOT-HTTP\r\n\r\n'));
    const tooLarge = await gate.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {host: 'localhost:3000', 'content-type': 'application/json'},
      payload: JSON.stringify({accessToken: 'x'.repeat(200_000)}),
    });
    const answers = {
      oversize,
      malformed,
      'body too large': {status: tooLarge.statusCode, headers: tooLarge.headers, body: tooLarge.body},
    };
    expect(Object.fromEntries(Object.entries(answers).map(([what, answer]) => [what, answer.status]))).toEqual({
      oversize: 431,
      malformed: 400,
      'body too large': 413,
    });
    for (const [what, {headers, body}] of Object.entries(answers)) {
      expect([
        what,
        headers['x-content-type-options'],
        headers['content-security-policy'],
        headers['cross-origin-resource-policy'],
        headers['cache-control'],
      ]).toEqual([what, 'nosniff', "default-src 'self'", 'same-origin', 'no-store']);
      expect(body).not.toContain('script');
    }
  });
});

describe('gate server: the key endpoint', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it.each(['fail', 'hang'] as const)('keeps answering from the last good key set when the endpoint starts to %s', async (mode) => {
    const store = controllableKeyStore();
    const server = await gateWith({jwks: store});
    const signedIn = await sessionCookie(server, await developer());
    // Only `setTimeout` is faked: if anything waited for the key endpoint,
    // the answers below could not arrive while the clock stands still.
    jest.useFakeTimers({doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance', 'Date']});
    store.mode = mode;
    const fetchesBefore = store.fetches;
    const refreshing = store.refresh();
    expect(store.fetches).toBe(fetchesBefore + 1);

    const [session, page, asset] = await Promise.all([
      server.inject({method: 'POST', url: '/_portal/session', headers: {host: 'localhost:3000'}, payload: {accessToken: await admin()}}),
      server.inject({url: '/docs/ops', headers: {cookie: signedIn}}),
      server.inject({url: '/assets/js/shared.abcd.js'}),
    ]);
    expect(session.statusCode).toBe(200);
    expect(page.body).toContain(SECRET);
    expect(asset.statusCode).toBe(200);
    expect(store.status()).toMatchObject({ready: true});

    // A hanging fetch is given up after its bound (3 s); then the store
    // backs off (1 s) instead of fetching again on every request.
    jest.advanceTimersByTime(mode === 'hang' ? 3_000 : 0);
    await refreshing;
    expect(store.status().consecutiveFailures).toBe(1);
    await server.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {host: 'localhost:3000'},
      payload: {accessToken: await admin()},
    });
    expect(store.fetches).toBe(fetchesBefore + 1);
    jest.advanceTimersByTime(1_000);
    expect(store.fetches).toBe(fetchesBefore + 2);
    await server.close();
  });

  it('answers 503 (not 401, and keeps the cookie) when no key set could ever be loaded', async () => {
    const store = controllableKeyStore('fail');
    const server = await gateWith({jwks: store});
    const response = await server.inject({
      method: 'POST',
      url: '/_portal/session',
      headers: {host: 'localhost:3000'},
      payload: {accessToken: await developer()},
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['set-cookie']).toBeUndefined();
    // Alive, but not ready: a load balancer keeps traffic away until keys load.
    expect((await server.inject({url: '/_portal/health'})).json()).toEqual({
      status: 'ok',
      build: 'unknown',
    });
    const ready = await server.inject({url: '/_portal/health/ready'});
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ready: false});
    await server.close();
  });
});

/** A gate whose JSON log lines a test can read, each as it is written (no waiting on a clock). */
async function gateWithLog(overrides: Partial<GateOptions> = {}) {
  const lines: Record<string, unknown>[] = [];
  let raw = '';
  const waiting: {test: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void}[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    raw += chunk.toString('utf8');
    for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) {
      const line = JSON.parse(text) as Record<string, unknown>;
      lines.push(line);
      waiting.filter((waiter) => waiter.test(line)).forEach((waiter) => waiter.resolve(line));
    }
  });
  const server = await gateWith({logStream, ...overrides});
  /** The request line for `path`: already written, or the next one. */
  const requestLine = (path: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const test = (line: Record<string, unknown>) => line.msg === 'request' && line.path === path;
      const written = lines.find(test);
      return written ? resolve(written) : waiting.push({test, resolve});
    });
  return {server, requestLine, raw: () => raw, clear: () => lines.splice(0)};
}

/** The session cookie a POST set, as `name=value`. */
function sessionCookieOf(response: {headers: Record<string, unknown>}): string {
  const value = setCookies(response).find((candidate) => /^(__Host-)?portal_session=[^;]/.test(candidate));
  if (!value) {
    throw new Error(`no session cookie in ${JSON.stringify(setCookies(response))}`);
  }
  return value.split(';')[0] as string;
}

describe('gate server: requests Fastify refuses before routing, and slow ones', () => {
  it('answers a URL it cannot decode with the site’s headers and logs it like any other request', async () => {
    const {server, requestLine} = await gateWithLog();
    for (const target of ['/%zz', '/docs/%', '/docs/%E0%A4%A']) {
      const response = await server.inject({url: target});
      expect(response.statusCode).toBe(400);
      expect(response.body).toBe('Bad request');
      expect(response.headers['content-security-policy']).toBe("default-src 'self'");
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(await requestLine(target)).toMatchObject({method: 'GET', status: 400, reason: 'undecodable URL'});
    }
  });

  it('answers 408 and closes the connection when a request body trickles in slower than the request timeout', async () => {
    const server = await gateWith({requestTimeoutMs: 500});
    const address = await server.listen({port: 0, host: '127.0.0.1'});
    const {port} = new URL(address);
    const answer = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = net.connect({host: '127.0.0.1', port: Number(port)}, () => {
        // Headers announce a body that never comes whole.
        socket.write(
          'POST /_portal/session HTTP/1.1\r\nHost: localhost:3000\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        );
      });
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain("Content-Security-Policy: default-src 'self'");
  });
});

describe('gate server: personal answers go to the site itself', () => {
  it('marks every answer Cross-Origin-Resource-Policy: same-origin, personal ones included', async () => {
    const asAdmin = await sessionCookie(gate, await admin());
    const answers = [
      await gate.inject({url: '/docs/admin', headers: {cookie: asAdmin}}),
      await gate.inject({url: ADMIN_CHUNK, headers: {cookie: asAdmin}}),
      await gate.inject({url: '/pagefind/pagefind-entry.json', headers: {cookie: asAdmin}}),
      await gate.inject({url: ADMIN_CHUNK}),
      await postSession(gate, await developer()),
      await gate.inject({method: 'DELETE', url: '/_portal/session', headers: {host: 'localhost:3000'}}),
      await gate.inject({url: '/assets/js/shared.abcd.js'}),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 200, 403, 200, 204, 200]);
    expect(answers.map((response) => response.headers['cross-origin-resource-policy'])).toEqual(answers.map(() => 'same-origin'));
  });

  // Header tokens compare in any case: an odd spelling is not a way around the check.
  describe.each(['same-site', 'cross-site', 'Cross-Site'])(
    'a request another site makes the browser send (Sec-Fetch-Site: %s)',
    (fetchSite) => {
      const fromThere = (cookie: string, extra: Record<string, string> = {}) => ({cookie, 'sec-fetch-site': fetchSite, ...extra});

      it("gets the signed-out answer for a restricted page's chunk, its HTML and the role search index, without reading the session", async () => {
        const {server, requestLine} = await gateWithLog();
        try {
          const asAdmin = await sessionCookie(server, await admin());
          const chunk = await server.inject({
            url: ADMIN_CHUNK,
            headers: fromThere(asAdmin, {'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script'}),
          });
          expect(chunk.statusCode).toBe(403);
          expect(chunk.body).not.toContain(ADMIN_TEXT);
          const html = await server.inject({
            url: '/docs/admin',
            headers: fromThere(asAdmin, {'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty'}),
          });
          expect(html.body).toContain('Sign in to read this page');
          expect(html.body).not.toContain(ADMIN_TEXT);
          const index = await server.inject({
            url: '/pagefind/pagefind-entry.json',
            headers: fromThere(asAdmin, {'sec-fetch-mode': 'cors'}),
          });
          expect(index.body).toContain('public pages');
          expect(index.body).not.toContain(ADMIN_TEXT);
          // An iframe is a navigation too, but not a top-level one.
          const framed = await server.inject({
            url: '/docs/admin',
            headers: fromThere(asAdmin, {'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe'}),
          });
          expect(framed.body).not.toContain(ADMIN_TEXT);
          // The session was not read: the log names no reader.
          for (const path of [ADMIN_CHUNK, '/docs/admin', '/pagefind/pagefind-entry.json']) {
            expect(await requestLine(path)).toMatchObject({reader: null, access: 'refused', otherSite: true});
          }
          // The same cookie from the site's own pages still opens everything.
          for (const url of [ADMIN_CHUNK, '/docs/admin', '/pagefind/pagefind-entry.json']) {
            expect((await server.inject({url, headers: {cookie: asAdmin, 'sec-fetch-site': 'same-origin'}})).body).toContain(ADMIN_TEXT);
          }
        } finally {
          await server.close();
        }
      });

      it('lets a top-level navigation through: a member following a link from elsewhere gets the page, which that site cannot read', async () => {
        const asAdmin = await sessionCookie(gate, await admin());
        const followed = await gate.inject({
          url: '/docs/admin',
          headers: fromThere(asAdmin, {'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document'}),
        });
        expect(followed.body).toContain(ADMIN_TEXT);
        expect(followed.headers['cross-origin-resource-policy']).toBe('same-origin');
      });

      it('refuses session requests', async () => {
        const refused = await gate.inject({
          method: 'POST',
          url: '/_portal/session',
          headers: {host: 'localhost:3000', 'sec-fetch-site': fetchSite},
          payload: {accessToken: await developer()},
        });
        expect(refused.statusCode).toBe(403);
        expect(refused.headers['set-cookie']).toBeUndefined();
      });
    },
  );
});

describe('gate server: cookies a sibling subdomain cannot set', () => {
  it('treats a request with two session cookies, both valid, as signed out, in either order and under either name', async () => {
    const asDeveloper = await sessionCookie(gate, await developer());
    const asAdmin = await sessionCookie(gate, await admin());
    const developerValue = asDeveloper.split('=')[1] as string;
    for (const cookie of [
      `${asAdmin}; ${asDeveloper}`,
      `${asDeveloper}; ${asAdmin}`,
      `${asAdmin}; ${asAdmin}`,
      `${asAdmin}; __Host-portal_session=${developerValue}`,
      `__Host-portal_session=${developerValue}; ${asAdmin}`,
      `${asAdmin}; Portal_Session=${developerValue}`,
    ]) {
      const page = await gate.inject({url: '/docs/admin', headers: {cookie}});
      expect([cookie, page.body.includes(ADMIN_TEXT)]).toEqual([cookie, false]);
      expect((await gate.inject({url: '/docs/ops', headers: {cookie}})).body).not.toContain(SECRET);
      expect((await gate.inject({url: ADMIN_CHUNK, headers: {cookie}})).statusCode).toBe(403);
    }
    // One of them alone still works.
    expect((await gate.inject({url: '/docs/admin', headers: {cookie: `other=1; ${asAdmin}; portal_gate=0`}})).body).toContain(ADMIN_TEXT);
  });

  it("ends the reader's own session on sign-out even when a tossed cookie comes first", async () => {
    const tossed = await sessionCookie(gate, await developer());
    const own = await sessionCookie(gate, await admin());
    const ended = await gate.inject({
      method: 'DELETE',
      url: '/_portal/session',
      headers: {host: 'localhost:3000', cookie: `${tossed}; ${own}`},
    });
    expect(ended.statusCode).toBe(204);
    expect((await gate.inject({url: '/docs/admin', headers: {cookie: own}})).body).not.toContain(ADMIN_TEXT);
  });

  it('names the cookies __Host- over HTTPS (Secure, Path=/, no Domain), and accepts only that name there', async () => {
    const server = await gateWith({trustProxy: true});
    try {
      const https = {host: 'docs.example.com', 'x-forwarded-proto': 'https'};
      const started = await server.inject({method: 'POST', url: '/_portal/session', headers: https, payload: {accessToken: await admin()}});
      expect(started.statusCode).toBe(200);
      const [session, marker, ...rest] = setCookies(started);
      expect(session).toMatch(/^__Host-portal_session=[^;]+;/);
      expect(session).toMatch(/; Path=\/(;|$)/);
      expect(session).toMatch(/; Secure/);
      expect(session).toMatch(/; HttpOnly/);
      expect(session).not.toMatch(/Domain=/i);
      expect(marker).toMatch(/^__Host-portal_gate=1; Path=\/; .*Secure/);
      // An older gate's plain-named cookie is removed, or it would make two.
      expect(rest).toEqual([expect.stringMatching(/^portal_session=; Max-Age=0; Path=\/; .*Secure/)]);

      const cookie = sessionCookieOf(started);
      expect((await server.inject({url: '/docs/admin', headers: {...https, cookie}})).body).toContain(ADMIN_TEXT);
      const page = await server.inject({url: '/docs/guide', headers: https});
      expect(String(page.headers['set-cookie'])).toMatch(/^__Host-portal_gate=1; Path=\//);
      // The same value under the plain name, which a sibling could have set, opens nothing over HTTPS.
      const plain = `portal_session=${cookie.split('=')[1] as string}`;
      expect((await server.inject({url: '/docs/admin', headers: {...https, cookie: plain}})).body).not.toContain(ADMIN_TEXT);
      // Sign-out clears the __Host- cookie.
      const ended = await server.inject({method: 'DELETE', url: '/_portal/session', headers: {...https, cookie}});
      expect(setCookies(ended)[0]).toMatch(/^__Host-portal_session=; Max-Age=0; Path=\/; HttpOnly; Secure/);
    } finally {
      await server.close();
    }
  });

  it('sets Path=/ for the __Host- cookies under a baseUrl, and Path=<baseUrl> for the plain ones', async () => {
    // The same fixture build, served under /portal/.
    const underBase = mkdtempSync(path.join(os.tmpdir(), 'portal-gate-base-'));
    cpSync(dir, underBase, {recursive: true});
    const manifest = JSON.parse(readFileSync(path.join(dir, 'access-manifest.json'), 'utf8')) as {
      baseUrl: string;
      pages: {route: string}[];
      searchIndexes: {routes: string[]}[];
    };
    manifest.baseUrl = '/portal/';
    manifest.pages.forEach((page) => (page.route = `/portal${page.route}`));
    manifest.searchIndexes.forEach((variant) => (variant.routes = variant.routes.map((route) => `/portal${route}`)));
    writeFileSync(path.join(underBase, 'access-manifest.json'), JSON.stringify(manifest));
    const server = await gateWith({buildDir: underBase, trustProxy: true});
    try {
      const post = async (headers: Record<string, string>) =>
        setCookies(await server.inject({method: 'POST', url: '/portal/_portal/session', headers, payload: {accessToken: await admin()}}));
      const overHttps = await post({host: 'docs.example.com', 'x-forwarded-proto': 'https'});
      expect(overHttps[0]).toMatch(/^__Host-portal_session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      expect(overHttps[1]).toBe('__Host-portal_gate=1; Path=/; Secure; SameSite=Lax');
      expect(overHttps[2]).toMatch(/^portal_session=; Max-Age=0; Path=\/portal\/; HttpOnly; Secure; SameSite=Lax$/);
      const cookie = (overHttps[0] as string).split(';')[0] as string;
      const page = await server.inject({
        url: '/portal/docs/admin',
        headers: {host: 'docs.example.com', 'x-forwarded-proto': 'https', cookie},
      });
      expect(page.body).toContain(ADMIN_TEXT);
      const onLocalhost = await post({host: 'localhost:3000'});
      expect(onLocalhost[0]).toMatch(/^portal_session=[^;]+; Max-Age=\d+; Path=\/portal\/; HttpOnly; SameSite=Lax$/);
      expect(onLocalhost[1]).toBe('portal_gate=1; Path=/portal/; SameSite=Lax');
    } finally {
      await server.close();
      rmSync(underBase, {recursive: true, force: true});
    }
  });

  it('uses the plain names, not Secure, on plain-HTTP localhost, and does not accept the __Host- name there', async () => {
    const started = await postSession(gate, await admin());
    const [session, marker] = setCookies(started);
    expect(session).toMatch(/^portal_session=[^;]+;/);
    expect(session).not.toMatch(/Secure/);
    expect(marker).toMatch(/^portal_gate=1;/);
    const value = sessionCookieOf(started).split('=')[1] as string;
    expect(
      (await gate.inject({url: '/docs/admin', headers: {host: 'localhost:3000', cookie: `__Host-portal_session=${value}`}})).body,
    ).not.toContain(ADMIN_TEXT);
  });
});

describe('gate server: token and session limits', () => {
  const nowS = () => Math.floor(Date.now() / 1000);
  const tenYears = () => nowS() + 10 * 365 * 24 * 60 * 60;
  const maxAgeOf = (cookie: string) => Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
  const sessionExpiry = (cookie: string) =>
    (JSON.parse(Buffer.from(cookie.split('=')[1]?.split('.')[1] ?? '', 'base64url').toString('utf8')) as {exp: number}).exp;

  it('keeps a session no longer than the ceiling, however long the token claims to live', async () => {
    const accessToken = await token({sub: 'user_admin', org_id: 'org_acme', roles: ['admin']}, keys.privateKey, tenYears());
    const byDefault = await postSession(gate, accessToken);
    expect(byDefault.statusCode).toBe(200);
    const session = setCookies(byDefault)[0] as string;
    expect(maxAgeOf(session)).toBeLessThanOrEqual(3600);
    expect(maxAgeOf(session)).toBeGreaterThan(3500);
    expect(sessionExpiry(session)).toBeLessThanOrEqual(nowS() + 3600);
    expect(byDefault.json<{expiresAt: number}>().expiresAt).toBeLessThanOrEqual(nowS() + 3600);

    const server = await gateWith({sessionMaxAgeSeconds: 120});
    try {
      const short = await postSession(server, await token({sub: 'user_admin', org_id: 'org_acme'}, keys.privateKey, tenYears()));
      expect(maxAgeOf(setCookies(short)[0] as string)).toBeLessThanOrEqual(120);
      expect(sessionExpiry(setCookies(short)[0] as string)).toBeLessThanOrEqual(nowS() + 120);
      // A token that ends sooner than the ceiling still ends the session with it.
      const soon = await postSession(server, await token({sub: 'user_admin', org_id: 'org_acme'}, keys.privateKey, '1m'));
      expect(maxAgeOf(setCookies(soon)[0] as string)).toBeLessThanOrEqual(60);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['an empty sid', {sid: ''}],
    ['a sid that is not a string', {sid: 42}],
    ['a token without a subject', {sub: undefined}],
    ['an empty subject', {sub: ''}],
    ['a subject longer than a session cookie can hold', {sub: `user_${'x'.repeat(300)}`}],
    ['a sid longer than a session cookie can hold', {sid: `session_${'x'.repeat(300)}`}],
    ['an iat an hour in the future', {iat: Math.floor(Date.now() / 1000) + 3600}],
    ['an iat two minutes in the future', {iat: Math.floor(Date.now() / 1000) + 120}],
  ])('refuses %s', async (_name, claims) => {
    const response = await postSession(gate, await token({org_id: 'org_acme', ...claims}));
    expect(response.statusCode).toBe(401);
    expect(setCookies(response).some((value) => /^portal_session=[^;]/.test(value))).toBe(false);
  });

  it('audits a refused restricted page that has no public version (404), naming the reader and the rule', async () => {
    const {server, requestLine} = await gateWithLog();
    try {
      const asDeveloper = await sessionCookie(server, await developer());
      const refused = await server.inject({url: '/docs/tags/admin-only', headers: {cookie: asDeveloper}});
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain(ADMIN_TEXT);
      expect(await requestLine('/docs/tags/admin-only')).toMatchObject({
        reader: {sid: expect.any(String)},
        rule: 'roles:admin',
        access: 'refused',
      });
      const asAdmin = await sessionCookie(server, await admin());
      expect((await server.inject({url: '/docs/tags/admin-only', headers: {cookie: asAdmin}})).body).toContain(ADMIN_TEXT);
    } finally {
      await server.close();
    }
  });

  it('accepts an iat a few seconds ahead (clock skew)', async () => {
    expect((await postSession(gate, await token({org_id: 'org_acme', iat: Math.floor(Date.now() / 1000) + 30}))).statusCode).toBe(200);
  });

  describe('binds the token to this client', () => {
    const BARE_ISSUER = 'https://auth.example.test';
    let server: FastifyInstance;
    beforeAll(async () => {
      // The default issuers: the client's own and the bare API origin (server/settings.ts).
      server = await gateWith({issuers: [ISSUER, BARE_ISSUER]});
    });
    afterAll(async () => {
      await server.close();
    });

    it.each([
      ['the bare issuer and another client in aud', {iss: BARE_ISSUER, aud: 'client_other'}],
      ['the bare issuer and another client in client_id', {iss: BARE_ISSUER, client_id: 'client_other'}],
      ['the bare issuer and nothing naming a client', {iss: BARE_ISSUER}],
      ["this client's issuer and another client in aud", {aud: ['client_other']}],
      ["this client's issuer and another client in client_id", {client_id: 'client_other'}],
      // A malformed claim, as a hostile signer could write it (JWTPayload's type allows only strings).
      ['an aud that is not a string', {aud: {client: 'client_test'} as unknown as string}],
    ])('refuses a token with %s', async (_name, claims) => {
      expect((await postSession(server, await token({org_id: 'org_acme', ...claims}))).statusCode).toBe(401);
    });

    it.each([
      ["this client's issuer", {}],
      ['the bare issuer and this client in aud', {iss: BARE_ISSUER, aud: 'client_test'}],
      ['the bare issuer and this client in client_id', {iss: BARE_ISSUER, client_id: 'client_test'}],
      ["this client's issuer and aud", {aud: ['client_test', 'api']}],
    ])('accepts a token with %s', async (_name, claims) => {
      expect((await postSession(server, await token({org_id: 'org_acme', ...claims}))).statusCode).toBe(200);
    });
  });
});

describe('gate server: the audit log', () => {
  it('names the reader, the rule and the outcome for answers that needed a rule, and never a token, cookie or query', async () => {
    const {server, requestLine, raw, clear} = await gateWithLog();
    try {
      const adminToken = await token({sub: 'user_admin', org_id: 'org_acme', roles: ['admin'], sid: 'session_admin_1'});
      const developerToken = await token({sub: 'user_developer', org_id: 'org_acme', roles: ['member'], sid: 'session_dev_1'});
      const asAdmin = await sessionCookie(server, adminToken);
      const asDeveloper = await sessionCookie(server, developerToken);
      clear();

      await server.inject({url: '/docs/admin?code=query-secret', headers: {cookie: asAdmin}});
      expect(await requestLine('/docs/admin')).toMatchObject({
        status: 200,
        reader: {sub: 'user_admin', sid: 'session_admin_1'},
        rule: 'roles:admin',
        access: 'allowed',
        page: '/docs/admin',
      });
      clear();
      await server.inject({url: ADMIN_CHUNK, headers: {cookie: asDeveloper}});
      expect(await requestLine(ADMIN_CHUNK)).toMatchObject({
        status: 403,
        reader: {sub: 'user_developer', sid: 'session_dev_1'},
        rule: 'roles:admin',
        access: 'refused',
        page: '/docs/admin',
      });
      clear();
      await server.inject({url: ADMIN_CHUNK, headers: {cookie: asAdmin}});
      expect(await requestLine(ADMIN_CHUNK)).toMatchObject({reader: {sub: 'user_admin'}, access: 'allowed', page: '/docs/admin'});
      clear();
      await server.inject({url: '/docs/ops'});
      expect(await requestLine('/docs/ops')).toMatchObject({reader: null, rule: 'signed-in', access: 'refused', page: '/docs/ops'});
      clear();
      await server.inject({url: '/docs/ops', headers: {cookie: asDeveloper}});
      expect(await requestLine('/docs/ops')).toMatchObject({reader: {sub: 'user_developer'}, rule: 'signed-in', access: 'allowed'});
      clear();
      await server.inject({url: '/pagefind/pagefind-entry.json', headers: {cookie: asAdmin}});
      expect(await requestLine('/pagefind/pagefind-entry.json')).toMatchObject({
        reader: {sub: 'user_admin'},
        rule: 'roles:admin',
        access: 'allowed',
      });
      clear();
      await server.inject({url: '/pagefind/pagefind-entry.json', headers: {cookie: asDeveloper}});
      expect(await requestLine('/pagefind/pagefind-entry.json')).toMatchObject({
        reader: {sub: 'user_developer'},
        rule: 'roles:admin',
        access: 'refused',
      });
      clear();
      // Answers no rule decided carry no audit fields.
      await server.inject({url: '/docs/guide', headers: {cookie: asAdmin}});
      const plain = await requestLine('/docs/guide');
      expect(plain).not.toHaveProperty('reader');
      expect(plain).not.toHaveProperty('otherSite');
      expect(plain).not.toHaveProperty('access');

      const log = raw();
      for (const secret of [adminToken, developerToken, asAdmin.split('=')[1], asDeveloper.split('=')[1], 'query-secret']) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await server.close();
    }
  });
});

/** A copy of the fixture build that a test may change: the shared gate keeps serving the one it indexed. */
function copyOfFixture(prefix: string): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(dir, copy, {recursive: true});
  return copy;
}

/** The decoded body of an answer, whatever its Content-Encoding. */
function decoded(response: {headers: Record<string, unknown>; rawPayload: Buffer}): string {
  const encoding = response.headers['content-encoding'];
  const bytes =
    encoding === 'gzip'
      ? gunzipSync(response.rawPayload)
      : encoding === 'br'
        ? brotliDecompressSync(response.rawPayload)
        : response.rawPayload;
  return bytes.toString('utf8');
}

describe('gate server: precompressed siblings', () => {
  const BIG_PAGE = `<p>${'words '.repeat(2000)}</p>`;
  /** A role-restricted chunk large enough to get siblings. */
  const BIG_ADMIN_CHUNK = '/assets/js/admin-big.9999abcd.js';
  const BIG_ADMIN_TEXT = `/* ${ADMIN_TEXT} */ ${'const secretAdminValue = 1;\n'.repeat(200)}`;
  let copy: string;
  let server: FastifyInstance;
  let serverOrigin: string;

  beforeAll(async () => {
    copy = copyOfFixture('portal-gate-siblings-');
    for (const audience of ['public', 'members']) {
      write(path.join(copy, audience, 'docs', 'big', 'index.html'), BIG_PAGE);
      write(path.join(copy, audience, 'docs', 'gzip-only', 'index.html'), BIG_PAGE);
    }
    write(
      path.join(copy, 'public', 'docs', 'admin', 'index.html'),
      `<h1>Admin</h1><p>Sign in to read this page.</p>${'<p>padding</p>'.repeat(200)}`,
    );
    write(path.join(copy, 'members', 'docs', 'admin', 'index.html'), `<h1>Admin</h1><p>${ADMIN_TEXT}</p>${'<p>padding</p>'.repeat(200)}`);
    write(path.join(copy, 'members', BIG_ADMIN_CHUNK), BIG_ADMIN_TEXT);
    const manifestFile = path.join(copy, 'access-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {files: Record<string, unknown>};
    manifest.files[BIG_ADMIN_CHUNK.slice(1)] = [{kind: 'roles', roles: ['admin'], permissions: []}];
    writeFileSync(manifestFile, JSON.stringify(manifest));
    await writeFileIndex(copy);
    // A file the build kept only a gzip sibling of (its brotli was no smaller).
    const indexFile = path.join(copy, 'file-index.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as {audiences: Record<string, Record<string, {encodings?: {br?: unknown}}>>};
    for (const files of Object.values(index.audiences)) {
      delete files['docs/gzip-only/index.html']?.encodings?.br;
    }
    writeFileSync(indexFile, JSON.stringify(index));
    server = await gateWith({buildDir: copy});
    serverOrigin = await server.listen({port: 0, host: '127.0.0.1'});
  });

  afterAll(async () => {
    await server.close();
    rmSync(copy, {recursive: true, force: true});
  });

  it('writes gzip and brotli siblings only for compressible files above the threshold, each smaller', () => {
    const index = JSON.parse(readFileSync(path.join(copy, 'file-index.json'), 'utf8')) as {
      audiences: Record<string, Record<string, {size: number; encodings?: Record<string, {size: number}>}>>;
    };
    const big = index.audiences.public?.['docs/big/index.html'];
    expect(Object.keys(big?.encodings ?? {}).sort()).toEqual(['br', 'gzip']);
    expect(big?.encodings?.gzip?.size).toBeLessThan(big?.size ?? 0);
    expect(gunzipSync(readFileSync(path.join(copy, 'public', 'docs', 'big', 'index.html.gz'))).toString('utf8')).toBe(BIG_PAGE);
    expect(brotliDecompressSync(readFileSync(path.join(copy, 'public', 'docs', 'big', 'index.html.br'))).toString('utf8')).toBe(BIG_PAGE);
    // Small files: none.
    expect(index.audiences.public?.['index.html']?.encodings).toBeUndefined();
    // Siblings are not files of the index.
    expect(Object.keys(index.audiences.public ?? {}).some((name) => /\.(gz|br)$/.test(name))).toBe(false);
  });

  it.each([
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.9', 'br'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['gzip;q=0', null],
    ['gzip;q=0, br;q=0', null],
    ['br;q=0, gzip;q=0, identity', null],
    ['identity', null],
    ['deflate', null],
    ['', null],
    [undefined, null],
  ])('Accept-Encoding %p gets %p, with its own length and ETag', async (accept, expected) => {
    const identity = await server.inject({url: '/docs/big'});
    const response = await server.inject({url: '/docs/big', headers: accept === undefined ? {} : {'accept-encoding': accept}});
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(expected ?? undefined);
    expect(response.headers.vary).toContain('Accept-Encoding');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(decoded(response)).toBe(BIG_PAGE);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    if (expected) {
      expect(response.rawPayload.length).toBeLessThan(BIG_PAGE.length);
      expect(response.headers.etag).not.toBe(identity.headers.etag);
    } else {
      expect(response.headers.etag).toBe(identity.headers.etag);
    }
  });

  it('negotiates for the siblings each file has: one Accept-Encoding value, files with both and with gzip only', async () => {
    for (const url of ['/docs/big', '/docs/gzip-only', '/docs/big', '/docs/gzip-only']) {
      const response = await server.inject({url, headers: {'accept-encoding': 'gzip, br'}});
      expect(response.headers['content-encoding']).toBe(url === '/docs/big' ? 'br' : 'gzip');
      expect(decoded(response)).toBe(BIG_PAGE);
    }
  });

  it('revalidates each representation by its own ETag, and answers HEAD with the length of the one chosen', async () => {
    const br = await server.inject({url: '/docs/big', headers: {'accept-encoding': 'br'}});
    const gzip = await server.inject({url: '/docs/big', headers: {'accept-encoding': 'gzip'}});
    expect(br.headers.etag).not.toBe(gzip.headers.etag);
    const etag = String(br.headers.etag);
    expect((await server.inject({url: '/docs/big', headers: {'accept-encoding': 'br', 'if-none-match': etag}})).statusCode).toBe(304);
    // Another representation is not the one the client holds.
    const other = await server.inject({url: '/docs/big', headers: {'accept-encoding': 'gzip', 'if-none-match': etag}});
    expect(other.statusCode).toBe(200);
    expect(decoded(other)).toBe(BIG_PAGE);
    const head = await server.inject({method: 'HEAD', url: '/docs/big', headers: {'accept-encoding': 'gzip'}});
    expect(head.headers['content-length']).toBe(gzip.headers['content-length']);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.rawPayload.length).toBe(0);
  });

  // About 200 requests through the gate: over jest's default 5 s when the machine is loaded (a limit, not a timing assert).
  it("serves a restricted file's siblings under its name and rule only, never under another name", async () => {
    const asAdmin = await sessionCookie(server, await admin());
    const asDeveloper = await sessionCookie(server, await developer());
    for (const accept of ['br', 'gzip', 'gzip, br', '*']) {
      const allowed = await server.inject({url: BIG_ADMIN_CHUNK, headers: {cookie: asAdmin, 'accept-encoding': accept}});
      expect(allowed.statusCode).toBe(200);
      expect(['br', 'gzip']).toContain(allowed.headers['content-encoding']);
      expect(decoded(allowed)).toBe(BIG_ADMIN_TEXT);
      expect(allowed.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      expect(allowed.headers.vary).toBe('Cookie, Accept-Encoding');
      for (const cookie of [undefined, asDeveloper]) {
        const refused = await server.inject({url: BIG_ADMIN_CHUNK, headers: {...(cookie ? {cookie} : {}), 'accept-encoding': accept}});
        expect(refused.statusCode).toBe(403);
        expect(refused.headers['content-encoding']).toBeUndefined();
        expect(refused.body).not.toContain(ADMIN_TEXT);
        // The page: the withheld (public) version, compressed or not.
        const page = await server.inject({url: '/docs/admin', headers: {...(cookie ? {cookie} : {}), 'accept-encoding': accept}});
        expect(decoded(page)).toContain('Sign in to read this page');
        expect(decoded(page)).not.toContain(ADMIN_TEXT);
        expect(page.headers['cache-control']).toBe('private, no-cache');
      }
    }
    // The siblings by their own names, and other spellings of them: nobody gets them (the admin neither: they are not files of the site).
    const names = [
      `${BIG_ADMIN_CHUNK}.gz`,
      `${BIG_ADMIN_CHUNK}.br`,
      '/docs/admin/index.html.gz',
      '/docs/admin/index.html.br',
      '/docs/big/index.html.gz',
    ];
    const spellings = [
      ...names,
      `${BIG_ADMIN_CHUNK}.GZ`,
      `${BIG_ADMIN_CHUNK}.Br`,
      `${BIG_ADMIN_CHUNK}.gz.`,
      `${BIG_ADMIN_CHUNK}.br.`,
      `${BIG_ADMIN_CHUNK}%2egz`,
      `${BIG_ADMIN_CHUNK.replace('.js', '%2ejs')}.br`,
      `${BIG_ADMIN_CHUNK}.gz%00`,
      `${BIG_ADMIN_CHUNK}.gz;`,
      `${BIG_ADMIN_CHUNK}.gz/`,
      ...names.flatMap((name) => spellingsOf(name).map((spelling) => spelling.url)),
    ];
    for (const cookie of [undefined, asDeveloper, asAdmin]) {
      for (const accept of [undefined, 'gzip, br']) {
        for (const spelling of spellings) {
          const headers = {...(cookie ? {cookie} : {}), ...(accept ? {'accept-encoding': accept} : {})};
          const answer = await rawGetFollowing(serverOrigin, spelling, headers);
          expect([400, 404]).toContain(answer.status);
          expect(answer.headers['content-encoding']).toBeUndefined();
          expect(answer.body).not.toContain(ADMIN_TEXT);
          expect(answer.body).not.toContain('secretAdminValue');
        }
      }
    }
  }, 30_000);
});

/**
 * A file over the size the gate hashes on every read (it streams those), the
 * same in both builds, and the copy indexed: the file of `audience` to tamper with.
 */
async function withLargeFile(copy: string, audience: 'public' | 'members'): Promise<{large: string; bytes: string}> {
  const bytes = `/* large */ ${'x'.repeat(SMALL_FILE_BYTES + 10)}`;
  for (const build of ['public', 'members']) {
    write(path.join(copy, build, 'assets', 'js', 'large.abcd.js'), bytes);
  }
  await writeFileIndex(copy);
  return {large: path.join(copy, audience, 'assets', 'js', 'large.abcd.js'), bytes};
}

describe('gate server: the build on disk after start', () => {
  it('answers HEAD and a revalidation (304) from the index alone: a file gone from disk still gets them', async () => {
    const copy = copyOfFixture('portal-gate-head-');
    await writeFileIndex(copy);
    const server = await gateWith({buildDir: copy});
    try {
      const guide = path.join(copy, 'public', 'docs', 'guide', 'index.html');
      const size = statSync(guide).size;
      // Gone before the first request: any answer that needed the bytes would have to fail.
      rmSync(guide);
      const head = await server.inject({method: 'HEAD', url: '/docs/guide'});
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(size));
      expect(head.headers.etag).toMatch(/^"/);
      const revalidated = await server.inject({url: '/docs/guide', headers: {'if-none-match': String(head.headers.etag)}});
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.headers.etag).toBe(head.headers.etag);
      // A GET that needs the body does go to the disk, and finds the file gone.
      expect((await server.inject({url: '/docs/guide'})).statusCode).toBe(500);
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('refuses (500, no body, logged) a file changed in place, even with its size and time kept; serves the rest', async () => {
    const copy = copyOfFixture('portal-gate-changed-');
    await writeFileIndex(copy);
    const {server, requestLine, clear} = await gateWithLog({buildDir: copy});
    try {
      const guide = path.join(copy, 'public', 'docs', 'guide', 'index.html');
      const before = statSync(guide);
      // Same length, other bytes, and the old modification time put back.
      writeFileSync(guide, '<h1>Guide (HACKED)</h1>');
      utimesSync(guide, before.atime, before.mtime);
      const answer = await server.inject({url: '/docs/guide'});
      expect(answer.statusCode).toBe(500);
      expect(answer.body).toBe('');
      expect(answer.headers.etag).toBeUndefined();
      expect(answer.headers['cache-control']).toBe('no-store');
      await requestLine('/docs/guide');
      expect(clear().some((line) => line.msg === 'a file of the build changed on disk after start; refused' && line.file === guide)).toBe(
        true,
      );
      // Replaced by another file (a new inode, as a deploy that copies over the build would).
      const ops = path.join(copy, 'public', 'docs', 'ops', 'index.html');
      writeFileSync(`${ops}.new`, '<h1>Ops</h1><p>Sign in to read this page.</p>');
      renameSync(`${ops}.new`, ops);
      expect((await server.inject({url: '/docs/ops'})).statusCode).toBe(500);
      // Files that did not change are served as before.
      expect((await server.inject({url: '/'})).body).toContain('Home (public)');
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('serves the bytes it verified before a change, or refuses: never the new bytes under the indexed ETag', async () => {
    const copy = copyOfFixture('portal-gate-cached-');
    await writeFileIndex(copy);
    const server = await gateWith({buildDir: copy});
    try {
      const first = await server.inject({url: '/docs/guide'});
      expect(first.body).toBe('<h1>Guide (public)</h1>');
      writeFileSync(path.join(copy, 'public', 'docs', 'guide', 'index.html'), '<h1>Guide (HACKED)</h1>');
      const second = await server.inject({url: '/docs/guide'});
      expect(second.body).not.toContain('HACKED');
      if (second.statusCode === 200) {
        expect(second.body).toBe(first.body);
        expect(second.headers.etag).toBe(first.headers.etag);
      } else {
        expect(second.statusCode).toBe(500);
      }
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('refuses a large (streamed) file whose length changed', async () => {
    const copy = copyOfFixture('portal-gate-large-');
    const {large, bytes} = await withLargeFile(copy, 'public');
    const server = await gateWith({buildDir: copy});
    try {
      const whole = await server.inject({url: '/assets/js/large.abcd.js'});
      expect(whole.statusCode).toBe(200);
      expect(whole.body).toBe(bytes);
      writeFileSync(large, `${bytes} /* appended */`);
      const changed = await server.inject({url: '/assets/js/large.abcd.js'});
      expect(changed.statusCode).toBe(500);
      expect(changed.body).not.toContain('appended');
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('refuses a large (streamed) file changed in place with its size and modification time kept', async () => {
    const copy = copyOfFixture('portal-gate-large-in-place-');
    const {large, bytes} = await withLargeFile(copy, 'public');
    const server = await gateWith({buildDir: copy});
    try {
      expect((await server.inject({url: '/assets/js/large.abcd.js'})).statusCode).toBe(200);
      // touch -r puts the modification time back to the nanosecond, as an attacker would.
      const times = `${large}.times`;
      writeFileSync(times, '');
      execFileSync('touch', ['-r', large, times]);
      writeFileSync(large, `/*HACKED*/ ${bytes.slice('/*HACKED*/ '.length)}`);
      execFileSync('touch', ['-r', times, large]);
      expect(statSync(large).mtimeMs).toBe(statSync(times).mtimeMs);
      const changed = await server.inject({url: '/assets/js/large.abcd.js'});
      expect(changed.statusCode).toBe(500);
      expect(changed.body).not.toContain('HACKED');
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('does not get ready when a large file changed in place, size kept, between the build and the start', async () => {
    const copy = copyOfFixture('portal-gate-large-stale-');
    const {large, bytes} = await withLargeFile(copy, 'members');
    writeFileSync(large, `/*HACKED*/ ${bytes.slice('/*HACKED*/ '.length)}`);
    const outcomes: unknown[] = [];
    const server = await gateWith({buildDir: copy, onSiteLoaded: (outcome) => outcomes.push(outcome)});
    try {
      expect((await server.inject({url: '/assets/js/large.abcd.js'})).statusCode).toBe(500);
      expect(String(outcomes[0])).toMatch(/does not match its ETag/);
      expect((await server.inject({url: '/_portal/health/ready'})).statusCode).toBe(503);
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it("does not get ready on an index that lists a sibling's name as a file of its own", async () => {
    const copy = copyOfFixture('portal-gate-sibling-name-');
    await writeFileIndex(copy);
    const indexFile = path.join(copy, 'file-index.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as FileIndex;
    const members = index.audiences.members ?? {};
    const name = 'docs/guide/index.html';
    expect(members[name]).toBeDefined();
    members[`${name}.gz`] = {size: 10, etag: '"x"'};
    writeFileSync(indexFile, JSON.stringify(index));
    const outcomes: unknown[] = [];
    const server = await gateWith({buildDir: copy, onSiteLoaded: (outcome) => outcomes.push(outcome)});
    try {
      expect(String(outcomes[0])).toMatch(/is the name of a sibling of/);
      expect((await server.inject({url: `/${name}.gz`})).statusCode).toBe(500);
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('keeps one copy of a file in its cache, counted once, when many requests miss it at once', async () => {
    const copy = copyOfFixture('portal-gate-cache-');
    await writeFileIndex(copy);
    try {
      const file = path.join(copy, 'public', 'docs', 'guide', 'index.html');
      const stats = statSync(file);
      const bytes = readFileSync(file);
      const body = {
        path: file,
        size: stats.size,
        etag: etagOf(createHash('sha256').update(bytes).digest()),
        dev: stats.dev,
        ino: stats.ino,
        mtimeMs: stats.mtimeMs,
        ctimeMs: stats.ctimeMs,
      };
      const bodies = createFileBodies({cacheBytes: 1024 * 1024});
      await Promise.all(Array.from({length: 20}, () => bodies.read(body)));
      expect(bodies.cachedBytes()).toBe(stats.size);
    } finally {
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('does not get ready when a file changed between the build and the start; files are refused', async () => {
    const copy = copyOfFixture('portal-gate-stale-');
    await writeFileIndex(copy);
    writeFileSync(path.join(copy, 'members', 'docs', 'ops', 'index.html'), '<h1>Ops</h1><p>rewritten after the index</p>');
    const outcomes: unknown[] = [];
    const server = await gateWith({buildDir: copy, onSiteLoaded: (outcome) => outcomes.push(outcome)});
    try {
      expect((await server.inject({url: '/docs/guide'})).statusCode).toBe(500);
      expect(outcomes).toHaveLength(1);
      expect(String(outcomes[0])).toMatch(/the build changed after it was indexed/);
      const ready = await server.inject({url: '/_portal/health/ready'});
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ready: false, reason: 'the file index could not be loaded'});
    } finally {
      await server.close();
      rmSync(copy, {recursive: true, force: true});
    }
  });

  it('will not start without the file index the build writes', async () => {
    const copy = copyOfFixture('portal-gate-no-index-');
    rmSync(path.join(copy, 'file-index.json'));
    try {
      await expect(gateWith({buildDir: copy})).rejects.toThrow(/file-index\.json is missing: run "npm run build"/);
    } finally {
      rmSync(copy, {recursive: true, force: true});
    }
  });
});

describe('gate server: readiness waits for the file index', () => {
  it('answers liveness at once, readiness 503 until the index is loaded, and serves files once it is', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await gateWith({
      loadSite: async (...args) => {
        await held;
        return loadSite(...args);
      },
    });
    try {
      expect((await server.inject({url: '/_portal/health'})).statusCode).toBe(200);
      const waiting = await server.inject({url: '/_portal/health/ready'});
      expect(waiting.statusCode).toBe(503);
      expect(waiting.json()).toMatchObject({ready: false, reason: 'the file index is still loading'});
      // A request for a file waits for the index rather than failing.
      const page = server.inject({url: '/docs/guide'});
      release();
      expect((await page).body).toContain('Guide (public)');
      const ready = await server.inject({url: '/_portal/health/ready'});
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ready: true});
    } finally {
      await server.close();
    }
  });

  it('stays 503 while the index is loaded but the keys are not', async () => {
    const server = await gateWith({jwks: controllableKeyStore('fail')});
    try {
      expect((await server.inject({url: '/docs/guide'})).statusCode).toBe(200);
      const ready = await server.inject({url: '/_portal/health/ready'});
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({reason: 'the provider signing keys are not loaded yet'});
    } finally {
      await server.close();
    }
  });
});
