/**
 * A build folder as the gate knows it: an index of every file by its exact
 * relative path (size, ETag, content type, precompressed siblings), loaded
 * from build/file-index.json, which the build writes
 * (scripts/build-index.ts). Bodies stay on disk: the gate opens the exact
 * path the index names and checks that the open file is still the one it
 * stat'ed at start (./fileBodies.ts).
 *
 * Names are decided in memory only: the request's path is looked up in the
 * index, never in the file system, so no file-system quirk (case-insensitive
 * names, trailing dots, symlinks) can map a second spelling onto a file.
 * Precompressed siblings (`x.js.gz`, `x.js.br`) are never in the index: they
 * are representations of `x.js`, served only under its name and its rule.
 *
 * This module is also the one home of the rule for what gets compressed;
 * the build imports it.
 */
import {createHash} from 'node:crypto';
import {createReadStream} from 'node:fs';
import {lstat} from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime-types';

/** The build's security headers as data (scripts/security-headers.ts writes them, the gate reads them). */
export const SECURITY_HEADERS_FILE = '_headers.json';
/** The index of both builds, beside access-manifest.json (never inside a served folder). */
export const FILE_INDEX_FILE = 'file-index.json';
export const FILE_INDEX_VERSION = 1;

/** Files a build writes for servers, not for readers. */
export const NOT_SERVED = /^(?:_nginx\/|_headers(?:\.json)?$)/;
/** Content types worth compressing: text of every kind. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json|xml|manifest\+json)|image\/svg\+xml)/;
/** Smaller files gain nothing worth a second representation. */
export const MIN_COMPRESS_BYTES = 1024;

/** Precompressed siblings, by Content-Encoding, and the suffix of their file. */
export const ENCODINGS = {br: '.br', gzip: '.gz'} as const;
export type Encoding = keyof typeof ENCODINGS;
/** Preferred first when a client accepts both equally. */
export const ENCODING_PREFERENCE: Encoding[] = ['br', 'gzip'];

export function contentTypeOf(name: string): string {
  return mime.contentType(path.posix.extname(name)) || 'application/octet-stream';
}

/** Whether the build writes precompressed siblings for this file (kept only when smaller). */
export function isCompressible(name: string, size: number): boolean {
  return size >= MIN_COMPRESS_BYTES && COMPRESSIBLE.test(contentTypeOf(name));
}

/** A strong validator: part of the sha256 of the bytes. */
export function etagOf(sha256: Buffer): string {
  return `"${sha256.toString('base64url').slice(0, 27)}"`;
}

/** One representation of a file, as the index records it. */
export interface IndexedBody {
  size: number;
  etag: string;
}

export interface IndexEntry extends IndexedBody {
  /** Siblings the build wrote (each smaller than the file). */
  encodings?: Partial<Record<Encoding, IndexedBody>>;
}

export interface FileIndex {
  version: typeof FILE_INDEX_VERSION;
  /** Audience → relative path (forward slashes) → entry. */
  audiences: Record<string, Record<string, IndexEntry>>;
}

/**
 * Files up to this size are read whole and checked against their ETag on
 * every read from disk (./fileBodies.ts); larger ones are checked once, when
 * the gate loads the index, and streamed.
 */
export const SMALL_FILE_BYTES = 256 * 1024;

/**
 * One representation on disk: what the index says, and what the file was
 * when the gate started. The change time is in it because nothing but a
 * change sets it (`touch` and `utimes` can put back the modification time,
 * not the change time).
 */
export interface Body extends IndexedBody {
  /** Absolute path, exactly as the index names it (plus the sibling's suffix). */
  path: string;
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** The sha256 ETag of a file's bytes, read as a stream. */
function etagOfFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('error', reject)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(etagOf(hash.digest())));
  });
}

export interface BuildFile {
  /** Relative path with forward slashes, e.g. `docs/x/index.html`. */
  name: string;
  contentType: string;
  /** The identity representation's strong validator. */
  etag: string;
  isHtml: boolean;
  identity: Body;
  encodings: Partial<Record<Encoding, Body>>;
}

