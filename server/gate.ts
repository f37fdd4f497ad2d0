/**
 * The gate: serves the portal so that pages which need sign-in are withheld
 * by the server, not just hidden by the browser.
 *
 *   build/public/    every reader without a valid session gets this build
 *   build/members/   readers with a valid gate session get this one
 *   build/access-manifest.json   route → rule, and every file that only
 *                    restricted pages use, with their rules (computed by
 *                    the members build: plugins/access/placement.ts)
 *
 * After sign-in (and after every token refresh) the browser posts its access
 * token (JSON body) to `<baseUrl>_portal/session`. The gate verifies it
 * against the provider's keys (./keys.ts): signature, expiry, issuer and
 * organisation, and answers with its own small signed session cookie
 * (./session.ts), HttpOnly, SameSite=Lax, Secure except on localhost,
 * expiring with the token. Every request is then decided by ./decide.ts on the
 * resolved file. DELETE on the same path ends the session.
 */
import {createHash} from 'node:crypto';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {parse as parseCookies, serialize as serializeCookie, type SerializeOptions} from 'cookie';
import Fastify, {LogController, type FastifyInstance, type FastifyReply, type FastifyRequest} from 'fastify';
import {jwtVerify} from 'jose';
import Negotiator from 'negotiator';
import {namesRulesUse, principalFromClaims, type Principal} from '../src/auth/access/rules';
import {GATE_MARKER_COOKIE, SESSION_PATH} from '../src/auth/access/gateSession';
import type {AccessManifest, Audience} from '../plugins/access/manifest';
import {SECURITY_HEADERS_FILE} from './buildFiles';
import {decide, loadSite, type Decision} from './decide';
import {createKeyStore, KeysUnavailableError, type KeyStore} from './keys';
import {createSessionCodec, type GateSession} from './session';

export const SESSION_COOKIE = 'portal_session';
/** Access tokens past this size are refused before any parsing (WorkOS tokens with every permission stay well below). */
const MAX_TOKEN_BYTES = 64 * 1024;

