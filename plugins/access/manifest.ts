/**
 * The access manifest: every doc's route, source file, title and access rule,
 * read from front matter (`access:`) and folder defaults (`_category_.json`,
 * `.yml` or `.yaml`: `customProps.access`) before Docusaurus loads anything. One list drives the
 * audience builds, the search-index exclusions, the gate server and the leak
 * check. The build's plugin (./plugin.ts) checks each computed route against
 * the permalink Docusaurus really gives the doc and fails the build on any
 * difference, so this file never has to guess silently.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {parseMarkdownContentTitle} from '@docusaurus/utils';
import yaml from 'js-yaml';
import {filesUnder} from '../support/files';
import {parseFrontMatter} from '../support/frontMatter';
import {parseAccessRule, PUBLIC_RULE, type AccessRule} from '../../src/auth/access/rules';

import type {Audience} from '../../src/auth/access/audience';
import type {AccessManifest, AccessPage} from '../../src/auth/access/manifest';

// The manifest's shape lives with the access rules (src/auth/access/manifest.ts), which the gate reads too.
export type {AccessManifest, AccessPage, Audience};

/** A restricted page's own scripts (its content chunk first among them, by name order): for tests and tools that name one. */
export function restrictedScripts(page: {files: string[]}): string[] {
  return page.files.filter((file) => file.startsWith('assets/js/') && file.endsWith('.js'));
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

/**
 * The folder-metadata files Docusaurus's docs plugin reads, in its order.
 * Each can carry a folder default (`customProps.access`); all three are read
 * here, and a folder with more than one stops the build (Docusaurus would
 * silently take the first, and the other might be the one meant).
 */
export const CATEGORY_FILES = ['_category_.json', '_category_.yml', '_category_.yaml'] as const;

function readCategoryFile(file: string, where: string): {customProps?: {access?: unknown}} | null {
  const text = readFileSync(file, 'utf8');
  try {
    // JSON is YAML, but Docusaurus parses .json with JSON.parse: so do we.
    const parsed: unknown = file.endsWith('.json') ? JSON.parse(text) : yaml.load(text);
    return parsed && typeof parsed === 'object' ? (parsed as {customProps?: {access?: unknown}}) : null;
  } catch (error) {
    throw new Error(`${where}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'} (${String(error)})`);
  }
}

/** The nearest category-file default (`customProps.access`) between the file and the docs root. */
function categoryDefault(docsDir: string, file: string, siteDir: string): AccessRule | null {
  for (let dir = path.dirname(file); dir.startsWith(docsDir); dir = path.dirname(dir)) {
    const present = CATEGORY_FILES.map((name) => path.join(dir, name)).filter((candidate) => existsSync(candidate));
    if (present.length > 1) {
      throw new Error(
        `${present.map((candidate) => path.relative(siteDir, candidate)).join(' and ')}: one folder, several category files; keep one (Docusaurus reads only the first)`,
      );
    }
    const [categoryFile] = present;
    if (categoryFile) {
      const where = path.relative(siteDir, categoryFile);
      const access = readCategoryFile(categoryFile, where)?.customProps?.access;
      if (access !== undefined) {
        return parseAccessRule(access, where);
      }
    }
    if (dir === docsDir) {
      break;
    }
  }
  return null;
}

/**
 * Folders, besides the docs, whose Markdown the site compiles (pages, and a
 * blog if one is ever added), and the docs' own partials (`_*.md`), which
 * pages import. `access:` is read on docs pages only; anywhere else it would
 * be ignored and the file published to everyone, so it stops the build.
 */
const OTHER_MARKDOWN_DIRS = ['src', 'blog'];

export function refuseAccessOutsideDocs(siteDir: string, docsPath = 'docs'): void {
  const isMarkdown = (relative: string) => /\.mdx?$/.test(relative);
  const candidates = [
    ...OTHER_MARKDOWN_DIRS.map((dir) => path.join(siteDir, dir))
      .filter((dir) => existsSync(dir))
      .flatMap((dir) => filesUnder(dir).filter(({relative}) => isMarkdown(relative) && !relative.split('/').includes('node_modules'))),
    ...(existsSync(path.join(siteDir, docsPath))
      ? filesUnder(path.join(siteDir, docsPath)).filter(
          ({relative}) => isMarkdown(relative) && relative.split('/').some((part) => part.startsWith('_')),
        )
      : []),
  ];
  const offending = candidates
    .filter(({full}) => parseFrontMatter(readFileSync(full, 'utf8')).frontMatter.access !== undefined)
    .map(({full}) => path.relative(siteDir, full).split(path.sep).join('/'));
  if (offending.length > 0) {
    throw new Error(
      `access: is read on docs pages only (${docsPath}/, not partials starting with _); ${offending.join(', ')} ` +
        `set${offending.length === 1 ? 's' : ''} it and would be published to everyone. Move the page under ${docsPath}/ or remove access:`,
    );
  }
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
  refuseAccessOutsideDocs(siteDir, docsPath);
  // Versioned copies of the docs (docusaurus docs:version) carry their own
  // access: lines in versioned_docs/, which this scan does not read: refuse
  // them before any build renders one.
  const versioned = ['versions.json', 'versioned_docs', 'versioned_sidebars'].filter((name) => existsSync(path.join(siteDir, name)));
  if (versioned.length > 0) {
    throw new Error(
      `access: ${versioned.join(', ')}: versioned docs are not covered by the access model (their pages' rules would be ignored); remove them or extend plugins/access/manifest.ts first`,
    );
  }
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