export interface BuildFiles {
  root: string;
  get(name: string): BuildFile | undefined;
  /**
   * The file a clean URL names, as nginx's `try_files $uri $uri/index.html
   * $uri.html`: `relative` is the canonical path below the base URL, without
   * the leading slash.
   */
  resolve(relative: string, trailingSlash: boolean): BuildFile | undefined;
}

/** Stats this many files at a time at start. */
const STAT_CONCURRENCY = 64;

async function statBody(file: string, indexed: IndexedBody): Promise<Body> {
  // lstat: a symbolic link is not a file of the build.
  const stats = await lstat(file).catch(() => null);
  if (!stats?.isFile()) {
    throw new Error(`${file}, which ${FILE_INDEX_FILE} lists, is missing or not a regular file: rebuild (npm run build)`);
  }
  if (stats.size !== indexed.size) {
    throw new Error(`${file} is ${stats.size} bytes, ${FILE_INDEX_FILE} says ${indexed.size}: the build changed after it was indexed`);
  }
  // A large file is never hashed when served (it is streamed): its bytes are checked here, once.
  if (stats.size > SMALL_FILE_BYTES && (await etagOfFile(file)) !== indexed.etag) {
    throw new Error(`${file} does not match its ETag in ${FILE_INDEX_FILE}: the build changed after it was indexed`);
  }
  return {
    size: indexed.size,
    etag: indexed.etag,
    path: file,
    dev: stats.dev,
    ino: stats.ino,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
  };
}

/** Reads the index of a build folder: stats every file it lists (and its siblings), never reads their bytes. */
export async function loadBuildFiles(root: string, entries: Record<string, IndexEntry>): Promise<BuildFiles> {
  const files = new Map<string, BuildFile>();
  const names = Object.keys(entries);
  // A sibling's name must never be a file of its own: through it, the
  // sibling's bytes would be served under another rule than its file's.
  for (const name of names) {
    for (const suffix of Object.values(ENCODINGS)) {
      if (name.endsWith(suffix) && Object.hasOwn(entries, name.slice(0, -suffix.length))) {
        throw new Error(
          `${FILE_INDEX_FILE}: ${JSON.stringify(name)} is listed as a file, but it is the name of a sibling of ${JSON.stringify(name.slice(0, -suffix.length))}`,
        );
      }
    }
  }
  for (let start = 0; start < names.length; start += STAT_CONCURRENCY) {
    await Promise.all(
      names.slice(start, start + STAT_CONCURRENCY).map(async (name) => {
        const entry = entries[name] as IndexEntry;
        if (name === '' || name.startsWith('/') || name.split('/').some((part) => part === '' || part === '.' || part === '..')) {
          throw new Error(`${FILE_INDEX_FILE}: ${JSON.stringify(name)} is not a plain relative path`);
        }
        if (NOT_SERVED.test(name)) {
          return;
        }
        const full = path.join(root, ...name.split('/'));
        const encodings: Partial<Record<Encoding, Body>> = {};
        for (const encoding of ENCODING_PREFERENCE) {
          const sibling = entry.encodings?.[encoding];
          if (sibling) {
            encodings[encoding] = await statBody(`${full}${ENCODINGS[encoding]}`, sibling);
          }
        }
        files.set(name, {
          name,
          contentType: contentTypeOf(name),
          etag: entry.etag,
          isHtml: name.endsWith('.html'),
          identity: await statBody(full, entry),
          encodings,
        });
      }),
    );
  }
  return {
    root,
    get: (name) => files.get(name),
    resolve(relative, trailingSlash) {
      const candidates =
        relative === '' || trailingSlash
          ? [relative === '' ? 'index.html' : `${relative}/index.html`]
          : [relative, `${relative}/index.html`, `${relative}.html`];
      for (const candidate of candidates) {
        const file = files.get(candidate);
        if (file) {
          return file;
        }
      }
      return undefined;
    },
  };
}
