/**
 * A file's bytes, read from disk only as the index (./buildFiles.ts) knows
 * them. The file is opened at the exact path the index names (no symbolic
 * link as its last part), and the open file must be the one the gate
 * stat'ed at start: same inode, size and modification time. Otherwise the
 * build changed under the running gate, and the answer is a refusal, never
 * other bytes under the indexed ETag and length.
 *
 * Files up to SMALL_FILE_BYTES (pages, most chunks) are read whole and
 * their sha256 must match the indexed ETag, which even a change in place
 * that kept the size and the time cannot get past; the verified bytes are
 * then kept in a cache of bounded size (least recently used out), so hot
 * pages cost no file-system call. Larger files were hashed when the index
 * was loaded and are streamed from the checked file descriptor; a change
 * since then shows in their change time, which no one can set back.
 */
import {createHash} from 'node:crypto';
import {constants} from 'node:fs';
import {open} from 'node:fs/promises';
import type {Readable} from 'node:stream';
import {etagOf, SMALL_FILE_BYTES, type Body} from './buildFiles';
/** Default size of the cache of verified small bodies, per process. */
export const DEFAULT_BODY_CACHE_BYTES = 32 * 1024 * 1024;

export class ChangedOnDiskError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file} changed on disk after the gate started (${reason}): refusing to serve it; restart the gate on the new build`);
  }
}

export interface FileBodies {
  /**
   * The verified bytes already in the cache, or undefined: no file-system
   * call and no promise, for the answers that are served most. Exactly what
   * read() would answer from its cache.
   */
  cached(body: Body): Buffer | undefined;
  /** The bytes (small files) or a stream of them (large ones); rejects with ChangedOnDiskError. */
  read(body: Body): Promise<Buffer | Readable>;
  /** Bytes held by the cache now. */
  cachedBytes(): number;
}

export function createFileBodies({cacheBytes = DEFAULT_BODY_CACHE_BYTES}: {cacheBytes?: number} = {}): FileBodies {
  /**
   * Insertion order is recency order: a hit moves its entry to the end.
   * Keyed by the index's own Body object: one per representation of the
   * loaded index, so no key is built per request, and a Body names exactly
   * one path and ETag.
   */
  const cache = new Map<Body, Buffer>();
  let held = 0;

  function remember(key: Body, bytes: Buffer): void {
    if (bytes.length > cacheBytes) {
      return;
    }
    // Several requests that missed the same file at once each read it: keep one copy, counted once.
    const previous = cache.get(key);
    if (previous) {
      cache.delete(key);
      held -= previous.length;
    }
    held += bytes.length;
    cache.set(key, bytes);
    for (const [oldest, value] of cache) {
      if (held <= cacheBytes) {
        break;
      }
      cache.delete(oldest);
      held -= value.length;
    }
  }

  function cached(body: Body): Buffer | undefined {
    const bytes = cache.get(body);
    if (bytes) {
      cache.delete(body);
      cache.set(body, bytes);
    }
    return bytes;
  }

  return {
    cachedBytes: () => held,
    cached,
    async read(body) {
      const hit = cached(body);
      if (hit) {
        return hit;
      }
      const handle = await open(body.path, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
        throw new ChangedOnDiskError(body.path, `cannot open it: ${error.code ?? error.message}`);
      });
      let streaming = false;
      try {
        const stats = await handle.stat();
        if (
          !stats.isFile() ||
          stats.dev !== body.dev ||
          stats.ino !== body.ino ||
          stats.size !== body.size ||
          stats.mtimeMs !== body.mtimeMs ||
          stats.ctimeMs !== body.ctimeMs
        ) {
          throw new ChangedOnDiskError(
            body.path,
            `inode ${stats.ino}, ${stats.size} bytes, modified ${stats.mtimeMs}, changed ${stats.ctimeMs}; at start: inode ${body.ino}, ${body.size} bytes, modified ${body.mtimeMs}, changed ${body.ctimeMs}`,
          );
        }
        if (body.size <= SMALL_FILE_BYTES) {
          const bytes = Buffer.alloc(body.size);
          let offset = 0;
          while (offset < body.size) {
            const {bytesRead} = await handle.read(bytes, offset, body.size - offset, offset);
            if (bytesRead === 0) {
              break;
            }
            offset += bytesRead;
          }
          if (offset !== body.size || etagOf(createHash('sha256').update(bytes).digest()) !== body.etag) {
            throw new ChangedOnDiskError(body.path, 'its bytes no longer match the indexed ETag');
          }
          remember(body, bytes);
          return bytes;
        }
        streaming = true;
        // The stream closes the file when it ends or is destroyed (the client went away).
        return handle.createReadStream({start: 0, end: body.size - 1, autoClose: true});
      } finally {
        if (!streaming) {
          await handle.close();
        }
      }
    },
  };
}
