/**
 * The site plugin: the builds the gate serves, as `app.site`.
 *
 *   build/public/    every reader without a valid session gets this build
 *   build/members/   readers with a valid gate session get this one
 *   build/access-manifest.json   route → rule, and every file that only
 *                    restricted pages use, with their rules (computed by
 *                    the members build: plugins/access/placement.ts)
 *   build/file-index.json   every file's size, ETag and siblings (../buildFiles.ts)
 *
 * readBuild() reads the small JSON files at once (a missing one is an error
 * at start); the plugin stats the indexed files in the background, so the
 * process answers liveness at once and readiness once they are loaded.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import type {FastifyInstance} from 'fastify';
import fp from 'fastify-plugin';
import type {Audience} from '../../src/auth/access/audience';
import type {AccessManifest} from '../../src/auth/access/manifest';
import {FILE_INDEX_FILE, SECURITY_HEADERS_FILE, type FileIndex} from '../buildFiles';
import {loadSite, type Site} from '../decide';

export interface Build {
  buildDir: string;
  manifest: AccessManifest;
  index: FileIndex;
  /** Each build's security headers, as data (written by the build: scripts/security-headers.ts). */
  securityHeaders: Record<Audience, Record<string, string>>;
}

function readJson<T>(file: string, missing: string): T {
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run "npm run build"${missing}`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** The build's manifest, file index and headers; throws, naming the file, when one is missing. */
export function readBuild(buildDir: string): Build {
  const resolved = path.resolve(buildDir);
  const manifest = readJson<AccessManifest>(path.join(resolved, 'access-manifest.json'), ' (it builds build/public and build/members)');
  const index = readJson<FileIndex>(path.join(resolved, FILE_INDEX_FILE), ' (it indexes and precompresses both builds)');
  const headersOf = (audience: Audience) => readJson<Record<string, string>>(path.join(resolved, audience, SECURITY_HEADERS_FILE), '');
  return {buildDir: resolved, manifest, index, securityHeaders: {public: headersOf('public'), members: headersOf('members')}};
}

export interface SiteState {
  build: Build;
  baseUrl: string;
  /** The build's id (the access manifest's), or `unknown`. */
  buildId: string;
  /** The loaded site, or null while its files are stat'ed (or when that failed). */
  current(): Site | null;
  /** Why the site could not be loaded, or null. */
  failure(): Error | null;
  /** The site once loaded; rejects with failure(). Requests for files await it. */
  loaded(): Promise<Site>;
}

declare module 'fastify' {
  interface FastifyInstance {
    site: SiteState;
  }
}

export interface SitePluginOptions {
  build: Build;
  /** Stats the builds' files (tests hold it back to watch readiness). */
  loadSite?: typeof loadSite;
  /** Told when the file index is loaded, or why it could not be. */
  onSiteLoaded?: (outcome: {files: number; ms: number} | Error) => void;
}

async function site(app: FastifyInstance, options: SitePluginOptions): Promise<void> {
  const {build, onSiteLoaded} = options;
  const {manifest, index} = build;
  const startedAt = performance.now();
  let current: Site | null = null;
  let failure: Error | null = null;
  const loading = (options.loadSite ?? loadSite)(build.buildDir, manifest, index).then(
    (loaded) => {
      current = loaded;
      onSiteLoaded?.({
        files: Object.keys(index.audiences.public ?? {}).length + Object.keys(index.audiences.members ?? {}).length,
        ms: Math.round(performance.now() - startedAt),
      });
      return loaded;
    },
    (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      onSiteLoaded?.(failure);
      throw failure;
    },
  );
  // Requests await it (and fail with it); this keeps a failure from being an unhandled rejection.
  loading.catch(() => undefined);
  app.decorate('site', {
    build,
    baseUrl: manifest.baseUrl,
    buildId: manifest.buildId ?? 'unknown',
    current: () => current,
    failure: () => failure,
    loaded: () => (current ? Promise.resolve(current) : loading),
  } satisfies SiteState);
}

export const sitePlugin = fp(site, {name: 'portal-site'});
