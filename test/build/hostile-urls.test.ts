/**
 * The real build under hostile requests, through both servers that ship:
 * the gate (build/public + build/members, server/gate.ts) and nginx with
 * deploy/nginx.conf (build/public only). Every spelling of the Admin Service
 * page and of its content chunk, sent byte for byte, as a signed-out reader,
 * a member without the admin role and an admin; and redirect probes.
 */
import {randomBytes} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {FastifyInstance} from 'fastify';
import {exportJWK, generateKeyPair, SignJWT, type JWTPayload} from 'jose';
import {restrictedScripts, type AccessManifest} from '../../plugins/access/manifest';
import {markdownBody} from '../../plugins/support/frontMatter';
import {markdownPathFor, withheldMarkdownFileFor} from '../../src/auth/access/agentDocs';
import {startNginx, type NginxServer} from '../../scripts/serve-nginx';
import {createGate, SESSION_COOKIE} from '../../server/gate';
import {createKeyStore} from '../../server/keys';
import {freePort} from '../../scripts/support/ports';
import {rawGet, rawGetFollowing, type RawResponse} from '../support/rawHttp';
import {isSameOriginPath, spellingsOf, type Spelling} from '../support/urlSpellings';

const ROOT = path.resolve(__dirname, '../..');
const ISSUER = 'https://auth.example.test/user_management/client_test';
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'build', 'access-manifest.json'), 'utf8')) as AccessManifest;
const ADMIN = manifest.pages.find((page) => page.source === 'docs/internal-developers/services/admin-service.md');
if (!ADMIN || restrictedScripts(ADMIN).length === 0) {
  throw new Error('the Admin Service page and its content chunk must be in build/access-manifest.json');
}
const ADMIN_CHUNK = `/${restrictedScripts(ADMIN)[0] as string}`;
/** The page's Markdown (issue 30): decided as the page, so withheld (the public placeholder), never refused with 403. */
const ADMIN_MARKDOWN = markdownPathFor(ADMIN.route);

/** Spellings only a `.md` URL has, on top of spellingsOf's. */
function markdownSpellingsOf(markdownPath: string): Spelling[] {
  const route = markdownPath.slice(0, -'.md'.length);
  return [
    {name: 'upper-case .MD', url: `${route}.MD`, expect: 'refused'},
    {name: 'mixed-case .Md', url: `${route}.Md`, expect: 'refused'},
    {name: 'encoded dot before md', url: `${route}%2emd`, expect: 'same'},
    {name: 'encoded m', url: `${route}.%6dd`, expect: 'same'},
    {name: '.md with a trailing slash', url: `${markdownPath}/`, expect: 'refused'},
    {name: '.md after a trailing slash', url: `${route}/.md`, expect: 'refused'},
    {name: 'the page folder’s index.md', url: `${route}/index.md`, expect: 'either'},
    {name: '.md.html', url: `${markdownPath}.html`, expect: 'either'},
    {name: 'double .md', url: `${markdownPath}.md`, expect: 'refused'},
    {name: 'double slash before the name', url: `${route.replace(/\/([^/]+)$/, '//$1')}.md`, expect: 'same'},
  ];
}

