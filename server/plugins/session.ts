/**
 * The session plugin: who the reader is. It holds the provider's keys and
 * the access-token check (../accessToken.ts: signature, expiry, issued-at,
 * session id, issuer, client and organisation), the gate's own signed
 * session cookie (../session.ts), and the cookie names per host; it
 * decorates the instance with `sessions` and each request with
 * `readSession()`, the session its cookie carries (read only when a
 * decision needs it: files that are the same for every reader never look).
 *
 * Cookie: `__Host-portal_session` (HttpOnly, SameSite=Lax, Secure, Path=/),
 * or `portal_session` on plain-HTTP localhost.
 */
import {createHash} from 'node:crypto';
import {serialize as serializeCookie, type SerializeOptions} from 'cookie';
import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import fp from 'fastify-plugin';
import {GATE_MARKER_COOKIE, HOST_ONLY_PREFIX} from '../../src/auth/access/gateSession';
import {namesRulesUse} from '../../src/auth/access/rules';
import {createAccessTokenVerifier, type AccessTokenVerdict} from '../accessToken';
import type {KeyStore} from '../keys';
import {isLocalHost} from '../localHost';
import {createSessionCodec, type GateSession, type SessionCodec} from '../session';

/** The session cookie's name on plain-HTTP localhost; everywhere else it is HOST_SESSION_COOKIE. */
export const SESSION_COOKIE = 'portal_session';
export const HOST_SESSION_COOKIE = `${HOST_ONLY_PREFIX}${SESSION_COOKIE}`;

/** Both session cookie names, lower-cased: a Cookie header's names are compared in any spelling. */
const SESSION_COOKIE_NAMES = new Set([SESSION_COOKIE.toLowerCase(), HOST_SESSION_COOKIE.toLowerCase()]);

/**
 * The session cookies in a Cookie header, under either name and any
 * spelling of it: `cookie.parse` keeps only the first of several, which is
 * the one a sibling subdomain can put in front.
 */
export function sessionCookiesIn(header: string): {name: string; value: string}[] {
  const found: {name: string; value: string}[] = [];
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1) {
      continue;
    }
    const name = pair.slice(0, separator).trim();
    if (SESSION_COOKIE_NAMES.has(name.toLowerCase())) {
      found.push({name, value: pair.slice(separator + 1).trim()});
    }
  }
  return found;
}

/** The gate's cookies on one kind of host. */
export interface GateCookies {
  hostOnly: boolean;
  session: string;
  options: SerializeOptions;
  /** The readable marker that tells the browser a gate serves the page (src/auth/access/gateSession.ts). */
  marker: string;
}

export interface Sessions {
  codec: SessionCodec;
  keys: KeyStore;
  verifyAccessToken: (token: unknown) => Promise<AccessTokenVerdict>;
  /** The longest a session lasts whatever the token's `exp` says (s). */
  maxAgeSeconds: number;
  /**
   * The gate's cookies on this request's host. Over HTTPS (and on any host
   * but localhost, where the browser's side is HTTPS behind a proxy) their
   * names carry the `__Host-` prefix, so the browser takes them only from
   * this host, Secure, with Path=/ and no Domain: a sibling subdomain cannot
   * set one. Plain names (Path = baseUrl, not Secure) only on plain-HTTP
   * localhost, where browsers refuse Secure cookies over http.
   */
  cookiesFor(request: FastifyRequest): GateCookies;
  /** Sets the session cookie (and the marker) on the answer. */
  setCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAgeSeconds: number): void;
  /** Ends the session cookie on the answer. */
  clearCookie(request: FastifyRequest, reply: FastifyReply): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
  }
  interface FastifyRequest {
    /**
     * The session of this request: exactly one session cookie, under the
     * name this host uses. Several (any mix of names and spellings, such as
     * one a sibling subdomain set with Domain=.example.com) are no session
     * at all, never whichever came first.
     */
    readSession(): Promise<GateSession | null>;
  }
}

export interface SessionPluginOptions {
  baseUrl: string;
  /** Every page's rule: the session keeps only the roles and permissions some rule names. */
  rules: Parameters<typeof namesRulesUse>[0];
  keys: KeyStore;
  issuers: string[];
  clientId: string;
  organizationId: string | null;
  sessionSecrets: Uint8Array[];
  maxAgeSeconds: number;
}

async function sessionPlugin(app: FastifyInstance, options: SessionPluginOptions): Promise<void> {
  const {baseUrl, keys, issuers, clientId, organizationId} = options;
  const codec = createSessionCodec({
    secrets: options.sessionSecrets,
    relevant: namesRulesUse(options.rules),
    deployment: createHash('sha256')
      .update(JSON.stringify({issuers: [...issuers].sort(), clientId, organizationId, baseUrl}))
      .digest('base64url'),
  });
  app.addHook('onClose', async () => keys.close());

  const plainCookies: GateCookies = {
    hostOnly: false,
    session: SESSION_COOKIE,
    options: {path: baseUrl, sameSite: 'lax', secure: false},
    marker: serializeCookie(GATE_MARKER_COOKIE, '1', {path: baseUrl, sameSite: 'lax', secure: false}),
  };
  const hostOnlyCookies: GateCookies = {
    hostOnly: true,
    session: HOST_SESSION_COOKIE,
    options: {path: '/', sameSite: 'lax', secure: true},
    marker: serializeCookie(`${HOST_ONLY_PREFIX}${GATE_MARKER_COOKIE}`, '1', {path: '/', sameSite: 'lax', secure: true}),
  };
  /** Over HTTPS, the session cookie an older gate set under the plain name: removed, or it would make two. */
  const legacySessionRemoval = serializeCookie(SESSION_COOKIE, '', {
    path: baseUrl,
    sameSite: 'lax',
    secure: true,
    httpOnly: true,
    maxAge: 0,
  });
  const cookiesFor = (request: FastifyRequest) =>
    request.protocol === 'http' && isLocalHost(request.hostname) ? plainCookies : hostOnlyCookies;

  app.decorate('sessions', {
    codec,
    keys,
    verifyAccessToken: createAccessTokenVerifier({keys, issuers, clientId, organizationId}),
    maxAgeSeconds: options.maxAgeSeconds,
    cookiesFor,
    setCookie(request, reply, value, maxAgeSeconds) {
      const cookies = cookiesFor(request);
      reply.header('Set-Cookie', [
        serializeCookie(cookies.session, value, {...cookies.options, httpOnly: true, maxAge: maxAgeSeconds}),
        cookies.marker,
        ...(cookies.hostOnly ? [legacySessionRemoval] : []),
      ]);
    },
    clearCookie(request, reply) {
      const cookies = cookiesFor(request);
      reply.header('Set-Cookie', [
        serializeCookie(cookies.session, '', {...cookies.options, httpOnly: true, maxAge: 0}),
        ...(cookies.hostOnly ? [legacySessionRemoval] : []),
      ]);
    },
  } satisfies Sessions);
  app.decorateRequest('readSession', function readSession(this: FastifyRequest): Promise<GateSession | null> {
    const found = sessionCookiesIn(this.headers.cookie ?? '');
    if (found.length !== 1 || found[0]?.name !== cookiesFor(this).session) {
      return Promise.resolve(null);
    }
    return codec.read(found[0].value);
  });
}

export const sessionsPlugin = fp(sessionPlugin, {name: 'portal-session'});
