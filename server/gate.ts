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
 * against the provider's keys (./keys.ts): signature, expiry, issued-at,
 * session id, issuer, client and organisation, and answers with its own small
 * signed session cookie (./session.ts): `__Host-portal_session` (HttpOnly,
 * SameSite=Lax, Secure, Path=/), or `portal_session` on plain-HTTP
 * localhost, expiring with the token or after the gate's ceiling, whichever
 * comes first. Every request is then decided by ./decide.ts on the resolved
 * file. DELETE on the same path ends the session.
 *
 * Answers that depend on the session are for the site itself: every answer
 * carries `Cross-Origin-Resource-Policy: same-origin`, and a request that
 * another site (a sibling subdomain included) makes the browser send is
 * decided as for a signed-out reader (see fromAnotherSite).
 */
import {createHash} from 'node:crypto';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {serialize as serializeCookie, type SerializeOptions} from 'cookie';
import Fastify, {LogController, type FastifyInstance, type FastifyReply, type FastifyRequest} from 'fastify';
import Negotiator from 'negotiator';
import {namesRulesUse, type AccessRule} from '../src/auth/access/rules';
import {GATE_MARKER_COOKIE, HOST_ONLY_PREFIX, SESSION_PATH} from '../src/auth/access/gateSession';
import {SEARCH_BUNDLE_DIR, SEARCH_VARIANTS_DIR} from '../src/auth/access/searchIndex';
import type {Audience} from '../src/auth/access/audience';
import type {AccessManifest} from '../src/auth/access/manifest';
import {ENCODING_PREFERENCE, FILE_INDEX_FILE, SECURITY_HEADERS_FILE, type Body, type Encoding, type FileIndex} from './buildFiles';
import {decide, loadSite, type Decision, type Site} from './decide';
import {ChangedOnDiskError, createFileBodies, DEFAULT_BODY_CACHE_BYTES} from './fileBodies';
import {createAccessTokenVerifier, MAX_TOKEN_BYTES} from './accessToken';
import {createKeyStore, type KeyStore} from './keys';
import {mcpRoutes, type McpRouteOptions} from './mcp/route';
import {isLocalHost} from './localHost';
import {canonicalisePath} from './requestPath';
import {createSessionCodec, DEFAULT_SESSION_MAX_AGE_S, type GateSession} from './session';

/** The session cookie's name on plain-HTTP localhost; everywhere else it is HOST_SESSION_COOKIE. */
export const SESSION_COOKIE = 'portal_session';
export const HOST_SESSION_COOKIE = `${HOST_ONLY_PREFIX}${SESSION_COOKIE}`;

