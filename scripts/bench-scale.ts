/**
 * `npm run bench:scale -- <pages>`: what the portal's build costs over stock
 * Docusaurus as the handbook grows. Not part of `npm test` (which only checks
 * that it runs): speed and memory targets live here, not in timed tests.
 *
 * In a throwaway copy of the repository with <pages> generated pages added
 * (scripts/generate-pages.ts; 0 = the handbook alone) and a bundler cache of
 * its own, three builds run cold (no bundler cache, no generated files), one
 * after the other, BENCH_PAIRS times (default 1; interleaved, so a machine
 * that slows down slows all three alike):
 *
 *   reference           stock Docusaurus on the same docs (bench/reference)
 *   reference + search  the same with the portal's search indexing
 *                       (Pagefind over every doc page, plugins/search)
 *   portal              `npm run build`: both audiences, access, search, gate
 *
 * For each: wall time, CPU time (user + system of every process the build
 * ran) and peak memory (the largest sum of the resident memory of the
 * build's processes, sampled every 100 ms). Prints medians, the spread
 * (min–max) and the portal's ratios to both references: "reference + search"
 * isolates what access control adds. BENCH_RECORD=1 also writes the medians
 * to bench/scale-results.json under the page count. BENCH_COMPARE_REF=<commit>
 * adds a fourth build, the portal as it was at that commit, in the same
 * rounds: a change's gain measured side by side.
 *
 * BENCH_DEV=1 then measures the writers' loop the same way, the reference's
 * `docusaurus start` against the portal's `npm start` (cold: no bundler
 * cache): seconds until the dev server answers a doc page, then, with that
 * page open in Chromium, seconds from saving an edit of its Markdown to the
 * new words on screen (with BENCH_COMPARE_REF, the portal at that commit
 * too). BENCH_ONLY_DEV=1 measures the writers' loop alone, without the
 * builds (which take most of the bench's time at 1,000 pages).
 */
import {spawn} from 'node:child_process';
import {appendFileSync, createWriteStream, existsSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {Page} from 'playwright-core';
import {generatePages} from './generate-pages';
import {launchBrowser} from './support/browser';
import {freePort, waitForHttp} from './support/ports';
import {copyCommit, copySite, ROOT} from './support/siteCopy';

interface Measure {
  wallSeconds: number;
  cpuSeconds: number;
  peakBytes: number;
}

interface BuildKind {
  name: string;
  command: string[];
  env: Record<string, string>;
  /** What a cold build removes first (relative to the site copy). */
  outputs: string[];
  /** The site copy it builds in. */
  siteDir: string;
}

const PAGE_SIZE = 4096;

/** Every live process's parent and resident bytes, from /proc. */
function processTable(): Map<number, {parent: number; rssBytes: number}> {
  const table = new Map<number, {parent: number; rssBytes: number}>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses: fields follow its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), {parent: Number(fields[1]), rssBytes: Number(fields[21]) * PAGE_SIZE});
    } catch {
      // The process ended between listing and reading.
    }
  }
  return table;
}

function treeRssBytes(root: number): number {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, {parent}] of table) {
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    total += table.get(pid)?.rssBytes ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Runs a build under bash, whose `times` reports the CPU time of every process it waited for. */
function measure(kind: BuildKind, log: string): Promise<Measure> {
  const {siteDir} = kind;
  for (const output of kind.outputs) {
    rmSync(path.join(siteDir, output), {recursive: true, force: true});
  }
  const started = performance.now();
  const child = spawn('bash', ['-c', '"$@"; status=$?; times >&3; exit $status', 'bench', ...kind.command], {
    cwd: siteDir,
    env: {...process.env, ...kind.env, CI: 'true', FORCE_COLOR: '0'},
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const logStream = createWriteStream(log, {flags: 'a'});
  child.stdout?.pipe(logStream, {end: false});
  child.stderr?.pipe(logStream, {end: false});
  let times = '';
  child.stdio[3]?.on('data', (chunk: Buffer) => (times += chunk.toString()));
  let peakBytes = 0;
  const sampler = setInterval(() => {
    if (child.pid !== undefined) {
      peakBytes = Math.max(peakBytes, treeRssBytes(child.pid));
    }
  }, 100);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      const wallSeconds = (performance.now() - started) / 1000;
      if (code !== 0) {
        reject(new Error(`bench:scale: the ${kind.name} build exited with ${code}; its output is in ${log}`));
        return;
      }
      // `times` prints the shell's own user/system times, then its children's: "0m12.345s 0m1.234s".
      const children = times.trim().split('\n').at(-1) ?? '';
      const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(([, minutes, secs]) => Number(minutes) * 60 + Number(secs));
      if (seconds.length !== 2) {
        reject(new Error(`bench:scale: unreadable CPU times from bash: ${JSON.stringify(times)}`));
        return;
      }
      resolve({wallSeconds, cpuSeconds: (seconds[0] as number) + (seconds[1] as number), peakBytes});
    });
  });
}

