/**
 * The members site as production runs it: `node build/server/server/main.js`
 * from a clean install with production dependencies only (`npm ci
 * --omit=dev` in a temporary folder, with only the files the container
 * copies), against a key endpoint on loopback. Health, the request log (and
 * what it must never contain), SIGTERM with a request in flight, and
 * start-up errors that name the variable.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {cpSync, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {exportJWK, generateKeyPair, SignJWT, type JWTPayload} from 'jose';
import type {AccessManifest} from '../../plugins/access/manifest';
import {freePort, waitForHttp} from '../../scripts/support/ports';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');
const ISSUER = 'https://auth.example.test/user_management/client_test';
const SECRET = randomBytes(36).toString('base64');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'build', 'access-manifest.json'), 'utf8')) as AccessManifest;
const ADMIN_ROUTE = manifest.pages.find((page) => page.source === 'docs/internal-developers/services/admin-service.md')?.route ?? '';

let installDir: string;
let keys: Awaited<ReturnType<typeof generateKeyPair>>;

/** A key endpoint whose answers a test can hold back or fail. */
interface KeyEndpoint {
  url: string;
  requests: number;
  mode: 'ok' | 'fail' | 'hold';
  release: () => void;
  /** Resolves when the n-th request has arrived. */
  requestArrived: (n: number) => Promise<void>;
  close: () => Promise<void>;
}

