/**
 * The gate (server/) and the local sign-in provider compiled to plain
 * CommonJS, as tsconfig.server.json lays them out (build/server/), for
 * `npm run serve` and the members' container.
 *
 * Each module is transpiled on its own with TypeScript's `transpileModule`
 * and that config's options: the same JavaScript `tsc -p tsconfig.server.json`
 * emits, without type checking the program, which took about 9 CPU-seconds
 * of the build's two cores. Type checking is `npm run typecheck`'s job, which
 * checks this config too; its `isolatedModules` makes the compiler reject
 * what a file-by-file transpile could get wrong (a re-exported type).
 *
 * The modules are the config's `include` and every project file they import,
 * as tsc would emit them.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface CompiledServer {
  /** The sources compiled, relative to the config's rootDir, sorted. */
  sources: string[];
}

function formatDiagnostics(diagnostics: readonly ts.Diagnostic[], root: string): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
}

function readConfig(configPath: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(formatDiagnostics([diagnostic], path.dirname(configPath)));
    },
  });
  if (!parsed) {
    throw new Error(`compile-server: cannot read ${configPath}`);
  }
  if (parsed.errors.length > 0) {
    throw new Error(formatDiagnostics(parsed.errors, path.dirname(configPath)));
  }
  return parsed;
}

/** The config's files and the project files they import, transitively (packages are left to `require`). */
function projectModules(config: ts.ParsedCommandLine): string[] {
  const found = new Set<string>();
  const pending = config.fileNames.map((file) => path.resolve(file));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (found.has(file)) {
      continue;
    }
    found.add(file);
    const {importedFiles} = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const {fileName: specifier} of importedFiles) {
      const resolved = ts.resolveModuleName(specifier, file, config.options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport || resolved.extension === ts.Extension.Dts) {
        continue;
      }
      pending.push(path.resolve(resolved.resolvedFileName));
    }
  }
  return [...found].sort();
}

/** Writes the compiled modules (and their source maps) under the config's outDir. */
export function compileServer(configPath: string): CompiledServer {
  const config = readConfig(configPath);
  const {outDir, rootDir} = config.options;
  if (!outDir || !rootDir) {
    throw new Error(`compile-server: ${configPath} must set outDir and rootDir`);
  }
  const root = path.dirname(configPath);
  const sources = projectModules(config);
  for (const source of sources) {
    const relative = path.relative(rootDir, source);
    if (relative.startsWith('..')) {
      throw new Error(`compile-server: ${source} is outside rootDir ${rootDir}`);
    }
    const outFile = path.join(outDir, relative.replace(/\.tsx?$/, '.js'));
    const result = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: {...config.options, outDir: undefined, rootDir: undefined},
      fileName: source,
      reportDiagnostics: true,
    });
    if (result.diagnostics && result.diagnostics.length > 0) {
      throw new Error(formatDiagnostics(result.diagnostics, root));
    }
    mkdirSync(path.dirname(outFile), {recursive: true});
    if (result.sourceMapText) {
      // Sources as tsc writes them: relative to the map's own folder.
      const map = JSON.parse(result.sourceMapText) as {sources: string[]; file: string};
      map.file = path.basename(outFile);
      map.sources = [path.relative(path.dirname(outFile), source).split(path.sep).join('/')];
      writeFileSync(`${outFile}.map`, JSON.stringify(map));
    }
    writeFileSync(outFile, result.outputText);
  }
  return {sources: sources.map((source) => path.relative(rootDir, source).split(path.sep).join('/'))};
}
