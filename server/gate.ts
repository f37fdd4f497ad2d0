/**
 * The gate: serves the portal so that pages which need sign-in are withheld
 * by the server, not just hidden by the browser.
 *
 *   build/public/    every reader without a valid session gets this build
 *   build/members/   readers with a valid session cookie get this one
 *   build/access-manifest.json   route → rule, and each restricted route's
 *                    content chunks (written by the members build)
 *
 * After sign-in (and after every token refresh) the browser posts its access
 * token to `<baseUrl>_portal/session`. The gate verifies the signature
 * against the provider's JWKS, the expiry and the organisation, and sets an
 * HttpOnly SameSite=Lax cookie holding the token that expires with it
 * (Secure except on localhost). Every request is then decided from the
 * verified token: a restricted page's HTML comes from the members build only
 * when the reader's roles and permissions allow it (otherwise from the public
 * build, whose page says what is missing), and a restricted page's JS chunk
 * is refused with 403. DELETE on the same path ends the session.
 *
 *   npm run serve          (PORT, default 3000; the local provider starts
 *                           beside it when no WORKOS_CLIENT_ID is set)
 */
import {existsSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import Fastify, {type FastifyInstance, type FastifyReply, type FastifyRequest} from 'fastify';
import fastifyStatic from '@fastify/static';
import {createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey} from 'jose';
import {canRead, isRestricted, type AccessRule, type Principal} from '../src/auth/access/rules';
import {GATE_MARKER_COOKIE, SESSION_PATH} from '../src/auth/access/gateSession';
import {LOCAL_CLIENT_ID, providerOrigin, readAuthSettings} from '../src/auth/config';
import type {AccessManifest} from '../scripts/access/manifest';

export const SESSION_COOKIE = 'portal_session';

export interface GateOptions {
  /** Folder holding public/, members/ and access-manifest.json. */
  buildDir: string;
  /** The provider's JWKS, e.g. https://api.workos.com/sso/jwks/<client id>. */
  jwks: URL | JWTVerifyGetKey;
  /** When set, tokens must carry this `org_id`. */
  organizationId: string | null;
  /** Behind a proxy that terminates TLS: trust X-Forwarded-* for the scheme and host. */
  trustProxy?: boolean;
  logger?: boolean;
}

type Audience = 'public' | 'members';

interface VerifiedSession {
  principal: Principal;
  expiresAt: number;
}

/** Reads the `/*` block of a Netlify-style `_headers` file (written by scripts/security-headers.ts). */
function readHeadersFile(file: string): Record<string, string> {
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run "npm run build"`);
  }
  const headers: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s+([A-Za-z-]+):\s*(.+)$/.exec(line);
    if (match?.[1] && match[2]) {
      headers[match[1]] = match[2].trim();
    }
  }
  return headers;
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      return part.slice(index + 1).trim();
    }
  }
  return null;
}

function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
}

const HIDDEN = /^(?:_nginx\/|_headers$|access-manifest\.json$)/;

export async function createGate(options: GateOptions): Promise<FastifyInstance> {
  const buildDir = path.resolve(options.buildDir);
  const manifestFile = path.join(buildDir, 'access-manifest.json');
  if (!existsSync(manifestFile)) {
    throw new Error(`${manifestFile} is missing: run "npm run build" (it builds build/public and build/members)`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as AccessManifest;
  const {baseUrl} = manifest;
  const roots: Record<Audience, string> = {public: path.join(buildDir, 'public'), members: path.join(buildDir, 'members')};
  const securityHeaders: Record<Audience, Record<string, string>> = {
    public: readHeadersFile(path.join(roots.public, '_headers')),
    members: readHeadersFile(path.join(roots.members, '_headers')),
  };

  const pageRules = new Map<string, AccessRule>();
  const chunkRules = new Map<string, AccessRule>();
  for (const page of manifest.pages) {
    if (isRestricted(page.rule)) {
      pageRules.set(page.route.replace(/\/$/, '') || '/', page.rule);
      for (const chunk of page.chunks) {
        chunkRules.set(`${baseUrl}${chunk}`, page.rule);
      }
    }
  }

  const jwks = options.jwks instanceof URL ? createRemoteJWKSet(options.jwks, {cooldownDuration: 30_000, cacheMaxAge: 600_000}) : options.jwks;

  async function verify(token: string | null): Promise<VerifiedSession | null> {
    if (!token || token.split('.').length !== 3) {
      return null;
    }
    try {
      const {payload} = await jwtVerify(token, jwks, {algorithms: ['RS256'], requiredClaims: ['exp', 'iat', 'sid']});
      if (options.organizationId && payload.org_id !== options.organizationId) {
        return null;
      }
      const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
      const roles = list(payload.roles);
      if (typeof payload.role === 'string' && !roles.includes(payload.role)) {
        roles.push(payload.role);
      }
      return {principal: {roles, permissions: list(payload.permissions)}, expiresAt: payload.exp ?? 0};
    } catch {
      // Bad signature, expired, unknown key or JWKS unreachable: no session.
      return null;
    }
  }

  function cookieAttributes(request: FastifyRequest): string {
    return `Path=${baseUrl}; SameSite=Lax${isLocalHost(request.hostname.replace(/:\d+$/, '')) ? '' : '; Secure'}`;
  }

  /** The readable marker that tells the browser a gate is listening (src/auth/access/gateSession.ts). */
  function markGate(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('Set-Cookie', `${GATE_MARKER_COOKIE}=1; ${cookieAttributes(request)}`);
  }

  const app = Fastify({logger: options.logger ?? false, trustProxy: options.trustProxy ?? false});
  await app.register(fastifyStatic, {root: [roots.public, roots.members], serve: false, cacheControl: false, index: false});

  const sessionUrl = `${baseUrl}${SESSION_PATH}`;

  app.post(sessionUrl, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const origin = request.headers.origin;
    if (origin && origin !== `${request.protocol}://${request.host}`) {
      return reply.code(403).send({error: 'cross-origin session requests are refused'});
    }
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? null;
    const session = await verify(token);
    if (!session || !token) {
      return reply.code(401).send({error: 'the access token is missing, invalid, expired or for another organisation'});
    }
    const hadSession = (await verify(readCookie(request.headers.cookie, SESSION_COOKIE))) !== null;
    const maxAge = Math.max(0, session.expiresAt - Math.floor(Date.now() / 1000));
    reply.header('Set-Cookie', [
      `${SESSION_COOKIE}=${token}; HttpOnly; Max-Age=${maxAge}; ${cookieAttributes(request)}`,
      `${GATE_MARKER_COOKIE}=1; ${cookieAttributes(request)}`,
    ]);
    return reply.send({hadSession, expiresAt: session.expiresAt});
  });

  app.delete(sessionUrl, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const origin = request.headers.origin;
    if (origin && origin !== `${request.protocol}://${request.host}`) {
      return reply.code(403).send({error: 'cross-origin session requests are refused'});
    }
    reply.header('Set-Cookie', `${SESSION_COOKIE}=; HttpOnly; Max-Age=0; ${cookieAttributes(request)}`);
    return reply.code(204).send();
  });

  /** The file for a clean URL (`/x`, `/x/`), as nginx's try_files $uri $uri/index.html $uri.html. */
  function resolveFile(root: string, relative: string): string | null {
    const candidates = relative === '' || relative.endsWith('/') ? [`${relative}index.html`] : [relative, `${relative}/index.html`, `${relative}.html`];
    for (const candidate of candidates) {
      const full = path.join(root, candidate);
      if (full.startsWith(root + path.sep) && statSync(full, {throwIfNoEntry: false})?.isFile()) {
        return candidate;
      }
    }
    return null;
  }

  function sendFrom(audience: Audience, file: string, reply: FastifyReply, status = 200) {
    for (const [name, value] of Object.entries(securityHeaders[audience])) {
      reply.header(name, value);
    }
    const isAsset = file.startsWith('assets/');
    // Members' files depend on the cookie: never let a shared cache keep them.
    const scope = audience === 'members' ? 'private' : 'public';
    reply.header('Cache-Control', isAsset ? `${scope}, max-age=31536000, immutable` : audience === 'members' ? 'private, no-cache' : 'no-cache');
    reply.header('Vary', 'Cookie');
    return reply.code(status).sendFile(file, roots[audience]);
  }

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      const rawPath = request.url.split('?')[0] ?? '/';
      const query = request.url.slice(rawPath.length);
      let pathname: string;
      try {
        pathname = decodeURIComponent(rawPath);
      } catch {
        return reply.code(400).type('text/plain').send('Bad request');
      }
      if (pathname.includes('\0') || pathname.split('/').includes('..') || !pathname.startsWith(baseUrl)) {
        return reply.code(404).type('text/plain').send('Not found');
      }
      // Clean URLs, like deploy/nginx.conf.
      const indexMatch = /^(.*)\/index\.html$/.exec(pathname);
      if (indexMatch) {
        return reply.redirect(`${encodeURI(indexMatch[1] ?? '')}/${query}`, 301);
      }
      if (pathname.endsWith('.html') && pathname !== `${baseUrl}404.html`) {
        return reply.redirect(`${encodeURI(pathname.slice(0, -'.html'.length))}${query}`, 301);
      }
      const relative = pathname.slice(baseUrl.length);
      if (HIDDEN.test(relative)) {
        return sendFrom('public', '404.html', reply, 404);
      }

      const session = await verify(readCookie(request.headers.cookie, SESSION_COOKIE));
      const principal = session?.principal ?? null;
      const pageRule = pageRules.get(pathname.replace(/\/$/, '') || '/');
      const chunkRule = chunkRules.get(pathname);
      let audience: Audience = principal ? 'members' : 'public';
      if (chunkRule && !canRead(chunkRule, principal)) {
        reply.header('Cache-Control', 'no-store').header('Vary', 'Cookie');
        // Docusaurus prefetches the code of every link in view; answering
        // that with an error would fill the reader's console. Nothing is sent
        // either way. A real load gets 403, and Docusaurus then loads the
        // page from the server, which answers with "You need the … role".
        if (/prefetch/i.test(`${request.headers['sec-purpose'] ?? ''} ${request.headers.purpose ?? ''}`)) {
          return reply.code(204).send();
        }
        return reply.code(403).type('text/plain').send('This file belongs to a page you may not read.');
      }
      if (pageRule) {
        audience = canRead(pageRule, principal) ? 'members' : 'public';
      }
      let file = resolveFile(roots[audience], relative);
      if (!file && audience === 'members' && !pageRule && relative.startsWith('assets/')) {
        // A page loaded from the public build just before the session cookie
        // was set still asks for the public build's hashed files; they hold
        // nothing restricted.
        file = resolveFile(roots.public, relative);
        if (file) {
          return sendFrom('public', file, reply);
        }
      }
      if (!file) {
        markGate(request, reply);
        return sendFrom(audience, '404.html', reply, 404);
      }
      if (file.endsWith('.html')) {
        markGate(request, reply);
      }
      return sendFrom(audience, file, reply);
    },
  });

  return app;
}

/** `npm run serve`: the gate on PORT (default 3000) with the sign-in settings the site was built with. */
async function main(): Promise<void> {
  const settings = readAuthSettings(process.env, '/');
  const jwks = new URL(process.env.PORTAL_JWKS_URL ?? `${providerOrigin(settings)}/sso/jwks/${settings.clientId || LOCAL_CLIENT_ID}`);
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? 'localhost';
  const app = await createGate({
    buildDir: process.env.BUILD_DIR ?? path.resolve(__dirname, '..', 'build'),
    jwks,
    organizationId: settings.organizationId,
    trustProxy: process.env.TRUST_PROXY === 'true',
    logger: process.env.GATE_LOG === 'true',
  });
  await app.listen({port, host});
  console.log(`[gate] serving build/public and build/members at http://${host}:${port} (keys from ${jwks.href})`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`[gate] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
