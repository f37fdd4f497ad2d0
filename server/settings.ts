/**
 * The gate's settings from the environment, validated at start-up. Every
 * error names the variable to fix (AuthConfigError, like the build's sign-in
 * settings in src/auth/config.ts, which this reads too: the gate must verify
 * tokens from the provider the site was built for).
 */
import {randomBytes} from 'node:crypto';
import {isIP} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {AuthConfigError, LOCAL_CLIENT_ID, providerOrigin, readAuthSettings} from '../src/auth/config';
import type {LogLevel, TrustProxy} from './gate';
import {DEFAULT_SESSION_MAX_AGE_S, MIN_SECRET_BYTES} from './session';

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
  clientId: string;
  localProviderPort: number;
  logLevel: LogLevel;
  /** Processes serving requests (node:cluster); 1 serves in this process. */
  workers: number;
}

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Most proxies in front of the gate TRUST_PROXY may count. */
const MAX_PROXY_HOPS = 10;

/**
 * TRUST_PROXY: `false`/unset (no proxy), a number of proxy hops in front of
 * the gate, or the proxies' addresses / CIDR ranges (comma-separated).
 * `true` is one hop. Never "trust every X-Forwarded-For entry": the client
 * writes the leftmost ones, and the rate limit keys on the address.
 */
function readTrustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw === 'false') {
    return false;
  }
  if (raw === 'true') {
    return 1;
  }
  const expected = `"false", "true" (one proxy), a number of proxy hops from 1 to ${MAX_PROXY_HOPS}, or the proxies' addresses or CIDR ranges, comma-separated`;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > MAX_PROXY_HOPS) {
      throw new AuthConfigError('TRUST_PROXY', raw, expected);
    }
    return hops;
  }
  const addresses = list(raw);
  for (const address of addresses) {
    const [ip, prefix, ...rest] = address.split('/');
    const version = isIP(ip ?? '');
    const maxPrefix = version === 4 ? 32 : 128;
    if (version === 0 || rest.length > 0 || (prefix !== undefined && (!/^\d+$/.test(prefix) || Number(prefix) > maxPrefix))) {
      throw new AuthConfigError('TRUST_PROXY', raw, expected);
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

function readSecrets(env: Env, local: boolean): {secrets: Uint8Array[]; ephemeral: boolean} {
  const current = env.PORTAL_SESSION_SECRET?.trim();
  if (!current) {
    if (!local) {
      throw new AuthConfigError(
        'PORTAL_SESSION_SECRET',
        '',
        `a random secret of at least ${MIN_SECRET_BYTES} characters (e.g. "openssl rand -base64 48"), the same on every replica`,
      );
    }
    return {secrets: [randomBytes(MIN_SECRET_BYTES)], ephemeral: true};
  }
  const secrets: Uint8Array[] = [];
  for (const [name, value] of [
    ['PORTAL_SESSION_SECRET', current],
    ...list(env.PORTAL_SESSION_SECRET_PREVIOUS).map((item) => ['PORTAL_SESSION_SECRET_PREVIOUS', item]),
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
function readPublicOrigins(env: Env, port: number): string[] {
  const [name, raw] = env.PORTAL_PUBLIC_ORIGIN?.trim()
    ? ['PORTAL_PUBLIC_ORIGIN', env.PORTAL_PUBLIC_ORIGIN]
    : env.SITE_URL?.trim()
      ? ['SITE_URL', env.SITE_URL]
      : [null, ''];
  if (name === null) {
    return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
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
      throw new AuthConfigError(name, value, 'the origin(s) readers use, comma-separated, e.g. https://docs.example.com');
    }
    return url.origin;
  });
}

/** Bounds of PORTAL_SESSION_MAX_AGE: at least a minute (the SDK's refresh must have time to renew it), at most a day. */
const SESSION_MAX_AGE_RANGE_S = [60, 24 * 60 * 60] as const;

function readSessionMaxAge(env: Env): number {
  const raw = env.PORTAL_SESSION_MAX_AGE?.trim();
  if (raw === undefined || raw === '') {
    return DEFAULT_SESSION_MAX_AGE_S;
  }
  const seconds = Number(raw);
  const [min, max] = SESSION_MAX_AGE_RANGE_S;
  if (!/^\d+$/.test(raw) || seconds < min || seconds > max) {
    throw new AuthConfigError('PORTAL_SESSION_MAX_AGE', raw, `a number of seconds from ${min} to ${max}`);
  }
  return seconds;
}

export function readGateSettings(env: Env, rootDir: string): GateSettings {
  // Also refuses a blank WORKOS_CLIENT_ID (the local provider only when the variable is absent).
  const auth = readAuthSettings(env, '/');
  const local = auth.clientId === LOCAL_CLIENT_ID;
  const origin = providerOrigin(auth);
  const rawPort = env.PORT?.trim() || '3000';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port < 1 || port > 65535) {
    throw new AuthConfigError('PORT', rawPort, 'a port number from 1 to 65535');
  }
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(env.PORTAL_JWKS_URL?.trim() || `${origin}/sso/jwks/${auth.clientId}`);
  } catch {
    throw new AuthConfigError('PORTAL_JWKS_URL', env.PORTAL_JWKS_URL ?? '', 'an absolute URL');
  }
  // WorkOS session tokens name the environment's client in `iss`
  // (https://<api host>/user_management/<client id>); its reference example
  // shows the bare API origin, so both are accepted by default. A token
  // with the bare origin must then name the client in `aud` or `client_id`
  // (server/gate.ts, issuedToThisClient): the issuer alone would let in a
  // token of another client of the same environment.
  const issuers = list(env.PORTAL_TOKEN_ISSUER);
  const anyUser = env.PORTAL_ANY_USER_IS_MEMBER?.trim();
  if (anyUser !== undefined && anyUser !== '' && anyUser !== 'true' && anyUser !== 'false') {
    throw new AuthConfigError('PORTAL_ANY_USER_IS_MEMBER', anyUser, '"true" or "false"');
  }
  if (!local && !auth.organizationId && anyUser !== 'true') {
    throw new AuthConfigError(
      'WORKOS_ORGANIZATION_ID',
      '',
      'the organisation whose members may read restricted pages (or PORTAL_ANY_USER_IS_MEMBER=true to let every user who can sign in to this WorkOS environment in)',
    );
  }
  const trustProxy = readTrustProxy(env);
  const logLevel = env.PORTAL_LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new AuthConfigError('PORTAL_LOG_LEVEL', logLevel, LOG_LEVELS.join(', '));
  }
  const rawWorkers = env.PORTAL_WORKERS?.trim() || '1';
  const workers = rawWorkers === 'auto' ? os.availableParallelism() : Number(rawWorkers);
  if (!(rawWorkers === 'auto' || /^\d+$/.test(rawWorkers)) || workers < 1 || workers > 64) {
    throw new AuthConfigError('PORTAL_WORKERS', rawWorkers, '"auto" (one per CPU) or a number from 1 to 64');
  }
  const {secrets, ephemeral} = readSecrets(env, local);
  const authorizationServers = list(env.PORTAL_AUTHORIZATION_SERVER).map((value) => {
    try {
      const url = new URL(value);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && url.hostname === 'localhost')) {
        throw new Error('not https');
      }
      return url.href.replace(/\/$/, '');
    } catch {
      throw new AuthConfigError('PORTAL_AUTHORIZATION_SERVER', value, 'absolute https URLs (comma-separated), e.g. your AuthKit domain');
    }
  });
  return {
    buildDir: path.resolve(rootDir, env.BUILD_DIR?.trim() || 'build'),
    port,
    host: env.HOST?.trim() || 'localhost',
    trustProxy,
    publicOrigins: readPublicOrigins(env, port),
    jwksUrl,
    issuers: issuers.length > 0 ? issuers : [`${origin}/user_management/${auth.clientId}`, origin],
    organizationId: auth.organizationId,
    sessionSecrets: secrets,
    authorizationServers: authorizationServers.length > 0 ? authorizationServers : [origin],
    sessionMaxAgeSeconds: readSessionMaxAge(env),
    ephemeralSecret: ephemeral,
    local: local,
    clientId: auth.clientId,
    localProviderPort: auth.port ?? 4010,
    logLevel: logLevel as LogLevel,
    workers,
  };
}
