/**
 * The session endpoint, `<baseUrl>_portal/session`. After sign-in (and
 * after every token refresh) the browser posts its access token (JSON
 * body); the gate verifies it against the provider's keys and answers with
 * its own small signed session cookie (../plugins/session.ts), expiring
 * with the token or after the gate's ceiling, whichever comes first.
 * DELETE on the same path ends the session.
 */
import type {FastifyInstance, FastifyRequest} from 'fastify';
import {SESSION_PATH} from '../../src/auth/access/gateSession';
import {MAX_TOKEN_BYTES} from '../accessToken';
import {sentByAnotherSite} from '../fetchMetadata';
import {sessionCookiesIn} from '../plugins/session';

/** Session requests come from the site's own pages only (not even a sibling subdomain). */
function isCrossSite(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return sentByAnotherSite(request) || (origin !== undefined && origin !== `${request.protocol}://${request.host}`);
}

export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const {sessions} = app;
  const sessionUrl = `${app.site.baseUrl}${SESSION_PATH}`;

  app.post(sessionUrl, {bodyLimit: MAX_TOKEN_BYTES + 1024}, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (isCrossSite(request)) {
      return reply.code(403).send({error: 'cross-site session requests are refused'});
    }
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return reply.code(415).send({error: 'send {"accessToken": "…"} as application/json'});
    }
    const verified = await sessions.verifyAccessToken((request.body as {accessToken?: unknown} | null)?.accessToken);
    if (verified === 'keys-unavailable') {
      return reply.code(503).header('Retry-After', '5').send({error: 'the provider signing keys are not available yet; try again shortly'});
    }
    // A token of a provider session that signed out here starts nothing (it may still be valid for minutes).
    if (verified === 'refused' || sessions.codec.providerSessionEnded(verified.sid)) {
      // Whatever session this browser had ends with a refused token.
      sessions.clearCookie(request, reply);
      return reply
        .code(401)
        .send({error: 'the access token is missing, invalid, expired, from another issuer or for another organisation'});
    }
    const previous = await request.readSession();
    // At most the gate's ceiling, whatever the token's `exp` says: the
    // browser hands over every refreshed token, which renews the session.
    const now = Math.floor(Date.now() / 1000);
    const {value, session} = await sessions.codec.issue({
      providerSessionId: verified.sid,
      subject: verified.sub,
      principal: verified.principal,
      expiresAt: Math.min(verified.exp, now + sessions.maxAgeSeconds),
    });
    // What the rules can see changed (another organisation, a role taken away):
    // pages and the search index the browser holds may no longer fit.
    const changed = previous !== null && JSON.stringify(previous.principal) !== JSON.stringify(session.principal);
    sessions.setCookie(request, reply, value, Math.max(0, session.expiresAt - now));
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
      const session = await sessions.codec.read(value);
      if (session) {
        sessions.codec.revoke(session);
      }
    }
    sessions.clearCookie(request, reply);
    // Members' files are cached as `private, immutable`: on a shared browser they
    // would outlive the session. Sign-out empties this site's cache.
    reply.header('Clear-Site-Data', '"cache"');
    return reply.code(204).send();
  });
}
