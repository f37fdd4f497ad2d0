/**
 * The builds' files (GET and HEAD of every other path): each request is
 * decided by ../decide.ts on the resolved file, then answered from the
 * in-memory index (headers, ETag, length; 304 and HEAD never touch the
 * disk) and the body from ../fileBodies.ts.
 *
 * Answers that depend on the session are for the site itself: a request
 * that another site (a sibling subdomain included) makes the browser send
 * is decided as for a signed-out reader (fromAnotherSite).
 */
import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import Negotiator from 'negotiator';
import {createAuditor} from '../audit';
import {ENCODING_PREFERENCE, type Body, type Encoding} from '../buildFiles';
import {decide, type Decision} from '../decide';
import {ChangedOnDiskError, createFileBodies, DEFAULT_BODY_CACHE_BYTES} from '../fileBodies';
import {fetchMetadata, sentByAnotherSite} from '../fetchMetadata';
import {fixedAnswer} from '../plugins/securityHeaders';
import type {GateSession} from '../session';

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
  return (
    sentByAnotherSite(request) &&
    !(fetchMetadata(request, 'sec-fetch-mode') === 'navigate' && fetchMetadata(request, 'sec-fetch-dest') === 'document')
  );
}

export interface FileRoutesOptions {
  /** Bytes of verified small files kept in memory per process (../fileBodies.ts). */
  bodyCacheBytes?: number;
}

export async function fileRoutes(app: FastifyInstance, options: FileRoutesOptions): Promise<void> {
  const {site, sessions, requestLog} = app;
  const {securityHeaders} = site.build;
  const bodies = createFileBodies({cacheBytes: options.bodyCacheBytes ?? DEFAULT_BODY_CACHE_BYTES});
  const audit = createAuditor(site.build.manifest);

  /**
   * Accept-Encoding values → the encoding negotiated for each set of
   * siblings (index as in representationFor): negotiation depends on
   * nothing else, so each value is parsed once, not per request.
   */
  const negotiatedEncodings = new Map<string, (Encoding | null)[]>();
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
   * The headers of a file's answer, for one representation and variant
   * (build, personal or not, marker cookie): built on first use, then one
   * object per request instead of a dozen header calls and string joins.
   */
  const fileHeaders = new WeakMap<Body, Readonly<Record<string, string>>[]>();
  function fileHeadersFor(
    decision: Extract<Decision, {kind: 'file'}>,
    encoding: Encoding | null,
    body: Body,
    marker: {value: string; hostOnly: boolean} | null,
  ): Readonly<Record<string, string>> {
    const {file, audience, personal} = decision;
    const variant = (audience === 'members' ? 1 : 0) + (personal ? 2 : 0) + (marker === null ? 0 : marker.hostOnly ? 4 : 8);
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
      headers['Set-Cookie'] = marker.value;
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
        return fixedAnswer(reply, securityHeaders.public, 400, 'Bad request');
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
    const {file} = decision;
    const {encoding, body} = representationFor(file, request);
    const cookies = file.isHtml ? sessions.cookiesFor(request) : null;
    reply.headers(fileHeadersFor(decision, encoding, body, cookies && {value: cookies.marker, hostOnly: cookies.hostOnly}));
    // From the index alone: neither a revalidation nor a HEAD reads the file.
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

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      // Another site's request is decided as for a signed-out reader, and the session is not even read.
      const signedOutOnly = fromAnotherSite(request);
      let session: GateSession | null = null;
      const loaded = site.current() ?? (await site.loaded());
      const decision = await decide(loaded, request.url, async () => {
        session = signedOutOnly ? null : await request.readSession();
        return session?.principal ?? null;
      });
      // The audit fields go only into the request's log line.
      if (requestLog.enabled) {
        const entry = audit(loaded, decision, request.url, session);
        const audience = decision.kind === 'file' ? decision.audience : null;
        requestLog.note(request, audience, entry && signedOutOnly ? {...entry, otherSite: true} : entry);
      }
      return sendDecision(decision, request, reply);
    },
  });
}
