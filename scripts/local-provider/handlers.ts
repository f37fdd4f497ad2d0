/**
 * MSW request handlers that implement the AuthKit endpoints the portal uses.
 * They are the single source of truth for the provider's behaviour: jest
 * tests install them with `setupServer`, and `server.ts` serves them over
 * real HTTP (through @mswjs/http-middleware) as the local sign-in provider.
 */
import {createHash, generateKeyPairSync, randomBytes, sign, type KeyObject} from 'node:crypto';
import {parse as parseCookies} from 'cookie';
import {http, HttpResponse} from 'msw';
import {LOCAL_USERS, type LocalUser} from './users';
import {authorizePage, errorPage, signedOutPage} from './pages';

export interface ProviderOptions {
  clientId: string;
  /** Origins allowed for redirect_uri, return_to and CORS (e.g. http://localhost:3000). */
  allowedOrigins: string[];
  /** Issuer (`iss` claim): `<origin>/user_management/<client id>`, the shape of WorkOS session tokens. */
  issuer: string;
  /**
   * Serve the `/__local/*` test controls (fault injection, stats). Only the
   * test suites turn this on: `npm start` and `npm run serve` never do. Even
   * then each call needs the TEST_CONTROL_HEADER and JSON, so a web page in
   * the developer's browser cannot reach them without a CORS preflight,
   * which they refuse.
   */
  testControls?: boolean;
  accessTokenTtlSeconds?: number;
  codeTtlSeconds?: number;
  /**
   * How long a rotated refresh token is still accepted (a reuse interval, as
   * Auth0 and Okta offer). Tabs in separate browser processes can read a
   * stale token from localStorage right after another tab rotated it.
   */
  refreshReuseSeconds?: number;
  users?: LocalUser[];
  /** Clock, for tests of expiry. */
  now?: () => number;
}

interface PendingAuthorization {
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  organizationId: string | null;
  createdAt: number;
}

interface IssuedCode {
  userId: string;
  codeChallenge: string;
  organizationId: string | null;
  expiresAt: number;
}

interface Session {
  sid: string;
  userId: string;
  organizationId: string;
  refreshToken: string;
}

/** A failure the next N authenticate calls return, to test fault handling. */
export interface InjectedFault {
  /** Answer only after this many milliseconds (a slow provider). */
  delayMs: number;
  /** With `passThrough`, answer normally after the delay instead of failing. */
  passThrough: boolean;
  status: number;
  /** Raw response body; JSON unless contentType says otherwise. */
  body: string;
  contentType: string;
  remaining: number;
}

export interface ProviderState {
  pending: Map<string, PendingAuthorization>;
  codes: Map<string, IssuedCode>;
  /** Refresh token → session; rotated on every refresh. */
  sessionsByRefreshToken: Map<string, Session>;
  /** Rotated refresh tokens, still accepted until `until` (ms): token → session id. */
  rotatedRefreshTokens: Map<string, {sid: string; until: number}>;
  fault: InjectedFault | null;
  /** Concurrency of authenticate calls, to show refreshes are serialised. */
  /** Authenticate calls, the most at once (to show refreshes are serialised), and how many got an injected fault. */
  stats: {authenticateCalls: number; inFlight: number; maxInFlight: number; faultsServed: number};
}

const REFRESH_COOKIE = 'wos-local-refresh';
const HAS_SESSION_COOKIE = 'workos-has-session';

function base64url(buffer: Buffer): string {
  return buffer.toString('base64url');
}

function token(bytes = 32): string {
  return base64url(randomBytes(bytes));
}

function s256(verifier: string): string {
  return base64url(createHash('sha256').update(verifier).digest());
}

