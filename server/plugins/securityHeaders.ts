/**
 * The headers on every answer of the gate: the site's security headers
 * (nosniff, frame-ancestors, CSP …) and `Cross-Origin-Resource-Policy:
 * same-origin`, on pages and files, redirects, refusals, the session
 * endpoint's JSON, and the answers Fastify makes itself: an unknown route
 * (404), a URL it cannot decode or a body it cannot parse (400), a body too
 * large (413), a failure (500), and the ones node's HTTP parser writes
 * before any route runs (a header section too large: 431; a malformed
 * request: 400), which go straight to the socket (clientErrorAnswer).
 * None of them echoes the request.
 */
import {STATUS_CODES} from 'node:http';
import type {Socket} from 'node:net';
import type {FastifyInstance, FastifyReply} from 'fastify';
import fp from 'fastify-plugin';

/**
 * Answers are for this origin's own pages: a browser hands none of them (a
 * member's chunk, the search index, the session JSON) to a page of another
 * origin, a sibling subdomain included, that loads it by <script>, <img> or
 * a no-cors fetch. On every answer: the gate has nothing another site should embed.
 */
export const RESOURCE_POLICY = {'Cross-Origin-Resource-Policy': 'same-origin'} as const;

/** A refusal in fixed words: the site's headers, never cached, never echoing the request. */
export function fixedAnswer(reply: FastifyReply, headers: Record<string, string>, status: number, text: string) {
  return reply.code(status).headers(headers).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(text);
}

/**
 * Fastify's clientErrorHandler: what node's HTTP parser refused (a header
 * section over its limit, a malformed request line) answered with the same
 * headers as every other answer, then the connection closed.
 */
export function clientErrorAnswer(headers: Record<string, string>): (error: NodeJS.ErrnoException, socket: Socket) => void {
  const fixed = Object.entries({...headers, ...RESOURCE_POLICY, 'Cache-Control': 'no-store'})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (error, socket) => {
    // A connection reset: nothing to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = status === 431 ? 'Request headers too large' : status === 408 ? 'Request timeout' : 'Bad request';
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${fixed}Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

export interface SecurityHeadersOptions {
  /** The public build's security headers: on every answer that did not set its own build's. */
  headers: Record<string, string>;
}

async function securityHeaders(app: FastifyInstance, {headers}: SecurityHeadersOptions): Promise<void> {
  const entries = Object.entries(headers);
  // Not async: a callback hook costs no promise per answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    // A page's own build's headers, set before, are kept.
    for (const [name, value] of entries) {
      if (!reply.hasHeader(name)) {
        reply.header(name, value);
      }
    }
    reply.header('Cross-Origin-Resource-Policy', RESOURCE_POLICY['Cross-Origin-Resource-Policy']);
    done(null, payload);
  });
  // Fastify's own answers (another method, a body it cannot parse or that is
  // too large) echo the request; send a fixed text with the site's headers.
  app.setNotFoundHandler((_request, reply) => fixedAnswer(reply, headers, 404, 'Not found'));
  app.setErrorHandler((error: {statusCode?: number}, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({err: error}, 'request failed');
    }
    return fixedAnswer(reply, headers, status, status === 500 ? 'Internal server error' : 'Bad request');
  });
}

export const securityHeadersPlugin = fp(securityHeaders, {name: 'portal-security-headers'});
