/**
 * The local sign-in provider as a real HTTP server (what `npm start` runs):
 * it must be as strict as the real one, or the portal could pass here and
 * fail against WorkOS.
 */
import {createHash, randomBytes} from 'node:crypto';
import {createLocalJWKSet, jwtVerify} from 'jose';
import {TEST_CONTROL_HEADER} from '../../scripts/local-provider/handlers';
import {startLocalProvider, type LocalProvider} from '../../scripts/local-provider/server';
import {localAccessToken} from '../../scripts/local-token';

const SITE = 'http://localhost:3000';
let provider: LocalProvider;
// The provider's clock, moved forward to test expiry.
let clockOffsetMs = 0;

beforeAll(async () => {
  provider = await startLocalProvider({port: 0, clientId: 'client_local', allowedOrigins: [SITE], now: () => Date.now() + clockOffsetMs});
});

afterEach(() => {
  clockOffsetMs = 0;
});

afterAll(() => provider.close());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return {verifier, challenge: createHash('sha256').update(verifier).digest('base64url')};
}

function authorizeUrl(overrides: Record<string, string | null> = {}, challenge = pkce().challenge): string {
  const params = new URLSearchParams({
    client_id: 'client_local',
    redirect_uri: `${SITE}/`,
    response_type: 'code',
    provider: 'authkit',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: '{"returnTo":"/docs/"}',
  });
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null) {
      params.delete(key);
    } else {
      params.set(key, value);
    }
  }
  return `${provider.url}/user_management/authorize?${params}`;
}

async function codeFor(userId: string, challenge: string): Promise<{code: string; state: string | null}> {
  const page = await (await fetch(authorizeUrl({}, challenge))).text();
  const authorizationId = /name="authorization_id" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const response = await fetch(`${provider.url}/user_management/authorize/complete`, {
    method: 'POST',
    headers: {'Content-Type': 'application/x-www-form-urlencoded'},
    body: new URLSearchParams({authorization_id: authorizationId, user_id: userId}),
    redirect: 'manual',
  });
  const location = new URL(response.headers.get('location') ?? '');
  expect(location.origin).toBe(SITE);
  return {code: location.searchParams.get('code') ?? '', state: location.searchParams.get('state')};
}

function authenticate(body: unknown, raw?: string) {
  return fetch(`${provider.url}/user_management/authenticate`, {
    method: 'POST',
    headers: {'Content-Type': 'application/json', Origin: SITE},
    body: raw ?? JSON.stringify(body),
  });
}

describe('authorize', () => {
  it('shows a sign-in page labelled as local, listing the test users', async () => {
    const response = await fetch(authorizeUrl());
    const page = await response.text();
    expect(response.status).toBe(200);
    expect(page).toContain('LOCAL DEVELOPMENT PROVIDER');
    expect(page).toMatch(/Ada Admin[\s\S]*Devon Developer[\s\S]*Imani Customer[\s\S]*Lee Locked/);
  });

  it.each([
    ['a wrong client_id', {client_id: 'client_other'}],
    ['a redirect_uri on a foreign origin', {redirect_uri: 'https://evil.example/'}],
    ['no PKCE challenge', {code_challenge: null}],
    ['the plain PKCE method', {code_challenge_method: 'plain'}],
    ['another response_type', {response_type: 'token'}],
  ])('renders an error page, never a redirect, for %s', async (_name, overrides) => {
    const response = await fetch(authorizeUrl(overrides), {redirect: 'manual'});
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('This sign-in request is invalid');
  });

  it('passes state back untouched', async () => {
    const {state} = await codeFor('user_developer', pkce().challenge);
    expect(state).toBe('{"returnTo":"/docs/"}');
  });
});

describe('authenticate', () => {
  it('exchanges a code once, for a signed token with the spec claims, verifiable with the published JWKS', async () => {
    const {verifier, challenge} = pkce();
    const {code} = await codeFor('user_admin', challenge);
    const response = await authenticate({client_id: 'client_local', grant_type: 'authorization_code', code, code_verifier: verifier});
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(SITE);
    const body = (await response.json()) as {access_token: string; refresh_token: string; user: {email: string}; organization_id: string};
    expect(body.user.email).toBe('ada.admin@acme.test');

    const jwks = (await (await fetch(`${provider.url}/sso/jwks/client_local`)).json()) as Parameters<typeof createLocalJWKSet>[0];
    const {payload} = await jwtVerify(body.access_token, createLocalJWKSet(jwks), {
      issuer: `${provider.url}/user_management/client_local`,
      audience: 'client_local',
    });
    expect(payload).toMatchObject({
      org_id: 'org_acme_platform',
      role: 'admin',
      roles: ['admin', 'member'],
      feature_flags: ['beta-docs', 'new-search'],
    });
    expect(typeof payload.sid).toBe('string');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);

    const reused = await authenticate({client_id: 'client_local', grant_type: 'authorization_code', code, code_verifier: verifier});
    expect(reused.status).toBe(400);
    expect(await reused.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code is invalid, expired or already used.',
    });
  });

  it('rejects a code with the wrong PKCE verifier', async () => {
    const {challenge} = pkce();
    const {code} = await codeFor('user_developer', challenge);
    const response = await authenticate({
      client_id: 'client_local',
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce().verifier,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as {error_description: string}).error_description).toMatch(/PKCE verification failed/);
  });

  it('rotates refresh tokens, switches organisation on request and rejects unknown tokens', async () => {
    const {verifier, challenge} = pkce();
    const {code} = await codeFor('user_admin', challenge);
    const first = (await (
      await authenticate({client_id: 'client_local', grant_type: 'authorization_code', code, code_verifier: verifier})
    ).json()) as {refresh_token: string};

    const switched = await authenticate({
      client_id: 'client_local',
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      organization_id: 'org_acme_labs',
    });
    expect(switched.status).toBe(200);
    const second = (await switched.json()) as {refresh_token: string; organization_id: string};
    expect(second.organization_id).toBe('org_acme_labs');
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // Within the 10 s reuse interval, a just-rotated token still works (another tab may hold it)…
    const reused = await authenticate({client_id: 'client_local', grant_type: 'refresh_token', refresh_token: first.refresh_token});
    expect(reused.status).toBe(200);
    // …after it, it is refused.
    clockOffsetMs = 11_000;
    const replayed = await authenticate({client_id: 'client_local', grant_type: 'refresh_token', refresh_token: first.refresh_token});
    expect(replayed.status).toBe(400);
    const unknown = await authenticate({client_id: 'client_local', grant_type: 'refresh_token', refresh_token: 'made-up'});
    expect(await unknown.json()).toEqual({error: 'invalid_grant', error_description: 'The refresh token is invalid or has been revoked.'});
  });

  it('answers malformed JSON with a 400 and a JSON error', async () => {
    const response = await authenticate(undefined, '{"client_id":');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({error: 'invalid_request', error_description: 'The request body must be a JSON object.'});
  });
});

