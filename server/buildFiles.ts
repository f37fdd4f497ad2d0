/**
 * A build folder held in memory: every file, by its exact relative path.
 * The gate never asks the file system per request, so what it decides on is
 * exactly what it serves, and no file-system quirk (case-insensitive names,
 * trailing dots, symlinks) can map a second spelling onto a file. The builds
 * are immutable and small (about 8 MB each), so reading them once at start-up
 * also makes every answer a memory copy.
 */
import {createHash} from 'node:crypto';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import mime from 'mime-types';

export interface BuildFile {
  /** Relative path with forward slashes, e.g. `docs/x/index.html`. */
  name: string;
  body: Buffer;
  contentType: string;
  /** Strong validator: a hash of the bytes. */
  etag: string;
  isHtml: boolean;
  /** gzip of the body, made on first use; null when compression does not pay. */
  gzipped(): Buffer | null;
}

/** The build's security headers as data (scripts/security-headers.ts writes them, the gate reads them). */
export const SECURITY_HEADERS_FILE = '_headers.json';

/** Files a build writes for servers, not for readers. */
const NOT_SERVED = /^(?:_nginx\/|_headers(?:\.json)?$)/;
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json|xml|manifest\+json)|image\/svg\+xml)/;
const MIN_GZIP_BYTES = 1024;

function buildFile(name: string, body: Buffer): BuildFile {
  const contentType = mime.contentType(path.posix.extname(name)) || 'application/octet-stream';
  let gzipped: Buffer | null | undefined;
  return {
    name,
    body,
    contentType,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    isHtml: name.endsWith('.html'),
    gzipped() {
      if (gzipped === undefined) {
        const compressed = COMPRESSIBLE.test(contentType) && body.length >= MIN_GZIP_BYTES ? gzipSync(body, {level: 9}) : null;
        gzipped = compressed && compressed.length < body.length ? compressed : null;
      }
      return gzipped;
    },
  };
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

export function loadBuildFiles(root: string): BuildFiles {
  const files = new Map<string, BuildFile>();
  for (const entry of readdirSync(root, {recursive: true, withFileTypes: true})) {
    if (!entry.isFile()) {
      continue;
    }
    const name = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (!NOT_SERVED.test(name)) {
      files.set(name, buildFile(name, readFileSync(path.join(root, name))));
    }
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
