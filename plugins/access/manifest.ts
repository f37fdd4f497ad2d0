/**
 * The access manifest: every doc's route, source file, title and access rule,
 * read from front matter (`access:`) and folder defaults (`_category_.json`
 * `customProps.access`) before Docusaurus loads anything. One list drives the
 * audience builds, the search-index exclusions, the gate server and the leak
 * check. The build's plugin (./plugin.ts) checks each computed route against
 * the permalink Docusaurus really gives the doc and fails the build on any
 * difference, so this file never has to guess silently.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {parseMarkdownContentTitle} from '@docusaurus/utils';
import {filesUnder} from '../../scripts/support/files';
import type {SearchIndexVariant} from './searchIndexes';
import {parseFrontMatter} from '../../scripts/support/frontMatter';
import {parseAccessRule, PUBLIC_RULE, type AccessRule} from '../../src/auth/access/rules';

import type {Audience} from '../../src/auth/access/audience';

export type {Audience};

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
  pages: (AccessPage & {chunks: string[]})[];
}

export function readAudience(env: NodeJS.ProcessEnv): Audience {
  const value = env.PORTAL_AUDIENCE?.trim() || 'public';
  if (value !== 'public' && value !== 'members') {
    throw new Error(`PORTAL_AUDIENCE must be "public" or "members", got "${value}"`);
  }
  return value;
}

/** Docs Docusaurus reads: Markdown files, leaving out any file or folder whose name starts with `_`. */
function markdownFiles(dir: string): string[] {
  return filesUnder(dir)
    .filter(({relative}) => /\.mdx?$/.test(relative) && !relative.split('/').some((part) => part.startsWith('_')))
    .map(({full}) => full);
}

/** The nearest `_category_.json` default between the file and the docs root. */
function categoryDefault(docsDir: string, file: string, siteDir: string): AccessRule | null {
  for (let dir = path.dirname(file); dir.startsWith(docsDir); dir = path.dirname(dir)) {
    const categoryFile = path.join(dir, '_category_.json');
    if (existsSync(categoryFile)) {
      const where = path.relative(siteDir, categoryFile);
      let parsed: {customProps?: {access?: unknown}};
      try {
        parsed = JSON.parse(readFileSync(categoryFile, 'utf8')) as typeof parsed;
      } catch (error) {
        throw new Error(`${where}: not valid JSON (${String(error)})`);
      }
      if (parsed.customProps?.access !== undefined) {
        return parseAccessRule(parsed.customProps.access, where);
      }
    }
    if (dir === docsDir) {
      break;
    }
  }
  return null;
}

function joinRoute(...parts: string[]): string {
  const joined = `/${parts.join('/')}`.replace(/\/{2,}/g, '/');
  return joined;
}

/**
 * The route Docusaurus gives a doc (default docs plugin rules this site uses:
 * no number prefixes, `slug` absolute or relative, README/index files as
 * their folder's index).
 */
function docRoute(baseUrl: string, routeBasePath: string, relativeFile: string, slug: unknown): string {
  const withoutExtension = relativeFile.replace(/\.mdx?$/, '');
  const dir = path.posix.dirname(withoutExtension) === '.' ? '' : path.posix.dirname(withoutExtension);
  const name = path.posix.basename(withoutExtension);
  let docPath: string;
  if (typeof slug === 'string') {
    docPath = slug.startsWith('/') ? slug : joinRoute(dir, slug);
  } else if (/^(readme|index)$/i.test(name) || name === path.posix.basename(dir)) {
    docPath = `/${dir}/`;
  } else {
    docPath = joinRoute(dir, name);
  }
  const route = joinRoute(baseUrl, routeBasePath, docPath);
  // Docusaurus keeps the trailing slash only for the docs root ("/docs/").
  return route.length > 1 && route !== joinRoute(baseUrl, routeBasePath, '/') ? route.replace(/\/$/, '') : route;
}

export function scanAccessRules({
  siteDir,
  docsPath = 'docs',
  routeBasePath = 'docs',
  baseUrl = '/',
}: {
  siteDir: string;
  docsPath?: string;
  routeBasePath?: string;
  baseUrl?: string;
}): AccessPage[] {
  const docsDir = path.join(siteDir, docsPath);
  const pages: AccessPage[] = [];
  for (const file of markdownFiles(docsDir).sort()) {
    const source = path.relative(siteDir, file).split(path.sep).join('/');
    const fileContent = readFileSync(file, 'utf8');
    const {frontMatter, content} = parseFrontMatter(fileContent);
    const rule =
      frontMatter.access !== undefined
        ? parseAccessRule(frontMatter.access, source)
        : (categoryDefault(docsDir, file, siteDir) ?? PUBLIC_RULE);
    const relative = path.relative(docsDir, file).split(path.sep).join('/');
    const title =
      (typeof frontMatter.title === 'string' && frontMatter.title) ||
      parseMarkdownContentTitle(content).contentTitle ||
      relative.replace(/\.mdx?$/, '');
    pages.push({route: docRoute(baseUrl, routeBasePath, relative, frontMatter.slug), source, title, rule});
  }
  return pages;
}
