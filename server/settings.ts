/**
 * The gate's settings from the environment, validated at start-up: the
 * shape of each of its variables by a JSON schema (./settingsSchema.ts),
 * then the rules that span several variables or need more than a schema
 * says (a real client id needs an organisation and a session secret;
 * secrets counted in bytes; proxy addresses; URLs) as explicit checks. Every
 * error names the variable to fix (AuthConfigError, like the build's sign-in
 * settings in src/auth/config.ts, which this reads too: the gate must verify
 * tokens from the provider the site was built for; the WORKOS_* variables
 * are that module's to validate).
 */
import {randomBytes} from 'node:crypto';
import {isIP} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {AuthConfigError, LOCAL_CLIENT_ID, providerOrigin, readAuthSettings} from '../src/auth/config';
import type {LogLevel, TrustProxy} from './gate';
import {isHttpsOrLocal} from './localHost';
import {EXPECTED, MAX_PROXY_HOPS, MIN_PROXY_PREFIX, readGateEnv, type GateEnv} from './settingsSchema';
import {MIN_SECRET_BYTES} from './session';

type Env = Record<string, string | undefined>;

export interface GateSettings {
  buildDir: string;
  port: number;
  host: string;
  /** Which X-Forwarded-* the gate believes (TRUST_PROXY): see readTrustProxy. */
  trustProxy: TrustProxy;
  /** The site's public origin(s) (PORTAL_PUBLIC_ORIGIN): see readPublicOrigins. */
  publicOrigins: string[];
  jwksUrl: URL;
  issuers: string[];
  organizationId: string | null;
  sessionSecrets: Uint8Array[];
  /**
   * The OAuth authorization server(s) the MCP endpoint's metadata names
   * (RFC 9728): PORTAL_AUTHORIZATION_SERVER (comma-separated; for WorkOS, the
   * AuthKit domain, e.g. https://example.authkit.app), else the provider's
   * origin (the local provider's serves its metadata there).
   */
  authorizationServers: string[];
  /** The longest a gate session lasts, whatever the token's `exp` says (s). */
  sessionMaxAgeSeconds: number;
  /** True when the secret was generated for this process (local provider only). */
  ephemeralSecret: boolean;
  /** No WORKOS_CLIENT_ID: the local sign-in provider is used (on localProviderPort). */
  local: boolean;
  /**
   * False with AUTH_DISABLED=true: nobody signs in, so the gate loads no keys and accepts no token (every reader,
   * MCP clients included, gets the public set).
   */
  signIn: boolean;
  clientId: string;
  localProviderPort: number;
  logLevel: LogLevel;
  /** Processes serving requests (node:cluster); 1 serves in this process. */
  workers: number;
}

/**
 * TRUST_PROXY: `false`/unset (no proxy), a number of proxy hops in front of
 * the gate, or the proxies' addresses / CIDR ranges (comma-separated).
 * `true` is one hop. Never "trust every X-Forwarded-For entry": the client
 * writes the leftmost ones, and the rate limit keys on the address.
 */
function readTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw === 'false') {
    return false;
  }
  if (raw === 'true') {
    return 1;
  }
  const invalid = () => new AuthConfigError('TRUST_PROXY', raw, EXPECTED.TRUST_PROXY);
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > MAX_PROXY_HOPS) {
      throw invalid();
    }
    return hops;
  }
  const addresses = list(raw);
  for (const address of addresses) {
    const [ip, prefix, ...rest] = address.split('/');
    const version = isIP(ip ?? '');
    const maxPrefix = version === 4 ? 32 : 128;
    const badPrefix = prefix !== undefined && (!/^\d+$/.test(prefix) || Number(prefix) > maxPrefix || Number(prefix) < MIN_PROXY_PREFIX);
    if (version === 0 || rest.length > 0 || badPrefix) {
      throw invalid();
    }
  }
  return addresses;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The session secrets, counted in bytes; required with a real client id, random per process with the local provider. */
function readSecrets(gateEnv: GateEnv, local: boolean): {secrets: Uint8Array[]; ephemeral: boolean} {
  const current = gateEnv.PORTAL_SESSION_SECRET;
  if (!current) {
    if (!local) {
      throw new AuthConfigError('PORTAL_SESSION_SECRET', '', EXPECTED.PORTAL_SESSION_SECRET);
    }
    return {secrets: [randomBytes(MIN_SECRET_BYTES)], ephemeral: true};
  }
  const secrets: Uint8Array[] = [];
  for (const [name, value] of [
    ['PORTAL_SESSION_SECRET', current],
    ...list(gateEnv.PORTAL_SESSION_SECRET_PREVIOUS).map((item) => ['PORTAL_SESSION_SECRET_PREVIOUS', item]),
  ] as [string, string][]) {
    const bytes = new TextEncoder().encode(value);
    if (bytes.length < MIN_SECRET_BYTES) {
      throw new AuthConfigError(name, '(hidden)', `at least ${MIN_SECRET_BYTES} characters`);
    }
    secrets.push(bytes);
  }
  return {secrets, ephemeral: false};
}

/**
 * PORTAL_PUBLIC_ORIGIN: the origin(s) readers reach the site at
 * (comma-separated, e.g. https://docs.example.com), else SITE_URL's origin
 * (the build's), else http://localhost:PORT and http://127.0.0.1:PORT. The
 * MCP endpoint answers only requests addressed to one of them (DNS
 * rebinding) and builds its OAuth metadata URLs from them, never from a
 * request's Host or X-Forwarded-Host.
 */
