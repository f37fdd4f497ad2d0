/**
 * The shape of each of the gate's variables, as a JSON schema validated by
 * env-schema (Ajv: numbers coerced, defaults filled in), and the words of
 * each variable's error. Rules across variables, and values a schema cannot
 * judge (URLs, proxy addresses, secrets in bytes), are ./settings.ts's.
 */
import envSchema from 'env-schema';
import {AuthConfigError} from '../src/auth/config';
import type {LogLevel} from './gate';
import {DEFAULT_SESSION_MAX_AGE_S, MIN_SECRET_BYTES} from './session';

type Env = Record<string, string | undefined>;

export const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Most proxies in front of the gate TRUST_PROXY may count. */
export const MAX_PROXY_HOPS = 10;
/**
 * The widest CIDR range TRUST_PROXY may name (IPv4 and IPv6 alike): a wider
 * one, or a few that cover every address, would let any client write its own
 * X-Forwarded-For and X-Forwarded-Host (rate limit, MCP host check).
 */
export const MIN_PROXY_PREFIX = 8;

/** Bounds of PORTAL_SESSION_MAX_AGE: at least a minute (the SDK's refresh must have time to renew it), at most a day. */
const SESSION_MAX_AGE_RANGE_S = [60, 24 * 60 * 60] as const;

/** The gate's variables, trimmed, as the schema leaves them (blank ones are unset: their default applies). */
export interface GateEnv {
  PORT: number;
  HOST: string;
  BUILD_DIR: string;
  PORTAL_JWKS_URL?: string;
  PORTAL_TOKEN_ISSUER?: string;
  PORTAL_ANY_USER_IS_MEMBER?: 'true' | 'false';
  TRUST_PROXY?: string;
  PORTAL_PUBLIC_ORIGIN?: string;
  SITE_URL?: string;
  PORTAL_LOG_LEVEL: LogLevel;
  PORTAL_WORKERS: 'auto' | number;
  PORTAL_SESSION_SECRET?: string;
  PORTAL_SESSION_SECRET_PREVIOUS?: string;
  PORTAL_AUTHORIZATION_SERVER?: string;
  PORTAL_SESSION_MAX_AGE: number;
}

/** What each variable takes, in the words of its error (AuthConfigError: "expected …"). */
export const EXPECTED: Record<keyof GateEnv, string> = {
  PORT: 'a port number from 1 to 65535',
  HOST: 'a host name or address to listen on',
  BUILD_DIR: 'a folder',
  PORTAL_JWKS_URL: 'an absolute https URL (plain http only to localhost, 127.0.0.1 or [::1])',
  PORTAL_TOKEN_ISSUER: 'issuer URLs, comma-separated',
  PORTAL_ANY_USER_IS_MEMBER: '"true" or "false"',
  TRUST_PROXY: `"false", "true" (one proxy), a number of proxy hops from 1 to ${MAX_PROXY_HOPS}, or the proxies' addresses or CIDR ranges (/${MIN_PROXY_PREFIX} or narrower), comma-separated`,
  PORTAL_PUBLIC_ORIGIN: 'the origin(s) readers use, comma-separated, e.g. https://docs.example.com',
  SITE_URL: 'the origin(s) readers use, comma-separated, e.g. https://docs.example.com',
  PORTAL_LOG_LEVEL: LOG_LEVELS.join(', '),
  PORTAL_WORKERS: '"auto" (one per CPU) or a number from 1 to 64',
  PORTAL_SESSION_SECRET: `a random secret of at least ${MIN_SECRET_BYTES} characters (e.g. "openssl rand -base64 48"), the same on every replica`,
  PORTAL_SESSION_SECRET_PREVIOUS: `secrets of at least ${MIN_SECRET_BYTES} characters, comma-separated`,
  PORTAL_AUTHORIZATION_SERVER:
    'absolute https URLs (comma-separated; plain http only to localhost, 127.0.0.1 or [::1]), e.g. your AuthKit domain',
  PORTAL_SESSION_MAX_AGE: `a number of seconds from ${SESSION_MAX_AGE_RANGE_S[0]} to ${SESSION_MAX_AGE_RANGE_S[1]}`,
};

/** Variables whose value an error must never print. */
const HIDDEN = new Set<string>(['PORTAL_SESSION_SECRET', 'PORTAL_SESSION_SECRET_PREVIOUS']);

/**
 * A whole number from min to max, written in digits only: the string is
 * checked first (no sign, exponent or hex, which Ajv's coercion alone would
 * let through), then coerced and bounded.
 */
function wholeNumber(minimum: number, maximum: number) {
  return {
    allOf: [
      {type: 'string', pattern: '^[0-9]+$'},
      {type: 'integer', minimum, maximum},
    ],
  };
}

/** The shape of each variable (JSON schema, validated by env-schema: Ajv, numbers coerced, defaults filled in). */
const GATE_ENV_SCHEMA = {
  type: 'object',
  // Other variables are not the gate's: left out of the result.
  additionalProperties: false,
  properties: {
    PORT: {...wholeNumber(1, 65535), default: 3000},
    HOST: {type: 'string', default: 'localhost'},
    BUILD_DIR: {type: 'string', default: 'build'},
    PORTAL_JWKS_URL: {type: 'string'},
    PORTAL_TOKEN_ISSUER: {type: 'string'},
    PORTAL_ANY_USER_IS_MEMBER: {type: 'string', enum: ['true', 'false']},
    TRUST_PROXY: {type: 'string'},
    PORTAL_PUBLIC_ORIGIN: {type: 'string'},
    SITE_URL: {type: 'string'},
    PORTAL_LOG_LEVEL: {type: 'string', enum: LOG_LEVELS, default: 'info'},
    PORTAL_WORKERS: {anyOf: [{const: 'auto'}, wholeNumber(1, 64)], default: 1},
    PORTAL_SESSION_SECRET: {type: 'string'},
    PORTAL_SESSION_SECRET_PREVIOUS: {type: 'string'},
    PORTAL_AUTHORIZATION_SERVER: {type: 'string'},
    PORTAL_SESSION_MAX_AGE: {...wholeNumber(...SESSION_MAX_AGE_RANGE_S), default: DEFAULT_SESSION_MAX_AGE_S},
  } satisfies Record<keyof GateEnv, object>,
};

/**
 * The gate's variables from `env`, trimmed and validated by GATE_ENV_SCHEMA.
 * env-schema's own message ("env/PORT must be integer") is replaced by
 * ours, which names the variable, its value and what it takes.
 */
export function readGateEnv(env: Env): GateEnv {
  const given: Record<string, string> = {};
  for (const name of Object.keys(EXPECTED)) {
    const value = env[name]?.trim();
    if (value) {
      given[name] = value;
    }
  }
  const invalid = (name: string) =>
    new AuthConfigError(name, HIDDEN.has(name) ? '(hidden)' : (given[name] ?? ''), EXPECTED[name as keyof GateEnv]);
  try {
    // Only `given`: never process.env, never a .env file.
    return envSchema<GateEnv>({schema: GATE_ENV_SCHEMA, data: given, env: false, dotenv: false});
  } catch (error) {
    const [first] = (error as {errors?: {instancePath: string}[]}).errors ?? [];
    const name = first?.instancePath.replace(/^\//, '');
    if (name && name in EXPECTED) {
      throw invalid(name);
    }
    throw error;
  }
}