/** Words of the page's first long sentence: in its members' HTML and chunk, never in anything else a non-admin gets. */
function adminSentence(): string {
  const text = markdownBody(path.join(ROOT, (ADMIN as {source: string}).source));
  const line = text.split('\n').find((candidate) => /^[A-Z][A-Za-z ,]{50,}/.test(candidate) && !/[`[<*]/.test(candidate));
  const sentence = line && /^[A-Za-z ,]{50,}/.exec(line)?.[0].trim();
  if (!sentence) {
    throw new Error(`no plain sentence found in ${(ADMIN as {source: string}).source}`);
  }
  return sentence;
}
const SENTENCE = adminSentence();

let gate: FastifyInstance;
let gateOrigin: string;
let nginx: NginxServer;
let readers: {name: string; cookie: Record<string, string>; mayRead: boolean}[];

beforeAll(async () => {
  const keys = await generateKeyPair('RS256');
  const jwks = {keys: [{...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256'}]};
  const sign = (claims: JWTPayload) =>
    new SignJWT({sid: 'session_1', sub: 'user_1', org_id: 'org_acme', ...claims}).setProtectedHeader({alg: 'RS256', kid: 'k1'}).setIssuer(ISSUER).setIssuedAt().setExpirationTime('10m').sign(keys.privateKey);
  gate = await createGate({
    buildDir: path.join(ROOT, 'build'),
    jwks: createKeyStore({url: new URL('https://auth.example.test/jwks'), fetchJwks: async () => Response.json(jwks)}),
    issuers: [ISSUER],
    clientId: 'client_test',
    organizationId: 'org_acme',
    sessionSecrets: [randomBytes(32)],
  });
  gateOrigin = await gate.listen({port: 0, host: '127.0.0.1'});
  const cookieFor = async (claims: JWTPayload) => {
    const response = await gate.inject({method: 'POST', url: '/_portal/session', headers: {host: 'localhost'}, payload: {accessToken: await sign(claims)}});
    const value = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    if (response.statusCode !== 200 || !value) {
      throw new Error(`could not start a gate session: ${response.statusCode} ${response.body}`);
    }
    return {cookie: value.split(';')[0] as string};
  };
  readers = [
    {name: 'signed out', cookie: {}, mayRead: false},
    {name: 'a member without the admin role', cookie: await cookieFor({role: 'member', permissions: ['docs:read']}), mayRead: false},
    {name: 'an admin', cookie: await cookieFor({role: 'admin', roles: ['admin', 'member']}), mayRead: true},
  ];
  nginx = await startNginx(await freePort());
}, 60_000);

afterAll(async () => {
  await gate?.close();
  await nginx?.stop();
});

function expectNoLeak(response: RawResponse): void {
  expect(response.body).not.toContain(SENTENCE);
}

describe.each([
  ['the Admin Service page', ADMIN.route],
  ['its content chunk', ADMIN_CHUNK],
  ['its Markdown', ADMIN_MARKDOWN],
])('every spelling of %s', (_what, cleanPath) => {
  const isChunk = cleanPath.startsWith('/assets/');
  const isMarkdown = cleanPath === ADMIN_MARKDOWN;
  const spellings = [...spellingsOf(cleanPath), ...(isMarkdown ? markdownSpellingsOf(cleanPath) : [])];

  it('has at least 25 spellings', () => {
    expect(spellings.length).toBeGreaterThanOrEqual(25);
  });

  it.each(spellings)('through the gate: $name ($url)', async ({url, expect: expected}) => {
    for (const reader of readers) {
      const response = await rawGetFollowing(gateOrigin, url, reader.cookie);
      if (!reader.mayRead || expected === 'refused') {
        expectNoLeak(response);
      }
      if (expected === 'refused') {
        expect([400, 404]).toContain(response.status);
      } else if (expected === 'same' && reader.mayRead) {
        expect(response.status).toBe(200);
        expect(response.body).toContain(isChunk ? SENTENCE.slice(0, 40) : SENTENCE);
      } else if (expected === 'same' && isMarkdown) {
        // Withheld as the page is: the title and what is needed (sign in; a member without the role: the role).
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
        expect(response.body).toContain(`# ${ADMIN.title}`);
        expect(response.body).toContain(reader.name === 'signed out' ? 'Sign in to read this page' : 'You need the admin role');
      } else if (expected === 'same') {
        expect(isChunk ? response.status : response.body).toEqual(isChunk ? 403 : expect.stringContaining('Sign in to read this page'));
      }
    }
  });

  it.each(spellings)('through nginx (public build only): $name ($url)', async ({url, expect: expected}) => {
    for (const reader of readers) {
      const response = await rawGetFollowing(nginx.url, url, reader.cookie);
      expectNoLeak(response);
      if (expected === 'refused') {
        expect([400, 404]).toContain(response.status);
      } else if (expected === 'same' && isMarkdown) {
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      }
    }
  });
});

