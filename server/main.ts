/**
 * The gate's process: `node build/server/server/main.js`, the production
 * container's command. The gate on PORT (default 3000) with the settings of
 * ./settings.ts, the same WORKOS_* variables the site was built with. It
 * never loads tooling: without a WORKOS_CLIENT_ID it refuses to start
 * (unless AUTH_DISABLED=true); `npm run serve` runs
 * scripts/local-provider/serve.ts instead, which starts the local sign-in
 * provider beside it through runGate. Logs are JSON lines on stdout.
 * SIGTERM and SIGINT stop accepting connections, let requests in flight
 * finish, then exit.
 *
 * The built-in cluster stays. PORTAL_WORKERS (a number, or `auto` for one
 * per CPU) serves from that many processes sharing the port; they share
 * nothing else but the session secret. Why: one Node process uses one core,
 * and a container given several CPUs serves a member's page about 1.6× as
 * fast with one worker per CPU (bench/README.md, "Serving benchmarks": 27,800
 * vs 17,400 req/s on two cores), for about 70 lines here. It is off by
 * default (1), so platforms that scale by replicas of one process each need
 * nothing, and each worker's memory is bounded (the file index and a 32 MB
 * cache of small files, not the builds).
 */
import cluster from 'node:cluster';
import {randomBytes} from 'node:crypto';
import path from 'node:path';
import {createGate} from './gate';
import {createKeyStore, createNoKeyStore, type KeyStore} from './keys';
import {readGateSettings, type GateSettings} from './settings';

/** Shuts down anyway when requests in flight take longer than this. */
const SHUTDOWN_GRACE_MS = 10_000;

/** pino's numeric levels, so these lines read like the request log's. */
const LEVELS = {info: 30, warn: 40, error: 50} as const;

export function logLine(level: keyof typeof LEVELS, msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({level: LEVELS[level], time: Date.now(), service: 'portal-gate', pid: process.pid, ...fields, msg});
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
}

/**
 * Starts something beside the gate in the primary process only (workers
 * re-run the entry script and must not start it again): the local sign-in
 * provider of scripts/local-provider/serve.ts. Returns how to stop it.
 */
export type StartBeside = (settings: GateSettings) => Promise<() => Promise<void>>;

export interface GateEntryOptions {
  /**
   * The local sign-in provider, when the entry script brings one. Without
   * it, and without WORKOS_CLIENT_ID, the gate refuses to start (unless
   * AUTH_DISABLED=true): the production server never loads tooling.
   */
  localProvider?: StartBeside;
}

/** The local provider to start in this process, or null (WorkOS, sign-in off, or a worker). */
function localProviderFor(settings: GateSettings, options: GateEntryOptions): StartBeside | null {
  if (!settings.local || !settings.signIn) {
    return null;
  }
  if (!options.localProvider) {
    throw new Error(
      'WORKOS_CLIENT_ID is not set, and the local sign-in provider (a development tool) does not start with the production server: set WORKOS_CLIENT_ID (and WORKOS_ORGANIZATION_ID, PORTAL_SESSION_SECRET) for production, run "npm run serve" to sign in with the local provider, or set AUTH_DISABLED=true to serve without sign-in',
    );
  }
  return cluster.isPrimary ? options.localProvider : null;
}

/** The provider's keys, or none at all when sign-in is off (then no token opens a session or reaches MCP). */
export function keyStoreFor(settings: GateSettings): KeyStore {
  if (!settings.signIn) {
    return createNoKeyStore();
  }
  return createKeyStore({
    url: settings.jwksUrl,
    onRefreshError: (message, retryInMs) => logLine('warn', message, {retryInMs}),
  });
}

/** Several processes on one port: the primary forks them, replaces one that dies, and stops them on SIGTERM. */
async function runPrimary(settings: GateSettings, startProvider: StartBeside | null): Promise<void> {
  const stopProvider = await startProvider?.(settings);
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

async function main(options: GateEntryOptions): Promise<void> {
  const settings = readGateSettings(process.env, path.resolve(__dirname, '..', '..', '..'));
  const startProvider = localProviderFor(settings, options);
  if (settings.workers > 1 && cluster.isPrimary) {
    return runPrimary(settings, startProvider);
  }
  const stopProvider = await startProvider?.(settings);
  const keys = keyStoreFor(settings);
  const app = await createGate({
    buildDir: settings.buildDir,
    jwks: keys,
    issuers: settings.issuers,
    clientId: settings.clientId,
    organizationId: settings.organizationId,
    sessionSecrets: settings.sessionSecrets,
    sessionMaxAgeSeconds: settings.sessionMaxAgeSeconds,
    // Sign-in off: no token can verify, so the MCP metadata names no authorization server to get one from.
    authorizationServers: settings.signIn ? settings.authorizationServers : [],
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
  logLine(
    'info',
    `serving build/public and build/members at http://${settings.host}:${settings.port}`,
    settings.signIn ? {jwks: settings.jwksUrl.href} : {signIn: 'off (AUTH_DISABLED=true): every reader gets the public pages'},
  );

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

/** Runs the gate as `npm run serve` and the container do; exits the process on a setting or start error. */
export function runGate(options: GateEntryOptions = {}): void {
  main(options).catch((error: unknown) => {
    logLine('error', error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}

// `node build/server/server/main.js`: the production container's command. An
// entry script that imports this module (scripts/local-provider/serve.ts) calls runGate itself.
if (require.main === module) {
  runGate();
}
