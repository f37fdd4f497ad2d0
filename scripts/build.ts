/**
 * `npm run build`: the two audience builds and what serves them.
 *
 *   build/public/     restricted pages withheld (PORTAL_AUDIENCE=public)
 *   build/members/    every page (PORTAL_AUDIENCE=members)
 *   build/access-manifest.json   route → rule and restricted chunks, for the gate
 *   build/server/     the gate compiled to plain JavaScript (tsconfig.server.json),
 *                     run by `npm run serve` with production dependencies only
 *
 * Each build then gets its security headers (scripts/security-headers.ts).
 * Extra arguments go to both `docusaurus build` runs.
 */
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {writeSecurityHeaders} from './security-headers';

const ROOT = path.resolve(__dirname, '..');
const BUILD = path.join(ROOT, 'build');
const docusaurus = path.join(ROOT, 'node_modules', '.bin', 'docusaurus');

rmSync(BUILD, {recursive: true, force: true});

// The gate compiles beside the site builds: tsc is single-threaded, and the
// builds leave a core idle for much of their time.
console.log('[build] the gate server → build/server/ (in the background)');
const tsc = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.server.json'], {cwd: ROOT, stdio: 'inherit'});
const gateCompiled = new Promise<number>((resolve) => {
  tsc.on('close', (code) => resolve(code ?? 1));
  tsc.on('error', () => resolve(1));
});

const manifest = path.join(BUILD, 'access-manifest.json');
for (const audience of ['public', 'members'] as const) {
  const outDir = path.join(BUILD, audience);
  console.log(`\n[build] ${audience} audience → ${path.relative(ROOT, outDir)}/`);
  const result = spawnSync(docusaurus, ['build', '--out-dir', outDir, ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {...process.env, PORTAL_AUDIENCE: audience, PORTAL_ACCESS_MANIFEST: manifest},
  });
  if (result.status !== 0) {
    console.error(`[build] the ${audience} build failed`);
    tsc.kill();
    process.exit(result.status ?? 1);
  }
  writeSecurityHeaders(outDir);
}
if (!existsSync(manifest)) {
  console.error('[build] the members build wrote no access manifest');
  tsc.kill();
  process.exit(1);
}

// The health endpoint names the build it serves.
const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], {cwd: ROOT, encoding: 'utf8'});
const buildId =
  process.env.PORTAL_BUILD_ID?.trim() ||
  `${commit.status === 0 ? commit.stdout.trim() : 'unversioned'}-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}`;
writeFileSync(manifest, `${JSON.stringify({...JSON.parse(readFileSync(manifest, 'utf8')), buildId}, null, 2)}\n`);

void gateCompiled.then((status) => {
  if (status !== 0) {
    console.error('[build] compiling the gate server failed');
    process.exit(status);
  }
});
