/**
 * The gate's settings (server/settings.ts): who counts as a member, which
 * issuer and keys, and a clear error naming the variable for anything wrong.
 */
import {readGateSettings} from '../../server/settings';

const SECRET = 'x'.repeat(48);
const production = {WORKOS_CLIENT_ID: 'client_123', WORKOS_ORGANIZATION_ID: 'org_1', PORTAL_SESSION_SECRET: SECRET};

describe('gate settings', () => {
  it('derives the key set and the issuers WorkOS session tokens carry from the provider settings', () => {
    const settings = readGateSettings({...production, WORKOS_API_HOSTNAME: 'auth.example.com'}, '/srv/portal');
    expect(settings.jwksUrl.href).toBe('https://auth.example.com/sso/jwks/client_123');
    expect(settings.issuers).toEqual(['https://auth.example.com/user_management/client_123', 'https://auth.example.com']);
    expect(settings.organizationId).toBe('org_1');
    expect(settings.buildDir).toBe('/srv/portal/build');
    expect(settings.ephemeralSecret).toBe(false);
  });

  it('takes explicit issuers and previous secrets (rotation)', () => {
    const settings = readGateSettings(
      {...production, PORTAL_TOKEN_ISSUER: 'https://a.example, https://b.example', PORTAL_SESSION_SECRET_PREVIOUS: 'y'.repeat(40)},
      '/',
    );
    expect(settings.issuers).toEqual(['https://a.example', 'https://b.example']);
    expect(settings.sessionSecrets).toHaveLength(2);
  });

  it('names the authorization server of the MCP endpoint: PORTAL_AUTHORIZATION_SERVER, else the provider’s origin', () => {
    expect(readGateSettings(production, '/').authorizationServers).toEqual(['https://api.workos.com']);
    expect(readGateSettings({}, '/').authorizationServers).toEqual(['http://localhost:4010']);
    const authKit = readGateSettings({...production, PORTAL_AUTHORIZATION_SERVER: 'https://acme.authkit.app/'}, '/');
    expect(authKit.authorizationServers).toEqual(['https://acme.authkit.app']);
    expect(() => readGateSettings({...production, PORTAL_AUTHORIZATION_SERVER: 'http://acme.example'}, '/')).toThrow(
      /PORTAL_AUTHORIZATION_SERVER/,
    );
    // Plain http to this machine is trusted as the signing keys' URL is: by the same rule.
    const loopback = readGateSettings({...production, PORTAL_AUTHORIZATION_SERVER: 'http://127.0.0.1:4010'}, '/');
    expect(loopback.authorizationServers).toEqual(['http://127.0.0.1:4010']);
  });

  it('takes keys over plain http from a provider on this machine', () => {
    const local = readGateSettings(
      {...production, WORKOS_API_HOSTNAME: '127.0.0.1', WORKOS_API_PORT: '4011', WORKOS_API_HTTPS: 'false'},
      '/',
    );
    expect(local.jwksUrl.href).toBe('http://127.0.0.1:4011/sso/jwks/client_123');
  });

  it('uses the local provider with a random per-process secret when no client id is set', () => {
    const settings = readGateSettings({}, '/');
    expect(settings.local).toBe(true);
    expect(settings.issuers[0]).toBe('http://localhost:4010/user_management/client_local');
    expect(settings.ephemeralSecret).toBe(true);
    expect(settings.sessionSecrets[0]).toHaveLength(32);
  });

  it.each([
    ['a real client id without an organisation', {WORKOS_CLIENT_ID: 'client_123', PORTAL_SESSION_SECRET: SECRET}, /WORKOS_ORGANIZATION_ID/],
    [
      'a real client id without a session secret',
      {WORKOS_CLIENT_ID: 'client_123', WORKOS_ORGANIZATION_ID: 'org_1'},
      /PORTAL_SESSION_SECRET/,
    ],
    ['a short session secret', {...production, PORTAL_SESSION_SECRET: 'short'}, /PORTAL_SESSION_SECRET.*at least 32/],
    ['a short previous secret', {...production, PORTAL_SESSION_SECRET_PREVIOUS: 'short'}, /PORTAL_SESSION_SECRET_PREVIOUS/],
    ['a bad port', {PORT: 'eighty'}, /PORT/],
    ['a bad JWKS URL', {PORTAL_JWKS_URL: 'not a url'}, /PORTAL_JWKS_URL/],
    ['a bad TRUST_PROXY', {TRUST_PROXY: 'yes'}, /TRUST_PROXY/],
    ['a TRUST_PROXY hop count of 0', {TRUST_PROXY: '0'}, /^Invalid TRUST_PROXY=/],
    ['a TRUST_PROXY range that is not a CIDR', {TRUST_PROXY: '10.0.0.0/40'}, /^Invalid TRUST_PROXY=/],
    ['a TRUST_PROXY range that trusts every address', {TRUST_PROXY: '0.0.0.0/0'}, /^Invalid TRUST_PROXY=/],
    [
      'TRUST_PROXY ranges that cover every address in halves',
      {TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1,::/1,8000::/1'},
      /^Invalid TRUST_PROXY=/,
    ],
    ['a JWKS URL over plain http to another host', {PORTAL_JWKS_URL: 'http://keys.example.com/jwks'}, /^Invalid PORTAL_JWKS_URL=/],
    ['a JWKS URL that is a file', {PORTAL_JWKS_URL: 'file:///etc/keys.json'}, /^Invalid PORTAL_JWKS_URL=/],
    [
      'a provider on another host over plain http (its keys would come in clear)',
      {...production, WORKOS_API_HOSTNAME: 'auth.example.com', WORKOS_API_HTTPS: 'false'},
      /^Invalid WORKOS_API_HTTPS=/,
    ],
    [
      'a PORTAL_PUBLIC_ORIGIN that is not an origin',
      {PORTAL_PUBLIC_ORIGIN: 'https://docs.example.com/docs/'},
      /^Invalid PORTAL_PUBLIC_ORIGIN=/,
    ],
    ['a PORTAL_PUBLIC_ORIGIN that is not a URL', {PORTAL_PUBLIC_ORIGIN: 'docs.example.com'}, /^Invalid PORTAL_PUBLIC_ORIGIN=/],
    ['a bad PORTAL_ANY_USER_IS_MEMBER', {...production, PORTAL_ANY_USER_IS_MEMBER: 'maybe'}, /PORTAL_ANY_USER_IS_MEMBER/],
    [
      'a blank WORKOS_CLIENT_ID (never a quiet switch to the local provider)',
      {...production, WORKOS_CLIENT_ID: ''},
      /^Invalid WORKOS_CLIENT_ID=/,
    ],
    ['a WORKOS_CLIENT_ID of spaces', {...production, WORKOS_CLIENT_ID: '   '}, /^Invalid WORKOS_CLIENT_ID=/],
    ['a session ceiling that is not a number', {...production, PORTAL_SESSION_MAX_AGE: '1h'}, /^Invalid PORTAL_SESSION_MAX_AGE=/],
    ['a session ceiling under a minute', {...production, PORTAL_SESSION_MAX_AGE: '30'}, /^Invalid PORTAL_SESSION_MAX_AGE=/],
    ['a session ceiling over a day', {...production, PORTAL_SESSION_MAX_AGE: '86401'}, /^Invalid PORTAL_SESSION_MAX_AGE=/],
  ])('refuses to start with %s, naming the variable', (_name, env, message) => {
    expect(() => readGateSettings(env, '/')).toThrow(message);
  });

  it.each([
    [{PORT: '1e3'}, 'Invalid PORT="1e3": expected a port number from 1 to 65535.'],
    [{PORT: '70000'}, 'Invalid PORT="70000": expected a port number from 1 to 65535.'],
    [{PORTAL_WORKERS: '0'}, 'Invalid PORTAL_WORKERS="0": expected "auto" (one per CPU) or a number from 1 to 64.'],
    [{PORTAL_WORKERS: 'many'}, 'Invalid PORTAL_WORKERS="many": expected "auto" (one per CPU) or a number from 1 to 64.'],
    [{PORTAL_LOG_LEVEL: 'verbose'}, 'Invalid PORTAL_LOG_LEVEL="verbose": expected debug, info, warn, error.'],
  ])('words a schema refusal of %j as its own message, naming the variable and what it takes', (env, message) => {
    expect(() => readGateSettings(env, '/')).toThrow(new Error(message));
  });

  it('fills in the defaults of unset and blank variables, and reads numbers written with spaces', () => {
    const settings = readGateSettings({PORT: ' ', PORTAL_WORKERS: ' 2 ', PORTAL_LOG_LEVEL: ''}, '/srv');
    expect([settings.port, settings.host, settings.buildDir, settings.workers, settings.logLevel]).toEqual([
      3000,
      'localhost',
      '/srv/build',
      2,
      'info',
    ]);
  });

  it('bounds a session by PORTAL_SESSION_MAX_AGE, an hour by default', () => {
    expect(readGateSettings(production, '/').sessionMaxAgeSeconds).toBe(3600);
    expect(readGateSettings({...production, PORTAL_SESSION_MAX_AGE: ' 600 '}, '/').sessionMaxAgeSeconds).toBe(600);
  });

  it('never prints a secret in its errors', () => {
    expect(() => readGateSettings({...production, PORTAL_SESSION_SECRET: 'hunter2'}, '/')).toThrow(/^(?!.*hunter2)/s);
  });

  it('lets every user of the environment in only when told so explicitly', () => {
    const settings = readGateSettings(
      {WORKOS_CLIENT_ID: 'client_123', PORTAL_SESSION_SECRET: SECRET, PORTAL_ANY_USER_IS_MEMBER: 'true'},
      '/',
    );
    expect(settings.organizationId).toBeNull();
  });

  it('reads TRUST_PROXY as proxy hops or addresses, never as "trust every X-Forwarded-For entry"', () => {
    expect(readGateSettings({}, '/').trustProxy).toBe(false);
    expect(readGateSettings({TRUST_PROXY: 'true'}, '/').trustProxy).toBe(1);
    expect(readGateSettings({TRUST_PROXY: '2'}, '/').trustProxy).toBe(2);
    expect(readGateSettings({TRUST_PROXY: '10.0.0.0/8, ::1'}, '/').trustProxy).toEqual(['10.0.0.0/8', '::1']);
  });

  it('fetches the provider keys over https, or plain http only from this machine', () => {
    expect(readGateSettings({PORTAL_JWKS_URL: 'https://keys.example.com/jwks'}, '/').jwksUrl.href).toBe('https://keys.example.com/jwks');
    expect(readGateSettings({PORTAL_JWKS_URL: 'http://127.0.0.1:4010/sso/jwks/x'}, '/').jwksUrl.href).toBe(
      'http://127.0.0.1:4010/sso/jwks/x',
    );
  });

  it('takes the public origin from PORTAL_PUBLIC_ORIGIN, else SITE_URL, else localhost on the port', () => {
    expect(readGateSettings({PORT: '4000'}, '/').publicOrigins).toEqual(['http://localhost:4000', 'http://127.0.0.1:4000']);
    expect(readGateSettings({SITE_URL: 'https://docs.example.com/portal/'}, '/').publicOrigins).toEqual(['https://docs.example.com']);
    expect(
      readGateSettings({SITE_URL: 'https://docs.example.com', PORTAL_PUBLIC_ORIGIN: 'https://a.example.com, https://b.example.com/'}, '/')
        .publicOrigins,
    ).toEqual(['https://a.example.com', 'https://b.example.com']);
  });
});
