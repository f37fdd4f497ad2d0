/**
 * Performance benchmark (not part of `npm test`), side by side with the stock
 * reference (bench/reference: the same documentation, classic theme, nothing
 * added) in the same run:
 *
 * 1. Build times, cold (no bundler cache, no generated files): this site's
 *    `npm run build` (both audiences and the gate) and the reference's
 *    `docusaurus build`, one after the other, BENCH_BUILD_PAIRS times
 *    (default 3), and the median of the pairs' ratios: on a shared 2-core
 *    machine one cold build varies by 20 % from run to run, more than a
 *    change worth measuring.
 * 2. Lighthouse in Debian's Chromium on the pages of bench/pages.json, mobile
 *    and desktop presets, BENCH_RUNS runs each (default 3), medians. Both
 *    sites are served as production serves them: by the gate
 *    (`npm run serve`), with its compression, caching and
 *    security headers; the reference gets its own headers (its inline scripts
 *    hashed the same way) and a manifest with no restricted pages.
 *
 * Writes bench/results.json and the table between the BENCH markers in
 * bench/README.md ("Front-end performance").
 *
 *   npm run bench            (about 12 minutes on 2 cores)
 *
 * Plain ESM JavaScript because Lighthouse is ESM-only (so it keeps its own
 * free-port helper instead of scripts/support/ports.ts).
 */
