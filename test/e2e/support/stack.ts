/**
 * What the browser tests run against: the production `build/` served by
 * `docusaurus serve` (or, with `{server: 'nginx'}`, by nginx with
 * deploy/nginx.conf) on a free port, and the local sign-in provider on the
 * port the build was configured with (LOCAL_AUTH_PORT, default 4010). Builds
 * nothing itself; stops everything it started.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync} from 'node:fs';
import {createServer} from 'node:net';
import path from 'node:path';
import {DEFAULT_LOCAL_AUTH_PORT, LOCAL_CLIENT_ID} from '../../../src/auth/config';
import {startLocalProvider, type LocalProvider} from '../../../scripts/local-provider/server';
import {startNginx} from '../../../scripts/serve-nginx';

const ROOT = path.resolve(__dirname, '../../..');

export interface Stack {
  siteUrl: string;
  providerUrl: string;
  /** The next `count` authenticate calls answer with this status and body. */
  injectFault: (fault: {status?: number; body?: string; contentType?: string; count?: number; delayMs?: number; passThrough?: boolean}) => Promise<void>;
  /** Authenticate calls the provider has seen, and the most at once. */
  providerStats: () => Promise<{authenticateCalls: number; maxInFlight: number}>;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as {port: number};
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the site server exited with code ${child.exitCode}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the site server did not answer at ${url} within ${timeoutMs} ms`);
}

export async function startStack({server = 'docusaurus'}: {server?: 'docusaurus' | 'nginx'} = {}): Promise<Stack> {
  if (!existsSync(path.join(ROOT, 'build', 'index.html'))) {
    throw new Error('build/ is missing: run "npm run build" before the browser tests');
  }
  const sitePort = await freePort();
  const siteUrl = `http://localhost:${sitePort}`;
  let provider: LocalProvider;
  const providerPort = Number(process.env.LOCAL_AUTH_PORT ?? DEFAULT_LOCAL_AUTH_PORT);
  try {
    provider = await startLocalProvider({port: providerPort, clientId: LOCAL_CLIENT_ID, allowedOrigins: [siteUrl]});
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
    const site = spawn(path.join(ROOT, 'node_modules', '.bin', 'docusaurus'), ['serve', '--port', String(sitePort), '--host', 'localhost', '--no-open'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {...process.env, WORKOS_CLIENT_ID: '', AUTH_DISABLED: ''},
    });
    try {
      await waitForHttp(`${siteUrl}/`, site);
    } catch (error) {
      site.kill();
      await provider.close();
      throw error;
    }
    stopSite = async () => {
      const exited = new Promise((resolve) => site.once('exit', resolve));
      site.kill('SIGTERM');
      await exited;
    };
  }
  return {
    siteUrl,
    providerUrl: provider.url,
    injectFault: async (fault) => {
      const response = await fetch(`${provider.url}/__local/fault`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(fault)});
      if (!response.ok) {
        throw new Error(`fault injection failed: ${response.status}`);
      }
    },
    providerStats: async () => (await (await fetch(`${provider.url}/__local/stats`)).json()) as {authenticateCalls: number; maxInFlight: number},
    stop: async () => {
      await stopSite();
      await provider.close();
    },
  };
}
