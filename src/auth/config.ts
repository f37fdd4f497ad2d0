/**
 * Sign-in settings, read from environment variables when the site is built
 * or started (Node.js), validated, and passed to the browser through
 * `customFields.auth`. Nothing here is secret: a WorkOS client id is public.
 */

export const LOCAL_CLIENT_ID = 'client_local';
export const DEFAULT_LOCAL_AUTH_PORT = 4010;

export interface AuthSettings {
  /** False when AUTH_DISABLED=true: no sign-in UI at all. */
  enabled: boolean;
  clientId: string;
  organizationId: string | null;
  apiHostname: string;
  port: number | null;
  https: boolean;
  /**
   * Absolute callback URL from WORKOS_REDIRECT_URI, or null for "this site's
   * own origin + basePath", resolved in the browser, so one build works on
   * any host or port (the SDK's callback check compares the path).
   */
  redirectUri: string | null;
  /** The site's baseUrl, the callback path when redirectUri is null. */
  basePath: string;
  devMode: boolean;
}

export class AuthConfigError extends Error {
  constructor(variable: string, value: string, expected: string) {
    super(`Invalid ${variable}="${value}": expected ${expected}.`);
    this.name = 'AuthConfigError';
  }
}

type Env = Record<string, string | undefined>;

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') {
    return fallback;
  }
  if (raw === 'true') {
    return true;
  }
  if (raw === 'false') {
    return false;
  }
  throw new AuthConfigError(name, raw, '"true" or "false"');
}

function readPort(env: Env, name: string): number | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') {
    return null;
  }
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new AuthConfigError(name, raw, 'a port number from 1 to 65535');
  }
  return port;
}

function readHostname(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') {
    return fallback;
  }
  // A bare host name: no scheme, path or port (those have their own settings).
  if (!/^[A-Za-z0-9.-]+$/.test(raw)) {
    throw new AuthConfigError(name, raw, 'a host name such as auth.example.com, without scheme, port or path');
  }
  return raw;
}

function readUrl(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') {
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AuthConfigError(name, raw, 'an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AuthConfigError(name, raw, 'an absolute http(s) URL');
  }
  return url.toString();
}

/**
 * Reads and validates the sign-in settings. `baseUrl` is the site's base
 * path, the default callback path.
 * Throws AuthConfigError naming the variable on any invalid value.
 */
export function readAuthSettings(env: Env, baseUrl: string): AuthSettings {
  const enabled = !readBoolean(env, 'AUTH_DISABLED', false);
  // Absent: the local provider. Present but blank (a CI variable that was
  // never set, `WORKOS_CLIENT_ID=`) is a mistake, never a quiet switch to
  // the local provider.
  const clientId = env.WORKOS_CLIENT_ID?.trim();
  if (clientId === '') {
    throw new AuthConfigError(
      'WORKOS_CLIENT_ID',
      env.WORKOS_CLIENT_ID ?? '',
      'a WorkOS client id (client_…); leave the variable unset, not blank, to use the local provider',
    );
  }

  const redirectUri = readUrl(env, 'WORKOS_REDIRECT_URI');
  const devMode = readBoolean(env, 'WORKOS_DEV_MODE', true);

  if (clientId === undefined) {
    const localPort = readPort(env, 'LOCAL_AUTH_PORT') ?? DEFAULT_LOCAL_AUTH_PORT;
    return {
      enabled,
      clientId: LOCAL_CLIENT_ID,
      organizationId: env.WORKOS_ORGANIZATION_ID?.trim() || null,
      apiHostname: 'localhost',
      port: localPort,
      https: false,
      redirectUri,
      basePath: baseUrl,
      devMode,
    };
  }

  return {
    enabled,
    clientId,
    organizationId: env.WORKOS_ORGANIZATION_ID?.trim() || null,
    apiHostname: readHostname(env, 'WORKOS_API_HOSTNAME', 'api.workos.com'),
    port: readPort(env, 'WORKOS_API_PORT'),
    https: readBoolean(env, 'WORKOS_API_HTTPS', true),
    redirectUri,
    basePath: baseUrl,
    devMode,
  };
}

/** The callback URL the SDK uses: the configured one, or this origin + basePath. */
export function resolveRedirectUri(settings: Pick<AuthSettings, 'redirectUri' | 'basePath'>, origin: string): string {
  return settings.redirectUri ?? new URL(settings.basePath, origin).toString();
}

/** The provider's API origin, e.g. https://api.workos.com or http://localhost:4010. */
export function providerOrigin(settings: Pick<AuthSettings, 'apiHostname' | 'port' | 'https'>): string {
  return `${settings.https ? 'https' : 'http'}://${settings.apiHostname}${settings.port ? `:${settings.port}` : ''}`;
}
