/**
 * `npm run serve`: the gate on PORT (default 3000) with the settings of
 * ./settings.ts (the same WORKOS_* variables the site was built with).
 */
import path from 'node:path';
import {createGate} from './gate';
import {createKeyStore} from './keys';
import {readGateSettings} from './settings';

async function main(): Promise<void> {
  const settings = readGateSettings(process.env, path.resolve(__dirname, '..'));
  const keys = createKeyStore({
    url: settings.jwksUrl,
    onRefreshError: (message, retryInMs) => console.warn(`[gate] ${message}; retrying in ${Math.round(retryInMs / 1000)} s`),
  });
  const app = await createGate({
    buildDir: settings.buildDir,
    jwks: keys,
    issuers: settings.issuers,
    organizationId: settings.organizationId,
    sessionSecrets: settings.sessionSecrets,
    trustProxy: settings.trustProxy,
    logger: process.env.GATE_LOG === 'true',
  });
  await app.listen({port: settings.port, host: settings.host});
  if (settings.ephemeralSecret) {
    console.log('[gate] PORTAL_SESSION_SECRET is not set: using a random one (sessions end when the gate restarts)');
  }
  console.log(`[gate] serving build/public and build/members at http://${settings.host}:${settings.port} (keys from ${settings.jwksUrl.href})`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`[gate] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