import {spawn, spawnSync} from 'node:child_process';
import {cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {once} from 'node:events';
import {createServer} from 'node:net';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BUILD_PAIRS = Number(process.env.BENCH_BUILD_PAIRS ?? 3);
// The same pages the size budget measures (scripts/budget.ts).
const PAGES = JSON.parse(readFileSync(path.join(ROOT, 'bench', 'pages.json'), 'utf8'));
const PORTAL_BUILD = path.join(ROOT, 'build');
/** The reference, laid out as the gate expects a build: public/, members/ (the same files) and a manifest. */
const REFERENCE_BUILD = path.join(ROOT, 'build-reference');
// `npm run serve`'s entry: the gate, with the local sign-in provider beside it for the portal's build.
const GATE_ENTRY = path.join('build', 'server', 'scripts', 'local-provider', 'serve.js');

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Nothing a previous build left that would make this one warm. */
function clearBuildCaches() {
  for (const dir of ['node_modules/.cache', '.docusaurus', 'bench/reference/.docusaurus', 'bench/reference/node_modules/.cache']) {
    rmSync(path.join(ROOT, dir), {recursive: true, force: true});
  }
}

/** Runs a build command cold, recording wall time and peak memory (GNU time, when installed). */
function timedBuild(name, command, args) {
  clearBuildCaches();
  const timed = existsSync('/usr/bin/time');
  const started = process.hrtime.bigint();
  const result = timed
    ? spawnSync('/usr/bin/time', ['-f', 'PEAK_RSS_KB=%M', command, ...args], {cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024})
    : spawnSync(command, args, {cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  if (result.status !== 0) {
    throw new Error(`${name} build failed:\n${result.stdout}\n${result.stderr}`);
  }
  const peak = /PEAK_RSS_KB=(\d+)/.exec(result.stderr ?? '')?.[1];
  return {
    buildSeconds: Number(process.hrtime.bigint() - started) / 1e9,
    buildPeakMemoryMB: peak ? Math.round(Number(peak) / 1024) : null,
  };
}

function buildPortal() {
  return timedBuild('portal', 'npm', ['run', 'build']);
}

function buildReference() {
  const site = path.join(REFERENCE_BUILD, 'site');
  rmSync(REFERENCE_BUILD, {recursive: true, force: true});
  const times = timedBuild('reference', path.join(ROOT, 'node_modules', '.bin', 'docusaurus'), [
    'build',
    'bench/reference',
    '--out-dir',
    site,
  ]);
  // The same server as the portal: the gate, with headers for this build's own inline scripts.
  const headers = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'ts-node'),
    [
      '-P',
      'test/tsconfig.json',
      '--transpile-only',
      '-e',
      `const {writeSecurityHeaders} = require('./scripts/security-headers'); writeSecurityHeaders(${JSON.stringify(site)});`,
    ],
    {cwd: ROOT, encoding: 'utf8'},
  );
  if (headers.status !== 0) {
    throw new Error(`security headers for the reference failed:\n${headers.stderr}`);
  }
  for (const audience of ['public', 'members']) {
    cpSync(site, path.join(REFERENCE_BUILD, audience), {recursive: true});
  }
  writeFileSync(
    path.join(REFERENCE_BUILD, 'access-manifest.json'),
    `${JSON.stringify({version: 1, baseUrl: '/', pages: [], searchIndexes: [], buildId: 'bench-reference'}, null, 2)}\n`,
  );
  return times;
}

/** The gate on a free port, serving `buildDir`; only the portal's starts the local sign-in provider. */
async function serve(buildDir, {signIn}) {
  const port = await freePort();
  const child = spawn(process.execPath, [GATE_ENTRY], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      BUILD_DIR: buildDir,
      PORTAL_LOG_LEVEL: 'warn',
      ...(signIn ? {} : {AUTH_DISABLED: 'true'}),
    },
  });
  const url = `http://localhost:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      if ((await fetch(url)).ok) {
        return {url, stop: () => child.kill('SIGTERM')};
      }
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`the gate for ${buildDir} did not start`);
}

/** Chromium with a DevTools port for Lighthouse; resolves with the port. */
async function launchChrome() {
  const port = await freePort();
  const flags = JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'chromium-flags.json'), 'utf8'));
  const profile = `/tmp/portal-bench-${port}`;
  const child = spawn(CHROME, [...flags, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors = `${errors}${chunk}`.slice(-2000);
  });
  // A cold start right after the builds can take a while on a small machine.
  for (let attempt = 0; attempt < 600; attempt += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) {
        return {
          port,
          // Chromium writes to its profile while it shuts down: remove it once the process has gone.
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) {
              const exited = once(child, 'exit');
              child.kill();
              const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
              await exited;
              clearTimeout(forced);
            }
            rmSync(profile, {recursive: true, force: true, maxRetries: 5, retryDelay: 200});
          },
        };
      }
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`Chromium did not open its DevTools port within 60 s:\n${errors}`);
}

async function audit(url, preset, chromePort) {
  const flags = {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  const {categories, audits} = result.lhr;
  if (result.lhr.runtimeError) {
    throw new Error(`Lighthouse could not audit ${url}: ${result.lhr.runtimeError.message}`);
  }
  return {
    performance: Math.round(categories.performance.score * 100),
    accessibility: Math.round(categories.accessibility.score * 100),
    bestPractices: Math.round(categories['best-practices'].score * 100),
    seo: Math.round(categories.seo.score * 100),
    lcpMs: Math.round(audits['largest-contentful-paint'].numericValue),
    tbtMs: Math.round(audits['total-blocking-time'].numericValue),
    cls: Number(audits['cumulative-layout-shift'].numericValue.toFixed(3)),
  };
}

function medianOf(runs) {
  return Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(runs.map((run) => run[key]))]));
}

async function main() {
  const results = {
    date: new Date().toISOString(),
    runs: RUNS,
    machine: `${process.platform} ${process.arch}, ${(await import('node:os')).cpus().length} CPUs, node ${process.version}`,
    served: 'production gate (npm run serve: gzip, caching and security headers) for both sites',
    builds: {},
  };
  // Pairs of cold builds, the reference first, then the portal, so that
  // both builds of a pair see the machine in the same state. The portal's
  // last build is the one measured below.
  const pairs = [];
  for (let pair = 1; pair <= BUILD_PAIRS; pair += 1) {
    console.log(`bench: cold builds, pair ${pair} of ${BUILD_PAIRS}: the stock reference…`);
    const reference = buildReference();
    console.log(`bench: cold builds, pair ${pair} of ${BUILD_PAIRS}: the portal, both audiences and the gate (npm run build)…`);
    const portal = buildPortal();
    const ratio = portal.buildSeconds / reference.buildSeconds;
    console.log(
      `bench: portal ${portal.buildSeconds.toFixed(1)} s, reference ${reference.buildSeconds.toFixed(1)} s (${ratio.toFixed(2)}×)`,
    );
    pairs.push({reference, portal, ratio});
  }
  const summary = (name) => ({
    buildSeconds: median(pairs.map((pair) => pair[name].buildSeconds)),
    buildSecondsRuns: pairs.map((pair) => Number(pair[name].buildSeconds.toFixed(2))),
    buildPeakMemoryMB: Math.max(...pairs.map((pair) => pair[name].buildPeakMemoryMB ?? 0)) || null,
    pages: {},
  });
  results.builds.reference = summary('reference');
  results.builds.portal = summary('portal');
  results.buildRatios = pairs.map((pair) => Number(pair.ratio.toFixed(2)));
  results.buildRatio = median(results.buildRatios);
  console.log(
    `bench: cold builds, medians: portal ${results.builds.portal.buildSeconds.toFixed(1)} s, reference ${results.builds.reference.buildSeconds.toFixed(1)} s; ratios ${results.buildRatios.join(', ')} (median ${results.buildRatio}×)`,
  );
  for (const [name, dir] of [
    ['portal', PORTAL_BUILD],
    ['reference', REFERENCE_BUILD],
  ]) {
    const index = path.join(dir, 'public', 'search-index.json');
    results.builds[name].searchIndexGzipKB = existsSync(index) ? Math.round(gzipSync(readFileSync(index)).length / 1024) : null;
  }
  const chrome = await launchChrome();
  try {
    for (const [name, dir] of [
      ['portal', PORTAL_BUILD],
      ['reference', REFERENCE_BUILD],
    ]) {
      const server = await serve(dir, {signIn: name === 'portal'});
      try {
        for (const [pageName, route] of Object.entries(PAGES)) {
          for (const preset of ['mobile', 'desktop']) {
            const runs = [];
            for (let run = 0; run < RUNS; run += 1) {
              runs.push(await audit(`${server.url}${route}`, preset, chrome.port));
            }
            results.builds[name].pages[`${pageName}.${preset}`] = {...medianOf(runs), tbtRunsMs: runs.map((run) => run.tbtMs)};
            console.log(`bench: ${name} ${pageName} ${preset}`, results.builds[name].pages[`${pageName}.${preset}`]);
          }
        }
      } finally {
        server.stop();
      }
    }
  } finally {
    await chrome.stop();
  }
  mkdirSync(path.join(ROOT, 'bench'), {recursive: true});
  writeFileSync(path.join(ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeReadmeTable(results);
}

function writeReadmeTable(results) {
  const rows = [];
  for (const key of Object.keys(results.builds.portal.pages)) {
    const ours = results.builds.portal.pages[key];
    const reference = results.builds.reference.pages[key];
    rows.push(
      `| ${key} | ${ours.performance} (${reference.performance}) | ${ours.accessibility} (${reference.accessibility}) | ${ours.bestPractices} (${reference.bestPractices}) | ${ours.seo} (${reference.seo}) | ${ours.lcpMs} (${reference.lcpMs}) | ${ours.tbtMs} (${reference.tbtMs}) | ${ours.cls} (${reference.cls}) |`,
    );
  }
  const {portal, reference} = results.builds;
  const table = [
    `Measured ${results.date.slice(0, 10)}, ${results.runs} Lighthouse runs each (median), ${results.machine}; ${results.served}. Portal first, stock reference in brackets.`,
    '',
    '| Page / preset | Performance | Accessibility | Best practices | SEO | LCP ms | TBT ms | CLS |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Cold builds, ${results.buildRatios.length} pairs side by side (median): ${portal.buildSeconds.toFixed(1)} s for both audiences and the gate (\`npm run build\`; ${portal.buildSecondsRuns.join(', ')} s), peak ${portal.buildPeakMemoryMB ?? '?'} MB; stock reference ${reference.buildSeconds.toFixed(1)} s (${reference.buildSecondsRuns.join(', ')} s), ${reference.buildPeakMemoryMB ?? '?'} MB. Ratio per pair ${results.buildRatios.map((ratio) => `${ratio}×`).join(', ')}: **median ${results.buildRatio}×**. Search index: ${portal.searchIndexGzipKB} KB gzip.`,
  ].join('\n');
  console.log(table);
  const readmePath = path.join(ROOT, 'bench', 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const markers = /<!-- BENCH:START -->[\s\S]*<!-- BENCH:END -->/;
  if (!markers.test(readme)) {
    throw new Error(`${readmePath} has no BENCH:START/BENCH:END markers to write the table between`);
  }
  writeFileSync(readmePath, readme.replace(markers, `<!-- BENCH:START -->\n${table}\n<!-- BENCH:END -->`));
}

if (!statSync(CHROME, {throwIfNoEntry: false})) {
  console.error(`Chromium not found at ${CHROME}. Install it with "apt-get install chromium" or set CHROME_PATH.`);
  process.exit(1);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
