/**
 * Sign-in turned off (AUTH_DISABLED=true) on the production gate: nobody
 * signs in, so no token may open a session or reach the MCP endpoint as a
 * member, whoever answers the local provider's key URL. Without a client id
 * that URL is http://localhost:<LOCAL_AUTH_PORT>, which nothing serves in
 * production: any process on the machine could bind it and publish keys of
 * its own. Here a "rogue" key set is served there and a token signed with it
 * is offered.
 */
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {mkdtempSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {FastifyInstance} from 'fastify';
import {MCP_PATH} from '../../src/auth/access/agentDocs';
import {createGate} from '../../server/gate';
import {createKeyStore, type KeyStore} from '../../server/keys';
import {keyStoreFor} from '../../server/main';
import {readGateSettings, type GateSettings} from '../../server/settings';
import {createProviderKeys, fixtureGateOptions, signToken, writeGateBuild, type ProviderKeys} from '../support/gateFixture';

const ADMIN_TEXT = 'Impersonation is logged with the staff member and the reason.';

let dir: string;
let rogue: ProviderKeys;
let keyServer: Server;
let settings: GateSettings;
const gates: FastifyInstance[] = [];

beforeAll(async () => {
  rogue = await createProviderKeys();
  // Whatever binds the local provider's port publishes its own keys.
  keyServer = createServer((_request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify(rogue.jwks));
  });
  await new Promise<void>((resolve) => keyServer.listen(0, resolve));
  const {port} = keyServer.address() as AddressInfo;
  settings = readGateSettings({AUTH_DISABLED: 'true', LOCAL_AUTH_PORT: String(port)}, '/');
  dir = mkdtempSync(path.join(os.tmpdir(), 'portal-sign-in-off-'));
  await writeGateBuild(dir, {
    public: {'docs/admin/index.html': '<h1>Admin</h1><p>Sign in to read this page.</p>'},
    members: {'docs/admin/index.html': `<h1>Admin</h1><p>${ADMIN_TEXT}</p>`},
    manifest: {
      pages: [
        {
          route: '/docs/admin',
          source: 'docs/admin.md',
          title: 'Admin',
          rule: {kind: 'roles', roles: ['admin'], permissions: []},
          files: ['docs/admin/index.html'],
        },
      ],
      files: {'docs/admin/index.html': [{kind: 'roles', roles: ['admin'], permissions: []}]},
      searchIndexes: [],
    },
  });
});

afterAll(async () => {
  await Promise.all(gates.map((gate) => gate.close()));
  keyServer.close();
  rmSync(dir, {recursive: true, force: true});
});

async function gateWith(keys: KeyStore): Promise<FastifyInstance> {
  const gate = await createGate(
    fixtureGateOptions(dir, keys, {issuers: settings.issuers, clientId: settings.clientId, organizationId: settings.organizationId}),
  );
  gates.push(gate);
  return gate;
}

/** An admin's token as the process on the local provider's port would sign one. */
const rogueAdminToken = () => signToken(rogue.keys.privateKey, {iss: settings.issuers[0], role: 'admin'});

async function signInAndRead(gate: FastifyInstance): Promise<{session: number; page: string; mcp: number}> {
  const token = await rogueAdminToken();
  const session = await gate.inject({
    method: 'POST',
    url: '/_portal/session',
    headers: {host: 'localhost:3000'},
    payload: {accessToken: token},
  });
  const cookie = ([] as string[])
    .concat(session.headers['set-cookie'] ?? [])
    .map((value) => value.split(';')[0])
    .join('; ');
  const page = await gate.inject({url: '/docs/admin', headers: {cookie}});
  const mcp = await gate.inject({
    method: 'POST',
    url: `/${MCP_PATH}`,
    headers: {
      host: 'localhost:3000',
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    payload: {jsonrpc: '2.0', id: 1, method: 'tools/list', params: {}},
  });
  return {session: session.statusCode, page: page.body, mcp: mcp.statusCode};
}

it('reads sign-in as off', () => {
  expect(settings.signIn).toBe(false);
  expect(readGateSettings({}, '/').signIn).toBe(true);
});

it('accepts no token, whoever serves keys at the local provider’s URL: every reader gets the public pages', async () => {
  const gate = await gateWith(keyStoreFor(settings));
  await gate.site.loaded();
  // Ready without any key: there is none to wait for.
  expect(JSON.parse((await gate.inject({url: '/_portal/health/ready'})).body)).toMatchObject({ready: true});
  const {session, page, mcp} = await signInAndRead(gate);
  expect(session).toBe(401);
  expect(page).toContain('Sign in to read this page');
  expect(page).not.toContain(ADMIN_TEXT);
  expect(mcp).toBe(401);
});

it('(the same token against keys fetched from that URL, as with sign-in on, would open an admin session)', async () => {
  const gate = await gateWith(createKeyStore({url: settings.jwksUrl}));
  const {session, page, mcp} = await signInAndRead(gate);
  expect(session).toBe(200);
  expect(page).toContain(ADMIN_TEXT);
  expect(mcp).toBe(200);
});
