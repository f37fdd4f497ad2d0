/**
 * `npm run bench:serve` (after `npm run build`; needs wrk and nginx:
 * `apt-get install wrk nginx`): the two production servers on this machine,
 * on the same page, both with compression (`Accept-Encoding: gzip, br`;
 * both send the siblings the build wrote):
 *
 *   nginx, deploy/nginx.conf, build/public        the public page (reference)
 *   the gate, node build/server/server/main.js     a member's page
 *
 * Four figures: member vs nginx with one process each, and with one per CPU
 * each (nginx `worker_processes auto`, gate `PORTAL_WORKERS=auto`). Each pair
 * runs BENCH_ROUNDS times, nginx and gate interleaved, so load from other
 * work on the machine hits both; medians and the spread (min–max) of the
 * per-round ratios are reported. Then the gate's memory: RSS of one process
 * after start (and the time from spawn to ready), and after serving
 * BENCH_PAGES different pages as a member.
 *
 * BENCH_THROUGHPUT=0 measures memory and start only. BENCH_BUILD_DIR (default build/) measures another build, e.g. one with
 * generated pages (scripts/generate-pages.ts in a site copy). Records
 * bench/serve-results-<pages>.json and prints a Markdown table for
 * bench/README.md. Not part of `npm test`: speed targets live here.
 */
import {execFile, spawn, type ChildProcess} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {readFileSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {exportJWK, generateKeyPair, SignJWT} from 'jose';
import type {AccessManifest} from '../plugins/access/manifest';
import {freePort, waitForHttp} from './support/ports';
import {startNginx} from './serve-nginx';

const ROOT = path.resolve(__dirname, '..');
const execFileAsync = promisify(execFile);
const BUILD_DIR = path.resolve(process.env.BENCH_BUILD_DIR ?? path.join(ROOT, 'build'));
const PAGE = '/docs/internal-developers/services/api-gateway';
const DURATION = process.env.BENCH_DURATION ?? '8s';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Different pages a member reads before the second memory figure. */
const PAGES_READ = Number(process.env.BENCH_PAGES ?? 300);
const ISSUER = 'http://127.0.0.1/user_management/client_bench';
const COMPRESSED = {'Accept-Encoding': 'gzip, br'};
/** What the issue asks: a member's page at no less than 0.9× nginx's rate for the public page. */
export const TARGET_RATIO = 0.9;

interface Run {
  requestsPerSecond: number;
  p50: string;
  p99: string;
  non2xx: number;
}

/** Run without blocking this process: the key endpoint the gate refreshes from lives here. */
async function wrk(url: string, headers: Record<string, string>, duration = DURATION): Promise<Run> {
  const args = [
    '-t2',
    `-c${CONNECTIONS}`,
    `-d${duration}`,
    '--latency',
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    url,
  ];
  const out = await execFileAsync('wrk', args, {encoding: 'utf8'}).then(
    (result) => result.stdout,
    (error: Error) => {
      throw new Error(`wrk failed (install it with "apt-get install wrk"): ${error.message}`);
    },
  );
  const latency = (percent: string) => new RegExp(`\\s${percent}%\\s+(\\S+)`).exec(out)?.[1] ?? '?';
  return {
    requestsPerSecond: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])),
    p50: latency('50'),
    p99: latency('99'),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Resident memory of a process, MB (Linux). */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
}

function startGate(workers: string, keyPort: number, port: number): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'build', 'server', 'server', 'main.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      BUILD_DIR,
      WORKOS_CLIENT_ID: 'client_bench',
      WORKOS_ORGANIZATION_ID: 'org_bench',
      PORTAL_SESSION_SECRET: randomBytes(48).toString('base64'),
      PORTAL_JWKS_URL: `http://127.0.0.1:${keyPort}/jwks`,
      PORTAL_TOKEN_ISSUER: ISSUER,
      PORTAL_WORKERS: workers,
      PORTAL_LOG_LEVEL: 'error',
    },
  });
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  await waitForHttp(`${url}/_portal/health/ready`, {
    ready: (response) => response.ok,
    exited: () => (child.exitCode === null ? null : `the gate exited with ${child.exitCode}`),
  });
}

