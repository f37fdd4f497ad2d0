/**
 * `npm run build`: the two audience builds and what serves them.
 *
 *   build/public/     restricted pages withheld (PORTAL_AUDIENCE=public)
 *   build/members/    every page (PORTAL_AUDIENCE=members)
 *   build/access-manifest.json   route → rule and every restricted file, for the gate
 *   build/file-index.json        every file's size and ETag and its precompressed siblings, for the gate
 *   build/server/     the gate compiled to plain JavaScript (tsconfig.server.json,
 *                     scripts/support/compileServer.ts), run by `npm run serve`
 *                     with production dependencies only
 *
 * Each build then gets its security headers (scripts/security-headers.ts);
 * then both get gzip and brotli siblings of their compressible files and
 * build/file-index.json, which the gate serves from (scripts/build-index.ts).
 *
 * Each audience is built by Docusaurus's own command (`docusaurus build`) in
 * a process of its own, so nothing of one build (the config, our plugins,
 * the site modules, any package's module state) can reach the other: the
 * public build holds no members' content by construction, whichever runs
 * first. The leak check then proves it, and fails when the members build
 * lacks any page's words. One after the other: each uses both cores (the
 * bundler's threads, the page rendering's worker threads), and two at once
 * would add their memory for no gain in time. The one thing passed from the
 * public build to the members build is its pages' Markdown, for the pages
 * that render alike in both (plugins/agent-docs/reuse.ts says why that
 * cannot carry members' text the other way).
 *
 * It takes no arguments (both builds are configured by the environment).
 */
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {inspect} from 'node:util';
import {Worker} from 'node:worker_threads';
import type {AccessManifest} from '../plugins/access/manifest';
import {writeFileIndex} from './build-index';
import {writeSecurityHeaders} from './security-headers';

const ROOT = path.resolve(__dirname, '..');
const BUILD = path.join(ROOT, 'build');

if (process.argv.length > 2) {
  console.error(`[build] npm run build takes no arguments (got: ${process.argv.slice(2).join(' ')}); see the README's settings`);
  process.exit(2);
}

rmSync(BUILD, {recursive: true, force: true});

const manifest = path.join(BUILD, 'access-manifest.json');

// The public build's page conversions, for the members build to reuse
// (plugins/agent-docs/reuse.ts): a folder of this run's own, removed on exit.
const agentDocsReuse = mkdtempSync(path.join(tmpdir(), 'portal-agent-docs-'));
process.on('exit', () => rmSync(agentDocsReuse, {recursive: true, force: true}));

/** Bench only (bench/README.md): a build without the agent docs, to time what they add; not servable. */
const withoutAgentDocs = process.env.PORTAL_BENCH_WITHOUT_AGENT_DOCS === '1';

function stop(message: string, status = 1): never {
  console.error(message);
  process.exit(status);
}

// Docusaurus's command exits with status 0 when interrupted: an interrupted
// build must not look like a finished one. (Ctrl-C in a terminal reaches the
// whole process group, so this process stops too.)
process.on('SIGINT', () => stop('[build] interrupted', 130));
process.on('SIGTERM', () => stop('[build] terminated', 143));

/** Docusaurus's command line, as the package declares it (`bin`). */
const DOCUSAURUS = path.join(ROOT, 'node_modules', '.bin', 'docusaurus');

function buildAudience(audience: 'public' | 'members', outDir: string): Promise<void> {
  const child = spawn(DOCUSAURUS, ['build', '--out-dir', outDir], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORTAL_AUDIENCE: audience,
      PORTAL_ACCESS_MANIFEST: manifest,
      PORTAL_AGENT_DOCS_REUSE: path.join(agentDocsReuse, 'public-conversions.json'),
    },
    stdio: 'inherit',
  });
  return new Promise((resolve) => {
    child.on('error', (error) => stop(`[build] could not start docusaurus for the ${audience} build: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (code === 0) {
        resolve();
      } else {
        // Docusaurus has printed the cause (the whole chain) above.
        stop(`[build] the ${audience} build failed (${signal ?? `exit status ${code}`})`);
      }
    });
  });
}

async function buildAudiences(): Promise<void> {
  for (const audience of ['public', 'members'] as const) {
    const outDir = path.join(BUILD, audience);
    console.log(`\n[build] ${audience} audience → ${path.relative(ROOT, outDir)}/`);
    await buildAudience(audience, outDir);
    writeSecurityHeaders(outDir);
  }
  if (!existsSync(manifest)) {
    stop('[build] the members build wrote no access manifest');
  }
  // The manifest names some files before they are written (a page's Markdown,
  // plugins/access/placement.ts): each must exist now, or the gate would
  // have a rule for nothing and the page's Markdown would be missing.
  const listed = (JSON.parse(readFileSync(manifest, 'utf8')) as AccessManifest).pages.flatMap((page) => page.files);
  const missing = listed.filter(
    (file) => !existsSync(path.join(BUILD, 'members', ...file.split('/'))) && !(withoutAgentDocs && file.endsWith('.md')),
  );
  if (withoutAgentDocs) {
    console.warn('[build] PORTAL_BENCH_WITHOUT_AGENT_DOCS=1: no Markdown or llms files; a build to time, not to serve');
  }
  if (missing.length > 0) {
    stop(`[build] the access manifest lists files the members build lacks: ${missing.join(', ')}`);
  }
  const started = Date.now();
  const {files, siblings} = await writeFileIndex(BUILD).catch((error: unknown) =>
    stop(`[build] indexing the builds failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  console.log(
    `[build] ${files} files indexed (build/file-index.json), ${siblings} gzip/brotli siblings written, in ${Date.now() - started} ms`,
  );
}

/**
 * Compiles the gate (scripts/support/compileServer.ts) in a worker thread:
 * about a second of work that runs on the other core while this thread loads
 * Docusaurus and the site, which is single-threaded. A failure stops the
 * build at once.
 */
function compileGateInBackground(): Promise<void> {
  const worker = new Worker(
    `require('ts-node').register({transpileOnly: true, project: ${JSON.stringify(path.join(ROOT, 'test', 'tsconfig.json'))}});
     require(${JSON.stringify(path.join(__dirname, 'support', 'compileServer.ts'))}).compileServer(${JSON.stringify(path.join(ROOT, 'tsconfig.server.json'))});`,
    {eval: true},
  );
  return new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the compiler's thread exited with ${code}`))));
  }).catch((error: unknown) =>
    stop(`[build] compiling the gate server failed:\n${error instanceof Error ? error.message : String(error)}`),
  );
}

async function main(): Promise<void> {
  console.log('[build] the gate server → build/server/ (in the background)');
  const gateCompiled = compileGateInBackground();
  await buildAudiences();
  await gateCompiled;
  // The health endpoint names the build it serves.
  const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], {cwd: ROOT, encoding: 'utf8'});
  const buildId =
    process.env.PORTAL_BUILD_ID?.trim() ||
    `${commit.status === 0 ? commit.stdout.trim() : 'unversioned'}-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}`;
  writeFileSync(manifest, `${JSON.stringify({...JSON.parse(readFileSync(manifest, 'utf8')), buildId}, null, 2)}\n`);
}

main().catch((error: unknown) => stop(`[build] failed:\n${inspect(error, {depth: Infinity})}`));
