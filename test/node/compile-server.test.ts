/**
 * The build compiles the gate file by file (scripts/support/compileServer.ts)
 * instead of running tsc. What the production server runs must be what tsc
 * would have emitted: the same modules, byte for byte.
 */
import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {compileServer} from '../../scripts/support/compileServer';
import {filesUnder} from '../../plugins/support/files';

const ROOT = path.resolve(__dirname, '..', '..');

let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'compile-server-'));
});

afterAll(() => {
  rmSync(work, {recursive: true, force: true});
});

/** tsconfig.server.json with another outDir (and the project's types, which tsc looks up from the config's folder). */
function configInto(outDir: string): string {
  const config = path.join(work, `tsconfig.${path.basename(outDir)}.json`);
  const typeRoots = [path.join(ROOT, 'node_modules', '@types')];
  writeFileSync(config, JSON.stringify({extends: path.join(ROOT, 'tsconfig.server.json'), compilerOptions: {outDir, typeRoots}}));
  return config;
}

function jsFiles(dir: string): Map<string, string> {
  return new Map(
    filesUnder(dir)
      .filter((file) => file.relative.endsWith('.js'))
      .map((file) => [file.relative, readFileSync(file.full, 'utf8')]),
  );
}

test('emits the same modules as tsc -p tsconfig.server.json, byte for byte', () => {
  const byTsc = path.join(work, 'tsc');
  const byCompileServer = path.join(work, 'transpiled');
  const tsc = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', configInto(byTsc)], {cwd: ROOT, encoding: 'utf8'});
  expect(tsc.stdout + tsc.stderr).toBe('');
  const {sources} = compileServer(configInto(byCompileServer));

  const expected = jsFiles(byTsc);
  const actual = jsFiles(byCompileServer);
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [file, text] of expected) {
    expect({file, text: actual.get(file)}).toEqual({file, text});
  }
  // The gate, what it imports from the site's modules, and the local provider.
  expect(sources).toEqual(expect.arrayContaining(['server/main.ts', 'src/auth/access/rules.ts', 'scripts/local-provider/server.ts']));
  // Source maps point at the sources from where the compiled file lies.
  const map = JSON.parse(readFileSync(path.join(byCompileServer, 'server', 'main.js.map'), 'utf8')) as {sources: string[]};
  expect(path.resolve(byCompileServer, 'server', map.sources[0]!)).toBe(path.join(ROOT, 'server', 'main.ts'));
}, 60_000);

test('a syntax error stops the compile with the file and line', () => {
  const project = path.join(work, 'broken');
  mkdirSync(path.join(project, 'server'), {recursive: true});
  writeFileSync(path.join(project, 'server', 'main.ts'), "import {helper} from './helper';\nhelper();\n");
  writeFileSync(path.join(project, 'server', 'helper.ts'), 'export function helper( {\n');
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({compilerOptions: {module: 'commonjs', rootDir: '.', outDir: 'out'}, include: ['server/main.ts']}),
  );
  expect(() => compileServer(path.join(project, 'tsconfig.json'))).toThrow(/server\/helper\.ts\(\d+,\d+\): error TS\d+/);
});

test('a config without outDir is refused', () => {
  const project = path.join(work, 'no-out-dir');
  mkdirSync(project, {recursive: true});
  writeFileSync(path.join(project, 'main.ts'), 'export {};\n');
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({compilerOptions: {rootDir: '.'}, include: ['main.ts']}));
  expect(() => compileServer(path.join(project, 'tsconfig.json'))).toThrow(/must set outDir and rootDir/);
});
