/**
 * What the browser tests run against: the production build served by the
 * gate server (server/gate.ts: build/public and build/members, chosen per
 * request from the session cookie) or, with `{server: 'nginx'}`, the public
 * build alone by nginx with deploy/nginx.conf, on a free port; and the local
 * sign-in provider on the port the build was configured with
 * (LOCAL_AUTH_PORT, default 4010). Builds nothing itself; stops everything
 * it started.
 */
import {randomBytes} from 'node:crypto';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {DEFAULT_LOCAL_AUTH_PORT, LOCAL_CLIENT_ID} from '../../src/auth/config';
import {TEST_CONTROL_HEADER, type ProviderState} from '../local-provider/handlers';
import {startLocalProvider, type LocalProvider} from '../local-provider/server';
import {startNginx} from '../serve-nginx';
import {createGate} from '../../server/gate';
import {freePort} from './ports';

const ROOT = path.resolve(__dirname, '../..');

/** The local provider's counters (scripts/local-provider/handlers.ts). */
export type ProviderStats = ProviderState['stats'];

export interface Stack {
  siteUrl: string;
  providerUrl: string;
  /** The next `count` authenticate calls answer with this status and body. */
  injectFault: (fault: {
    status?: number;
    body?: string;
    contentType?: string;
    count?: number;
    delayMs?: number;
    passThrough?: boolean;
  }) => Promise<void>;
  /** Authenticate calls the provider has seen, and the most at once. */
  providerStats: () => Promise<ProviderStats>;
  stop: () => Promise<void>;
}

/** A request the gate answered, as it received it (tests only: headers include cookies). */
export interface GateExchange {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
}

export async function startStack({
  server = 'gate',
  onGateAnswer,
}: {
  server?: 'gate' | 'nginx';
  /** Called for every request the gate has answered: what a browser really sent, even when it then blocked the answer. */
  onGateAnswer?: (exchange: GateExchange) => void;
} = {}): Promise<Stack> {
  if (!existsSync(path.join(ROOT, 'build', 'access-manifest.json'))) {
    throw new Error('build/ is missing or incomplete: run "npm run build" before the browser tests');
  }
  const sitePort = await freePort();
  const siteUrl = `http://localhost:${sitePort}`;
  let provider: LocalProvider;
  const providerPort = Number(process.env.LOCAL_AUTH_PORT ?? DEFAULT_LOCAL_AUTH_PORT);
  try {
    provider = await startLocalProvider({port: providerPort, clientId: LOCAL_CLIENT_ID, allowedOrigins: [siteUrl], testControls: true});
  } catch (error) {
    throw new Error(`could not start the local sign-in provider on port ${providerPort} (the port the build uses): ${String(error)}`);
  }
  let stopSite: () => Promise<void>;
  if (server === 'nginx') {
    try {
      stopSite = (await startNginx(sitePort)).stop;
    } catch (error) {
      await provider.close();
      throw error;
    }
  } else {
    try {
      const gate = await createGate({
        buildDir: path.join(ROOT, 'build'),
        jwks: new URL(`${provider.url}/sso/jwks/${LOCAL_CLIENT_ID}`),
        issuers: [`${provider.url}/user_management/${LOCAL_CLIENT_ID}`],
        clientId: LOCAL_CLIENT_ID,
        organizationId: null,
        sessionSecrets: [randomBytes(32)],
      });
      if (onGateAnswer) {
        gate.addHook('onResponse', async (request, reply) => {
          onGateAnswer({url: request.url, headers: {...request.headers}, status: reply.statusCode});
        });
      }
      await gate.listen({port: sitePort, host: 'localhost'});
      stopSite = () => gate.close();
    } catch (error) {
      await provider.close();
      throw error;
    }
  }
  return {
    siteUrl,
    providerUrl: provider.url,
    injectFault: async (fault) => {
      const response = await fetch(`${provider.url}/__local/fault`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json', [TEST_CONTROL_HEADER]: '1'},
        body: JSON.stringify(fault),
      });
      if (!response.ok) {
        throw new Error(`fault injection failed: ${response.status}`);
      }
    },
    providerStats: async () =>
      (await (await fetch(`${provider.url}/__local/stats`, {headers: {[TEST_CONTROL_HEADER]: '1'}})).json()) as ProviderStats,
    stop: async () => {
      await stopSite();
      await provider.close();
    },
  };
}
