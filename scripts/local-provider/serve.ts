/**
 * `npm run serve`: the gate (server/main.ts) with the local sign-in provider
 * beside it when no WORKOS_CLIENT_ID is set, so the README's quick start
 * signs in without a WorkOS account. The production container runs
 * server/main.ts directly and never loads this tooling.
 *
 * With PORTAL_WORKERS, node:cluster re-runs this script in every worker:
 * the gate starts the provider in the primary process only (runGate's
 * localProvider), and workers verify tokens against its keys.
 */
import {logLine, runGate} from '../../server/main';
import {localAllowedOrigins, startLocalProvider} from './server';

runGate({
  localProvider: async (settings) => {
    const provider = await startLocalProvider({
      port: settings.localProviderPort,
      clientId: settings.clientId,
      allowedOrigins: localAllowedOrigins(process.env, settings.port),
    });
    logLine(
      'info',
      `local sign-in provider at ${provider.url} (client id ${settings.clientId}); set WORKOS_CLIENT_ID to use WorkOS instead`,
    );
    return provider.close;
  },
});
