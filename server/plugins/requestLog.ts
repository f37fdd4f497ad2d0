/**
 * The request log: one JSON line per request (method, path without its
 * query, since the sign-in callback's query carries a code; status,
 * duration, which build answered, and for answers that needed an access
 * rule the audit fields of ../audit.ts). Never a header, a cookie, a token
 * or a query string. Hooks only when those lines are written: they, and
 * the audit fields, cost every request.
 */
import type {FastifyInstance, FastifyRequest} from 'fastify';
import fp from 'fastify-plugin';
import type {Audience} from '../../src/auth/access/audience';
import type {AuditEntry} from '../audit';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface RequestLog {
  /** Whether request lines are written: callers skip computing their fields otherwise. */
  enabled: boolean;
  /** Which build answered this request, and the audit fields of its answer. */
  note(request: FastifyRequest, audience: Audience | null, audit: AuditEntry | null): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    requestLog: RequestLog;
  }
}

export interface RequestLogOptions {
  /** Lines are written at all (the gate has a log stream). */
  writes: boolean;
  level: LogLevel;
}

async function requestLog(app: FastifyInstance, {writes, level}: RequestLogOptions): Promise<void> {
  const enabled = writes && (level === 'debug' || level === 'info');
  const noted = new WeakMap<FastifyRequest, {audience: Audience | null; audit: AuditEntry | null}>();
  app.decorate('requestLog', {
    enabled,
    note(request, audience, audit) {
      noted.set(request, {audience, audit});
    },
  } satisfies RequestLog);
  if (writes && level === 'debug') {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({method: request.method, path: request.url.split('?')[0]}, 'request started');
      done();
    });
  }
  if (enabled) {
    app.addHook('onResponse', (request, reply, done) => {
      const answer = noted.get(request);
      request.log.info(
        {
          method: request.method,
          path: request.url.split('?')[0],
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 100) / 100,
          audience: answer?.audience ?? null,
          ...answer?.audit,
        },
        'request',
      );
      done();
    });
  }
}

export const requestLogPlugin = fp(requestLog, {name: 'portal-request-log'});
