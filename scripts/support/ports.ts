/** A TCP port that was free on loopback a moment ago (the OS picks it). */
import {createServer} from 'node:net';

export function freePort(): Promise<number> {
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

/**
 * Polls `url` until it answers (and `ready` accepts the answer), or throws:
 * when `exited()` reports that the process behind it has ended, or after
 * `attempts` tries `intervalMs` apart.
 */
export async function waitForHttp(
  url: string,
  {
    ready = () => true,
    exited = () => null,
    attempts = 200,
    intervalMs = 50,
  }: {ready?: (response: Response) => boolean; exited?: () => string | null; attempts?: number; intervalMs?: number} = {},
): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const ended = exited();
    if (ended) {
      throw new Error(`${url} will not answer: ${ended}`);
    }
    const answered = await fetch(url).then(ready, () => false);
    if (answered) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${url} did not answer within ${(attempts * intervalMs) / 1000} s`);
}
