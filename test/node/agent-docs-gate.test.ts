/**
 * Docs for coding agents through the gate (issue 30), on a small fixture
 * build: each page's `.md` and the llms files per reader, and the MCP
 * endpoint (server/mcp/) driven by the official SDK's client: who may search
 * and read what, its bounds, its OAuth metadata and its refusals.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {PassThrough} from 'node:stream';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {FastifyInstance} from 'fastify';
import type {JWTPayload} from 'jose';
import {
  LLMS_FULL_FILE,
  LLMS_INDEX_FILE,
  MCP_PATH,
  PROTECTED_RESOURCE_METADATA_PATH,
  withheldMarkdownFileFor,
} from '../../src/auth/access/agentDocs';
import type {AccessRule} from '../../src/auth/access/rules';
import {withheldPageMarkdown} from '../../plugins/agent-docs/markdown';
import {createGate, SESSION_COOKIE, type GateOptions} from '../../server/gate';
import {MAX_BODY_BYTES} from '../../server/mcp/route';
import {createProviderKeys, fixtureGateOptions, fixtureKeyStore, signToken, writeGateBuild, type KeyPair} from '../support/gateFixture';

// Each test makes a few dozen HTTP round trips on a shared machine.
jest.setTimeout(30_000);

/** Words only one page holds: the public guide, the signed-in ops page, the admin page. */
const PUBLIC_WORD = 'kestrel';
const MEMBERS_WORD = 'marmalade';
const ADMIN_WORD = 'quokka';
const OPS_TEXT = `Restart the ${MEMBERS_WORD} queue with make restart.`;
const ADMIN_TEXT = `Suspend a tenant with the ${ADMIN_WORD} console.`;
const ADMIN_RULE: AccessRule = {kind: 'roles', roles: ['admin'], permissions: []};

let dir: string;
let keys: KeyPair;
let strangerKeys: KeyPair;
let jwks: {keys: unknown[]};
let gate: FastifyInstance;
let origin: string;
const logLines: string[] = [];

function llmsIndex(pages: string[]): string {
  const entries: Record<string, string> = {
    guide: '- [Guide](/docs/guide.md): how to start',
    ops: '- [Ops](/docs/ops.md): operating the queues',
    admin: '- [Admin](/docs/admin.md): tenant administration',
  };
  return ['# Developer Portal', '', '> Docs for the platform', '', '## Docs', '', ...pages.map((page) => entries[page]), ''].join('\n');
}

function token(claims: JWTPayload, key: KeyPair['privateKey'] = keys.privateKey, expiresIn: string | number = '10m'): Promise<string> {
  return signToken(key, claims, expiresIn);
}
const developer = () => token({sub: 'user_developer', org_id: 'org_acme', role: 'member', roles: ['member']});
const admin = () => token({sub: 'user_admin', org_id: 'org_acme', role: 'admin', roles: ['admin', 'member']});

async function gateWith(overrides: Partial<GateOptions> = {}): Promise<FastifyInstance> {
  return createGate(fixtureGateOptions(dir, fixtureKeyStore(jwks), overrides));
}

async function sessionCookie(accessToken: string): Promise<string> {
  const response = await gate.inject({method: 'POST', url: '/_portal/session', headers: {host: 'localhost:3000'}, payload: {accessToken}});
  expect(response.statusCode).toBe(200);
  const cookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((value) => value.startsWith(`${SESSION_COOKIE}=`));
  return (cookie ?? '').split(';')[0] as string;
}

/** An MCP client of the official SDK, with this access token (none: signed out). */
async function mcpClient(accessToken?: string, server = origin): Promise<Client> {
  const client = new Client({name: 'agent-docs-test', version: '1.0.0'});
  const transport = new StreamableHTTPClientTransport(new URL(`${server}/${MCP_PATH}`), {
    requestInit: accessToken ? {headers: {Authorization: `Bearer ${accessToken}`}} : {},
  });
  await client.connect(transport);
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as {type: string; text?: string}[];
  return content.map((item) => item.text ?? '').join('\n');
}

async function searchUrls(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({name: 'search_docs', arguments: {query}});
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as {results: {url: string}[]}).results.map((item) => new URL(item.url).pathname);
}

const rpc = (method: string, params: unknown, id: number | string = 1) => JSON.stringify({jsonrpc: '2.0', id, method, params});
const initialize = rpc('initialize', {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}});

