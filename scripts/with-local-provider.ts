/**
 * Runs a command (e.g. `docusaurus start`) with the local sign-in provider
 * beside it when no WORKOS_CLIENT_ID is configured, so sign-in works on a
 * fresh clone without a WorkOS account. With a client id, or with
 * AUTH_DISABLED=true, it just runs the command.
 *
 *   ts-node scripts/with-local-provider.ts docusaurus start
 */
import {spawn} from 'node:child_process';
import {DEFAULT_LOCAL_AUTH_PORT, LOCAL_CLIENT_ID} from '../src/auth/config';
import {localAllowedOrigins, startLocalProvider, type LocalProvider} from './local-provider/server';

/** The port `docusaurus start` serves the site on. */
const DEV_SERVER_PORT = 3000;

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error('usage: with-local-provider <command> [args...]');
    process.exit(2);
  }
  const env = process.env;
  let provider: LocalProvider | null = null;
  if (!env.WORKOS_CLIENT_ID && env.AUTH_DISABLED !== 'true') {
    const port = Number(env.LOCAL_AUTH_PORT ?? DEFAULT_LOCAL_AUTH_PORT);
    try {
      provider = await startLocalProvider({
        port,
        clientId: LOCAL_CLIENT_ID,
        allowedOrigins: localAllowedOrigins(env, DEV_SERVER_PORT),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      console.error(
        code === 'EADDRINUSE'
          ? `Local sign-in provider: port ${port} is in use. Stop the other process or set LOCAL_AUTH_PORT.`
          : `Local sign-in provider failed to start: ${String(error)}`,
      );
      process.exit(1);
    }
    console.log(
      `[local sign-in] provider running at ${provider.url} (client id ${LOCAL_CLIENT_ID}); set WORKOS_CLIENT_ID to use WorkOS instead.`,
    );
  }

  const child = spawn(command, args, {stdio: 'inherit', env, shell: false});
  const stop = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', async (code, signal) => {
    await provider?.close();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

void main();
