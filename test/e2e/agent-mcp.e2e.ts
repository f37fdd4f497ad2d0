/**
 * Issue 30's end-to-end test: an agent built on the official MCP SDK
 * (`Client` + `StreamableHTTPClientTransport`) against the gate as `npm run serve`
 * runs it (build/server/scripts/local-provider/serve.js, after `npm run build`),
 * with tokens of the local sign-in provider, as a signed-out agent, a member
 * without the admin role and an admin. The provider is started here (the
 * same code `npm run serve` starts) so that its clock can issue a token that
 * has already expired; the gate verifies against its keys and issuer.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {MCP_PATH, markdownPathFor} from '../../src/auth/access/agentDocs';
import {LOCAL_CLIENT_ID} from '../../src/auth/config';
import {startLocalProvider, type LocalProvider} from '../../scripts/local-provider/server';
import {localAccessToken} from '../../scripts/local-token';
import {freePort, waitForHttp} from '../../scripts/support/ports';
import {builtPage} from '../support/builtManifest';
import {bodySentence} from '../support/pageText';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
const ADMIN_SERVICE = builtPage('docs/internal-developers/services/admin-service.md');
const DEPLOYMENT_GUIDE = builtPage('docs/internal-developers/deployment/deployment-guide.md');
const INTRODUCTION = builtPage('docs/internal-developers/getting-started/introduction.md');

/** Every page's Markdown in a build folder, by URL path. */
function markdownFiles(root: string, dir = root): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      markdownFiles(root, full).forEach((text, url) => found.set(url, text));
    } else if (name.endsWith('.md')) {
      found.set(`/${path.relative(root, full).split(path.sep).join('/')}`, readFileSync(full, 'utf8').toLowerCase());
    }
  }
  return found;
}

/** A word of `route`'s Markdown that no other page's Markdown holds (public and members builds). */
function wordOnlyIn(route: string, build: 'public' | 'members'): string {
  const own = markdownPathFor(route);
  const pages = new Map([...markdownFiles(path.join(ROOT, 'build', 'public')), ...markdownFiles(path.join(ROOT, 'build', 'members'))]);
  const text = markdownFiles(path.join(ROOT, 'build', build)).get(own);
  if (!text) {
    throw new Error(`build/${build} has no ${own}`);
  }
  const words = [...new Set(text.match(/\b[a-z]{7,}\b/g) ?? [])];
  const word = words.find((candidate) => [...pages].every(([url, other]) => url === own || !other.includes(candidate)));
  if (!word) {
    throw new Error(`no word only ${own} holds`);
  }
  return word;
}

let provider: LocalProvider;
/** The provider's clock: moved back to issue a token that has already expired. */
let clockOffsetMs = 0;
let gate: ChildProcess;
let siteUrl: string;
let output = '';
const tokens: Record<'member' | 'admin', string> = {member: '', admin: ''};

beforeAll(async () => {
  const port = await freePort();
  siteUrl = `http://localhost:${port}`;
  provider = await startLocalProvider({
    port: 0,
    clientId: LOCAL_CLIENT_ID,
    allowedOrigins: [siteUrl],
    now: () => Date.now() + clockOffsetMs,
  });
  gate = spawn(process.execPath, ['build/server/scripts/local-provider/serve.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      // No WORKOS_CLIENT_ID: the local provider's client. `npm run serve` starts one of its own on this port.
      LOCAL_AUTH_PORT: String(await freePort()),
      PORTAL_JWKS_URL: `${provider.url}/sso/jwks/${LOCAL_CLIENT_ID}`,
      PORTAL_TOKEN_ISSUER: `${provider.url}/user_management/${LOCAL_CLIENT_ID}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  gate.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  gate.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForHttp(`http://127.0.0.1:${port}/_portal/health/ready`, {
    exited: () => (gate.exitCode === null ? null : `the gate exited: ${output}`),
  });
  tokens.member = await localAccessToken({providerUrl: provider.url, userId: 'user_developer', siteOrigin: siteUrl});
  tokens.admin = await localAccessToken({providerUrl: provider.url, userId: 'user_admin', siteOrigin: siteUrl});
});