async function startKeyEndpoint(): Promise<KeyEndpoint> {
  const jwks = JSON.stringify({keys: [{...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256'}]});
  const held: http.ServerResponse[] = [];
  const waiters: {n: number; resolve: () => void}[] = [];
  const endpoint = {requests: 0, mode: 'ok'} as KeyEndpoint;
  const server = http.createServer((_request, response) => {
    endpoint.requests += 1;
    waiters.filter((waiter) => waiter.n <= endpoint.requests).forEach((waiter) => waiter.resolve());
    if (endpoint.mode === 'fail') {
      response.writeHead(503).end('down');
    } else if (endpoint.mode === 'hold') {
      held.push(response);
    } else {
      response.writeHead(200, {'Content-Type': 'application/json'}).end(jwks);
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(endpoint, {
    url: `http://127.0.0.1:${port}/sso/jwks/client_test`,
    release: () => held.splice(0).forEach((response) => response.writeHead(200, {'Content-Type': 'application/json'}).end(jwks)),
    requestArrived: (n: number) => (endpoint.requests >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({n, resolve}))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

interface RunningGate {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output matches (what the gate says, not a timer). */
  logged: (pattern: RegExp) => Promise<void>;
  exited: Promise<number | null>;
}

function productionEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    WORKOS_CLIENT_ID: 'client_test',
    WORKOS_ORGANIZATION_ID: 'org_acme',
    PORTAL_SESSION_SECRET: SECRET,
    PORTAL_TOKEN_ISSUER: ISSUER,
    ...overrides,
  };
}

function run(env: NodeJS.ProcessEnv): Omit<RunningGate, 'url'> {
  const child = spawn(process.execPath, ['build/server/server/main.js'], {cwd: installDir, env, stdio: ['ignore', 'pipe', 'pipe']});
  let output = '';
  const watchers: {pattern: RegExp; resolve: () => void}[] = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const watcher of watchers.filter((candidate) => candidate.pattern.test(output))) {
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logged = (pattern: RegExp) => (pattern.test(output) ? Promise.resolve() : new Promise<void>((resolve) => watchers.push({pattern, resolve})));
  return {child, output: () => output, logged, exited};
}

async function startGate(keyEndpoint: KeyEndpoint, env: Record<string, string> = {}): Promise<RunningGate> {
  const port = await freePort();
  const started = run(productionEnv({PORT: String(port), PORTAL_JWKS_URL: keyEndpoint.url, ...env}));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/_portal/health`, {
      exited: () => (started.child.exitCode === null ? null : `the gate exited with ${started.child.exitCode}: ${started.output()}`),
    });
  } catch (error) {
    started.child.kill();
    throw error;
  }
  return {url, ...started};
}

const sign = (claims: JWTPayload) =>
  new SignJWT({sid: 'session_1', sub: 'user_1', org_id: 'org_acme', ...claims}).setProtectedHeader({alg: 'RS256', kid: 'k1'}).setIssuer(ISSUER).setIssuedAt().setExpirationTime('10m').sign(keys.privateKey);

const postSession = (url: string, accessToken: string) =>
  fetch(`${url}/_portal/session`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({accessToken})});

beforeAll(() => {
  installDir = mkdtempSync(path.join(os.tmpdir(), 'portal-production-'));
  for (const file of ['package.json', 'package-lock.json']) {
    cpSync(path.join(ROOT, file), path.join(installDir, file));
  }
  const install = spawnSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], {cwd: installDir, encoding: 'utf8'});
  if (install.status !== 0) {
    throw new Error(`npm ci --omit=dev failed: ${install.stderr}`);
  }
  // What deploy/members.Dockerfile copies, and nothing else.
  for (const part of ['build/access-manifest.json', 'build/file-index.json', 'build/public', 'build/members', 'build/server/server', 'build/server/src']) {
    cpSync(path.join(ROOT, part), path.join(installDir, part), {recursive: true});
  }
  return generateKeyPair('RS256').then((pair) => {
    keys = pair;
  });
});

afterAll(() => {
  rmSync(installDir, {recursive: true, force: true});
});

describe('the production entry on production dependencies', () => {
  it('has no development tooling installed', () => {
    // express is not in this list: the official MCP SDK depends on it (for a helper the gate does not load).
    for (const devOnly of ['typescript', 'ts-node', '@mswjs/http-middleware', 'msw', '@docusaurus/core', 'jest']) {
      expect(existsSync(path.join(installDir, 'node_modules', devOnly))).toBe(false);
    }
  });

  it('serves the members site and its health endpoints, and logs requests without secrets', async () => {
    const keyEndpoint = await startKeyEndpoint();
    const gate = await startGate(keyEndpoint);
    try {
      const health = await fetch(`${gate.url}/_portal/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({status: 'ok', build: manifest.buildId});
      await keyEndpoint.requestArrived(1);
      await waitForHttp(`${gate.url}/_portal/health/ready`, {ready: (response) => response.ok});
      expect(await (await fetch(`${gate.url}/_portal/health/ready`)).json()).toEqual({ready: true, build: manifest.buildId});

      const accessToken = await sign({role: 'admin', roles: ['admin']});
      const session = await postSession(gate.url, accessToken);
      expect(session.status).toBe(200);
      const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect(cookie).toMatch(/^portal_session=.+/);
      const page = await fetch(`${gate.url}${ADMIN_ROUTE}`, {headers: {cookie}});
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('private, no-cache');
      const callback = await fetch(`${gate.url}/?code=CALLBACK_CODE_4711&state=%7B%7D`, {headers: {cookie}});
      expect(callback.status).toBe(200);
      // The line is written once the answer has gone out: wait for it.
      await gate.logged(/"path":"\/","status":200/);

      const lines = gate
        .output()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const requests = lines.filter((line) => line.msg === 'request');
      expect(requests).toEqual(
        expect.arrayContaining([
          expect.objectContaining({method: 'POST', path: '/_portal/session', status: 200, durationMs: expect.any(Number)}),
          expect.objectContaining({method: 'GET', path: ADMIN_ROUTE, status: 200, audience: 'members'}),
          expect.objectContaining({method: 'GET', path: '/', status: 200, audience: 'members'}),
        ]),
      );
      const everything = gate.output();
      for (const secret of [accessToken, cookie.split('=')[1] ?? 'no cookie', 'CALLBACK_CODE_4711', SECRET]) {
        expect(everything).not.toContain(secret);
      }
    } finally {
      gate.child.kill('SIGKILL');
      await keyEndpoint.close();
    }
  });

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const keyEndpoint = await startKeyEndpoint();
    // The key endpoint holds its answer: a session request waits (at most
    // 1 s) for the fetch under way, and is in flight until it comes.
    keyEndpoint.mode = 'hold';
    const gate = await startGate(keyEndpoint, {PORTAL_LOG_LEVEL: 'debug'});
    try {
      await keyEndpoint.requestArrived(1);
      const inFlight = postSession(gate.url, await sign({role: 'member'}));
      await gate.logged(/"msg":"request started".*"path":"\/_portal\/session"|"path":"\/_portal\/session".*"msg":"request started"/);
      gate.child.kill('SIGTERM');
      await gate.logged(/SIGTERM: finishing requests in flight/);
      keyEndpoint.release();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await gate.exited).toBe(0);
      expect(gate.output()).toMatch(/"msg":"stopped"/);
    } finally {
      gate.child.kill('SIGKILL');
      await keyEndpoint.close();
    }
  });

  it('runs several worker processes that share sessions, and stops them all on SIGTERM', async () => {
    const keyEndpoint = await startKeyEndpoint();
    const gate = await startGate(keyEndpoint, {PORTAL_WORKERS: '2'});
    try {
      // The first worker answers health checks before the second listens (seconds apart on a loaded machine).
      await gate.logged(/serving build\/public[\s\S]*serving build\/public/);
      let session = await postSession(gate.url, await sign({role: 'admin'}));
      for (let attempt = 0; attempt < 100 && session.status === 503; attempt += 1) {
        // A worker whose keys have not arrived yet says so; ask again.
        await new Promise((resolve) => setTimeout(resolve, 20));
        session = await postSession(gate.url, await sign({role: 'admin'}));
      }
      expect(session.status).toBe(200);
      const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      // New connections spread over the workers; each must accept the cookie another one issued.
      const audiences = await Promise.all(
        Array.from({length: 20}, () =>
          fetch(`${gate.url}${ADMIN_ROUTE}`, {headers: {cookie, connection: 'close'}}).then(async (response) => [response.status, (await response.text()).includes('Sign in to read this page')]),
        ),
      );
      expect(audiences.every(([status, withheld]) => status === 200 && withheld === false)).toBe(true);
      const workerPids = new Set([...gate.output().matchAll(/"pid":(\d+)/g)].map((match) => match[1]));
      expect(workerPids.size).toBeGreaterThanOrEqual(2);
      gate.child.kill('SIGTERM');
      expect(await gate.exited).toBe(0);
    } finally {
      gate.child.kill('SIGKILL');
      await keyEndpoint.close();
    }
  });

  it.each([
    ['no organisation for a real client id', {WORKOS_ORGANIZATION_ID: undefined}, /WORKOS_ORGANIZATION_ID/],
    ['a short session secret', {PORTAL_SESSION_SECRET: 'short-but-secret'}, /PORTAL_SESSION_SECRET/],
    ['no client id: the local provider is a development tool, not installed here', {WORKOS_CLIENT_ID: undefined}, /WORKOS_CLIENT_ID is not set, and the local sign-in provider/],
  ])('refuses to start with %s, naming the variable', async (_name, overrides, message) => {
    const started = run(productionEnv({PORT: String(await freePort()), ...overrides}));
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(message);
    expect(started.output()).not.toContain('short-but-secret');
    expect(started.output()).not.toContain(SECRET);
  });
});
