/**
 * The MCP endpoint (`<baseUrl>_portal/mcp`, Streamable HTTP, stateless) and
 * its OAuth 2.0 Protected Resource Metadata (RFC 9728), as a Fastify plugin
 * the gate registers.
 *
 * - Who reads: `Authorization: Bearer <access token>`, verified exactly as
 *   the session endpoint verifies a token (../accessToken.ts). No header: a
 *   signed-out reader (public pages). A header that does not verify: 401 with
 *   `WWW-Authenticate` naming the metadata, so an agent can sign its user in.
 *   Cookies are never read here: an agent is not a browser page.
 * - What it reads: the reader's own set, chosen like the search bundle
 *   (../decide.ts readerVariantDir), each page decided as its `.md` URL.
 * - Bounds: POST only; a Host that is not the site's and a foreign `Origin`
 *   are refused (DNS rebinding); a JSON-RPC batch is refused; the
 *   body is at most MAX_BODY_BYTES; each client (the token's subject, else
 *   the address) gets `rateLimit.max` requests per window, this route only,
 *   so pages stay fast under an agent's burst.
 */
import rateLimit from '@fastify/rate-limit';
import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {FastifyError, FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import {MCP_PATH, PROTECTED_RESOURCE_METADATA_PATH} from '../../src/auth/access/agentDocs';
import type {Principal} from '../../src/auth/access/rules';
import type {AccessTokenVerdict} from '../accessToken';
import {readerVariantDir, type Site} from '../decide';
import {createFileBodies} from '../fileBodies';
import {isLocalHost} from '../localHost';
import {createReaderFiles} from './readerFiles';
import {createReaderSearch, type ReaderSearch} from './searchIndex';
import {createPortalMcpServer} from './tools';

/** Largest request body (bytes): a tool call is a few hundred. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Verified Markdown kept in memory for read_page (bytes), apart from the pages' cache. */
const MARKDOWN_CACHE_BYTES = 4 * 1024 * 1024;

export interface McpRouteOptions {
  baseUrl: string;
  /** The site, once loaded (requests wait for it). */
  site: () => Promise<Site>;
  verifyAccessToken: (token: unknown) => Promise<AccessTokenVerdict>;
  /** Whether sign-out at this gate ended this provider session (its tokens then open nothing). */
  providerSessionEnded: (sid: string) => boolean;
  /** The provider that issues the tokens (RFC 9728 `authorization_servers`). */
  authorizationServers: string[];
  /** Headers every answer carries (the gate's security headers); set here on the answers the SDK writes itself. */
  responseHeaders: Record<string, string>;
  /**
   * The origins readers reach the site at: requests addressed to another
   * host are refused (DNS rebinding), and the OAuth metadata's URLs are
   * built from these, never from Host or X-Forwarded-Host. null (tests,
   * embedding): loopback host names only, URLs from the request.
   */
  publicOrigins: string[] | null;
  /** Requests per client per window. Default 120 a minute. */
  rateLimit?: {max: number; timeWindowMs: number};
  version: string;
}

type Reader = {kind: 'reader'; principal: Principal | null; subject: string | null} | {kind: 'refused'} | {kind: 'keys-unavailable'};

/** A JSON-RPC error body, as the SDK's transport answers errors. */
function rpcError(code: number, message: string) {
  return {jsonrpc: '2.0', error: {code, message}, id: null};
}

/**
 * The requests this server answers, with the SDK's own schema of each. The
 * SDK answers params that fail its schema as an Internal Error (-32603)
 * carrying the validator's whole report; checked here first with the same
 * schema, they get Invalid Params (-32602) and one line naming the field.
 */
const REQUEST_SCHEMAS = new Map<
  string,
  typeof PingRequestSchema | typeof InitializeRequestSchema | typeof ListToolsRequestSchema | typeof CallToolRequestSchema
>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

/** Invalid Params for a request whose params the SDK would refuse, or null (not such a request: the SDK answers it). */
function invalidParams(body: unknown): {jsonrpc: '2.0'; id: string | number; error: {code: number; message: string}} | null {
  if (typeof body !== 'object' || body === null || !('method' in body) || !('id' in body)) {
    return null;
  }
  const {method, id} = body;
  const schema = typeof method === 'string' ? REQUEST_SCHEMAS.get(method) : undefined;
  if (!schema || (typeof id !== 'string' && typeof id !== 'number')) {
    return null;
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) {
    return null;
  }
  const issue = parsed.error.issues[0];
  // The path can hold keys the client chose: each is cut short and printable only, so the line stays one short line.
  const where = issue && issue.path.length > 0 ? `${issue.path.map(printablePathSegment).join('.')}: ` : '';
  const message = `Invalid params for ${method}: ${where}${issue?.message ?? 'not the expected shape'}`;
  return {jsonrpc: '2.0', id, error: {code: -32602, message: message.slice(0, MAX_ERROR_MESSAGE_LENGTH)}};
}

/** The longest Invalid Params message (characters), and the longest key it quotes. */
const MAX_ERROR_MESSAGE_LENGTH = 200;
const MAX_PATH_SEGMENT_LENGTH = 40;

function printablePathSegment(segment: PropertyKey): string {
  const text = String(segment).replace(/[^\x20-\x7e]/g, '?');
  return text.length > MAX_PATH_SEGMENT_LENGTH ? `${text.slice(0, MAX_PATH_SEGMENT_LENGTH)}…` : text;
}

/**
 * The site origin a request is addressed to, or null for a host this site
 * does not answer to (a name an attacker rebound to the gate's address).
 * The host is the one Fastify derives under the trust-proxy rule.
 */
function siteOriginFor(publicOrigins: string[] | null): (request: FastifyRequest) => string | null {
  if (publicOrigins === null) {
    return (request) => (isLocalHost(request.hostname) ? `${request.protocol}://${request.host}` : null);
  }
  const byHost = new Map(publicOrigins.map((origin) => [new URL(origin).host, origin]));
  return (request) => byHost.get(request.host.toLowerCase()) ?? null;
}

export async function mcpRoutes(app: FastifyInstance, options: McpRouteOptions): Promise<void> {
  const mcpUrl = `${options.baseUrl}${MCP_PATH}`;
  const metadataUrls = [PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}${mcpUrl}`];
  let search: {site: Site; search: ReaderSearch; files: ReturnType<typeof createReaderFiles>} | null = null;
  const toolsFor = async () => {
    if (!search) {
      const site = await options.site();
      const files = createReaderFiles(site, createFileBodies({cacheBytes: MARKDOWN_CACHE_BYTES}));
      search = {site, files, search: createReaderSearch(files)};
    }
    return search;
  };

  const readers = new WeakMap<FastifyRequest, Promise<Reader>>();
  /** The request's reader, verified once (the rate limit's key needs it before the handler). */
  function readerOf(request: FastifyRequest): Promise<Reader> {
    let reader = readers.get(request);
    if (!reader) {
      reader = identify(request);
      readers.set(request, reader);
    }
    return reader;
  }
  async function identify(request: FastifyRequest): Promise<Reader> {
    const header = request.headers.authorization;
    if (header === undefined) {
      return {kind: 'reader', principal: null, subject: null};
    }
    const token = /^Bearer +([^\s]+)$/i.exec(header)?.[1];
    const verdict = await options.verifyAccessToken(token);
    if (verdict === 'keys-unavailable') {
      return {kind: 'keys-unavailable'};
    }
    if (verdict === 'refused' || options.providerSessionEnded(verdict.sid)) {
      return {kind: 'refused'};
    }
    return {kind: 'reader', principal: verdict.principal, subject: verdict.sub};
  }

  const siteOriginOf = siteOriginFor(options.publicOrigins);
  const resourceMetadataUrl = (siteOrigin: string) => `${siteOrigin}${PROTECTED_RESOURCE_METADATA_PATH}${mcpUrl}`;
  const foreignHost = (reply: FastifyReply) =>
    reply.code(403).header('Cache-Control', 'no-store').send(rpcError(-32000, 'this host is not the site: requests to it are refused'));

  for (const url of metadataUrls) {
    app.get(url, async (request, reply) => {
      const siteOrigin = siteOriginOf(request);
      if (siteOrigin === null) {
        return foreignHost(reply);
      }
      // The same for every reader of this host (the configured origin, whatever X-Forwarded-Host says): a shared cache may keep it.
      return reply.header('Cache-Control', 'public, max-age=3600').send({
        resource: `${siteOrigin}${mcpUrl}`,
        authorization_servers: options.authorizationServers,
        bearer_methods_supported: ['header'],
        resource_name: 'Developer Portal docs',
      });
    });
  }

  await app.register(rateLimit, {global: false});
  // This scope's errors (a body too large, not JSON, the rate limit) answer as JSON-RPC, never echoing the request.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({err: error}, 'MCP request failed');
    }
    const message =
      status === 413
        ? `the request body is over ${MAX_BODY_BYTES / 1024} KB`
        : status === 429
          ? 'too many requests: wait for Retry-After seconds'
          : status === 415
            ? 'send JSON-RPC as application/json'
            : status === 500
              ? 'internal error'
              : 'bad request';
    return reply
      .code(status)
      .header('Cache-Control', 'no-store')
      .send(rpcError(status === 500 ? -32603 : -32600, message));
  });

  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('Allow', 'POST')
      .header('Cache-Control', 'no-store')
      .send(rpcError(-32000, 'Method not allowed: POST only (stateless server)'));
  app.route({method: ['GET', 'DELETE', 'PUT', 'PATCH'], url: mcpUrl, handler: methodNotAllowed});

  const limit = options.rateLimit ?? {max: 120, timeWindowMs: 60_000};
  app.post(
    mcpUrl,
    {
      bodyLimit: MAX_BODY_BYTES,
      config: {
        rateLimit: {
          max: limit.max,
          timeWindow: limit.timeWindowMs,
          keyGenerator: async (request: FastifyRequest) => {
            const reader = await readerOf(request);
            return reader.kind === 'reader' && reader.subject ? `sub:${reader.subject}` : `ip:${request.ip}`;
          },
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const siteOrigin = siteOriginOf(request);
      if (siteOrigin === null) {
        return foreignHost(reply);
      }
      // A batch would buy many tool calls for one request of the rate limit; the protocol version served has none.
      if (Array.isArray(request.body)) {
        return reply
          .code(400)
          .send(
            rpcError(
              -32600,
              'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request',
            ),
          );
      }
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== siteOrigin) {
        return reply.code(403).send(rpcError(-32000, 'requests from another origin are refused'));
      }
      const reader = await readerOf(request);
      if (reader.kind === 'keys-unavailable') {
        return reply.code(503).header('Retry-After', '5').send(rpcError(-32000, 'the provider signing keys are not available yet'));
      }
      if (reader.kind === 'refused') {
        return reply
          .code(401)
          .header(
            'WWW-Authenticate',
            `Bearer resource_metadata="${resourceMetadataUrl(siteOrigin)}", error="invalid_token", error_description="the access token is invalid or expired"`,
          )
          .send(rpcError(-32001, 'the access token is missing, invalid, expired, from another issuer or for another organisation'));
      }
      const refusedParams = invalidParams(request.body);
      if (refusedParams) {
        return reply.code(200).send(refusedParams);
      }
      const {site, files, search: readerSearch} = await toolsFor();
      const principal = reader.principal;
      const server = createPortalMcpServer({
        files,
        search: readerSearch,
        principal,
        readerKey: principal ? `members:${readerVariantDir(site, principal)}` : 'public',
        origin: siteOrigin,
        baseUrl: options.baseUrl,
        version: options.version,
      });
      // Stateless: no session id, a new transport per request; answers are plain JSON (no stream to keep open).
      const transport = new StreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true});
      // The SDK writes the answer itself: the hooks that add the gate's headers do not run for it.
      reply.hijack();
      for (const [name, value] of Object.entries(options.responseHeaders)) {
        reply.raw.setHeader(name, value);
      }
      reply.raw.setHeader('Cache-Control', 'no-store');
      reply.raw.setHeader('Vary', 'Authorization');
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        request.log.error({err: error}, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, {'Content-Type': 'application/json'}).end(JSON.stringify(rpcError(-32603, 'internal error')));
        }
      }
    },
  );
}
