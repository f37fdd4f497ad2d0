/**
 * The access manifest's shape: what the build (plugins/access) writes to
 * build/access-manifest.json and the gate (server/), the leak check and the
 * tools read. Types only, so the gate depends on the rules and this file,
 * never on the build's plugins.
 */
import type {AccessRule} from './rules';

/** A search index of the members build for readers with roles (plugins/access/searchIndexes.ts computes them). */
export interface SearchIndexVariant {
  /** Relative to the members build: the folder holding this index's search bundle (`<dir>/pagefind/`). */
  dir: string;
  /** The role-restricted routes this index includes (a reader who may read all of them, and no other, gets it). */
  routes: string[];
}

export interface AccessPage {
  /** URL path as served, with the site's baseUrl, no trailing slash except the docs root. */
  route: string;
  /** Repository-relative source path. */
  source: string;
  title: string;
  rule: AccessRule;
}

/** What the build writes to build/access-manifest.json for the gate and the leak check. */
export interface AccessManifest {
  version: 1;
  baseUrl: string;
  /** The members build's extra search indexes (plugins/access/searchIndexes.ts), for the gate and the leak check. */
  searchIndexes?: SearchIndexVariant[];
  /** Which build this is (scripts/build.ts: PORTAL_BUILD_ID, else the git commit and build time); the gate's health endpoint reports it. */
  buildId?: string;
  /** Each page with the files it brings that need a rule (its HTML, content chunk, lazy chunks, images, attachments); empty for public pages. */
  pages: (AccessPage & {files: string[]})[];
  /**
   * Every file of build/members that only restricted pages use, with those
   * pages' rules: a reader who may read at least one of them may read it
   * (plugins/access/placement.ts). The gate and the leak check read this list.
   */
  files: Record<string, AccessRule[]>;
}
