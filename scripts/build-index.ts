/**
 * Runs at the end of `npm run build` (scripts/build.ts), after both
 * audience builds: compresses once what the servers would otherwise
 * compress per request, and indexes both builds for the gate.
 *
 *   build/<audience>/x.js.gz, x.js.br   gzip and brotli siblings of every
 *       compressible file above the threshold (server/buildFiles.ts holds the
 *       rule), each written only when smaller. nginx serves them by
 *       `gzip_static` / `brotli_static`, the gate by Accept-Encoding.
 *   build/file-index.json   audience → file → size, ETag (sha256 of the
 *       bytes) and its siblings' sizes and ETags. The gate loads it and
 *       stats the files instead of reading them (server/buildFiles.ts).
 *
 * Siblings are not files of the index: the gate serves them only as
 * representations of their file, under its name and its rule. A build file
 * whose name a sibling would take stops the build (it would be served in
 * the file's place by nginx).
 *
 *   ts-node scripts/build-index.ts <buildDir>   (a build made before this step existed)
 */
import {createHash} from 'node:crypto';
import {existsSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';
import {brotliCompress, constants as zlib, gzip} from 'node:zlib';
import {
  ENCODING_PREFERENCE,
  ENCODINGS,
  etagOf,
  FILE_INDEX_FILE,
  FILE_INDEX_VERSION,
  isCompressible,
  NOT_SERVED,
  type Encoding,
  type FileIndex,
  type IndexEntry,
} from '../server/buildFiles';

const AUDIENCES = ['public', 'members'] as const;
/** Files compressed at a time (zlib runs on libuv's thread pool). */
const CONCURRENCY = 8;
/**
 * Brotli quality 6. On the handbook's members build (8 MB of compressible
 * files) quality 10 took 3.8 s for 1.73 MB, quality 6 0.19 s for 1.87 MB
 * (gzip 9: 0.19 s, 2.0 MB); a doc page's first-load scripts come to 135 KB
 * instead of 126. Twenty times the time for 7 % fewer bytes does not pay
 * at thousands of pages, where every page's HTML and chunks are compressed.
 */
const BROTLI_QUALITY = 6;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

function compress(encoding: Encoding, bytes: Buffer): Promise<Buffer> {
  if (encoding === 'gzip') {
    return gzipAsync(bytes, {level: 9});
  }
  return brotliAsync(bytes, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    },
  });
}

/** Regular files below `root` (symbolic links are not files of the build), relative, forward slashes. */
function buildFileNames(root: string): string[] {
  return readdirSync(root, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((name) => !NOT_SERVED.test(name))
    .sort();
}

/** Indexing again (a build folder indexed before, a test's fixture): the siblings the last index lists go first. */
function removePreviousSiblings(buildDir: string): void {
  const indexFile = path.join(buildDir, FILE_INDEX_FILE);
  if (!existsSync(indexFile)) {
    return;
  }
  const previous = JSON.parse(readFileSync(indexFile, 'utf8')) as FileIndex;
  for (const [audience, entries] of Object.entries(previous.audiences)) {
    for (const [name, entry] of Object.entries(entries)) {
      for (const encoding of Object.keys(entry.encodings ?? {}) as Encoding[]) {
        rmSync(path.join(buildDir, audience, ...name.split('/')) + ENCODINGS[encoding], {force: true});
      }
    }
  }
  rmSync(indexFile);
}

/** Writes the siblings of every compressible file of both builds, and build/file-index.json. */
export async function writeFileIndex(buildDir: string): Promise<{files: number; siblings: number}> {
  const index: FileIndex = {version: FILE_INDEX_VERSION, audiences: {}};
  /** The same bytes in both builds (hashed assets) are compressed once. */
  const compressedBySha = new Map<string, Promise<Partial<Record<Encoding, Buffer>>>>();
  let siblings = 0;
  let files = 0;
  removePreviousSiblings(buildDir);
  for (const audience of AUDIENCES) {
    const root = path.join(buildDir, audience);
    if (!existsSync(root)) {
      throw new Error(`${root} is missing`);
    }
    const names = buildFileNames(root);
    const taken = new Set(names);
    const entries: Record<string, IndexEntry> = {};
    for (let start = 0; start < names.length; start += CONCURRENCY) {
      await Promise.all(
        names.slice(start, start + CONCURRENCY).map(async (name) => {
          const full = path.join(root, ...name.split('/'));
          const bytes = readFileSync(full);
          const sha = createHash('sha256').update(bytes).digest();
          const entry: IndexEntry = {size: bytes.length, etag: etagOf(sha)};
          if (isCompressible(name, bytes.length)) {
            const key = sha.toString('hex');
            let made = compressedBySha.get(key);
            if (!made) {
              made = Promise.all(ENCODING_PREFERENCE.map(async (encoding) => [encoding, await compress(encoding, bytes)] as const)).then(
                (pairs) => Object.fromEntries(pairs.filter(([, compressed]) => compressed.length < bytes.length)),
              );
              // Kept for the members build's copies of the public build's files only.
              if (audience === 'public') {
                compressedBySha.set(key, made);
              }
            }
            for (const [encoding, compressed] of Object.entries(await made) as [Encoding, Buffer][]) {
              const sibling = `${name}${ENCODINGS[encoding]}`;
              if (taken.has(sibling)) {
                throw new Error(
                  `${audience}/${sibling} is a file of the build, and the name of ${name}'s ${encoding} sibling: rename it (nginx would serve it as ${name})`,
                );
              }
              writeFileSync(`${full}${ENCODINGS[encoding]}`, compressed);
              entry.encodings = {
                ...entry.encodings,
                [encoding]: {size: compressed.length, etag: etagOf(createHash('sha256').update(compressed).digest())},
              };
              siblings += 1;
            }
          }
          entries[name] = entry;
        }),
      );
    }
    files += names.length;
    index.audiences[audience] = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
  writeFileSync(path.join(buildDir, FILE_INDEX_FILE), `${JSON.stringify(index)}\n`);
  return {files, siblings};
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: ts-node scripts/build-index.ts <buildDir>');
    process.exit(2);
  }
  const started = Date.now();
  writeFileIndex(path.resolve(dir)).then(
    ({files, siblings}) => console.log(`[build] ${files} files indexed, ${siblings} precompressed siblings, in ${Date.now() - started} ms`),
    (error: unknown) => {
      console.error(String(error));
      process.exit(1);
    },
  );
}