export interface GateOptions {
  /** Folder holding public/, members/ and access-manifest.json. */
  buildDir: string;
  /** The provider's JWKS URL, or a key store (tests). */
  jwks: URL | KeyStore;
  /** Accepted `iss` values of provider access tokens. */
  issuers: string[];
  /** When set, tokens must carry this `org_id`; null only when any user of the provider environment is a member. */
  organizationId: string | null;
  /** Signs the gate's session cookie; later entries still verify (rotation). At least 32 bytes each. */
  sessionSecrets: Uint8Array[];
  /** Behind a proxy that terminates TLS: trust X-Forwarded-* for the scheme and host. */
  trustProxy?: boolean;
  /**
   * Where to write one JSON line per request (method, path, status,
   * duration, audience) and the gate's own events. Never a header, a cookie,
   * a token or a query string.
   */
  logStream?: NodeJS.WritableStream;
  /** `debug` adds a line when each request starts. Default `info`. */
  logLevel?: LogLevel;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export const HEALTH_PATH = '_portal/health';

/** The build's security headers, as data (written by scripts/security-headers.ts). */
function readSecurityHeaders(buildDir: string): Record<string, string> {
  const file = path.join(buildDir, SECURITY_HEADERS_FILE);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run "npm run build"`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
}

export async function createGate(options: GateOptions): Promise<FastifyInstance> {
  const buildDir = path.resolve(options.buildDir);
  const manifestFile = path.join(buildDir, 'access-manifest.json');
  if (!existsSync(manifestFile)) {
    throw new Error(`${manifestFile} is missing: run "npm run build" (it builds build/public and build/members)`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as AccessManifest;
  const site = loadSite(buildDir, manifest);
  const {baseUrl} = manifest;
  const securityHeaders: Record<Audience, Record<string, string>> = {
    public: readSecurityHeaders(path.join(buildDir, 'public')),
    members: readSecurityHeaders(path.join(buildDir, 'members')),
  };
  const keys = options.jwks instanceof URL ? createKeyStore({url: options.jwks}) : options.jwks;
  const sessions = createSessionCodec({
    secrets: options.sessionSecrets,
    relevant: namesRulesUse(manifest.pages.map((page) => page.rule)),
    deployment: createHash('sha256')
      .update(JSON.stringify({issuers: [...options.issuers].sort(), organizationId: options.organizationId, baseUrl}))
      .digest('base64url'),
  });

  /** A refusal in fixed words: the site's headers, never cached, never echoing the request. */
  function fixedAnswer(reply: FastifyReply, status: number, text: string) {
    return reply
      .code(status)
      .headers(securityHeaders.public)
      .header('Cache-Control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(text);
  }

  const app = Fastify({
    logger: options.logStream
      ? {stream: options.logStream, level: options.logLevel ?? 'info', base: {service: 'portal-gate', pid: process.pid}}
      : false,
    // One line per request, written below, instead of Fastify's two.
    logController: new LogController({disableRequestLogging: true}),
    trustProxy: options.trustProxy ?? false,
    // A URL Fastify cannot decode: the same fixed answer as any refused path (never the URL echoed back).
    // (The reply's generic parameters are the server's defaults: the cast only names them.)
    frameworkErrors: (_error, _request, reply) => fixedAnswer(reply as unknown as FastifyReply, 400, 'Bad request'),
  });
  app.addHook('onClose', async () => keys.close());
  // On shutdown, requests in flight finish; their connections then close
  // instead of staying open for keep-alive, so close() can complete.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) {
      reply.header('Connection', 'close');
    }
    // Every answer carries the site's security headers (nosniff, frame-ancestors,
    // CSP …): redirects, refusals and the session endpoint's JSON too, not only
    // pages. A page's own build's headers, set before, are kept.
    for (const [name, value] of Object.entries(securityHeaders.public)) {
      if (!reply.hasHeader(name)) {
        reply.header(name, value);
      }
    }
  });

  // The request log: the path without its query (the sign-in callback's
  // query carries a code), and which build answered.
  const audienceOf = new WeakMap<FastifyRequest, Audience>();
  app.addHook('onRequest', async (request) => {
    request.log.debug({method: request.method, path: request.url.split('?')[0]}, 'request started');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        audience: audienceOf.get(request) ?? null,
      },
      'request',
    );
  });

  const buildId = manifest.buildId ?? 'unknown';
  /** Liveness: the process answers, with the build it serves. */
  app.get(`${baseUrl}${HEALTH_PATH}`, async (_request, reply) => {
    return reply.header('Cache-Control', 'no-store').send({status: 'ok', build: buildId});
  });
  /** Readiness: sessions can be started, i.e. the provider's signing keys are loaded. */
  app.get(`${baseUrl}${HEALTH_PATH}/ready`, async (_request, reply) => {
    const status = keys.status();
    reply.header('Cache-Control', 'no-store');
    return status.ready
      ? reply.send({ready: true, build: buildId})
      : reply.code(503).send({ready: false, build: buildId, reason: 'the provider signing keys are not loaded yet'});
  });
  const sessionUrl = `${baseUrl}${SESSION_PATH}`;

  function cookieOptions(request: FastifyRequest): SerializeOptions {
    return {path: baseUrl, sameSite: 'lax', secure: !isLocalHost(request.hostname)};
  }

  /** The readable marker that tells the browser a gate serves the page (src/auth/access/gateSession.ts), made once per kind of host. */
  const markerCookie = {
    secure: serializeCookie(GATE_MARKER_COOKIE, '1', {path: baseUrl, sameSite: 'lax', secure: true}),
    local: serializeCookie(GATE_MARKER_COOKIE, '1', {path: baseUrl, sameSite: 'lax', secure: false}),
  };
  const markerFor = (request: FastifyRequest) => (isLocalHost(request.hostname) ? markerCookie.local : markerCookie.secure);

  function readSession(request: FastifyRequest): Promise<GateSession | null> {
    const header = request.headers.cookie;
    return header ? sessions.read(parseCookies(header)[SESSION_COOKIE]) : Promise.resolve(null);
  }

  /** Session requests come from the site's own pages only. */
  function isCrossSite(request: FastifyRequest): boolean {
    const origin = request.headers.origin;
    return (
      request.headers['sec-fetch-site'] === 'cross-site' || (origin !== undefined && origin !== `${request.protocol}://${request.host}`)
    );
  }

  function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('Set-Cookie', serializeCookie(SESSION_COOKIE, '', {...cookieOptions(request), httpOnly: true, maxAge: 0}));
  }

  /** The verified access token's claims, or why not. */
  async function verifyAccessToken(
    token: unknown,
  ): Promise<{principal: Principal; sid: string; exp: number} | 'refused' | 'keys-unavailable'> {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_BYTES || token.split('.').length !== 3) {
      return 'refused';
    }
    try {
      const {payload} = await jwtVerify(token, keys.getKey, {
        algorithms: ['RS256'],
        issuer: options.issuers,
        requiredClaims: ['exp', 'iat', 'sid'],
      });
      if (options.organizationId && payload.org_id !== options.organizationId) {
        return 'refused';
      }
      if (typeof payload.sid !== 'string' || typeof payload.exp !== 'number') {
        return 'refused';
      }
      const {role, roles, permissions} = payload;
      return {principal: principalFromClaims({role, roles, permissions}), sid: payload.sid, exp: payload.exp};
    } catch (error) {
      return error instanceof KeysUnavailableError ? 'keys-unavailable' : 'refused';
    }
  }

  app.post(sessionUrl, {bodyLimit: MAX_TOKEN_BYTES + 1024}, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (isCrossSite(request)) {
      return reply.code(403).send({error: 'cross-site session requests are refused'});
    }
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return reply.code(415).send({error: 'send {"accessToken": "…"} as application/json'});
    }
    const verified = await verifyAccessToken((request.body as {accessToken?: unknown} | null)?.accessToken);
    if (verified === 'keys-unavailable') {
      return reply.code(503).header('Retry-After', '5').send({error: 'the provider signing keys are not available yet; try again shortly'});
    }
    // A token of a provider session that signed out here starts nothing (it may still be valid for minutes).
    if (verified === 'refused' || sessions.providerSessionEnded(verified.sid)) {
      // Whatever session this browser had ends with a refused token.
      clearSessionCookie(request, reply);
      return reply
        .code(401)
        .send({error: 'the access token is missing, invalid, expired, from another issuer or for another organisation'});
    }
    const previous = await readSession(request);
    const {value, session} = await sessions.issue({
      providerSessionId: verified.sid,
      principal: verified.principal,
      expiresAt: verified.exp,
    });
    // What the rules can see changed (another organisation, a role taken away):
    // pages and the search index the browser holds may no longer fit.
    const changed = previous !== null && JSON.stringify(previous.principal) !== JSON.stringify(session.principal);
    const maxAge = Math.max(0, verified.exp - Math.floor(Date.now() / 1000));
    reply.header('Set-Cookie', [
      serializeCookie(SESSION_COOKIE, value, {...cookieOptions(request), httpOnly: true, maxAge}),
      markerFor(request),
    ]);
    return reply.send({hadSession: previous !== null, changed, expiresAt: verified.exp});
  });

  app.delete(sessionUrl, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (isCrossSite(request)) {
      return reply.code(403).send({error: 'cross-site session requests are refused'});
    }
    const session = await readSession(request);
    if (session) {
      sessions.revoke(session);
    }
    clearSessionCookie(request, reply);
    return reply.code(204).send();
  });

  function sendDecision(decision: Decision, request: FastifyRequest, reply: FastifyReply) {
    switch (decision.kind) {
      case 'bad-request':
        return fixedAnswer(reply, 400, 'Bad request');
      case 'redirect':
        return reply.code(301).header('Cache-Control', 'no-cache').redirect(decision.location, 301);
      case 'forbidden':
        reply.header('Cache-Control', 'no-store').header('Vary', 'Cookie');
        // Docusaurus prefetches the code of every link in view; answering
        // that with an error would fill the reader's console. Nothing is sent
        // either way. A real load gets 403, and Docusaurus then loads the
        // page from the server, which answers with "You need the … role".
        if (/prefetch/i.test(`${request.headers['sec-purpose'] ?? ''} ${request.headers.purpose ?? ''}`)) {
          return reply.code(204).send();
        }
        return reply.code(403).type('text/plain; charset=utf-8').send('This file belongs to a page you may not read.');
      case 'file':
        break;
    }
    const {file, audience, personal} = decision;
    audienceOf.set(request, audience);
    reply.headers(securityHeaders[audience]);
    const isAsset = file.name.startsWith('assets/');
    // Members' files depend on the session: never let a shared cache keep them.
    const scope = audience === 'members' || (personal && !isAsset) ? 'private' : 'public';
    reply.header(
      'Cache-Control',
      isAsset ? `${scope}, max-age=31536000, immutable` : scope === 'private' ? 'private, no-cache' : 'no-cache',
    );
    const gzipped = file.gzipped();
    const vary = [...(personal ? ['Cookie'] : []), ...(gzipped ? ['Accept-Encoding'] : [])];
    if (vary.length > 0) {
      reply.header('Vary', vary.join(', '));
    }
    if (file.isHtml) {
      reply.header('Set-Cookie', markerFor(request));
    }
    reply.header('ETag', file.etag).type(file.contentType);
    if (decision.status === 200 && request.headers['if-none-match'] === file.etag) {
      return reply.code(304).send();
    }
    // gzip when the client accepts it (a q=0 refusal is respected); no header means identity.
    if (gzipped && new Negotiator(request.raw).encodings(['gzip']).includes('gzip')) {
      return reply.code(decision.status).header('Content-Encoding', 'gzip').send(gzipped);
    }
    return reply.code(decision.status).send(file.body);
  }

  // Fastify's own answers (a URL it cannot decode, another method, a body it
  // cannot parse) echo the request; send a fixed text with the site's headers.
  app.setNotFoundHandler((_request, reply) => fixedAnswer(reply, 404, 'Not found'));
  app.setErrorHandler((error: {statusCode?: number}, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({err: error}, 'request failed');
    }
    return fixedAnswer(reply, status, status === 500 ? 'Internal server error' : 'Bad request');
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      const decision = await decide(site, request.url, async () => (await readSession(request))?.principal ?? null);
      return sendDecision(decision, request, reply);
    },
  });

  return app;
}
