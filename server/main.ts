/**
 * `npm run serve` (node build/server/server/main.js after `npm run build`):
 * the gate on PORT (default 3000) with the settings of ./settings.ts, the
 * same WORKOS_* variables the site was built with. Without a
 * WORKOS_CLIENT_ID it starts the local sign-in provider beside it, loaded
 * only then (it is a development tool built on dev dependencies). Logs are
 * JSON lines on stdout. SIGTERM and SIGINT stop accepting connections, let
 * requests in flight finish, then exit. PORTAL_WORKERS (a number, or `auto`
 * for one per CPU) serves from that many processes sharing the port; they
 * share nothing else but the session secret.
 */
import cluster from 'node:cluster';
import {randomBytes} from 'node:crypto';
import path from 'node:path';
import {createGate} from './gate';
import {createKeyStore} from './keys';
import {readGateSettings, type GateSettings} from './settings';

/** Shuts down anyway when requests in flight take longer than this. */
const SHUTDOWN_GRACE_MS = 10_000;

/** pino's numeric levels, so these lines read like the request log's. */
const LEVELS = {info: 30, warn: 40, error: 50} as const;

function logLine(level: keyof typeof LEVELS, msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({level: LEVELS[level], time: Date.now(), service: 'portal-gate', pid: process.pid, ...fields, msg});
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
}

async function startLocalProviderIfNeeded(settings: GateSettings): Promise<(() => Promise<void>) | null> {
  if (!settings.local || process.env.AUTH_DISABLED === 'true') {
    return null;
  }
  let module: typeof import('../scripts/local-provider/server');
  try {
    module = await import('../scripts/local-provider/server');
  } catch {
    throw new Error(
      'WORKOS_CLIENT_ID is not set, and the local sign-in provider (a development tool) is not installed here: set WORKOS_CLIENT_ID (and WORKOS_ORGANIZATION_ID, PORTAL_SESSION_SECRET) for production',
    );
  }
  const provider = await module.startLocalProvider({
    port: settings.localProviderPort,
    clientId: settings.clientId,
    allowedOrigins: module.localAllowedOrigins(process.env, settings.port),
  });
  logLine('info', `local sign-in provider at ${provider.url} (client id ${settings.clientId}); set WORKOS_CLIENT_ID to use WorkOS instead`);
  return provider.close;
}

/** Several processes on one port: the primary forks them, replaces one that dies, and stops them on SIGTERM. */
async function runPrimary(settings: GateSettings): Promise<void> {
  const stopProvider = await startLocalProviderIfNeeded(settings);
  // Every worker must sign and read sessions with the same secret.
  const env = {
    ...process.env,
    PORTAL_CLUSTER_WORKER: 'true',
    ...(settings.ephemeralSecret ? {PORTAL_SESSION_SECRET: randomBytes(48).toString('base64')} : {}),
  };
  if (settings.ephemeralSecret) {
    logLine('info', 'PORTAL_SESSION_SECRET is not set: using a random one (sessions end when the gate restarts)');
  }
  let stopping = false;
  let exitCode = 0;
  const fork = () => cluster.fork(env);
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      logLine('error', `worker ${worker.process.pid} ended (${signal ?? code}); starting another`);
      fork();
      return;
    }
    exitCode = code === 0 ? exitCode : 1;
    if (Object.keys(cluster.workers ?? {}).length === 0) {
      void Promise.resolve(stopProvider?.()).then(() => {
        logLine('info', 'stopped');
        process.exit(exitCode);
      });
    }
  });
  for (let index = 0; index < settings.workers; index += 1) {
    fork();
  }
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      return;
    }
    stopping = true;
    logLine('info', `${signal}: finishing requests in flight, then stopping`);
    for (const worker of Object.values(cluster.workers ?? {})) {
      worker?.process.kill('SIGTERM');
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(): Promise<void> {
  const settings = readGateSettings(process.env, path.resolve(__dirname, '..', '..', '..'));
  if (settings.workers > 1 && cluster.isPrimary) {
    return runPrimary(settings);
  }
  const stopProvider = cluster.isWorker ? null : await startLocalProviderIfNeeded(settings);
  const keys = createKeyStore({
    url: settings.jwksUrl,
    onRefreshError: (message, retryInMs) => logLine('warn', message, {retryInMs}),
  });
  const app = await createGate({
    buildDir: settings.buildDir,
    jwks: keys,
    issuers: settings.issuers,
    clientId: settings.clientId,
    organizationId: settings.organizationId,
    sessionSecrets: settings.sessionSecrets,
    sessionMaxAgeSeconds: settings.sessionMaxAgeSeconds,
    authorizationServers: settings.authorizationServers,
    trustProxy: settings.trustProxy,
    publicOrigins: settings.publicOrigins,
    logStream: process.stdout,
    logLevel: settings.logLevel,
    // Liveness answers while the index loads; readiness waits for it.
    onSiteLoaded: (outcome) => {
      if (outcome instanceof Error) {
        logLine('error', `cannot serve this build: ${outcome.message}`);
        process.exit(1);
      }
      logLine('info', `file index loaded: ${outcome.files} files stat'ed in ${outcome.ms} ms`, outcome);
    },
  });
  await app.listen({port: settings.port, host: settings.host});
  if (settings.ephemeralSecret) {
    logLine('info', 'PORTAL_SESSION_SECRET is not set: using a random one (sessions end when the gate restarts)');
  }
  logLine('info', `serving build/public and build/members at http://${settings.host}:${settings.port}`, {jwks: settings.jwksUrl.href});

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      return;
    }
    stopping = true;
    logLine('info', `${signal}: finishing requests in flight, then stopping`);
    const force = setTimeout(() => {
      logLine('error', `requests still in flight after ${SHUTDOWN_GRACE_MS} ms; stopping anyway`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    void app
      .close()
      .then(() => stopProvider?.())
      .then(() => {
        logLine('info', 'stopped');
        process.exit(0);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  logLine('error', error instanceof Error ? error.message : String(error));
  process.exit(1);
});