describe('redirect probes', () => {
  const probes = [
    '/%2Fevil.example/x.html',
    '//evil.example/index.html',
    '//evil.example/x.html',
    '/%5Cevil.example/x.html',
    '/%5C%5Cevil.example/x.html',
    '/%09/evil.example/x.html',
    '/%0d%0aLocation:%20https://evil.example/x.html',
    '/.//evil.example/x.html',
    '/%2e//evil.example/x.html',
    '/\\evil.example/x.html',
    '/\\/evil.example/index.html',
    '/x/..//evil.example/index.html',
    '/%2e%2e//evil.example/x.html',
    '/docs/internal-developers/getting-started/introduction.html?next=//evil.example',
    '/docs/internal-developers/getting-started/introduction/index.html#//evil.example',
  ];
  it.each(probes)('%p stays on the site, through the gate and through nginx', async (probe) => {
    for (const origin of [gateOrigin, nginx.url]) {
      const response = await rawGet(origin, probe);
      if (response.status >= 300 && response.status < 400) {
        expect(isSameOriginPath(response.headers.location)).toBe(true);
      } else {
        expect([400, 404]).toContain(response.status);
      }
    }
  });

  it("never serves the build's files for servers", async () => {
    for (const origin of [gateOrigin, nginx.url]) {
      for (const file of ['/_headers', '/_headers.json', '/_nginx/security-headers.conf', '/access-manifest.json']) {
        expect((await rawGet(origin, file)).status).toBe(404);
      }
    }
  });

  it('still redirects the clean-URL spellings a reader uses', async () => {
    for (const origin of [gateOrigin, nginx.url]) {
      expect((await rawGet(origin, '/docs/internal-developers/getting-started/introduction.html')).headers.location).toBe(
        '/docs/internal-developers/getting-started/introduction',
      );
      expect((await rawGet(origin, '/docs/index.html')).headers.location).toBe('/docs/');
      // Encoded slashes are refused in the path only: the sign-in callback's state carries them in the query.
      expect((await rawGet(origin, '/?code=abc&state=%7B%22returnTo%22%3A%22%2Fdocs%2F%22%7D')).status).toBe(200);
    }
  });
});

describe('docs for coding agents per reader (llms files, Markdown)', () => {
  const signedInPage = manifest.pages.find((page) => page.rule.kind === 'signed-in');
  const adminLink = `(${ADMIN_MARKDOWN})`;

  it('gives each reader the llms.txt and llms-full.txt of exactly their pages, through the gate', async () => {
    if (!signedInPage) {
      throw new Error('the build has no signed-in page');
    }
    const signedInLink = `(${markdownPathFor(signedInPage.route)})`;
    for (const reader of readers) {
      const index = await rawGet(gateOrigin, '/llms.txt', reader.cookie);
      expect(index.status).toBe(200);
      expect(index.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(index.headers.vary).toContain('Cookie');
      expect(index.body.includes(adminLink)).toBe(reader.mayRead);
      expect(index.body.includes(signedInLink)).toBe(reader.name !== 'signed out');
      const full = await rawGet(gateOrigin, '/llms-full.txt', reader.cookie);
      expect(full.status).toBe(200);
      if (!reader.mayRead) {
        expectNoLeak(full);
      } else {
        expect(full.body).toContain(SENTENCE);
      }
    }
  });

  it('serves the public llms files through nginx, and no variant by its own name anywhere', async () => {
    const index = await rawGet(nginx.url, '/llms.txt');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(index.body).not.toContain(adminLink);
    expectNoLeak(await rawGet(nginx.url, '/llms-full.txt'));
    for (const variant of manifest.searchIndexes ?? []) {
      for (const origin of [gateOrigin, nginx.url]) {
        for (const reader of readers) {
          for (const file of ['llms.txt', 'llms-full.txt']) {
            const response = await rawGet(origin, `/${variant.dir}/${file}`, reader.cookie);
            expect(response.status).toBe(404);
            expectNoLeak(response);
          }
        }
      }
    }
  });

  it.each(['/llms.txt/', '/llms-full.txt/', `${ADMIN_MARKDOWN}/`, '/docs/internal-developers/getting-started/introduction.md/'])(
    'answers the file spelled as a folder, %s, as not found, through the gate and through nginx alike',
    async (url) => {
      for (const origin of [gateOrigin, nginx.url]) {
        for (const reader of readers) {
          const response = await rawGetFollowing(origin, url, reader.cookie);
          expect(response.status).toBe(404);
          expectNoLeak(response);
        }
      }
    },
  );

  it('never serves the members build’s withheld answers by their own name', async () => {
    for (const origin of [gateOrigin, nginx.url]) {
      for (const reader of readers) {
        const response = await rawGet(origin, `/${withheldMarkdownFileFor(ADMIN_MARKDOWN.slice(1))}`, reader.cookie);
        expect(response.status).toBe(404);
      }
    }
  });

  it('answers a public page’s Markdown through nginx as text/markdown, the same bytes as the gate', async () => {
    const intro = '/docs/internal-developers/getting-started/introduction.md';
    const plain = await rawGet(nginx.url, intro);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('no-cache');
    const viaGate = await rawGet(gateOrigin, intro);
    expect(viaGate.body).toBe(plain.body);
  });
});