export interface GateOptions {
  /** Folder holding public/, members/ and access-manifest.json. */
  buildDir: string;
  /** The provider's JWKS URL, or a key store (tests). */
  jwks: URL | KeyStore;
  /** Accepted `iss` values of provider access tokens. */
  issuers: string[];
  /**
   * The provider client (WORKOS_CLIENT_ID) whose tokens open sessions: a
   * token must name it, in its issuer or in `aud`/`client_id`, and any
   * `aud`/`client_id` it carries must be this one.
   */
  clientId: string;
  /** The longest a gate session lasts whatever the token's `exp` says (s). Default DEFAULT_SESSION_MAX_AGE_S. */
  sessionMaxAgeSeconds?: number;
  /** When set, tokens must carry this `org_id`; null only when any user of the provider environment is a member. */
  organizationId: string | null;
  /** Signs the gate's session cookie; later entries still verify (rotation). At least 32 bytes each. */
  sessionSecrets: Uint8Array[];
  /**
   * Behind a proxy that terminates TLS: trust X-Forwarded-* from this many
   * proxy hops, or from these addresses/CIDR ranges (Fastify's `trustProxy`).
   * `true` is one hop: the client's address is then the one the proxy
   * appended, never an entry the client wrote itself.
   */
  trustProxy?: TrustProxy;
  /**
   * Where to write one JSON line per request (method, path, status,
   * duration, audience; and for answers that needed an access rule, the
   * reader, the rule and whether it allowed or refused) and the gate's own
   * events. Never a header, a cookie, a token or a query string.
   */
  logStream?: NodeJS.WritableStream;
  /** `debug` adds a line when each request starts. Default `info`. */
  logLevel?: LogLevel;
  /** Bytes of verified small files kept in memory per process (./fileBodies.ts). Default DEFAULT_BODY_CACHE_BYTES. */
  bodyCacheBytes?: number;
  /**
   * Told when the file index is loaded (every file stat'ed), or why it could
   * not be. Until then the gate answers liveness, readiness says 503, and
   * requests for files wait.
   */
  onSiteLoaded?: (outcome: {files: number; ms: number} | Error) => void;
  /** Loads the builds' index (tests hold it back to watch readiness). Default loadSite of ./decide.ts. */
  loadSite?: typeof loadSite;
  /** The provider's authorization server(s) the MCP endpoint's metadata names (RFC 9728). Default: the issuers' origins. */
  authorizationServers?: string[];
  /**
   * The origin(s) readers reach the site at (PORTAL_PUBLIC_ORIGIN): the MCP
   * endpoint answers only requests addressed to one of them and names them
   * in its OAuth metadata. Unset (tests, embedding): loopback host names only.
   */
  publicOrigins?: string[];
  /** The MCP endpoint's rate per client (./mcp/route.ts). */
  mcpRateLimit?: McpRouteOptions['rateLimit'];
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** false: no proxy; a number of hops; the proxies' addresses/CIDR ranges. `true` means 1. */
export type TrustProxy = boolean | number | string[];

/**
 * The TrustProxy setting as Fastify takes it. A hop count is given as a
 * function (Fastify refuses a bare number): the nearest `hops` addresses of
 * the connection and its X-Forwarded-For are proxies, so the client is the
 * entry the outermost proxy appended, not the leftmost one the client wrote.
 * It trusts the connection's peer blindly: the gate must be reachable only
 * through the proxy (addresses are the stricter form).
 */
function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false || Array.isArray(trust)) {
    return trust;
  }
  const hops = trust === true ? 1 : trust;
  return (_address, hop) => hop < hops;
}

export const HEALTH_PATH = '_portal/health';