interface DevMeasure {
  readySeconds: number;
  editSeconds: number;
}

/** The doc page the writers' loop opens and edits: a generated one when there are any. */
function editedPage(siteDir: string, pages: number): {route: string; file: string} {
  return pages > 0
    ? {route: '/docs/generated/area-000/page-1', file: path.join(siteDir, 'docs', 'generated', 'area-000', 'page-1.md')}
    : {
        route: '/docs/internal-developers/getting-started/introduction',
        file: path.join(siteDir, 'docs', 'internal-developers', 'getting-started', 'introduction.md'),
      };
}

/** Window property holding the moment the watched words were first shown. */
const SHOWN_AT = '__benchTextShownAt';

/**
 * Starts watching the page for `words`. The moment they show is taken in
 * the page: the first animation frame after the DOM holds them (the frame
 * that paints them). Waiting from outside (Playwright's `waitFor`) would
 * not do: it polls at growing intervals, 500 ms apart after the first
 * quarter second, so an edit's time came out in steps of half a second.
 */
async function watchForText(page: Page, words: string): Promise<void> {
  await page.evaluate(
    ([text, key]) => {
      const shown = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          if (document.body.textContent?.includes(text)) {
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now()));
          }
        });
        observer.observe(document.body, {childList: true, subtree: true, characterData: true});
      });
      (window as unknown as Record<string, Promise<number>>)[key] = shown;
    },
    [words, SHOWN_AT] as const,
  );
}

