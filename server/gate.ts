/**
 * The gate: serves the portal so that pages which need sign-in are withheld
 * by the server, not just hidden by the browser. createGate() composes it
 * from Fastify plugins and routes; every decision about a file is
 * ./decide.ts's, a pure function of the loaded site, the URL and the
 * reader's principal.
 *
 *   plugins/site.ts             the builds, their manifest and file index (app.site)
 *   plugins/session.ts          provider keys, token checks, the session cookie (app.sessions, request.readSession())
 *   plugins/securityHeaders.ts  the site's headers on every answer, Fastify's own included
 *   plugins/requestLog.ts       one JSON line per request, with the audit fields (./audit.ts)
 *   routes/health.ts            liveness and readiness
 *   routes/session.ts           the session endpoint (POST a token, DELETE to sign out)
 *   mcp/route.ts                the MCP endpoint and its protected-resource metadata
 *   routes/files.ts             every other GET/HEAD: the builds' files, as decided
 */
import Fastify, {LogController, type FastifyInstance, type FastifyReply} from 'fastify';
import type {loadSite} from './decide';
import {createKeyStore, type KeyStore} from './keys';
import {mcpRoutes, type McpRouteOptions} from './mcp/route';
import {requestLogPlugin, type LogLevel} from './plugins/requestLog';
import {clientErrorAnswer, fixedAnswer, RESOURCE_POLICY, securityHeadersPlugin} from './plugins/securityHeaders';
import {sessionsPlugin} from './plugins/session';
import {readBuild, sitePlugin} from './plugins/site';
import {fileRoutes} from './routes/files';
import {healthRoutes} from './routes/health';
import {sessionRoutes} from './routes/session';
import {DEFAULT_SESSION_MAX_AGE_S} from './session';

export {describeRule} from './audit';
export {HOST_SESSION_COOKIE, SESSION_COOKIE} from './plugins/session';
export {HEALTH_PATH} from './routes/health';
export type {LogLevel} from './plugins/requestLog';

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
  /** How long a request may take to arrive, headers and body (ms); then 408. Default DEFAULT_REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
}

/** Bodies here are at most 64 KB (session, MCP): 30 s is ample on any link and bounds a client that trickles one. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

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

export async function createGate(options: GateOptions): Promise<FastifyInstance> {
  // The manifest, index and headers are read now: a missing one fails the start.
  const build = readBuild(options.buildDir);
  const {baseUrl} = build.manifest;
  const publicHeaders = build.securityHeaders.public;
  const logLevel = options.logLevel ?? 'info';
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger: options.logStream ? {stream: options.logStream, level: logLevel, base: {service: 'portal-gate', pid: process.pid}} : false,
    // One line per request (plugins/requestLog.ts) instead of Fastify's two.
    logController: new LogController({disableRequestLogging: true}),
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    // A URL Fastify cannot decode: the same fixed answer as any refused path (never the URL echoed back). Fastify
    // answers it before routing, so neither the request-log hook nor the headers hook runs: both are done here.
    // (The reply's generic parameters are the server's defaults: the cast only names them.)
    frameworkErrors: (_error, request, reply) => {
      request.log.info(
        {method: request.method, path: request.url.split('?')[0], status: 400, audience: null, reason: 'undecodable URL'},
        'request',
      );
      return fixedAnswer(reply as unknown as FastifyReply, {...publicHeaders, ...RESOURCE_POLICY}, 400, 'Bad request');
    },
    // A request must arrive whole within this time (408 then): a client trickling a body must not hold a socket
    // and its request for ever when the gate faces clients directly (Fastify's default is no limit).
    requestTimeout,
    // Given to Node's server as it is made too: set only afterwards (as Fastify does), Node never enforced it on a
    // body (measured on Node 20). Node checks for late requests this often (its default, 30 s, would double the
    // time a trickler is kept).
    http: {requestTimeout, connectionsCheckingInterval: Math.max(100, Math.round(requestTimeout / 10))},
    // What node's parser refuses before Fastify sees a request (431, 400): the same headers.
    clientErrorHandler: clientErrorAnswer(publicHeaders),
  });
  // On shutdown, requests in flight finish; their connections then close
  // instead of staying open for keep-alive, so close() can complete.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) {
      reply.header('Connection', 'close');
    }
    done(null, payload);
  });

  await app.register(securityHeadersPlugin, {headers: publicHeaders});
  await app.register(requestLogPlugin, {writes: options.logStream !== undefined, level: logLevel});
  await app.register(sitePlugin, {build, loadSite: options.loadSite, onSiteLoaded: options.onSiteLoaded});
  const keys = options.jwks instanceof URL ? createKeyStore({url: options.jwks}) : options.jwks;
  await app.register(sessionsPlugin, {
    baseUrl,
    rules: build.manifest.pages.map((page) => page.rule),
    keys,
    issuers: options.issuers,
    clientId: options.clientId,
    organizationId: options.organizationId,
    sessionSecrets: options.sessionSecrets,
    maxAgeSeconds: options.sessionMaxAgeSeconds ?? DEFAULT_SESSION_MAX_AGE_S,
  });

  await app.register(healthRoutes);
  await app.register(sessionRoutes);
  await app.register(mcpRoutes, {
    baseUrl,
    site: () => app.site.loaded(),
    verifyAccessToken: app.sessions.verifyAccessToken,
    providerSessionEnded: (sid) => app.sessions.codec.providerSessionEnded(sid),
    authorizationServers: options.authorizationServers ?? [...new Set(options.issuers.map((issuer) => new URL(issuer).origin))],
    // The hooks that add these to every answer do not run for the answers the MCP SDK writes itself.
    responseHeaders: {...publicHeaders, ...RESOURCE_POLICY},
    rateLimit: options.mcpRateLimit,
    publicOrigins: options.publicOrigins ?? null,
    version: app.site.buildId,
  } satisfies McpRouteOptions);
  await app.register(fileRoutes, {bodyCacheBytes: options.bodyCacheBytes});
  return app;
}