function readPublicOrigins(gateEnv: GateEnv): string[] {
  const [name, raw] = gateEnv.PORTAL_PUBLIC_ORIGIN
    ? (['PORTAL_PUBLIC_ORIGIN', gateEnv.PORTAL_PUBLIC_ORIGIN] as const)
    : gateEnv.SITE_URL
      ? (['SITE_URL', gateEnv.SITE_URL] as const)
      : [null, ''];
  if (name === null) {
    return [`http://localhost:${gateEnv.PORT}`, `http://127.0.0.1:${gateEnv.PORT}`];
  }
  return list(raw).map((value) => {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      // Reported below.
    }
    // SITE_URL may carry the base URL's path; an explicit origin may not.
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || (name === 'PORTAL_PUBLIC_ORIGIN' && url.pathname !== '/')) {
      throw new AuthConfigError(name, value, EXPECTED[name]);
    }
    return url.origin;
  });
}

/** PORTAL_AUTHORIZATION_SERVER: absolute https URLs (http only to this machine), without a trailing slash. */
function readAuthorizationServers(raw: string | undefined): string[] {
  return list(raw).map((value) => {
    try {
      const url = new URL(value);
      if (!isHttpsOrLocal(url)) {
        throw new Error('not https');
      }
      return url.href.replace(/\/$/, '');
    } catch {
      throw new AuthConfigError('PORTAL_AUTHORIZATION_SERVER', value, EXPECTED.PORTAL_AUTHORIZATION_SERVER);
    }
  });
}

export function readGateSettings(env: Env, rootDir: string): GateSettings {
  // The provider's settings are the build's (src/auth/config.ts); it also
  // refuses a blank WORKOS_CLIENT_ID (the local provider only when the variable is absent).
  const auth = readAuthSettings(env, '/');
  const gateEnv = readGateEnv(env);
  const local = auth.clientId === LOCAL_CLIENT_ID;
  const origin = providerOrigin(auth);
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(gateEnv.PORTAL_JWKS_URL ?? `${origin}/sso/jwks/${auth.clientId}`);
  } catch {
    throw new AuthConfigError('PORTAL_JWKS_URL', gateEnv.PORTAL_JWKS_URL ?? '', EXPECTED.PORTAL_JWKS_URL);
  }
  // The keys decide every session: whoever can answer this URL can mint any role. Plain http only to this machine,
  // whether the URL is given or derived from the provider's settings.
  if (!isHttpsOrLocal(jwksUrl)) {
    throw gateEnv.PORTAL_JWKS_URL === undefined
      ? new AuthConfigError(
          'WORKOS_API_HTTPS',
          env.WORKOS_API_HTTPS ?? '',
          `true for the gate: it takes the provider's signing keys over https, plain http only from localhost, 127.0.0.1 or [::1] (or set PORTAL_JWKS_URL to an https URL of them)`,
        )
      : new AuthConfigError('PORTAL_JWKS_URL', gateEnv.PORTAL_JWKS_URL, EXPECTED.PORTAL_JWKS_URL);
  }
  // WorkOS session tokens name the environment's client in `iss`
  // (https://<api host>/user_management/<client id>); its reference example
  // shows the bare API origin, so both are accepted by default. A token
  // with the bare origin must then name the client in `aud` or `client_id`
  // (server/accessToken.ts): the issuer alone would let in a token of
  // another client of the same environment.
  const issuers = list(gateEnv.PORTAL_TOKEN_ISSUER);
  // Across variables: a real client id needs the organisation whose members may read (or an explicit "anyone").
  if (!local && !auth.organizationId && gateEnv.PORTAL_ANY_USER_IS_MEMBER !== 'true') {
    throw new AuthConfigError(
      'WORKOS_ORGANIZATION_ID',
      '',
      'the organisation whose members may read restricted pages (or PORTAL_ANY_USER_IS_MEMBER=true to let every user who can sign in to this WorkOS environment in)',
    );
  }
  const trustProxy = readTrustProxy(gateEnv.TRUST_PROXY);
  // Across variables: a real client id needs a session secret shared by every replica.
  const {secrets, ephemeral} = readSecrets(gateEnv, local);
  const authorizationServers = readAuthorizationServers(gateEnv.PORTAL_AUTHORIZATION_SERVER);
  return {
    buildDir: path.resolve(rootDir, gateEnv.BUILD_DIR),
    port: gateEnv.PORT,
    host: gateEnv.HOST,
    trustProxy,
    publicOrigins: readPublicOrigins(gateEnv),
    jwksUrl,
    issuers: issuers.length > 0 ? issuers : [`${origin}/user_management/${auth.clientId}`, origin],
    organizationId: auth.organizationId,
    sessionSecrets: secrets,
    authorizationServers: authorizationServers.length > 0 ? authorizationServers : [origin],
    sessionMaxAgeSeconds: gateEnv.PORTAL_SESSION_MAX_AGE,
    ephemeralSecret: ephemeral,
    local,
    signIn: auth.enabled,
    clientId: auth.clientId,
    localProviderPort: auth.port ?? 4010,
    logLevel: gateEnv.PORTAL_LOG_LEVEL,
    workers: gateEnv.PORTAL_WORKERS === 'auto' ? os.availableParallelism() : gateEnv.PORTAL_WORKERS,
  };
}
