/**
 * Performance benchmark (not part of `npm test`): builds the site and the
 * stock reference (bench/reference) in the same run, then runs Lighthouse in
 * Debian's Chromium on the home page and a long doc page, mobile and desktop
 * presets, 3 runs each, and keeps the median. Writes bench/results.json and
 * the table between the BENCH markers in README.md.
 *
 *   npm run bench            (about 10 minutes on 2 cores)
 *
 * Plain ESM JavaScript because Lighthouse is ESM-only.
 */
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// The same pages the size budget measures (scripts/budget.ts).
const PAGES = JSON.parse(readFileSync(path.join(ROOT, 'bench', 'pages.json'), 'utf8'));
const BUILDS = {
  portal: {siteDir: '.', outDir: path.join(ROOT, 'build-bench')},
  reference: {siteDir: 'bench/reference', outDir: path.join(ROOT, 'build-reference')},
};

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

/** Builds one site, recording wall time and peak memory (GNU time, when installed). */
function build(name, {siteDir, outDir}) {
  const docusaurus = path.join(ROOT, 'node_modules', '.bin', 'docusaurus');
  const args = ['build', siteDir, '--out-dir', outDir];
  const timed = existsSync('/usr/bin/time');
  const started = Date.now();
  const result = timed
    ? spawnSync('/usr/bin/time', ['-f', 'PEAK_RSS_KB=%M', docusaurus, ...args], {cwd: ROOT, encoding: 'utf8'})
    : spawnSync(docusaurus, args, {cwd: ROOT, encoding: 'utf8'});
  if (result.status !== 0) {
    throw new Error(`${name} build failed:\n${result.stderr}`);
  }
  const peak = /PEAK_RSS_KB=(\d+)/.exec(result.stderr ?? '')?.[1];
  return {buildSeconds: (Date.now() - started) / 1000, buildPeakMemoryMB: peak ? Math.round(Number(peak) / 1024) : null};
}

async function serve(outDir) {
  const port = await freePort();
  const child = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'docusaurus'),
    ['serve', '--dir', outDir, '--port', String(port), '--host', 'localhost', '--no-open'],
    {
      cwd: ROOT,
      stdio: 'ignore',
    },
  );
  const url = `http://localhost:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      if ((await fetch(url)).ok) {
        return {url, stop: () => child.kill()};
      }
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`server for ${outDir} did not start`);
}

/** Chromium with a DevTools port for Lighthouse; resolves with the port. */
async function launchChrome() {
  const port = await freePort();
  const flags = JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'chromium-flags.json'), 'utf8'));
  const child = spawn(CHROME, [...flags, `--remote-debugging-port=${port}`, `--user-data-dir=/tmp/portal-bench-${port}`, 'about:blank'], {
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) {
        return {port, stop: () => child.kill()};
      }
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('Chromium did not open its DevTools port');
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
    machine: `${process.platform} ${process.arch}, node ${process.version}`,
    builds: {},
  };
  for (const [name, options] of Object.entries(BUILDS)) {
    console.log(`bench: building ${name}…`);
    results.builds[name] = {...build(name, options), pages: {}};
    const index = path.join(options.outDir, 'search-index.json');
    results.builds[name].searchIndexGzipKB = existsSync(index) ? Math.round(gzipSync(readFileSync(index)).length / 1024) : null;
  }
  const chrome = await launchChrome();
  try {
    for (const [name, options] of Object.entries(BUILDS)) {
      const server = await serve(options.outDir);
      try {
        for (const [pageName, route] of Object.entries(PAGES)) {
          for (const preset of ['mobile', 'desktop']) {
            const runs = [];
            for (let run = 0; run < RUNS; run += 1) {
              runs.push(await audit(`${server.url}${route}`, preset, chrome.port));
            }
            results.builds[name].pages[`${pageName}.${preset}`] = medianOf(runs);
            console.log(`bench: ${name} ${pageName} ${preset}`, results.builds[name].pages[`${pageName}.${preset}`]);
          }
        }
      } finally {
        server.stop();
      }
    }
  } finally {
    chrome.stop();
  }
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
    `Measured ${results.date.slice(0, 10)}, ${results.runs} Lighthouse runs each (median), ${results.machine}. Portal first, stock reference in brackets.`,
    '',
    '| Page / preset | Performance | Accessibility | Best practices | SEO | LCP ms | TBT ms | CLS |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Build: ${portal.buildSeconds.toFixed(1)} s, peak ${portal.buildPeakMemoryMB ?? '?'} MB (reference ${reference.buildSeconds.toFixed(1)} s, ${reference.buildPeakMemoryMB ?? '?'} MB). Search index: ${portal.searchIndexGzipKB} KB gzip.`,
  ].join('\n');
  const readmePath = path.join(ROOT, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const updated = readme.replace(/<!-- BENCH:START -->[\s\S]*<!-- BENCH:END -->/, `<!-- BENCH:START -->\n${table}\n<!-- BENCH:END -->`);
  writeFileSync(readmePath, updated);
  console.log(table);
}

if (!statSync(CHROME, {throwIfNoEntry: false})) {
  console.error(`Chromium not found at ${CHROME}. Install it with "apt-get install chromium" or set CHROME_PATH.`);
  process.exit(1);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