function stopGate(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function memberCookie(gateUrl: string, privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']): Promise<string> {
  const accessToken = await new SignJWT({
    sid: 'bench',
    sub: 'user_bench',
    org_id: 'org_bench',
    role: 'member',
    permissions: Array.from({length: 300}, (_, i) => `p${i}:read`),
  })
    .setProtectedHeader({alg: 'RS256', kid: 'bench'})
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
  const session = await fetch(`${gateUrl}/_portal/session`, {
    method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({accessToken}),
  });
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!session.ok || !cookie.startsWith('portal_session=')) {
    throw new Error(`could not start a member session: ${session.status}`);
  }
  return cookie;
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(path.join(BUILD_DIR, 'access-manifest.json'), 'utf8')) as AccessManifest;
  const pageCount = manifest.pages.length;
  const keys = await generateKeyPair('RS256');
  const jwks = JSON.stringify({keys: [{...(await exportJWK(keys.publicKey)), kid: 'bench', alg: 'RS256'}]});
  const keyServer = http.createServer((_request, response) => response.writeHead(200, {'Content-Type': 'application/json'}).end(jwks));
  const keyPort = await freePort();
  await new Promise<void>((resolve) => keyServer.listen(keyPort, '127.0.0.1', resolve));
  console.log(
    `[bench:serve] ${BUILD_DIR}: ${pageCount} pages; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  try {
    // Memory and start, one process.
    const memory: {startToReadyMs: number[]; rssAfterStartMb: number[]; rssAfterPagesMb: number[]} = {
      startToReadyMs: [],
      rssAfterStartMb: [],
      rssAfterPagesMb: [],
    };
    const routes = manifest.pages.map((page) => page.route);
    const step = Math.max(1, Math.floor(routes.length / PAGES_READ));
    const sample = routes.filter((_route, index) => index % step === 0).slice(0, PAGES_READ);
    for (let round = 0; round < ROUNDS; round += 1) {
      const port = await freePort();
      const started = performance.now();
      const gate = startGate('1', keyPort, port);
      const url = `http://127.0.0.1:${port}`;
      try {
        await waitReady(url, gate);
        memory.startToReadyMs.push(Math.round(performance.now() - started));
        memory.rssAfterStartMb.push(rssMb(gate.pid as number));
        const cookie = await memberCookie(url, keys.privateKey);
        for (const route of sample) {
          const response = await fetch(`${url}${route}`, {headers: {Cookie: cookie, ...COMPRESSED}});
          await response.arrayBuffer();
        }
        memory.rssAfterPagesMb.push(rssMb(gate.pid as number));
      } finally {
        await stopGate(gate);
      }
    }
    console.log(
      `[bench:serve] one gate process: ready in ${memory.startToReadyMs.join(', ')} ms; RSS after start ${memory.rssAfterStartMb.join(', ')} MB, after ${sample.length} pages ${memory.rssAfterPagesMb.join(', ')} MB`,
    );

    // Throughput: nginx's public page vs a member's page, interleaved.
    const throughput: Record<string, {nginx: Run[]; gate: Run[]; ratios: number[]}> = {};
    // BENCH_THROUGHPUT=0: memory and start only.
    for (const workers of process.env.BENCH_THROUGHPUT === '0' ? [] : ['1', 'auto']) {
      const nginxServer = await startNginx(await freePort(), {
        workers: workers === 'auto' ? 'auto' : Number(workers),
        publicDir: path.join(BUILD_DIR, 'public'),
      });
      const nginxUrl = nginxServer.url.replace('//localhost:', '//127.0.0.1:');
      const port = await freePort();
      const gate = startGate(workers, keyPort, port);
      const gateUrl = `http://127.0.0.1:${port}`;
      try {
        await waitReady(gateUrl, gate);
        const member = {Cookie: await memberCookie(gateUrl, keys.privateKey), ...COMPRESSED};
        const check = await fetch(`${gateUrl}${PAGE}`, {headers: member});
        if (!check.ok) {
          throw new Error(`the gate answered ${check.status} for ${PAGE}`);
        }
        // Warm both (JIT, page cache) before measuring.
        for (const [url, headers] of [
          [`${nginxUrl}${PAGE}`, COMPRESSED],
          [`${gateUrl}${PAGE}`, member],
        ] as const) {
          await wrk(url, headers, '2s');
        }
        const runs = {nginx: [] as Run[], gate: [] as Run[], ratios: [] as number[]};
        for (let round = 0; round < ROUNDS; round += 1) {
          // Alternate which goes first.
          let nginxRun: Run;
          let gateRun: Run;
          if (round % 2 === 0) {
            nginxRun = await wrk(`${nginxUrl}${PAGE}`, COMPRESSED);
            gateRun = await wrk(`${gateUrl}${PAGE}`, member);
          } else {
            gateRun = await wrk(`${gateUrl}${PAGE}`, member);
            nginxRun = await wrk(`${nginxUrl}${PAGE}`, COMPRESSED);
          }
          runs.nginx.push(nginxRun);
          runs.gate.push(gateRun);
          runs.ratios.push(round2(gateRun.requestsPerSecond / nginxRun.requestsPerSecond));
          console.log(
            `[bench:serve] ${workers} process(es), round ${round + 1}: nginx ${nginxRun.requestsPerSecond} req/s (p99 ${nginxRun.p99}), member via gate ${gateRun.requestsPerSecond} req/s (p99 ${gateRun.p99})${nginxRun.non2xx + gateRun.non2xx ? `, ${nginxRun.non2xx + gateRun.non2xx} non-2xx` : ''}`,
          );
        }
        throughput[workers] = runs;
      } finally {
        await stopGate(gate);
        await nginxServer.stop();
      }
    }

    const summary = Object.entries(throughput).map(([workers, runs]) => ({
      workers: workers === 'auto' ? `one per CPU (${os.cpus().length})` : 'one',
      nginxMedian: median(runs.nginx.map((run) => run.requestsPerSecond)),
      gateMedian: median(runs.gate.map((run) => run.requestsPerSecond)),
      ratioMedian: median(runs.ratios),
      ratioRange: [Math.min(...runs.ratios), Math.max(...runs.ratios)],
    }));
    const results = {
      measured: new Date().toISOString().slice(0, 16),
      machine: `${os.platform()} ${os.arch()}, ${os.cpus().length} cores, node ${process.version}, load average at start ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      pages: pageCount,
      page: PAGE,
      wrk: `2 threads, ${CONNECTIONS} connections, ${DURATION} each, ${ROUNDS} interleaved rounds, Accept-Encoding: gzip, br`,
      memory: {...memory, pagesRead: sample.length},
      throughput,
      summary,
      target: TARGET_RATIO,
    };
    writeFileSync(path.join(ROOT, 'bench', `serve-results-${pageCount}pages.json`), `${JSON.stringify(results, null, 2)}\n`);
    const table = [
      `${pageCount} pages, measured ${results.measured} (${results.machine}); wrk ${results.wrk}.`,
      '',
      '| Processes | nginx, public page (median req/s) | gate, member page (median req/s) | member ÷ nginx, median (min–max of rounds) |',
      '| --- | --- | --- | --- |',
      ...summary.map(
        (row) =>
          `| ${row.workers} | ${row.nginxMedian} | ${row.gateMedian} | ${row.ratioMedian} (${row.ratioRange[0]}–${row.ratioRange[1]}) |`,
      ),
      '',
      `One gate process: ready ${median(memory.startToReadyMs)} ms after spawn (${memory.startToReadyMs.join(', ')}); RSS ${median(memory.rssAfterStartMb)} MB after start (${memory.rssAfterStartMb.join(', ')}), ${median(memory.rssAfterPagesMb)} MB after reading ${sample.length} different pages as a member (${memory.rssAfterPagesMb.join(', ')}).`,
    ].join('\n');
    console.log(`\n${table}`);
  } finally {
    keyServer.close();
  }
}

main().catch((error: unknown) => {
  console.error(`[bench:serve] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
