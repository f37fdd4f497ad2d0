/**
 * Fetch Metadata request headers (Sec-Fetch-*): what the browser says about
 * where a request comes from (page scripts cannot set them). The one home of
 * reading them, for the file routes and the session endpoint.
 */
import type {FastifyRequest} from 'fastify';

/** A Sec-Fetch-* header, lower-cased; `repeated` when several came (no single token, so nothing a check trusts). */
export function fetchMetadata(request: FastifyRequest, name: 'sec-fetch-site' | 'sec-fetch-mode' | 'sec-fetch-dest'): string | undefined {
  const value = request.headers[name];
  if (value === undefined) {
    return undefined;
  }
  return typeof value === 'string' && !value.includes(',') ? value.toLowerCase() : 'repeated';
}

/**
 * Whether the browser says another site made this request. Only this origin's own requests (`same-origin`) and the
 * user's own actions (`none`) are trusted; any other value, in any spelling, is another site's. A request without
 * the header (an old browser, curl) is not.
 */
export function sentByAnotherSite(request: FastifyRequest): boolean {
  const site = fetchMetadata(request, 'sec-fetch-site');
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}