function postMcp(body: string, headers: Record<string, string> = {}, server = origin) {
  return fetch(`${server}/${MCP_PATH}`, {
    method: 'POST',
    headers: {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers},
    body,
  });
}

beforeAll(async () => {
  ({keys, strangerKeys, jwks} = await createProviderKeys());
  dir = mkdtempSync(path.join(os.tmpdir(), 'portal-agent-docs-'));
  const variant = '_portal/search/v1';
  await writeGateBuild(dir, {
    both: {'docs/guide/index.html': '<h1>Guide</h1>'},
    // The public build: every page's Markdown, the restricted ones as their placeholder.
    public: {
      'pagefind/pagefind-entry.json': '{"audience": "public"}',
      'docs/guide.md': `# Guide\n\nThe ${PUBLIC_WORD} release train leaves on Mondays.\n\n## Ports\n\nThe file service listens on 4711.\n`,
      'docs/ops/index.html': '<h1>Ops</h1><p>Sign in to read this page.</p>',
      'docs/ops.md': '# Ops\n\nSign in to read this page.\n',
      'docs/admin/index.html': '<h1>Admin</h1><p>Sign in to read this page.</p>',
      'docs/admin.md': '# Admin\n\nSign in to read this page.\n',
      [LLMS_INDEX_FILE]: llmsIndex(['guide']),
      [LLMS_FULL_FILE]: 'public full',
    },
    // The members build: the restricted pages' Markdown (not the public guide's: the public build's answers).
    members: {
      'pagefind/pagefind-entry.json': '{"audience": "members"}',
      'docs/ops/index.html': `<h1>Ops</h1><p>${OPS_TEXT}</p>`,
      'docs/ops.md': `# Ops\n\n${OPS_TEXT}\n`,
      'docs/admin/index.html': `<h1>Admin</h1><p>${ADMIN_TEXT}</p>`,
      'docs/admin.md': `# Admin\n\n${ADMIN_TEXT}\n`,
      // What the build writes for a member without the role (plugins/agent-docs).
      [withheldMarkdownFileFor('docs/admin.md')]: withheldPageMarkdown({title: 'Admin', rule: ADMIN_RULE}) ?? '',
      [LLMS_INDEX_FILE]: llmsIndex(['guide', 'ops']),
      [LLMS_FULL_FILE]: 'members full',
      [`${variant}/pagefind/pagefind-entry.json`]: '{"audience": "admin"}',
      [`${variant}/${LLMS_INDEX_FILE}`]: llmsIndex(['guide', 'ops', 'admin']),
      [`${variant}/${LLMS_FULL_FILE}`]: `admin full ${ADMIN_TEXT}`,
    },
    manifest: {
      pages: [
        {route: '/docs/guide', source: 'docs/guide.md', title: 'Guide', rule: {kind: 'public'}, files: []},
        {route: '/docs/ops', source: 'docs/ops.md', title: 'Ops', rule: {kind: 'signed-in'}, files: ['docs/ops/index.html', 'docs/ops.md']},
        {
          route: '/docs/admin',
          source: 'docs/admin.md',
          title: 'Admin',
          rule: ADMIN_RULE,
          files: ['docs/admin/index.html', 'docs/admin.md'],
        },
      ],
      files: {
        'docs/ops/index.html': [{kind: 'signed-in'}],
        'docs/ops.md': [{kind: 'signed-in'}],
        'docs/admin/index.html': [ADMIN_RULE],
        'docs/admin.md': [ADMIN_RULE],
      },
      searchIndexes: [{dir: variant, routes: ['/docs/admin']}],
    },
  });
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
  gate = await gateWith({logStream});
  origin = await gate.listen({port: 0, host: '127.0.0.1'});
});

afterAll(async () => {
  await gate.close();
  rmSync(dir, {recursive: true, force: true});
});

