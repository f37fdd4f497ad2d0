/**
 * Liveness (`<baseUrl>_portal/health`: the process answers, with the build
 * it serves) and readiness (`…/ready`: files can be served, the file index
 * is loaded, and sessions started, the provider's signing keys are loaded).
 */
import type {FastifyInstance} from 'fastify';

export const HEALTH_PATH = '_portal/health';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const {site, sessions} = app;
  const {buildId} = site;
  app.get(`${site.baseUrl}${HEALTH_PATH}`, async (_request, reply) => {
    return reply.header('Cache-Control', 'no-store').send({status: 'ok', build: buildId});
  });
  app.get(`${site.baseUrl}${HEALTH_PATH}/ready`, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const reason = site.failure()
      ? 'the file index could not be loaded'
      : !site.current()
        ? 'the file index is still loading'
        : !sessions.keys.status().ready
          ? 'the provider signing keys are not loaded yet'
          : null;
    return reason === null ? reply.send({ready: true, build: buildId}) : reply.code(503).send({ready: false, build: buildId, reason});
  });
}