/** The build's security headers, as data (written by scripts/security-headers.ts). */
function readSecurityHeaders(buildDir: string): Record<string, string> {
  const file = path.join(buildDir, SECURITY_HEADERS_FILE);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run "npm run build"`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

/** Different Accept-Encoding values whose negotiation is remembered (per process; cleared when full). */
const NEGOTIATED_HEADERS_KEPT = 256;

/**
 * The encoding to send for an Accept-Encoding value, of the siblings a file
 * has (in preference order): by q-value, the earlier on a tie, none when
 * the client prefers the file itself or refuses them (q=0).
 */
function negotiateEncoding(acceptEncoding: string, available: Encoding[]): Encoding | null {
  // negotiator 1.x takes the preferred order on ties (its types predate it).
  const negotiator = new Negotiator({headers: {'accept-encoding': acceptEncoding}}) as unknown as {
    encodings(available: string[], options: {preferred: string[]}): string[];
  };
  const [best] = negotiator.encodings([...available, 'identity'], {preferred: [...available, 'identity']});
  return best === 'br' || best === 'gzip' ? best : null;
}

/** A rule as the audit log names it: `signed-in`, `roles:admin`, `roles:admin permissions:users:manage`. */
export function describeRule(rule: AccessRule): string {
  if (rule.kind !== 'roles') {
    return rule.kind;
  }
  return [
    rule.roles.length > 0 ? `roles:${rule.roles.join(',')}` : '',
    rule.permissions.length > 0 ? `permissions:${rule.permissions.join(',')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Whether another site made the browser send this request: a page on a
 * sibling subdomain (`same-site`) or anywhere else (`cross-site`) that
 * includes a restricted chunk by `<script src>`, fetches or prefetches it.
 * Browsers attach the SameSite=Lax session cookie to same-site requests, so
 * for these the session is never read: the answer is the signed-out one
 * (the public file, or 403 for a members' chunk).
 *
 * Top-level navigations (`Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest:
 * document`) are let through: a member who follows a link to a restricted
 * page from Slack or a ticket, and the provider's redirect back after
 * sign-in, get the page. The site that linked cannot read that answer: the
 * browser replaces its page with ours, Cross-Origin-Opener-Policy:
 * same-origin cuts any window.opener handle, and frames are refused
 * (frame-ancestors 'none'; an <iframe>'s destination is `iframe`, not
 * `document`). A request without Sec-Fetch-* headers (an old browser, curl)
 * is decided as before; the CORP header still keeps browsers that send none
 * from handing a personal answer to another origin.
 */
function fromAnotherSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== 'same-site' && site !== 'cross-site') {
    return false;
  }
  return !(request.headers['sec-fetch-mode'] === 'navigate' && request.headers['sec-fetch-dest'] === 'document');
}

/** Both session cookie names, lower-cased: a Cookie header's names are compared in any spelling. */
const SESSION_COOKIE_NAMES = new Set([SESSION_COOKIE.toLowerCase(), HOST_SESSION_COOKIE.toLowerCase()]);

/**
 * The session cookies in a Cookie header, under either name and any
 * spelling of it: `cookie.parse` keeps only the first of several, which is
 * the one a sibling subdomain can put in front.
 */
function sessionCookiesIn(header: string): {name: string; value: string}[] {
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

/** What the audit log says about an answer that needed an access rule. */
interface AuditEntry {
  /** The reader whose session was read; null when none was (signed out, or another site's request). */
  reader: {sub: string; sid: string} | null;
  rule: string;
  access: 'allowed' | 'refused';
  /** The restricted page the file belongs to, when the manifest names it. */
  page?: string;
  /** Another site made the browser send the request (Sec-Fetch-Site), so the session was not read. */
  otherSite?: true;
}

export async function createGate(options: GateOptions): Promise<FastifyInstance> {
  const buildDir = path.resolve(options.buildDir);
  const manifestFile = path.join(buildDir, 'access-manifest.json');
  if (!existsSync(manifestFile)) {
    throw new Error(`${manifestFile} is missing: run "npm run build" (it builds build/public and build/members)`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as AccessManifest;
  const indexFile = path.join(buildDir, FILE_INDEX_FILE);
  if (!existsSync(indexFile)) {
    throw new Error(`${indexFile} is missing: run "npm run build" (it indexes and precompresses both builds)`);
  }
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as FileIndex;
  const {baseUrl} = manifest;
  // The index is stat'ed in the background: the process answers liveness at
  // once, and readiness once both the index and the provider's keys are loaded.
  const startedAt = performance.now();
  let site: Site | null = null;
  let siteError: Error | null = null;
  const siteLoading = (options.loadSite ?? loadSite)(buildDir, manifest, index).then(
    (loaded) => {
      site = loaded;
      options.onSiteLoaded?.({
        files: Object.keys(index.audiences.public ?? {}).length + Object.keys(index.audiences.members ?? {}).length,
        ms: Math.round(performance.now() - startedAt),
      });
      return loaded;
    },
    (error: unknown) => {
      siteError = error instanceof Error ? error : new Error(String(error));
      options.onSiteLoaded?.(siteError);
      throw siteError;
    },
  );
  // Requests await it (and fail with it); this keeps a failure from being an unhandled rejection.
  siteLoading.catch(() => undefined);
  const bodies = createFileBodies({cacheBytes: options.bodyCacheBytes ?? DEFAULT_BODY_CACHE_BYTES});
  const securityHeaders: Record<Audience, Record<string, string>> = {
    public: readSecurityHeaders(path.join(buildDir, 'public')),
    members: readSecurityHeaders(path.join(buildDir, 'members')),
  };
  const keys = options.jwks instanceof URL ? createKeyStore({url: options.jwks}) : options.jwks;
  const sessionMaxAgeSeconds = options.sessionMaxAgeSeconds ?? DEFAULT_SESSION_MAX_AGE_S;
  const sessions = createSessionCodec({
    secrets: options.sessionSecrets,
    relevant: namesRulesUse(manifest.pages.map((page) => page.rule)),
    deployment: createHash('sha256')
      .update(
        JSON.stringify({issuers: [...options.issuers].sort(), clientId: options.clientId, organizationId: options.organizationId, baseUrl}),
      )
      .digest('base64url'),
  });

  // For the audit log: the restricted page each rule-bearing file belongs
  // to, and the rules the role search indexes apply.
  const pageOfFile = new Map<string, string>();
  for (const page of manifest.pages) {
    if (page.rule.kind === 'public') {
      continue;
    }
    // The files it brings (its HTML among them), as the access manifest computed them; a file several pages use names the first.
    for (const file of page.files) {
      if (!pageOfFile.has(file)) {
        pageOfFile.set(file, page.route);
      }
    }
  }
  const describeRules = (rules: AccessRule[]) => rules.map(describeRule).join(' | ');
  const roleRules = new Map(manifest.pages.filter((page) => page.rule.kind === 'roles').map((page) => [page.route, page.rule]));
  const rulesOf = (routes: string[]) =>
    [...new Set(routes.flatMap((route) => (roleRules.has(route) ? [describeRule(roleRules.get(route) as AccessRule)] : [])))]
      .sort()
      .join(' | ');
  const searchVariantRules = new Map((manifest.searchIndexes ?? []).map((variant) => [variant.dir, rulesOf(variant.routes)]));
  const allRoleRules = rulesOf([...roleRules.keys()]);

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
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
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
  const publicSecurityHeaders = Object.entries(securityHeaders.public);
  // Not async: a callback hook costs no promise per answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) {
      reply.header('Connection', 'close');
    }
    // Every answer carries the site's security headers (nosniff, frame-ancestors,
    // CSP …): redirects, refusals and the session endpoint's JSON too, not only
    // pages. A page's own build's headers, set before, are kept.
    for (const [name, value] of publicSecurityHeaders) {
      if (!reply.hasHeader(name)) {
        reply.header(name, value);
      }
    }
    // Answers are for this origin's own pages: a browser hands none of them
    // (a member's chunk, the search index, the session JSON) to a page of
    // another origin, a sibling subdomain included, that loads it by
    // <script>, <img> or a no-cors fetch. On every answer: the gate has
    // nothing another site should embed.
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    done(null, payload);
  });

  // The request log: the path without its query (the sign-in callback's
  // query carries a code), and which build answered.
  // Only when those lines are written: hooks, and the audit fields, cost every request.
  const logLevel = options.logLevel ?? 'info';
  const logsRequests = options.logStream !== undefined && (logLevel === 'debug' || logLevel === 'info');
  const audienceOf = new WeakMap<FastifyRequest, Audience>();
  const auditOf = new WeakMap<FastifyRequest, AuditEntry>();
  if (options.logStream !== undefined && logLevel === 'debug') {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({method: request.method, path: request.url.split('?')[0]}, 'request started');
      done();
    });
  }
  if (logsRequests) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          path: request.url.split('?')[0],
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 100) / 100,
          audience: audienceOf.get(request) ?? null,
          ...auditOf.get(request),
        },
        'request',
      );
      done();
    });
  }

  const buildId = manifest.buildId ?? 'unknown';
  /** Liveness: the process answers, with the build it serves. */
  app.get(`${baseUrl}${HEALTH_PATH}`, async (_request, reply) => {
    return reply.header('Cache-Control', 'no-store').send({status: 'ok', build: buildId});
  });
  /** Readiness: files can be served (the file index is loaded) and sessions started (the provider's signing keys are loaded). */
  app.get(`${baseUrl}${HEALTH_PATH}/ready`, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const reason = siteError
      ? 'the file index could not be loaded'
      : !site
        ? 'the file index is still loading'
        : !keys.status().ready
          ? 'the provider signing keys are not loaded yet'
          : null;
    return reason === null ? reply.send({ready: true, build: buildId}) : reply.code(503).send({ready: false, build: buildId, reason});
  });
  const sessionUrl = `${baseUrl}${SESSION_PATH}`;

  /**
   * The gate's cookies on this request's host. Over HTTPS (and on any host
   * but localhost, where the browser's side is HTTPS behind a proxy) their
   * names carry the `__Host-` prefix, so the browser takes them only from
   * this host, Secure, with Path=/ and no Domain: a sibling subdomain cannot
   * set one. Plain names (Path = baseUrl, not Secure) only on plain-HTTP
   * localhost, where browsers refuse Secure cookies over http.
   */
  function cookiesFor(request: FastifyRequest): {session: string; options: SerializeOptions; marker: string} {
    return request.protocol === 'http' && isLocalHost(request.hostname) ? plainCookies : hostOnlyCookies;
  }
  const plainCookies = {
    session: SESSION_COOKIE,
    options: {path: baseUrl, sameSite: 'lax', secure: false} satisfies SerializeOptions,
    /** The readable marker that tells the browser a gate serves the page (src/auth/access/gateSession.ts). */
    marker: serializeCookie(GATE_MARKER_COOKIE, '1', {path: baseUrl, sameSite: 'lax', secure: false}),
  };
  const hostOnlyCookies = {
    session: HOST_SESSION_COOKIE,
    options: {path: '/', sameSite: 'lax', secure: true} satisfies SerializeOptions,
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

  /**
   * The session of this request: exactly one session cookie, under the name
   * this host uses. Several (any mix of names and spellings, such as one a
   * sibling subdomain set with Domain=.example.com) are no session at all,
   * never whichever came first.
   */
  function readSession(request: FastifyRequest): Promise<GateSession | null> {
    const found = sessionCookiesIn(request.headers.cookie ?? '');
    if (found.length !== 1 || found[0]?.name !== cookiesFor(request).session) {
      return Promise.resolve(null);
    }
    return sessions.read(found[0].value);
  }

  /** Session requests come from the site's own pages only (not even a sibling subdomain). */
  function isCrossSite(request: FastifyRequest): boolean {
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    return site === 'cross-site' || site === 'same-site' || (origin !== undefined && origin !== `${request.protocol}://${request.host}`);
  }

  function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
    const cookies = cookiesFor(request);
    reply.header('Set-Cookie', [
      serializeCookie(cookies.session, '', {...cookies.options, httpOnly: true, maxAge: 0}),
      ...(cookies === hostOnlyCookies ? [legacySessionRemoval] : []),
    ]);
  }

  const verifyAccessToken = createAccessTokenVerifier({
    keys,
    issuers: options.issuers,
    clientId: options.clientId,
    organizationId: options.organizationId,
  });

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
    // At most the gate's ceiling, whatever the token's `exp` says: the
    // browser hands over every refreshed token, which renews the session.
    const now = Math.floor(Date.now() / 1000);
    const {value, session} = await sessions.issue({
      providerSessionId: verified.sid,
      subject: verified.sub,
      principal: verified.principal,
      expiresAt: Math.min(verified.exp, now + sessionMaxAgeSeconds),
    });
    // What the rules can see changed (another organisation, a role taken away):
    // pages and the search index the browser holds may no longer fit.
    const changed = previous !== null && JSON.stringify(previous.principal) !== JSON.stringify(session.principal);
    const cookies = cookiesFor(request);
    reply.header('Set-Cookie', [
      serializeCookie(cookies.session, value, {...cookies.options, httpOnly: true, maxAge: Math.max(0, session.expiresAt - now)}),
      cookies.marker,
      ...(cookies === hostOnlyCookies ? [legacySessionRemoval] : []),
    ]);
    return reply.send({hadSession: previous !== null, changed, expiresAt: session.expiresAt});
  });

  app.delete(sessionUrl, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (isCrossSite(request)) {
      return reply.code(403).send({error: 'cross-site session requests are refused'});
    }
    // Every session cookie the request carries ends, not only the one
    // readSession would take: with a cookie tossed in front, that one is the
    // sibling's, and the reader's own would outlive the sign-out.
    for (const {value} of sessionCookiesIn(request.headers.cookie ?? '')) {
      const session = await sessions.read(value);
      if (session) {
        sessions.revoke(session);
      }
    }
    clearSessionCookie(request, reply);
    // Members' files are cached as `private, immutable`: on a shared browser they
    // would outlive the session. Sign-out empties this site's cache.
    reply.header('Clear-Site-Data', '"cache"');
    return reply.code(204).send();
  });

  /**
   * The representation of a file for this request: a precompressed sibling
   * the client accepts (by q-value; br before gzip on a tie; q=0 refuses),
   * else the file itself (also when Accept-Encoding is absent).
   */
  function representationFor(
    file: {identity: Body; encodings: Partial<Record<Encoding, Body>>},
    request: FastifyRequest,
  ): {encoding: Encoding | null; body: Body} {
    const header = request.headers['accept-encoding'];
    // Which siblings the file has, as an index: bit 1 br, bit 2 gzip.
    const siblings = (file.encodings.br ? 1 : 0) + (file.encodings.gzip ? 2 : 0);
    if (siblings === 0 || header === undefined) {
      return {encoding: null, body: file.identity};
    }
    let byHeader = negotiatedEncodings.get(header);
    if (!byHeader) {
      // The header is the client's to choose: the memo stays bounded.
      if (negotiatedEncodings.size >= NEGOTIATED_HEADERS_KEPT) {
        negotiatedEncodings.clear();
      }
      byHeader = [];
      negotiatedEncodings.set(header, byHeader);
    }
    let best = byHeader[siblings];
    if (best === undefined) {
      best = negotiateEncoding(
        header,
        ENCODING_PREFERENCE.filter((encoding) => file.encodings[encoding]),
      );
      byHeader[siblings] = best;
    }
    const body = best ? file.encodings[best] : undefined;
    return body && best ? {encoding: best, body} : {encoding: null, body: file.identity};
  }
  /**
   * Accept-Encoding values → the encoding negotiated for each set of
   * siblings (index as in representationFor): negotiation depends on
   * nothing else, so each value is parsed once, not per request.
   */
  const negotiatedEncodings = new Map<string, (Encoding | null)[]>();

  /**
   * The headers of a file's answer, for one representation and variant
   * (build, personal or not, marker cookie): built on first use, then one
   * object per request instead of a dozen header calls and string joins.
   */
  const fileHeaders = new WeakMap<Body, Readonly<Record<string, string>>[]>();
  function fileHeadersFor(
    decision: Extract<Decision, {kind: 'file'}>,
    encoding: Encoding | null,
    body: Body,
    marker: string | null,
  ): Readonly<Record<string, string>> {
    const {file, audience, personal} = decision;
    const variant =
      (audience === 'members' ? 1 : 0) + (personal ? 2 : 0) + (marker === null ? 0 : marker === hostOnlyCookies.marker ? 4 : 8);
    let variants = fileHeaders.get(body);
    if (!variants) {
      variants = [];
      fileHeaders.set(body, variants);
    }
    const known = variants[variant];
    if (known) {
      return known;
    }
    const headers: Record<string, string> = {...securityHeaders[audience]};
    const isAsset = file.name.startsWith('assets/');
    // Members' files depend on the session: never let a shared cache keep them.
    const scope = audience === 'members' || (personal && !isAsset) ? 'private' : 'public';
    headers['Cache-Control'] = isAsset ? `${scope}, max-age=31536000, immutable` : scope === 'private' ? 'private, no-cache' : 'no-cache';
    const compressed = Object.keys(file.encodings).length > 0;
    const vary = [...(personal ? ['Cookie'] : []), ...(compressed ? ['Accept-Encoding'] : [])];
    if (vary.length > 0) {
      headers.Vary = vary.join(', ');
    }
    if (marker !== null) {
      headers['Set-Cookie'] = marker;
    }
    // Each representation has its own ETag (and length): a cache never mixes gzip and brotli bytes.
    headers.ETag = body.etag;
    headers['Content-Type'] = file.contentType;
    if (encoding) {
      headers['Content-Encoding'] = encoding;
    }
    const frozen = Object.freeze(headers);
    variants[variant] = frozen;
    return frozen;
  }

  async function sendDecision(decision: Decision, request: FastifyRequest, reply: FastifyReply) {
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
    const {file, audience} = decision;
    if (logsRequests) {
      audienceOf.set(request, audience);
    }
    const {encoding, body} = representationFor(file, request);
    reply.headers(fileHeadersFor(decision, encoding, body, file.isHtml ? cookiesFor(request).marker : null));
    if (decision.status === 200 && request.headers['if-none-match'] === body.etag) {
      return reply.code(304).send();
    }
    if (request.method === 'HEAD') {
      return reply.code(decision.status).header('Content-Length', String(body.size)).send();
    }
    let bytes;
    try {
      // Verified bytes in memory are sent without waiting on anything.
      bytes = bodies.cached(body) ?? (await bodies.read(body));
    } catch (error) {
      if (!(error instanceof ChangedOnDiskError)) {
        throw error;
      }
      // Never other bytes under the indexed ETag and length: no body at all.
      request.log.error({file: error.file, reason: error.reason}, 'a file of the build changed on disk after start; refused');
      reply.removeHeader('ETag').removeHeader('Content-Encoding').removeHeader('Set-Cookie').removeHeader('Content-Type');
      return reply.code(500).header('Cache-Control', 'no-store').send();
    }
    return reply.code(decision.status).header('Content-Length', String(body.size)).send(bytes);
  }

  /**
   * The audit fields of an answer that needed an access rule: a restricted
   * page's HTML or one of its files (served, or refused), or the search
   * index (a role index served, or withheld). Null for everything else.
   */
  function auditEntry(site: Site, decision: Decision, rawTarget: string, session: GateSession | null): AuditEntry | null {
    const reader = session ? {sub: session.subject, sid: session.providerSessionId} : null;
    if (decision.kind === 'file' && decision.personal) {
      const {name} = decision.file;
      // A role search bundle served: every file of it. The reader's own bundle
      // instead: one line, for the file that chooses the index (its entry).
      const variantDir = /^(_portal\/search\/[^/]+)\//.exec(name)?.[1];
      if (name.startsWith(`${SEARCH_VARIANTS_DIR}/`) && variantDir !== undefined) {
        const variant = decision.audience === 'members' ? searchVariantRules.get(variantDir) : undefined;
        return variant === undefined ? null : {reader, rule: variant, access: 'allowed'};
      }
      if (name === `${SEARCH_BUNDLE_DIR}/pagefind-entry.json`) {
        return allRoleRules === '' ? null : {reader, rule: allRoleRules, access: 'refused'};
      }
      const rules = site.rules.get(name);
      if (rules) {
        // A restricted page withheld is answered from the public build, under the same name.
        const access = decision.audience === 'members' ? 'allowed' : 'refused';
        return {reader, rule: describeRules(rules), access, ...(pageOfFile.has(name) ? {page: pageOfFile.get(name)} : {})};
      }
      if (decision.status !== 404) {
        return null;
      }
    }
    // decide() names no file when it refuses one (403), or when a restricted
    // file has no public version (a tag page only restricted pages have: 404):
    // resolve it the same way, for the log only.
    const refusedByName = decision.kind === 'forbidden' || (decision.kind === 'file' && decision.status === 404 && decision.personal);
    if (refusedByName) {
      const canonical = canonicalisePath(rawTarget);
      const file =
        canonical.kind === 'path'
          ? site.builds.members.resolve(canonical.path.slice(baseUrl.length).replace(/\/$/, ''), canonical.trailingSlash)
          : undefined;
      const rules = file ? site.rules.get(file.name) : undefined;
      if (!rules && decision.kind !== 'forbidden') {
        return null;
      }
      return {
        reader,
        rule: rules ? describeRules(rules) : 'unknown',
        access: 'refused',
        ...(file && pageOfFile.has(file.name) ? {page: pageOfFile.get(file.name)} : {}),
      };
    }
    return null;
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

  await app.register(mcpRoutes, {
    baseUrl,
    site: async () => site ?? (await siteLoading),
    verifyAccessToken,
    providerSessionEnded: (sid) => sessions.providerSessionEnded(sid),
    authorizationServers: options.authorizationServers ?? [...new Set(options.issuers.map((issuer) => new URL(issuer).origin))],
    // The hooks that add these to every answer do not run for the answers the MCP SDK writes itself.
    responseHeaders: {...securityHeaders.public, 'Cross-Origin-Resource-Policy': 'same-origin'},
    rateLimit: options.mcpRateLimit,
    publicOrigins: options.publicOrigins ?? null,
    version: buildId,
  } satisfies McpRouteOptions);

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      // Another site's request is decided as for a signed-out reader, and the session is not even read.
      const signedOutOnly = fromAnotherSite(request);
      let session: GateSession | null = null;
      const loaded = site ?? (await siteLoading);
      const decision = await decide(loaded, request.url, async () => {
        session = signedOutOnly ? null : await readSession(request);
        return session?.principal ?? null;
      });
      // The audit fields go only into the request's log line.
      const audit = logsRequests ? auditEntry(loaded, decision, request.url, session) : null;
      if (audit) {
        auditOf.set(request, signedOutOnly ? {...audit, otherSite: true} : audit);
      }
      return sendDecision(decision, request, reply);
    },
  });

  return app;
}