afterAll(async () => {
  gate?.kill('SIGTERM');
  await new Promise((resolve) => (gate?.exitCode !== null ? resolve(null) : gate.once('exit', resolve)));
  await provider?.close();
});

async function agent(accessToken?: string): Promise<Client> {
  const client = new Client({name: 'agent-e2e', version: '1.0.0'});
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${siteUrl}/${MCP_PATH}`), {
      requestInit: accessToken ? {headers: {Authorization: `Bearer ${accessToken}`}} : {},
    }),
  );
  return client;
}

async function found(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({name: 'search_docs', arguments: {query, limit: 20}});
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as {results: {url: string}[]}).results.map((item) => new URL(item.url).pathname);
}

async function pageText(client: Client, route: string): Promise<string> {
  const result = await client.callTool({name: 'read_page', arguments: {path: route}});
  expect(result.isError).toBeFalsy();
  return (result.content as {text?: string}[]).map((item) => item.text ?? '').join('\n');
}

describe('the MCP endpoint of the production gate, per reader', () => {
  const readers = [
    {name: 'signed out', token: () => undefined, member: false, admin: false},
    {name: 'a member without the admin role', token: () => tokens.member, member: true, admin: false},
    {name: 'an admin', token: () => tokens.admin, member: true, admin: true},
  ];

  it.each(readers)('$name: searches and reads exactly what they may', async (reader) => {
    const client = await agent(reader.token());
    const adminWord = wordOnlyIn(ADMIN_SERVICE.route, 'members');
    const publicWord = wordOnlyIn(INTRODUCTION.route, 'public');
    expect((await found(client, adminWord)).includes(ADMIN_SERVICE.route)).toBe(reader.admin);
    if (!reader.admin) {
      expect(await found(client, adminWord)).toEqual([]);
    }
    expect(await found(client, publicWord)).toContain(INTRODUCTION.route);

    const admin = await pageText(client, ADMIN_SERVICE.route);
    expect(admin).toContain(`# ${ADMIN_SERVICE.title}`);
    expect(admin.includes(bodySentence(ADMIN_SERVICE.source))).toBe(reader.admin);
    if (!reader.admin) {
      // What the page's HTML tells a reader who may not read it: to sign in, or (signed in) the role they lack.
      expect(admin).toContain(reader.member ? 'You need the admin role' : 'Sign in to read this page');
      expect(admin.includes('Sign in')).toBe(!reader.member);
    }
    const deployment = await pageText(client, DEPLOYMENT_GUIDE.route);
    expect(deployment).toContain(`# ${DEPLOYMENT_GUIDE.title}`);
    expect(deployment.includes(bodySentence(DEPLOYMENT_GUIDE.source))).toBe(reader.member);
    await client.close();
  });

  it('refuses an invalid and an expired token with 401 and WWW-Authenticate, and logs neither', async () => {
    clockOffsetMs = -60 * 60 * 1000;
    const expired = await localAccessToken({providerUrl: provider.url, userId: 'user_admin', siteOrigin: siteUrl});
    clockOffsetMs = 0;
    const invalid = `${tokens.admin.slice(0, -8)}AAAAAAAA`;
    for (const accessToken of [invalid, expired]) {
      const response = await fetch(`${siteUrl}/${MCP_PATH}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${accessToken}`,
        },
        body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/list', params: {}}),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain(
        `resource_metadata="${siteUrl}/.well-known/oauth-protected-resource/${MCP_PATH}"`,
      );
      expect(output).not.toContain(accessToken.split('.')[2]);
    }
    // The SDK's client reports the refusal too.
    await expect(agent(expired)).rejects.toThrow(/access token is missing, invalid, expired/);
  });
});