/** When the words watchForText watches for were shown (milliseconds since the epoch, the clock Date.now() reads). */
async function textShownAt(page: Page, timeoutMs = 300_000): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench:scale: the edit did not show within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([
      page.evaluate((key) => (window as unknown as Record<string, Promise<number>>)[key] as Promise<number>, SHOWN_AT),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function measureDev(
  name: string,
  command: string[],
  siteDir: string,
  pages: number,
  log: string,
  round: number,
): Promise<DevMeasure> {
  rmSync(path.join(siteDir, 'node_modules', '.cache'), {recursive: true, force: true});
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0] as string, [...command.slice(1), '--port', String(port), '--host', '127.0.0.1', '--no-open'], {
    cwd: siteDir,
    env: {...process.env, CI: 'true', FORCE_COLOR: '0', LOCAL_AUTH_PORT: String(await freePort())},
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const logStream = createWriteStream(log, {flags: 'a'});
  child.stdout?.pipe(logStream, {end: false});
  child.stderr?.pipe(logStream, {end: false});
  let ended: string | null = null;
  child.on('exit', (code, signal) => (ended = `the ${name} dev server exited (${signal ?? code}); see ${log}`));
  const {route, file} = editedPage(siteDir, pages);
  const url = `http://127.0.0.1:${port}${route}`;
  const browser = await launchBrowser();
  try {
    await waitForHttp(url, {exited: () => ended, attempts: 6000, intervalMs: 100});
    const readySeconds = (performance.now() - started) / 1000;
    const page = await browser.newPage();
    await page.goto(url);
    await page.locator('article').first().waitFor();
    const words = `Edited in round ${round} of the ${name} dev server`;
    await watchForText(page, words);
    const saved = Date.now();
    appendFileSync(file, `\n${words}.\n`);
    return {readySeconds, editSeconds: ((await textShownAt(page)) - saved) / 1000};
  } finally {
    await browser.close();
    if (child.pid !== undefined && child.exitCode === null) {
      process.kill(-child.pid, 'SIGTERM');
    }
  }
}

/**
 * BENCH_RECORD=1: the figures go to bench/scale-results.json under the page
 * count, replacing what was there, or only its writers' loop (`dev`) when
 * the builds were not run (BENCH_ONLY_DEV=1).
 */
function record(pages: number, figures: {pairs: number; summary?: BuildSummary; dev?: DevSummary}): void {
  if (process.env.BENCH_RECORD !== '1') {
    return;
  }
  const file = path.join(ROOT, 'bench', 'scale-results.json');
  const recorded = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>) : {};
  const date = new Date().toISOString().slice(0, 10);
  recorded[String(pages)] =
    figures.summary === undefined ? {...recorded[String(pages)], dev: {date, pairs: figures.pairs, ...figures.dev}} : {date, ...figures};
  writeFileSync(file, `${JSON.stringify(recorded, null, 2)}\n`);
  console.log(`recorded in ${path.relative(ROOT, file)}`);
}

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spreadOf(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {median: sorted[Math.floor(sorted.length / 2)] as number, min: sorted[0] as number, max: sorted.at(-1) as number};
}

/** "3.16 (3.03–3.46)" with several rounds, "3.16" with one. */
function formatSpread(value: Spread, pairs: number, format: (n: number) => string): string {
  return pairs > 1 ? `${format(value.median)} (${format(value.min)}–${format(value.max)})` : format(value.median);
}

type BuildSummary = Record<string, Record<keyof Measure, Spread>>;

/** The cold builds, interleaved: prints each round, then the table and the portal's ratios. */
async function measureBuilds(kinds: BuildKind[], pairs: number, pages: number, log: string): Promise<BuildSummary> {
  const results = new Map<string, Measure[]>(kinds.map((kind) => [kind.name, []]));
  for (let round = 1; round <= pairs; round++) {
    for (const kind of kinds) {
      const result = await measure(kind, log);
      results.get(kind.name)?.push(result);
      console.log(
        `  round ${round} ${kind.name}: ${result.wallSeconds.toFixed(1)} s wall, ${result.cpuSeconds.toFixed(1)} s CPU, ${(result.peakBytes / 2 ** 30).toFixed(2)} GiB peak`,
      );
    }
  }
  const summary: BuildSummary = Object.fromEntries(
    kinds.map(({name}) => {
      const runs = results.get(name) ?? [];
      const of = (key: keyof Measure) => spreadOf(runs.map((run) => run[key]));
      return [name, {wallSeconds: of('wallSeconds'), cpuSeconds: of('cpuSeconds'), peakBytes: of('peakBytes')}];
    }),
  );
  const gb = (bytes: number) => (bytes / 2 ** 30).toFixed(2);
  console.log(`\n| build (${pages} generated pages) | wall s | CPU s | peak GiB |\n|---|---|---|---|`);
  for (const [name, value] of Object.entries(summary)) {
    console.log(
      `| ${name} | ${formatSpread(value.wallSeconds, pairs, (n) => n.toFixed(1))} | ${formatSpread(value.cpuSeconds, pairs, (n) => n.toFixed(1))} | ${formatSpread(value.peakBytes, pairs, gb)} |`,
    );
  }
  const portal = summary.portal;
  for (const reference of kinds.map(({name}) => name).filter((name) => name !== 'portal')) {
    const base = summary[reference];
    if (portal && base) {
      console.log(
        `portal / ${reference}: wall ${(portal.wallSeconds.median / base.wallSeconds.median).toFixed(2)}×, CPU ${(portal.cpuSeconds.median / base.cpuSeconds.median).toFixed(2)}×, peak memory ${(portal.peakBytes.median / base.peakBytes.median).toFixed(2)}×`,
      );
    }
  }
  return summary;
}

interface DevServer {
  name: string;
  command: string[];
  siteDir: string;
}

type DevSummary = Record<string, Record<keyof DevMeasure, Spread>>;

/** The writers' loop of each dev server, interleaved: prints each round, then medians (ranges) and the portal's ratios. */
async function measureWritersLoop(servers: DevServer[], pairs: number, pages: number, log: string): Promise<DevSummary> {
  const runs = new Map<string, DevMeasure[]>(servers.map(({name}) => [name, []]));
  for (let round = 1; round <= pairs; round++) {
    for (const {name, command, siteDir} of servers) {
      const result = await measureDev(name, command, siteDir, pages, log, round);
      runs.get(name)?.push(result);
      console.log(
        `  round ${round} ${name} dev server: ready in ${result.readySeconds.toFixed(1)} s, an edit on screen in ${result.editSeconds.toFixed(2)} s`,
      );
    }
  }
  const summary: DevSummary = Object.fromEntries(
    servers.map(({name}) => {
      const of = (key: keyof DevMeasure) => spreadOf((runs.get(name) ?? []).map((run) => run[key]));
      return [name, {readySeconds: of('readySeconds'), editSeconds: of('editSeconds')}];
    }),
  );
  const portal = summary.portal;
  for (const [name, value] of Object.entries(summary)) {
    console.log(
      `writers' loop, ${name}: ready in ${formatSpread(value.readySeconds, pairs, (n) => n.toFixed(1))} s, edit on screen in ${formatSpread(value.editSeconds, pairs, (n) => n.toFixed(2))} s`,
    );
  }
  for (const [name, base] of Object.entries(summary).filter(([other]) => other !== 'portal')) {
    if (portal) {
      console.log(
        `writers' loop, portal / ${name}: ready ${(portal.readySeconds.median / base.readySeconds.median).toFixed(2)}×, edit on screen ${(portal.editSeconds.median / base.editSeconds.median).toFixed(2)}×`,
      );
    }
  }
  return summary;
}

async function main(): Promise<void> {
  const [countArg, ...rest] = process.argv.slice(2);
  const pages = Number(countArg);
  if (!Number.isInteger(pages) || pages < 0 || rest.length > 0) {
    console.error(
      'usage: npm run bench:scale -- <pages to generate, 0 for the handbook alone>   (BENCH_PAIRS, BENCH_RECORD=1, BENCH_COMPARE_REF, BENCH_DEV=1, BENCH_ONLY_DEV=1)',
    );
    process.exit(2);
  }
  const pairs = Number(process.env.BENCH_PAIRS ?? 1);
  if (!Number.isInteger(pairs) || pairs < 1) {
    console.error(`bench:scale: BENCH_PAIRS must be a whole number of at least 1 (got ${process.env.BENCH_PAIRS})`);
    process.exit(2);
  }
  const onlyDev = process.env.BENCH_ONLY_DEV === '1';
  const compareRef = process.env.BENCH_COMPARE_REF?.trim() || undefined;
  const siteDir = copySite('portal-scale-', {ownCache: true});
  const compareDir = compareRef ? copyCommit(compareRef, 'portal-scale-commit-', {ownCache: true}) : undefined;
  const log = path.join(siteDir, 'bench-scale.log');
  const comparedPortal = `portal at ${compareRef}`;
  let finished = false;
  try {
    if (pages > 0) {
      for (const dir of [siteDir, compareDir]) {
        if (dir) {
          generatePages(pages, dir);
        }
      }
    }
    let summary: BuildSummary | undefined;
    if (!onlyDev) {
      const docusaurus = ['node_modules/.bin/docusaurus', 'build', 'bench/reference'];
      const referenceCold = ['bench/reference/.docusaurus', 'node_modules/.cache'];
      const portalOutputs = ['build', '.docusaurus', 'node_modules/.cache'];
      const kinds: BuildKind[] = [
        {
          name: 'reference',
          command: [...docusaurus, '--out-dir', 'build-reference'],
          env: {},
          outputs: ['build-reference', ...referenceCold],
          siteDir,
        },
        {
          name: 'reference + search',
          command: [...docusaurus, '--out-dir', 'build-reference-search'],
          env: {BENCH_REFERENCE_SEARCH: '1'},
          outputs: ['build-reference-search', ...referenceCold],
          siteDir,
        },
        {name: 'portal', command: ['npm', 'run', 'build'], env: {}, outputs: portalOutputs, siteDir},
        ...(compareDir
          ? [{name: comparedPortal, command: ['npm', 'run', 'build'], env: {}, outputs: portalOutputs, siteDir: compareDir}]
          : []),
      ];
      console.log(`bench:scale: the handbook + ${pages} generated pages, ${pairs} interleaved round(s); build output in ${log}`);
      summary = await measureBuilds(kinds, pairs, pages, log);
      // Recorded now, so a failure in the writers' loop loses no build figure.
      record(pages, {pairs, summary});
    }
    let dev: DevSummary | undefined;
    if (onlyDev || process.env.BENCH_DEV === '1') {
      console.log(
        `bench:scale: the writers' loop on the handbook + ${pages} generated pages, ${pairs} interleaved round(s); output in ${log}`,
      );
      dev = await measureWritersLoop(
        [
          {name: 'reference', command: ['node_modules/.bin/docusaurus', 'start', 'bench/reference'], siteDir},
          {name: 'portal', command: ['npm', 'start', '--'], siteDir},
          ...(compareDir ? [{name: comparedPortal, command: ['npm', 'start', '--'], siteDir: compareDir}] : []),
        ],
        pairs,
        pages,
        log,
      );
    }
    record(pages, {pairs, summary, dev});
    finished = true;
  } finally {
    // A failed build's copy stays, with its log, for reading.
    if (finished) {
      for (const dir of [siteDir, compareDir]) {
        if (dir) {
          rmSync(dir, {recursive: true, force: true});
        }
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
