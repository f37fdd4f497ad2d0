/**
 * The gate (server/) never imports tooling (scripts/) or the site's build
 * plugins (plugins/), directly or through the modules it imports: the
 * production container holds neither, and `node build/server/server/main.js`
 * must not load them. Read from the sources' import graph (static imports,
 * re-exports, `import()` and `require()`), as TypeScript's pre-processor
 * finds them.
 */
import {readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const FORBIDDEN = ['scripts', 'plugins'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sourcesUnder(file) : /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** The project file a relative specifier names, as TypeScript resolves it; null for a package. */
function resolve(specifier: string, from: string): string | null {
  if (!specifier.startsWith('.')) {
    return null;
  }
  const {resolvedModule} = ts.resolveModuleName(
    specifier,
    from,
    {module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10},
    ts.sys,
  );
  if (!resolvedModule) {
    throw new Error(`${path.relative(ROOT, from)}: cannot resolve ${specifier}`);
  }
  return resolvedModule.resolvedFileName;
}

/** Every project file reachable from `entries`, each with the chain of imports that reaches it. */
function importGraph(entries: string[]): Map<string, string[]> {
  const reached = new Map<string, string[]>(entries.map((file) => [file, [file]]));
  const queue = [...entries];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const {importedFiles} = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const {fileName} of importedFiles) {
      const target = resolve(fileName, file);
      if (target && !reached.has(target) && !target.includes(`${path.sep}node_modules${path.sep}`)) {
        reached.set(target, [...(reached.get(file) ?? []), target]);
        queue.push(target);
      }
    }
  }
  return reached;
}

test('no module under server/ imports scripts/ or plugins/, directly or through another module', () => {
  const graph = importGraph(sourcesUnder(path.join(ROOT, 'server')));
  // The graph is read at all: the gate's own modules and the site's access rules are in it.
  expect([...graph.keys()].map((file) => path.relative(ROOT, file))).toEqual(
    expect.arrayContaining(['server/main.ts', 'server/gate.ts', 'src/auth/access/rules.ts']),
  );
  const tooling = [...graph.entries()]
    .filter(([file]) => FORBIDDEN.includes(path.relative(ROOT, file).split(path.sep)[0] ?? ''))
    .map(([, chain]) => chain.map((file) => path.relative(ROOT, file)).join(' → '));
  expect(tooling).toEqual([]);
});
