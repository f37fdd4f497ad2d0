/**
 * The reference server of `BENCH_FLOOR=1 npm run bench:serve`: bare
 * `node:http` (no framework, no routing, no session, no decision) answering
 * every request with one fixed response, in FLOOR_WORKERS processes
 * (node:cluster, like the gate's PORTAL_WORKERS). What it sends is a bound
 * on what any design built on Node's HTTP server can reach on this machine:
 *
 *   FLOOR_RESPONSE=<json file>  the status, headers and (base64) body copied
 *                               from a real gate answer: the same bytes
 *   no FLOOR_RESPONSE           200 with no body: the bound for a design where
 *                               Node only decides and nginx sends the file
 *
 * Started by scripts/bench-serve.ts with `node -r ts-node/register/transpile-only`
 * (cluster workers inherit that); FLOOR_PORT is the loopback port.
 */
import cluster from 'node:cluster';
import {readFileSync} from 'node:fs';
import http from 'node:http';

/** What the bench writes to FLOOR_RESPONSE. */
export interface FloorResponse {
  status: number;
  headers: Record<string, string | string[]>;
  bodyBase64: string;
}

const workers = Number(process.env.FLOOR_WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  for (let index = 0; index < workers; index += 1) {
    cluster.fork();
  }
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) {
      worker?.process.kill('SIGTERM');
    }
    process.exit(0);
  });
} else {
  const fixed: FloorResponse = process.env.FLOOR_RESPONSE
    ? (JSON.parse(readFileSync(process.env.FLOOR_RESPONSE, 'utf8')) as FloorResponse)
    : {status: 200, headers: {'content-length': '0'}, bodyBase64: ''};
  const body = Buffer.from(fixed.bodyBase64, 'base64');
  http
    .createServer((_request, response) => {
      response.writeHead(fixed.status, fixed.headers);
      response.end(body);
    })
    .listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
}