describe('logout', () => {
  it('redirects only to an allowed return_to', async () => {
    const allowed = await fetch(
      `${provider.url}/user_management/sessions/logout?session_id=x&return_to=${encodeURIComponent(`${SITE}/docs/`)}`,
      {redirect: 'manual'},
    );
    expect(allowed.status).toBe(302);
    expect(allowed.headers.get('location')).toBe(`${SITE}/docs/`);

    const foreign = await fetch(
      `${provider.url}/user_management/sessions/logout?session_id=x&return_to=${encodeURIComponent('https://evil.example/')}`,
      {redirect: 'manual'},
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
  });

  it('ends the session: its refresh token stops working', async () => {
    const {verifier, challenge} = pkce();
    const {code} = await codeFor('user_developer', challenge);
    const session = (await (
      await authenticate({client_id: 'client_local', grant_type: 'authorization_code', code, code_verifier: verifier})
    ).json()) as {access_token: string; refresh_token: string};
    const sid = JSON.parse(Buffer.from(session.access_token.split('.')[1] ?? '', 'base64url').toString()).sid as string;

    await fetch(`${provider.url}/user_management/sessions/logout?session_id=${sid}`);
    const refresh = await authenticate({client_id: 'client_local', grant_type: 'refresh_token', refresh_token: session.refresh_token});
    expect(refresh.status).toBe(400);
  });
});

describe('test controls (/__local/*)', () => {
  const fault = JSON.stringify({status: 500, body: '<script>alert(document.domain)</script>', contentType: 'text/html', count: 1});

  it('do not exist on the provider that npm start and npm run serve run', async () => {
    const response = await fetch(`${provider.url}/__local/fault`, {
      method: 'POST',
      headers: {'Content-Type': 'application/json', [TEST_CONTROL_HEADER]: '1'},
      body: fault,
    });
    expect(response.status).toBe(404);
    expect((await fetch(`${provider.url}/__local/stats`, {headers: {[TEST_CONTROL_HEADER]: '1'}})).status).toBe(404);
  });

  describe('on the test suites provider', () => {
    let testProvider: LocalProvider;
    beforeAll(async () => {
      testProvider = await startLocalProvider({port: 0, clientId: 'client_local', allowedOrigins: [SITE], testControls: true});
    });
    afterAll(() => testProvider.close());

    it('refuse what a web page could send without a preflight: no custom header, or text/plain', async () => {
      const simple = await fetch(`${testProvider.url}/__local/fault`, {
        method: 'POST',
        headers: {'Content-Type': 'text/plain', Origin: 'https://evil.example'},
        body: fault,
      });
      expect(simple.status).toBe(403);
      const plain = await fetch(`${testProvider.url}/__local/fault`, {
        method: 'POST',
        headers: {'Content-Type': 'text/plain', [TEST_CONTROL_HEADER]: '1'},
        body: fault,
      });
      expect(plain.status).toBe(415);
      const preflight = await fetch(`${testProvider.url}/__local/fault`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://evil.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': TEST_CONTROL_HEADER,
        },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect((await fetch(`${testProvider.url}/__local/stats`)).status).toBe(403);
    });

    it('replay an injected body with a CSP that runs nothing, and nosniff', async () => {
      const injected = await fetch(`${testProvider.url}/__local/fault`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json', [TEST_CONTROL_HEADER]: '1'},
        body: fault,
      });
      expect(injected.status).toBe(200);
      const response = await fetch(`${testProvider.url}/user_management/authenticate`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: '{}',
      });
      expect(response.status).toBe(500);
      expect(await response.text()).toContain('<script>');
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'; sandbox/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });
  });
});

describe('npm run token (scripts/local-token.ts)', () => {
  it('signs a test user in as the browser would and returns their access token, verified by the provider’s keys', async () => {
    const accessToken = await localAccessToken({providerUrl: provider.url, userId: 'user_developer', siteOrigin: SITE});
    const jwks = (await (await fetch(`${provider.url}/sso/jwks/client_local`)).json()) as Parameters<typeof createLocalJWKSet>[0];
    const {payload} = await jwtVerify(accessToken, createLocalJWKSet(jwks));
    expect(payload.sub).toBe('user_developer');
    expect(payload.role).toBe('member');
  });

  it('names the problem for a user the provider does not know', async () => {
    await expect(localAccessToken({providerUrl: provider.url, userId: 'user_nobody', siteOrigin: SITE})).rejects.toThrow(/user_nobody/);
  });
});
