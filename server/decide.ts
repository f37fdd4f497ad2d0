/**
 * The one decision path: which file (of which build) a request gets, or why
 * not. It canonicalises the path once (./requestPath.ts), resolves the file
 * in each build's in-memory index (./buildFiles.ts, loaded from build/file-index.json), and looks the access rules
 * up by the resolved file, never by the URL as sent, in the access manifest's
 * computed list (plugins/access/placement.ts): pages and every file they
 * bring alike. Anything that serves the builds uses this function.
 */
import {canRead, isRestricted, type AccessRule, type Principal} from '../src/auth/access/rules';
import type {Audience} from '../src/auth/access/audience';
import type {AccessManifest} from '../src/auth/access/manifest';
import {SEARCH_BUNDLE_DIR, SEARCH_VARIANTS_DIR} from '../src/auth/access/searchIndex';
import {MARKDOWN_EXTENSION, PER_READER_ROOT_FILES, WITHHELD_MARKDOWN_DIR, withheldMarkdownFileFor} from '../src/auth/access/agentDocs';
import {FILE_INDEX_FILE, FILE_INDEX_VERSION, loadBuildFiles, type BuildFile, type BuildFiles, type FileIndex} from './buildFiles';
import {canonicalisePath} from './requestPath';

export interface Site {
  baseUrl: string;
  builds: Record<Audience, BuildFiles>;
  /** Members' files that need a rule (the access manifest's computed list): readable by whoever may read one of the pages that use it. */
  rules: Map<string, AccessRule[]>;
  /** Role-restricted pages' rules, by route: which search index a member gets. */
  roleRules: Map<string, AccessRule>;
  /** The members' search bundle folder for each set of readable role-restricted routes (key: the routes, sorted, joined). */
  searchIndexes: Map<string, string>;
}

export type Decision =
  | {kind: 'bad-request'}
  | {kind: 'redirect'; location: string}
  /** A restricted page's content chunk that this reader may not read. */
  | {kind: 'forbidden'}
  | {
      kind: 'file';
      audience: Audience;
      file: BuildFile;
      status: 200 | 404;
      /** The answer depended on the session: caches must vary on it. */
      personal: boolean;
    };

/** Both builds' indexes (build/file-index.json, stat'ed, never read) checked against the access manifest. */
export async function loadSite(buildDir: string, manifest: AccessManifest, index: FileIndex): Promise<Site> {
  if (index.version !== FILE_INDEX_VERSION || !index.audiences.public || !index.audiences.members) {
    throw new Error(`${buildDir}/${FILE_INDEX_FILE} is not a version ${FILE_INDEX_VERSION} index of both builds: run "npm run build"`);
  }
  const [publicFiles, membersFiles] = await Promise.all([
    loadBuildFiles(`${buildDir}/public`, index.audiences.public),
    loadBuildFiles(`${buildDir}/members`, index.audiences.members),
  ]);
  const builds = {public: publicFiles, members: membersFiles};
  const rules = new Map<string, AccessRule[]>();
  for (const [name, fileRules] of Object.entries(manifest.files ?? {})) {
    if (!builds.members.get(name)) {
      throw new Error(`access: ${name}, which the access manifest restricts, is missing from build/members`);
    }
    if (!Array.isArray(fileRules) || fileRules.length === 0 || !fileRules.every(isRestricted)) {
      throw new Error(`access: ${name} has no restricted rule in the access manifest`);
    }
    rules.set(name, fileRules);
  }
  for (const page of manifest.pages) {
    if (!isRestricted(page.rule)) {
      continue;
    }
    const relative = page.route.slice(manifest.baseUrl.length).replace(/\/$/, '');
    const html = builds.members.resolve(relative, page.route.endsWith('/'));
    if (!html?.isHtml || !rules.has(html.name)) {
      throw new Error(
        `access: the restricted route ${page.route} has no restricted HTML file in build/members; the gate could not protect it`,
      );
    }
  }
  const roleRules = new Map(manifest.pages.filter((page) => page.rule.kind === 'roles').map((page) => [page.route, page.rule]));
  const searchIndexes = new Map<string, string>();
  for (const variant of manifest.searchIndexes ?? []) {
    if (
      !variant.dir.startsWith(`${SEARCH_VARIANTS_DIR}/`) ||
      !builds.members.get(`${variant.dir}/${SEARCH_BUNDLE_DIR}/pagefind-entry.json`)
    ) {
      throw new Error(`access: the search bundle ${variant.dir}/${SEARCH_BUNDLE_DIR}/ is missing from build/members`);
    }
    searchIndexes.set([...variant.routes].sort().join('\n'), variant.dir);
  }
  return {baseUrl: manifest.baseUrl, builds, rules, roleRules, searchIndexes};
}