function html(
  body: string,
  {status = 200, formTargets = [], headers}: {status?: number; formTargets?: string[]; headers?: Headers} = {},
): Response {
  const responseHeaders = new Headers(headers);
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  // The pages are static HTML with inline CSS and forms only; form-action
  // also covers the redirect back to the site after a choice.
  responseHeaders.set(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${formTargets.join(' ')}; frame-ancestors 'none'`,
  );
  responseHeaders.set('Cache-Control', 'no-store');
  responseHeaders.set('Referrer-Policy', 'no-referrer');
  responseHeaders.set('X-Content-Type-Options', 'nosniff');
  return new HttpResponse(body, {status, headers: responseHeaders});
}

function originOf(value: string | null): string | null {
  if (!value) {
    return null;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The header every `/__local/*` call must carry (a custom header forces a CORS preflight). */
export const TEST_CONTROL_HEADER = 'x-local-provider-test';

function refuseControl(request: Request, needsJson: boolean): Response | null {
  if (request.headers.get(TEST_CONTROL_HEADER) !== '1') {
    return HttpResponse.json(
      {error: 'forbidden', error_description: `test controls need the ${TEST_CONTROL_HEADER}: 1 header`},
      {status: 403},
    );
  }
  if (needsJson && !/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
    return HttpResponse.json({error: 'unsupported_media_type', error_description: 'send JSON'}, {status: 415});
  }
  return null;
}

/** Fault injection and stats for the test suites: the next `count` authenticate calls answer with this status and body. */
function testControlHandlers(state: ProviderState) {
  return [
    http.post('*/__local/fault', async ({request}) => {
      const refused = refuseControl(request, true);
      if (refused) {
        return refused;
      }
      let fault: Partial<InjectedFault> & {count?: number};
      try {
        fault = (await request.json()) as typeof fault;
      } catch {
        return HttpResponse.json({error: 'invalid_request', error_description: 'the body is not JSON'}, {status: 400});
      }
      state.fault = {
        delayMs: fault.delayMs ?? 0,
        passThrough: fault.passThrough ?? false,
        status: fault.status ?? 500,
        body: fault.body ?? JSON.stringify({error: 'server_error', error_description: 'Injected failure.'}),
        contentType: fault.contentType ?? 'application/json',
        remaining: fault.count ?? 1,
      };
      return HttpResponse.json({ok: true});
    }),
    http.get('*/__local/stats', ({request}) => refuseControl(request, false) ?? HttpResponse.json(state.stats)),
  ];
}

export function createProviderHandlers(options: ProviderOptions) {
  const {clientId, allowedOrigins, issuer} = options;
  const accessTokenTtl = options.accessTokenTtlSeconds ?? 300;
  const codeTtlMs = (options.codeTtlSeconds ?? 60) * 1000;
  const refreshReuseMs = (options.refreshReuseSeconds ?? 10) * 1000;
  const users = options.users ?? LOCAL_USERS;
  const now = options.now ?? Date.now;
  const {privateKey, publicKey} = generateKeyPairSync('rsa', {modulusLength: 2048});
  const kid = `local_${token(6)}`;
  const publicJwk = {...publicKey.export({format: 'jwk'}), kid, alg: 'RS256', use: 'sig'};

  const state: ProviderState = {
    pending: new Map(),
    codes: new Map(),
    sessionsByRefreshToken: new Map(),
    rotatedRefreshTokens: new Map(),
    fault: null,
    stats: {authenticateCalls: 0, inFlight: 0, maxInFlight: 0, faultsServed: 0},
  };

  const isAllowedOrigin = (origin: string | null) => origin !== null && allowedOrigins.includes(origin);

  function corsHeaders(request: Request): Record<string, string> {
    const origin = request.headers.get('origin');
    if (!isAllowedOrigin(origin)) {
      return {};
    }
    return {
      'Access-Control-Allow-Origin': origin as string,
      'Access-Control-Allow-Credentials': 'true',
      Vary: 'Origin',
    };
  }

  function jsonError(request: Request, status: number, error: string, description: string): Response {
    return HttpResponse.json({error, error_description: description}, {status, headers: corsHeaders(request)});
  }

  /**
   * An RS256 JWT signed with node:crypto. (jose is used to verify these in
   * tests; signing with it here breaks under jsdom, whose Uint8Array is
   * another realm's.)
   */
  function signAccessToken(user: LocalUser, session: Session, key: KeyObject): string {
    const membership = user.organizations.find((org) => org.id === session.organizationId) ?? user.organizations[0];
    const issuedAt = Math.floor(now() / 1000);
    const header = {alg: 'RS256', kid, typ: 'JWT'};
    const claims = {
      iss: issuer,
      sub: user.id,
      aud: clientId,
      jti: token(12),
      iat: issuedAt,
      exp: issuedAt + accessTokenTtl,
      sid: session.sid,
      org_id: session.organizationId,
      role: membership?.role,
      roles: membership?.roles ?? [],
      permissions: membership?.permissions ?? [],
      feature_flags: user.featureFlags,
      ...(user.impersonator ? {act: {sub: user.impersonator.email}} : {}),
    };
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const signingInput = `${encode(header)}.${encode(claims)}`;
    return `${signingInput}.${base64url(sign('sha256', Buffer.from(signingInput), key))}`;
  }

  function rawUser(user: LocalUser) {
    return {
      object: 'user' as const,
      id: user.id,
      email: user.email,
      email_verified: true,
      first_name: user.firstName,
      last_name: user.lastName,
      profile_picture_url: user.profilePictureUrl,
      last_sign_in_at: new Date(now()).toISOString(),
      external_id: null,
      created_at: '2025-01-06T09:00:00.000Z',
      updated_at: '2025-06-02T09:00:00.000Z',
    };
  }

  async function sessionResponse(request: Request, user: LocalUser, session: Session): Promise<Response> {
    const headers = new Headers(corsHeaders(request));
    headers.set('Cache-Control', 'no-store');
    // Like AuthKit, both flows are served: the body carries the refresh token
    // (dev mode keeps it in localStorage) and an HttpOnly cookie carries it for
    // the cookie flow (devMode=false). The marker cookie only tells the SDK
    // that a cookie session exists; it holds no secret.
    headers.append('Set-Cookie', `${HAS_SESSION_COOKIE}=${clientId}; Path=/; SameSite=Lax`);
    headers.append('Set-Cookie', `${REFRESH_COOKIE}=${session.refreshToken}; Path=/user_management; HttpOnly; SameSite=Lax`);
    return HttpResponse.json(
      {
        user: rawUser(user),
        organization_id: session.organizationId,
        access_token: signAccessToken(user, session, privateKey),
        refresh_token: session.refreshToken,
        authentication_method: user.impersonator ? 'Impersonation' : 'Password',
        ...(user.impersonator ? {impersonator: user.impersonator} : {}),
      },
      {headers},
    );
  }

  /** The injected fault for this call, if any: a delay, then a failure or the normal answer. */
  async function takeFault(request: Request): Promise<Response | null> {
    const fault = state.fault;
    if (!fault || fault.remaining <= 0) {
      return null;
    }
    fault.remaining -= 1;
    state.stats.faultsServed += 1;
    if (fault.remaining === 0) {
      state.fault = null;
    }
    if (fault.delayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    }
    if (fault.passThrough) {
      return null;
    }
    // The injected body is whatever a test asked for (HTML, garbage): it is
    // never allowed to run or to be sniffed into something that runs.
    return new HttpResponse(fault.body, {
      status: fault.status,
      headers: {
        ...corsHeaders(request),
        'Content-Type': fault.contentType,
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }

  async function authenticate(request: Request): Promise<Response> {
    const fault = await takeFault(request);
    if (fault) {
      return fault;
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(await request.text());
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error('not an object');
      }
      body = parsed as Record<string, unknown>;
    } catch {
      return jsonError(request, 400, 'invalid_request', 'The request body must be a JSON object.');
    }
    if (body.client_id !== clientId) {
      return jsonError(request, 401, 'invalid_client', 'Unknown client_id.');
    }

    if (body.grant_type === 'authorization_code') {
      const code = typeof body.code === 'string' ? body.code : '';
      const issued = state.codes.get(code);
      // Single use: a code is gone after its first exchange attempt.
      state.codes.delete(code);
      if (!issued || issued.expiresAt < now()) {
        return jsonError(request, 400, 'invalid_grant', 'The authorization code is invalid, expired or already used.');
      }
      const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : '';
      if (s256(verifier) !== issued.codeChallenge) {
        return jsonError(request, 400, 'invalid_grant', 'PKCE verification failed: code_verifier does not match the code_challenge.');
      }
      const user = users.find((candidate) => candidate.id === issued.userId);
      if (!user) {
        return jsonError(request, 400, 'invalid_grant', 'The user no longer exists.');
      }
      if (user.exchangeError) {
        return jsonError(request, 400, 'invalid_grant', user.exchangeError);
      }
      const organizationId =
        issued.organizationId && user.organizations.some((org) => org.id === issued.organizationId)
          ? issued.organizationId
          : (user.organizations[0]?.id ?? '');
      const session: Session = {sid: `session_${token(12)}`, userId: user.id, organizationId, refreshToken: token(32)};
      state.sessionsByRefreshToken.set(session.refreshToken, session);
      return sessionResponse(request, user, session);
    }

    if (body.grant_type === 'refresh_token') {
      const fromBody = typeof body.refresh_token === 'string' ? body.refresh_token : '';
      const fromCookie = parseCookies(request.headers.get('cookie') ?? '')[REFRESH_COOKIE] ?? '';
      let refreshToken = fromBody || fromCookie;
      const rotatedFrom = state.rotatedRefreshTokens.get(refreshToken);
      if (rotatedFrom && rotatedFrom.until >= now()) {
        // A just-rotated token: continue from the session's current one.
        refreshToken = [...state.sessionsByRefreshToken].find(([, candidate]) => candidate.sid === rotatedFrom.sid)?.[0] ?? refreshToken;
      }
      const session = state.sessionsByRefreshToken.get(refreshToken);
      if (!session) {
        return jsonError(request, 400, 'invalid_grant', 'The refresh token is invalid or has been revoked.');
      }
      const user = users.find((candidate) => candidate.id === session.userId);
      if (!user) {
        return jsonError(request, 400, 'invalid_grant', 'The user no longer exists.');
      }
      const requestedOrg = typeof body.organization_id === 'string' && body.organization_id ? body.organization_id : session.organizationId;
      if (!user.organizations.some((org) => org.id === requestedOrg)) {
        return jsonError(request, 401, 'invalid_grant', `The user is not a member of organization ${requestedOrg}.`);
      }
      // Rotation: the old refresh token stops working after the reuse interval.
      state.sessionsByRefreshToken.delete(refreshToken);
      state.rotatedRefreshTokens.set(refreshToken, {sid: session.sid, until: now() + refreshReuseMs});
      const rotated: Session = {...session, organizationId: requestedOrg, refreshToken: token(32)};
      state.sessionsByRefreshToken.set(rotated.refreshToken, rotated);
      return sessionResponse(request, user, rotated);
    }

    return jsonError(request, 400, 'unsupported_grant_type', 'grant_type must be "authorization_code" or "refresh_token".');
  }

  const handlers = [
    http.get('*/user_management/authorize', ({request}) => {
      const params = new URL(request.url).searchParams;
      const problems: string[] = [];
      if (params.get('client_id') !== clientId) {
        problems.push(`client_id must be "${clientId}" (got "${params.get('client_id') ?? ''}").`);
      }
      const redirectUri = params.get('redirect_uri') ?? '';
      if (!isAllowedOrigin(originOf(redirectUri))) {
        problems.push(`redirect_uri "${redirectUri}" is not on an allowed origin (${allowedOrigins.join(', ')}).`);
      }
      if (params.get('response_type') !== 'code') {
        problems.push('response_type must be "code".');
      }
      const codeChallenge = params.get('code_challenge') ?? '';
      if (!/^[A-Za-z0-9_-]{43,128}$/.test(codeChallenge)) {
        problems.push('code_challenge is missing or malformed (PKCE is required).');
      }
      if (params.get('code_challenge_method') !== 'S256') {
        problems.push('code_challenge_method must be "S256".');
      }
      const provider = params.get('provider');
      if (!provider && !params.get('organization_id') && !params.get('connection_id')) {
        problems.push('one of provider, organization_id or connection_id is required.');
      } else if (provider && provider !== 'authkit') {
        problems.push(`provider "${provider}" is not supported here (only "authkit").`);
      }
      const screenHint = params.get('screen_hint');
      if (screenHint && screenHint !== 'sign-in' && screenHint !== 'sign-up') {
        problems.push('screen_hint must be "sign-in" or "sign-up".');
      }
      if (problems.length > 0) {
        return html(errorPage('This sign-in request is invalid', problems), {status: 400});
      }
      const authorizationId = token(18);
      state.pending.set(authorizationId, {
        redirectUri,
        state: params.get('state'),
        codeChallenge,
        organizationId: params.get('organization_id'),
        createdAt: now(),
      });
      return html(
        authorizePage({authorizationId, users, signUp: screenHint === 'sign-up', organizationId: params.get('organization_id')}),
        {formTargets: allowedOrigins},
      );
    }),

    http.post('*/user_management/authorize/complete', async ({request}) => {
      const form = new URLSearchParams(await request.text());
      const authorizationId = form.get('authorization_id') ?? '';
      const pending = state.pending.get(authorizationId);
      state.pending.delete(authorizationId);
      if (!pending || now() - pending.createdAt > 10 * 60 * 1000) {
        return html(errorPage('This sign-in page has expired', ['Go back to the portal and click "Sign in" again.']), {status: 400});
      }
      const user = users.find((candidate) => candidate.id === form.get('user_id'));
      if (!user) {
        return html(errorPage('Unknown test user', ['Choose one of the listed users.']), {status: 400});
      }
      const code = token(32);
      state.codes.set(code, {
        userId: user.id,
        codeChallenge: pending.codeChallenge,
        organizationId: pending.organizationId,
        expiresAt: now() + codeTtlMs,
      });
      const target = new URL(pending.redirectUri);
      target.searchParams.set('code', code);
      if (pending.state !== null) {
        target.searchParams.set('state', pending.state);
      }
      return new HttpResponse(null, {status: 302, headers: {Location: target.toString(), 'Cache-Control': 'no-store'}});
    }),

    http.options('*/user_management/authenticate', ({request}) => {
      return new HttpResponse(null, {
        status: 204,
        headers: {
          ...corsHeaders(request),
          'Access-Control-Allow-Methods': 'POST',
          'Access-Control-Allow-Headers': 'Content-Type, Accept',
          'Access-Control-Max-Age': '600',
        },
      });
    }),

    http.post('*/user_management/authenticate', async ({request}) => {
      state.stats.authenticateCalls += 1;
      state.stats.inFlight += 1;
      state.stats.maxInFlight = Math.max(state.stats.maxInFlight, state.stats.inFlight);
      try {
        return await authenticate(request);
      } finally {
        state.stats.inFlight -= 1;
      }
    }),

    http.get('*/user_management/sessions/logout', ({request}) => {
      const params = new URL(request.url).searchParams;
      const sessionId = params.get('session_id');
      const returnTo = params.get('return_to');
      if (returnTo && !isAllowedOrigin(originOf(returnTo))) {
        return html(errorPage('Sign-out return address refused', [`return_to "${returnTo}" is not on an allowed origin.`]), {status: 400});
      }
      for (const [refreshToken, session] of state.sessionsByRefreshToken) {
        if (session.sid === sessionId) {
          state.sessionsByRefreshToken.delete(refreshToken);
        }
      }
      for (const [refreshToken, rotated] of state.rotatedRefreshTokens) {
        if (rotated.sid === sessionId) {
          state.rotatedRefreshTokens.delete(refreshToken);
        }
      }
      const headers = new Headers({'Cache-Control': 'no-store'});
      headers.append('Set-Cookie', `${HAS_SESSION_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`);
      headers.append('Set-Cookie', `${REFRESH_COOKIE}=; Path=/user_management; Max-Age=0; HttpOnly; SameSite=Lax`);
      if (returnTo) {
        headers.set('Location', returnTo);
        return new HttpResponse(null, {status: 302, headers});
      }
      return html(signedOutPage(), {headers});
    }),

    http.get('*/sso/jwks/:clientId', ({params}) => {
      if (params.clientId !== clientId) {
        return HttpResponse.json({error: 'not_found', error_description: 'Unknown client_id.'}, {status: 404});
      }
      return HttpResponse.json({keys: [publicJwk]}, {headers: {'Access-Control-Allow-Origin': '*'}});
    }),

    ...(options.testControls ? testControlHandlers(state) : []),
  ];

  return {handlers, state, publicJwk};
}