describe('each page as Markdown, through the gate', () => {
  it('answers a restricted page’s .md as its HTML: the placeholder to whoever may not read it, the text to whoever may', async () => {
    const developerCookie = await sessionCookie(await developer());
    const adminCookie = await sessionCookie(await admin());
    const cases: [string, string | undefined, string, string][] = [
      ['/docs/ops.md', undefined, 'Sign in to read this page', MEMBERS_WORD],
      ['/docs/ops.md', developerCookie, MEMBERS_WORD, 'Sign in'],
      ['/docs/admin.md', undefined, 'Sign in to read this page', ADMIN_WORD],
      // Signed in without the role: told so, as the page's HTML tells them, not asked to sign in.
      ['/docs/admin.md', developerCookie, 'You need the admin role', 'Sign in'],
      ['/docs/admin.md', developerCookie, '# Admin', ADMIN_WORD],
      ['/docs/admin.md', adminCookie, ADMIN_WORD, 'Sign in'],
    ];
    for (const [url, cookie, expected, absent] of cases) {
      const response = await gate.inject({url, headers: cookie ? {cookie} : {}});
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(response.body).toContain(expected);
      expect(response.body).not.toContain(absent);
      expect(response.headers['cache-control']).toBe('private, no-cache');
      expect(response.headers.vary).toContain('Cookie');
    }
  });

  it('never serves the members build’s withheld answers by their own name', async () => {
    for (const cookie of [undefined, await sessionCookie(await developer()), await sessionCookie(await admin())]) {
      const response = await gate.inject({url: `/${withheldMarkdownFileFor('docs/admin.md')}`, headers: cookie ? {cookie} : {}});
      expect(response.statusCode).toBe(404);
    }
  });

  it('serves a public page’s .md from the public build to members too when the members build has none', async () => {
    const response = await gate.inject({url: '/docs/guide.md', headers: {cookie: await sessionCookie(await developer())}});
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(PUBLIC_WORD);
  });

  it('chooses llms.txt and llms-full.txt from the verified session; the variants are not addressable by name', async () => {
    const developerCookie = await sessionCookie(await developer());
    const adminCookie = await sessionCookie(await admin());
    const get = (url: string, cookie?: string) => gate.inject({url, headers: cookie ? {cookie} : {}});
    const signedOut = await get('/llms.txt');
    expect(signedOut.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(signedOut.body).toContain('/docs/guide.md');
    expect(signedOut.body).not.toContain('/docs/ops.md');
    expect(signedOut.headers.vary).toContain('Cookie');
    const member = await get('/llms.txt', developerCookie);
    expect(member.body).toContain('/docs/ops.md');
    expect(member.body).not.toContain('/docs/admin.md');
    expect(member.headers['cache-control']).toBe('private, no-cache');
    expect((await get('/llms.txt', adminCookie)).body).toContain('/docs/admin.md');
    expect((await get('/llms-full.txt')).body).toBe('public full');
    expect((await get('/llms-full.txt', developerCookie)).body).toBe('members full');
    expect((await get('/llms-full.txt', adminCookie)).body).toContain(ADMIN_WORD);
    // A file under a folder's spelling is not found, as nginx answers it.
    for (const name of ['/llms.txt/', '/llms-full.txt/', '/docs/admin.md/', '/docs/guide.md/']) {
      for (const cookie of [undefined, developerCookie, adminCookie]) {
        expect((await get(name, cookie)).statusCode).toBe(404);
      }
    }
    for (const name of ['/_portal/search/v1/llms.txt', '/_portal/search/v1/llms-full.txt']) {
      const response = await get(name, adminCookie);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain(ADMIN_WORD);
    }
  });
  it('logs a member without the role reading a role page’s .md as refused, naming the page', async () => {
    const cookie = await sessionCookie(await developer());
    logLines.length = 0;
    await fetch(`${origin}/docs/admin.md`, {headers: {cookie}});
    await new Promise((resolve) => setImmediate(resolve));
    const lines = logLines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(lines.find((entry) => entry.msg === 'request' && entry.path === '/docs/admin.md')).toMatchObject({
      rule: 'roles:admin',
      access: 'refused',
      page: '/docs/admin',
    });
  });
});

describe('MCP endpoint', () => {
  it('lets a signed-out agent search and read public pages only', async () => {
    const client = await mcpClient();
    expect(await searchUrls(client, PUBLIC_WORD)).toEqual(['/docs/guide']);
    expect(await searchUrls(client, MEMBERS_WORD)).toEqual([]);
    expect(await searchUrls(client, ADMIN_WORD)).toEqual([]);
    const ops = await client.callTool({name: 'read_page', arguments: {path: '/docs/ops'}});
    expect(textOf(ops)).toContain('Sign in to read this page');
    expect(textOf(ops)).not.toContain(MEMBERS_WORD);
    await client.close();
  });

  it('gives each reader their own search and pages: a word of the admin page is found only with the role', async () => {
    const member = await mcpClient(await developer());
    expect(await searchUrls(member, MEMBERS_WORD)).toEqual(['/docs/ops']);
    expect(await searchUrls(member, ADMIN_WORD)).toEqual([]);
    expect(await searchUrls(member, PUBLIC_WORD)).toEqual(['/docs/guide']);
    for (const spelling of ['/docs/admin', '/docs/admin.md']) {
      // As the page's HTML tells a member without the role: what they lack, not "sign in".
      const withheld = textOf(await member.callTool({name: 'read_page', arguments: {path: spelling}}));
      expect(withheld).toContain('You need the admin role');
      expect(withheld).not.toContain('Sign in');
      expect(withheld).not.toContain(ADMIN_WORD);
    }
    await member.close();

    const administrator = await mcpClient(await admin());
    expect(await searchUrls(administrator, ADMIN_WORD)).toEqual(['/docs/admin']);
    for (const spelling of ['/docs/admin', '/docs/admin/', '/docs/admin.md', `${origin}/docs/admin`]) {
      expect(textOf(await administrator.callTool({name: 'read_page', arguments: {path: spelling}}))).toContain(ADMIN_TEXT);
    }
    await administrator.close();
  });

  it('returns ranked results with a short snippet around the match, and the Markdown URL', async () => {
    const client = await mcpClient();
    const result = await client.callTool({name: 'search_docs', arguments: {query: 'file service', limit: 1}});
    const [first] = (result.structuredContent as {results: {url: string; markdownUrl: string; snippet: string; title: string}[]}).results;
    expect(first).toMatchObject({title: 'Guide', url: `${origin}/docs/guide`, markdownUrl: `${origin}/docs/guide.md`});
    expect(first?.snippet).toContain('file service listens on 4711');
    expect(first?.snippet.length).toBeLessThanOrEqual(240);
    await client.close();
  });

  it('answers an unknown page, another site’s URL and a bad argument with a tool error', async () => {
    const client = await mcpClient();
    for (const reference of ['/docs/nope', 'https://evil.example/docs/guide', '//evil.example/docs/guide']) {
      const result = await client.callTool({name: 'read_page', arguments: {path: reference}});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/No page|not a page of this site/);
    }
    for (const args of [{query: 'x'.repeat(201)}, {query: ''}, {query: PUBLIC_WORD, limit: 21}, {query: PUBLIC_WORD, limit: 0}]) {
      const outcome = await client.callTool({name: 'search_docs', arguments: args}).catch((error: Error) => ({isError: true, error}));
      expect(outcome.isError).toBe(true);
    }
    await client.close();
  });

  it.each([
    ['a token signed by another key', async () => token({org_id: 'org_acme'}, strangerKeys.privateKey)],
    ['an expired token', async () => token({org_id: 'org_acme'}, keys.privateKey, Math.floor(Date.now() / 1000) - 60)],
    ['a token from another issuer', async () => token({org_id: 'org_acme', iss: 'https://evil.example/user_management/client_test'})],
    ['a token of another organisation', async () => token({org_id: 'org_other'})],
    ['garbage', async () => 'not-a-jwt'],
    ['a long malformed token', async () => `${'a'.repeat(7_000)}.${'b'.repeat(7_000)}.c`],
  ])('refuses %s with 401 and WWW-Authenticate naming the resource metadata, logging no token', async (_name, make) => {
    const accessToken = await make();
    const response = await postMcp(initialize, {Authorization: `Bearer ${accessToken}`});
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${origin}${PROTECTED_RESOURCE_METADATA_PATH}/${MCP_PATH}"`);
    expect(challenge).toContain('error="invalid_token"');
    expect(((await response.json()) as {error: {code: number}}).error.code).toBe(-32001);
    expect(logLines.join('')).not.toContain(accessToken.slice(0, 40));
  });

  it('refuses a header past the server’s header limit before any parsing', async () => {
    const response = await postMcp(initialize, {Authorization: `Bearer ${'a'.repeat(40_000)}.${'b'.repeat(40_000)}.c`});
    expect(response.status).toBe(431);
  });

  it('refuses a malformed Authorization header with 401 (never reads it as signed out)', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', `Bearer ${await developer()} extra`]) {
      expect((await postMcp(initialize, {Authorization: header})).status).toBe(401);
    }
  });

  it('answers POST only, from this origin only, with bounded bodies and the site’s security headers', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${origin}/${MCP_PATH}`, {method});
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    expect((await postMcp(initialize, {Origin: 'https://evil.example'})).status).toBe(403);
    expect((await postMcp(initialize, {Origin: origin})).status).toBe(200);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {name: 'search_docs', arguments: {query: 'x'.repeat(MAX_BODY_BYTES)}},
    });
    const tooLarge = await postMcp(huge);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('content-security-policy')).toBe("default-src 'self'");
    const ok = await postMcp(initialize);
    expect(ok.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    expect(ok.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });

  it('publishes its Protected Resource Metadata (RFC 9728), at the root and path-suffixed, cacheable', async () => {
    for (const url of [PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}/${MCP_PATH}`]) {
      const response = await fetch(`${origin}${url}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(await response.json()).toEqual({
        resource: `${origin}/${MCP_PATH}`,
        authorization_servers: ['https://auth.example.test'],
        bearer_methods_supported: ['header'],
        resource_name: 'Developer Portal docs',
      });
    }
  });

  it('limits each client’s rate on the MCP route only, with Retry-After, keyed by the token’s subject', async () => {
    const limited = await gateWith({mcpRateLimit: {max: 2, timeWindowMs: 60_000}});
    const server = await limited.listen({port: 0, host: '127.0.0.1'});
    try {
      const developerToken = await developer();
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        statuses.push((await postMcp(initialize, {Authorization: `Bearer ${developerToken}`}, server)).status);
      }
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await postMcp(initialize, {Authorization: `Bearer ${developerToken}`}, server);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another reader from the same address has their own budget; pages are not limited.
      expect((await postMcp(initialize, {Authorization: `Bearer ${await admin()}`}, server)).status).toBe(200);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await fetch(`${server}/docs/guide`)).status).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });
});

const toolCall = (id: number, name: string, args: Record<string, unknown>) =>
  JSON.stringify({jsonrpc: '2.0', id, method: 'tools/call', params: {name, arguments: args}});

describe('MCP endpoint bounds (attack review of issue 30)', () => {
  it('refuses a JSON-RPC batch with Invalid Request, so one POST cannot carry many tool calls past the rate limit', async () => {
    const limited = await gateWith({mcpRateLimit: {max: 2, timeWindowMs: 60_000}});
    const server = await limited.listen({port: 0, host: '127.0.0.1'});
    try {
      const batch = `[${[1, 2, 3, 4, 5].map((id) => toolCall(id, 'search_docs', {query: PUBLIC_WORD})).join(',')}]`;
      const response = await postMcp(batch, {}, server);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        error: {code: -32600, message: expect.stringMatching(/^Invalid Request/)},
      });
      // One message per POST still works.
      expect((await postMcp(initialize, {}, server)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('answers params of the wrong shape with Invalid Params and one line naming the field, not an internal error', async () => {
    const wrongShapes = [
      rpc('initialize', {protocolVersion: {a: 1}, capabilities: {}, clientInfo: {name: 'raw', version: '1'}}, 7),
      rpc('tools/call', 'search_docs', 'call-1'),
      rpc('tools/list', [1, 2]),
      // A key of the client's own, long and with a line break, in the failing field's path.
      rpc(
        'initialize',
        {
          protocolVersion: '2025-06-18',
          capabilities: {experimental: {[`${'k'.repeat(300)}\n<b>`]: 5}},
          clientInfo: {name: 'raw', version: '1'},
        },
        8,
      ),
    ];
    const answers = await Promise.all(wrongShapes.map(async (body) => (await postMcp(body)).json()));
    expect(answers).toEqual([
      {jsonrpc: '2.0', id: 7, error: {code: -32602, message: expect.stringContaining('for initialize: params.protocolVersion: ')}},
      {jsonrpc: '2.0', id: 'call-1', error: {code: -32602, message: expect.stringContaining('for tools/call: params: ')}},
      {jsonrpc: '2.0', id: 1, error: {code: -32602, message: expect.stringContaining('for tools/list: params: ')}},
      {
        jsonrpc: '2.0',
        id: 8,
        error: {code: -32602, message: expect.stringContaining('for initialize: params.capabilities.experimental.kkkk')},
      },
    ]);
    for (const answer of answers as {error: {message: string}}[]) {
      expect(answer.error.message.length).toBeLessThanOrEqual(200);
      expect(answer.error.message).toMatch(/^[\x20-\x7e…]+$/);
    }
    // The same methods with their params right still work.
    expect((await postMcp(initialize)).status).toBe(200);
  });

  it('searches at most a dozen distinct terms of a query, repeats counted once', async () => {
    const client = await mcpClient();
    try {
      // Repeats of one word are one term: the page is still found.
      expect(await searchUrls(client, Array(20).fill(PUBLIC_WORD).join(' '))).toEqual(['/docs/guide']);
      // Twelve other words first: the thirteenth (the only one any page holds) is not searched.
      const fillers = Array.from({length: 12}, (_, index) => `zz${String.fromCharCode(97 + index)}word`);
      expect(await searchUrls(client, [...fillers, PUBLIC_WORD].join(' '))).toEqual([]);
      expect(await searchUrls(client, [...fillers.slice(1), PUBLIC_WORD].join(' '))).toEqual(['/docs/guide']);
    } finally {
      await client.close();
    }
  });

  it('keys the rate limit behind a proxy by the address the proxy appended, not one the client wrote into X-Forwarded-For', async () => {
    const limited = await gateWith({trustProxy: true, mcpRateLimit: {max: 2, timeWindowMs: 60_000}});
    const server = await limited.listen({port: 0, host: '127.0.0.1'});
    try {
      const statuses = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        // What a TLS proxy forwards: the client's own header, then the address it saw appended.
        statuses.push((await postMcp(initialize, {'X-Forwarded-For': `10.0.0.${attempt}, 198.51.100.7`}, server)).status);
      }
      expect(statuses).toEqual([200, 200, 429, 429]);
      // Another client behind the same proxy has its own budget.
      expect((await postMcp(initialize, {'X-Forwarded-For': '198.51.100.8'}, server)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('refuses a request whose Host is not the site (DNS rebinding: Origin and Host agree)', async () => {
    const rebound = (url: string, host: string, method: 'GET' | 'POST' = 'POST') =>
      gate.inject({
        method,
        url,
        headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream', host, origin: `http://${host}`},
        ...(method === 'POST' ? {payload: initialize} : {}),
      });
    expect((await rebound(`/${MCP_PATH}`, 'rebind.attacker.example')).statusCode).toBe(403);
    expect((await rebound(PROTECTED_RESOURCE_METADATA_PATH, 'rebind.attacker.example', 'GET')).statusCode).toBe(403);
    expect((await rebound(`/${MCP_PATH}`, 'localhost:3000')).statusCode).toBe(200);
    const configured = await gateWith({publicOrigins: ['https://docs.example.test']});
    try {
      const ask = (host: string) =>
        configured.inject({
          method: 'POST',
          url: `/${MCP_PATH}`,
          headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream', host},
          payload: initialize,
        });
      expect((await ask('docs.example.test')).statusCode).toBe(200);
      expect((await ask('localhost:3000')).statusCode).toBe(403);
    } finally {
      await configured.close();
    }
  });

  it('builds the Protected Resource Metadata and the 401 challenge from the configured origin, never from X-Forwarded-Host', async () => {
    const proxied = await gateWith({trustProxy: true, publicOrigins: ['https://docs.example.test']});
    try {
      const headers = (forwardedHost: string) => ({
        host: 'gate.internal:8080',
        'x-forwarded-host': forwardedHost,
        'x-forwarded-proto': 'http',
      });
      for (const forwardedHost of ['docs.example.test', 'evil.example']) {
        const metadata = await proxied.inject({url: PROTECTED_RESOURCE_METADATA_PATH, headers: headers(forwardedHost)});
        if (forwardedHost === 'evil.example') {
          // Not the site: refused, so nothing a cache could keep names another host.
          expect(metadata.statusCode).toBe(403);
          continue;
        }
        expect(JSON.parse(metadata.body)).toMatchObject({resource: `https://docs.example.test/${MCP_PATH}`});
        const challenge = await proxied.inject({
          method: 'POST',
          url: `/${MCP_PATH}`,
          headers: {...headers(forwardedHost), 'content-type': 'application/json', authorization: 'Bearer not-a-token'},
          payload: initialize,
        });
        expect(challenge.statusCode).toBe(401);
        expect(challenge.headers['www-authenticate']).toContain(
          `resource_metadata="https://docs.example.test${PROTECTED_RESOURCE_METADATA_PATH}/${MCP_PATH}"`,
        );
      }
    } finally {
      await proxied.close();
    }
  });
});