/**
 * The reader's variant folder in the members build: the search bundle
 * (`<dir>/pagefind/`) and the llms files (`<dir>/llms.txt`) of exactly the
 * role-restricted pages this member may read; '' for the build's root, which
 * holds none. Signed-out readers get the public build's root instead.
 */
export function readerVariantDir(site: Site, principal: Principal): string {
  const readable = [...site.roleRules].filter(([, rule]) => canRead(rule, principal)).map(([route]) => route);
  if (readable.length === 0) {
    return '';
  }
  // Never fall back to a larger bundle; the default one holds nothing that needs a role.
  return site.searchIndexes.get(readable.sort().join('\n')) ?? '';
}

type FileDecision = Extract<Decision, {kind: 'file'}>;

function isUnder(relative: string, dir: string): boolean {
  return relative === dir || relative.startsWith(`${dir}/`);
}

function serve(audience: Audience, file: BuildFile, personal: boolean): FileDecision {
  return {kind: 'file', audience, file, status: file.name === '404.html' ? 404 : 200, personal};
}

function notFound(site: Site, audience: Audience, personal: boolean): FileDecision {
  const page = site.builds[audience].get('404.html');
  if (!page) {
    throw new Error(`build/${audience} has no 404.html`);
  }
  return {...serve(audience, page, personal), status: 404};
}

/**
 * Decides a GET/HEAD request. `readPrincipal` is only called when the answer
 * depends on who asks (null: signed out): a file that is the same for every
 * reader, such as a hashed asset of both builds, needs no session at all.
 */
export async function decide(site: Site, rawTarget: string, readPrincipal: () => Promise<Principal | null>): Promise<Decision> {
  const canonical = canonicalisePath(rawTarget);
  if (canonical.kind !== 'path') {
    return canonical.kind === 'bad' ? {kind: 'bad-request'} : canonical;
  }
  const {path, trailingSlash} = canonical;
  if (!path.startsWith(site.baseUrl) && `${path}/` !== site.baseUrl) {
    return notFound(site, 'public', false);
  }
  const relative = path.slice(site.baseUrl.length).replace(/\/$/, '');
  if (isUnder(relative, SEARCH_VARIANTS_DIR) || isUnder(relative, WITHHELD_MARKDOWN_DIR)) {
    // Variants and withheld answers are chosen by the session (below), never fetched by name.
    return notFound(site, 'public', false);
  }
  if (relative.startsWith(`${SEARCH_BUNDLE_DIR}/`) || PER_READER_ROOT_FILES.includes(relative)) {
    if (trailingSlash) {
      // A file, not a folder: `/llms.txt/` is not found, as nginx answers it (deploy/nginx.conf).
      return notFound(site, 'public', false);
    }
    // Every file of the search bundle, and the llms files, come from the
    // reader's own set, even where two readers' files hold the same bytes.
    const principal = await readPrincipal();
    if (!principal) {
      const file = site.builds.public.get(relative);
      return file ? serve('public', file, true) : notFound(site, 'public', true);
    }
    const dir = readerVariantDir(site, principal);
    const file = site.builds.members.get(dir ? `${dir}/${relative}` : relative);
    return file ? serve('members', file, true) : notFound(site, 'members', true);
  }
  const publicFile = site.builds.public.resolve(relative, trailingSlash);
  const membersFile = site.builds.members.resolve(relative, trailingSlash);
  const rules = membersFile ? site.rules.get(membersFile.name) : undefined;

  if (!rules && publicFile && (!membersFile || membersFile.etag === publicFile.etag)) {
    return serve('public', publicFile, false);
  }
  const principal = await readPrincipal();
  if (rules && membersFile && !rules.some((rule) => canRead(rule, principal))) {
    if (!membersFile.isHtml && !membersFile.name.endsWith(MARKDOWN_EXTENSION)) {
      return {kind: 'forbidden'};
    }
    // A signed-in member who lacks a role: the Markdown says so, as the page's HTML does.
    const forMember =
      principal && membersFile.name.endsWith(MARKDOWN_EXTENSION)
        ? site.builds.members.get(withheldMarkdownFileFor(membersFile.name))
        : undefined;
    if (forMember) {
      return serve('members', forMember, true);
    }
    // The public build's page (or its Markdown) of the same name: title and "Sign in / You need …".
    const withheld = site.builds.public.get(membersFile.name);
    return withheld ? serve('public', withheld, true) : notFound(site, 'public', true);
  }
  if (principal) {
    if (membersFile) {
      return serve('members', membersFile, true);
    }
    // A page loaded from the public build just before sign-in still asks
    // for that build's hashed files; they hold nothing restricted.
    return publicFile ? serve('public', publicFile, true) : notFound(site, 'members', true);
  }
  return publicFile ? serve('public', publicFile, true) : notFound(site, 'public', true);
}
