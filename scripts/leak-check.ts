/**
 * Leak check for the two audience builds: no prose of a restricted page may
 * reach `build/public/`, in any file (HTML, JS chunks, the search index, the
 * sitemap, ...). Usage, after `npm run build`:
 *
 *   npm run leak-check
 *
 * For every restricted page of `build/access-manifest.json` it cuts a dozen
 * distinctive phrases (about eight consecutive words of prose) from the page's
 * Markdown source, then searches every file under `build/public/` for them,
 * normalised the way a browser or a JS engine would read them (entities
 * decoded, string escapes undone, tags stripped, whitespace collapsed,
 * lowercase). As a self-test it also searches `build/members/`, which must
 * contain each restricted page: a check that finds nothing there is blind.
 *
 * Facts a restricted page shows through components, rather than in its
 * prose, live in modules under `src/data/restricted/` that only that page
 * imports (src/data/restricted/adminService.ts says why): their texts are
 * searched for as the page's own, and a module that a public page or the
 * site's shared code imports stops the check.
 *
 * Exit codes: 0 clean, 1 a leak or a blind check, 2 the check could not run
 * (no build, no manifest, a restricted page with too little prose).
 */
import {brotliDecompressSync, gunzipSync} from 'node:zlib';
import {existsSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {decodeHTML} from 'entities';
import ts from 'typescript';
import {ruleImplies} from '../src/auth/access/rules';
import {SEARCH_VARIANTS_DIR} from '../src/auth/access/searchIndex';
import {LLMS_FULL_FILE, LLMS_INDEX_FILE, markdownFileFor, routeForMarkdownPath} from '../src/auth/access/agentDocs';
import type {AccessManifest} from '../plugins/access/manifest';
import {filesUnder} from '../plugins/support/files';
import {parseFrontMatter} from '../plugins/support/frontMatter';

const ROOT = path.resolve(__dirname, '..');

export const PHRASE_WORDS = 8;
export const MAX_PHRASES = 12;
export const MIN_PHRASES = 3;
/** Shorter phrases ("it is one of the ...") are too common to be evidence. */
export const MIN_PHRASE_CHARS = 32;

/** Marks a place where the rendered text is split (markup, a new block): no phrase may span it. */
const BREAK = '\u0000';

/**
 * A word a phrase may contain: letters, digits and punctuation that every
 * output keeps as is (no quotes, apostrophes, `<`, `&`, backticks, `*`, `_`,
 * `\`, `[`, `{`, `|`, `#`, ...), so the phrase reads the same in the HTML, in
 * a minified JS string and in the JSON search index.
 */
const PLAIN_WORD = /^[\p{L}\p{N}.,;:!?()/-]+$/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

export interface PhraseOptions {
  /** Words per phrase (default 8). */
  words?: number;
  /** At most this many phrases, spread over the page (default 12). */
  maxPhrases?: number;
  /** Throw when the page yields fewer (default 3): a check that extracts nothing cannot fail. */
  minPhrases?: number;
  /** Skip phrases shorter than this many characters (default 32). */
  minChars?: number;
  /** Drop candidate phrases for which this returns true (e.g. phrases that public pages contain too). */
  exclude?: (phrase: string) => boolean;
  /** Named in the error message, e.g. `docs/x.md`. */
  source?: string;
}

/** Front matter, fenced code, comments and ESM blocks: never rendered as prose. */
function stripNonProse(markdown: string): string {
  let text = parseFrontMatter(markdown.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '')).content;
  // Fenced code blocks (``` or ~~~, indented or not); an unclosed fence runs to the end.
  text = text.replace(/^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]*\1[`~]*[ \t]*$|(?![\s\S]))/gm, `\n${BREAK}\n`);
  text = text.replace(/<!--[\s\S]*?-->/g, BREAK).replace(/\{\/\*[\s\S]*?\*\/\}/g, BREAK);
  // MDX: a block (paragraph) that starts with import/export is JavaScript.
  return text
    .split(/\n[ \t]*\n/)
    .filter((block) => !/^\s*(import|export)\s/.test(block))
    .join('\n\n');
}

/**
 * The prose of a Markdown/MDX page as text runs that are each rendered as one
 * uninterrupted piece of text: headings, tables, JSX, inline code, emphasis,
 * links and list markers all end a run, because in the compiled MDX chunk each
 * of them splits the text into separate JS strings.
 */
export function proseSegments(markdownSource: string): string[] {
  let quoted = false;
  const lines = stripNonProse(markdownSource)
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      if (
        /^#{1,6}(\s|$)/.test(trimmed) || // ATX heading
        /^(=+|-+|\*+|_+)$/.test(trimmed.replace(/\s/g, '')) || // setext underline, thematic break
        /^\|/.test(trimmed) || // table row
        /^:?-+:?(\s*\|\s*:?-+:?)+\s*\|?$/.test(trimmed) || // table delimiter row without a leading pipe
        (trimmed.includes(' | ') && /\|\s*$/.test(trimmed)) || // table row without a leading pipe
        /^:::/.test(trimmed) || // admonition fence and its title
        /^\[[^\]]+\]:\s/.test(trimmed) // link reference definition
      ) {
        quoted = false;
        return BREAK;
      }
      // A block quote starts a new paragraph; its lines continue it.
      const startsQuote = /^\s*>/.test(line) && !quoted;
      quoted = /^\s*>/.test(line);
      let body = line.replace(/^(\s*>)+/, '');
      // A list item starts a new block.
      body = body.replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, BREAK);
      // A hard line break (two trailing spaces or a backslash) renders as <br>.
      return `${startsQuote ? BREAK : ''}${body}${/( {2,}|\\)$/.test(body) ? BREAK : ''}`;
    })
    .join('\n');

  let text = lines
    .replace(/\n[ \t]*\n/g, `\n${BREAK}\n`) // paragraphs
    .replace(/<\/?[A-Za-z][^<>]*>/g, BREAK); // JSX/HTML tags (props may span lines) and <autolinks>
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(/\{[^{}]*\}/g, BREAK); // JSX expressions, innermost first
  }
  text = text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, BREAK) // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, `${BREAK}$1${BREAK}`) // links: keep their text, as its own run
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, `${BREAK}$1${BREAK}`) // reference links
    .replace(/`+[^`]*`+/g, BREAK) // inline code
    .replace(/\b(https?:\/\/|www\.)\S+/g, BREAK) // bare URLs become links
    .replace(/[*_]+|~~/g, BREAK); // emphasis, strong, strikethrough

  return text
    .split(BREAK)
    .map((segment) => segment.replace(/\s+/g, ' ').trim())
    .filter((segment) => segment !== '');
}

function pickSpread<T>(items: T[], count: number): T[] {
  if (items.length <= count) {
    return items;
  }
  if (count <= 1) {
    return items.slice(0, count);
  }
  const picked = new Set<number>();
  for (let index = 0; index < count; index++) {
    picked.add(Math.round((index * (items.length - 1)) / (count - 1)));
  }
  return [...picked].sort((a, b) => a - b).map((index) => items[index] as T);
}

/**
 * Distinctive phrases of a restricted page, lowercase, ready to search for:
 * non-overlapping runs of `words` plain words taken from its prose, at most
 * `maxPhrases`, spread over the page. Throws when fewer than `minPhrases`.
 */
export function distinctivePhrases(markdownSource: string, options: PhraseOptions = {}): string[] {
  const words = options.words ?? PHRASE_WORDS;
  const maxPhrases = options.maxPhrases ?? MAX_PHRASES;
  const minPhrases = options.minPhrases ?? MIN_PHRASES;
  const minChars = options.minChars ?? MIN_PHRASE_CHARS;

  const candidates: string[] = [];
  const seen = new Set<string>();
  const consider = (run: string[]) => {
    for (let start = 0; start + words <= run.length; start += words) {
      const phrase = normaliseText(run.slice(start, start + words).join(' '));
      if (phrase.length >= minChars && !seen.has(phrase) && !options.exclude?.(phrase)) {
        seen.add(phrase);
        candidates.push(phrase);
      }
    }
  };
  for (const segment of proseSegments(markdownSource)) {
    let run: string[] = [];
    for (const word of segment.split(' ')) {
      if (PLAIN_WORD.test(word) && HAS_LETTER_OR_DIGIT.test(word)) {
        run.push(word);
      } else {
        consider(run);
        run = [];
      }
    }
    consider(run);
  }

  if (candidates.length < minPhrases) {
    throw new Error(
      `${options.source ?? 'page'}: only ${candidates.length} distinctive phrase(s) of ${words} plain words in its prose, ` +
        `at least ${minPhrases} needed to check that it does not leak; write more prose or adjust the leak check`,
    );
  }
  return pickSpread(candidates, maxPhrases);
}

/** HTML entities, decoded by the `entities` package (the decoder htmlparser2 and cheerio use). */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}

const SIMPLE_ESCAPES: Record<string, string> = {n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', 0: '\0'};

/** Undoes JS and JSON string escapes: `\u0027`, `\u{1F600}`, `\x27`, `\"`, `\n`, `\/`, `\\`. */
export function unescapeJs(text: string): string {
  return text.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (escape: string, body: string) => {
    if (body.length > 1) {
      const code = parseInt(body.startsWith('u{') ? body.slice(2, -1) : body.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : escape;
    }
    return SIMPLE_ESCAPES[body] ?? (body === '\n' || body === '\r' ? '' : body);
  });
}

/** HTML tags (a name right after `<`, attributes after whitespace) and comments. */
const HTML_TAG = /<!--[\s\S]*?-->|<\/?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?\/?>/g;

export interface NormaliseOptions {
  /** Strip HTML tags and comments (default true). */
  stripTags?: boolean;
}

/**
 * Text as a reader (or a phrase search) sees it: JS/JSON escapes undone (twice,
 * for JSON inside a JS string), HTML tags stripped, entities decoded,
 * whitespace collapsed to single spaces, lowercase.
 */
export function normaliseText(text: string, options: NormaliseOptions = {}): string {
  let result = unescapeJs(unescapeJs(text));
  if (options.stripTags ?? true) {
    result = result.replace(HTML_TAG, ' ');
  }
  return decodeEntities(result)
    .normalize('NFC')
    .replace(/\u200B|\u200C|\u200D|\u2060|\u00AD/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Binary formats by extension: never searched. */
const BINARY_EXTENSIONS = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.avif',
  '.ico',
  '.bmp',
  '.tif',
  '.tiff',
  '.heic',
  '.woff',
  '.woff2',
  '.ttf',
  '.otf',
  '.eot',
  '.mp4',
  '.webm',
  '.mov',
  '.mp3',
  '.ogg',
  '.wav',
  '.zip',
  '.wasm',
  // The search bundle's WebAssembly (gzip inside).
  '.pagefind',
]);

/** Every file under `dir`, recursively, sorted, except binary images, fonts and media. */
export function searchableFiles(dir: string): string[] {
  // A symbolic link to a folder is not followed (no cycles); one to a file is searched.
  return filesUnder(dir)
    .filter(({relative}) => !BINARY_EXTENSIONS.has(path.extname(relative).toLowerCase()))
    .map(({full}) => full)
    .sort();
}

/** A file's content, decompressed when it is a precompressed copy (`.gz`, `.br`) or gzip inside (the search bundle's index chunks and fragments). */
function readSearchable(file: string): string {
  const buffer = readFileSync(file);
  try {
    if (file.endsWith('.gz') || (buffer[0] === 0x1f && buffer[1] === 0x8b)) {
      return gunzipSync(buffer).toString('utf8');
    }
    if (file.endsWith('.br')) {
      return brotliDecompressSync(buffer).toString('utf8');
    }
  } catch {
    // Not actually compressed: search the bytes as they are.
  }
  return buffer.toString('utf8');
}

const SIBLING_SUFFIX = /\.(gz|br)$/;

/**
 * The precompressed siblings (`x.gz`, `x.br` beside `x`, scripts/build-index.ts)
 * of a build folder that are not exactly their file once decompressed, and
 * siblings whose file is one the access manifest restricts but the folder
 * lacks (the public build must hold no copy of a restricted file, compressed
 * or not). Relative names.
 */
export function badSiblings(dir: string, restricted: Set<string>): {sibling: string; problem: string}[] {
  const problems: {sibling: string; problem: string}[] = [];
  for (const {full, relative} of filesUnder(dir)) {
    const base = relative.replace(SIBLING_SUFFIX, '');
    if (base === relative) {
      continue;
    }
    const baseFile = path.join(dir, ...base.split('/'));
    if (!existsSync(baseFile)) {
      if (restricted.has(base)) {
        problems.push({
          sibling: relative,
          problem: `a compressed copy of ${base}, which the access manifest restricts and this build lacks`,
        });
      }
      continue;
    }
    let decompressed: Buffer | null = null;
    try {
      decompressed = relative.endsWith('.gz') ? gunzipSync(readFileSync(full)) : brotliDecompressSync(readFileSync(full));
    } catch {
      decompressed = null;
    }
    if (!decompressed?.equals(readFileSync(baseFile))) {
      problems.push({sibling: relative, problem: `not ${base} once decompressed (the gate and nginx send it as ${base})`});
    }
  }
  return problems;
}

export interface PagePhrases {
  /** The page's source, as the manifest names it (relative to the repo root). */
  source: string;
  phrases: string[];
}

export interface Leak {
  /** Absolute path of the file that contains the phrase. */
  file: string;
  /** The restricted page's source. */
  source: string;
  phrase: string;
}

/** Modules of facts only restricted pages show; everything else in src/data/ reaches every reader. */
export const RESTRICTED_DATA_DIR = 'src/data/restricted';
/** A text of a restricted data module is evidence from this many words on (a name or a number alone proves nothing). */
export const MIN_DATA_TEXT_WORDS = 4;

/** The string literals of a TypeScript or JavaScript module, read with the TypeScript parser: the module is never run. */
export function moduleTexts(fileName: string, source: string): string[] {
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    const isSpecifier =
      ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent) || ts.isExternalModuleReference(node.parent);
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && !isSpecifier) {
      texts.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true), visit);
  return texts;
}

/** Whether `source` imports the module `name` of src/data/restricted/ (any spelling of the path, with or without extension). */
function importsRestrictedModule(source: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`['"][^'"\\n]*\\/restricted\\/${escaped}(?:\\.[cm]?[jt]sx?)?['"]`).test(source);
}

/**
 * The texts of each src/data/restricted/ module, as phrases of each
 * restricted page that imports it (`source`: the module, then the page).
 * Throws when a public page or shared code (src/, plugins/) imports one.
 */
export function restrictedDataPhrases(
  root: string,
  pages: {source: string; restricted: boolean; text: string}[],
): (PagePhrases & {page: string})[] {
  const dataDir = path.join(root, RESTRICTED_DATA_DIR);
  if (!existsSync(dataDir)) {
    return [];
  }
  const modules = filesUnder(dataDir).filter((file) => /\.[cm]?[jt]sx?$/.test(file.relative));
  const sharedCode = ['src', 'plugins']
    .map((dir) => path.join(root, dir))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => filesUnder(dir))
    .filter((file) => /\.[cm]?[jt]sx?$/.test(file.full) && !file.full.startsWith(`${dataDir}${path.sep}`));
  const entries: (PagePhrases & {page: string})[] = [];
  for (const module of modules) {
    const name = module.relative.replace(/\.[cm]?[jt]sx?$/, '');
    const moduleName = `${RESTRICTED_DATA_DIR}/${module.relative}`;
    const wrongImporters = [
      ...pages
        .filter((page) => !page.restricted && importsRestrictedModule(page.text, name))
        .map((page) => `the public page ${page.source}`),
      ...sharedCode
        .filter((file) => importsRestrictedModule(readFileSync(file.full, 'utf8'), name))
        .map((file) => path.relative(root, file.full).split(path.sep).join('/')),
    ];
    if (wrongImporters.length > 0) {
      throw new Error(
        `${moduleName} is imported by ${wrongImporters.join(', ')}: its facts would reach readers the restricted pages keep out`,
      );
    }
    const phrases = [
      ...new Set(
        moduleTexts(module.full, readFileSync(module.full, 'utf8'))
          .map((text) => normaliseText(text))
          .filter((text) => text.split(' ').length >= MIN_DATA_TEXT_WORDS),
      ),
    ];
    for (const page of pages.filter((candidate) => candidate.restricted && importsRestrictedModule(candidate.text, name))) {
      entries.push({source: `${moduleName} (shown by ${page.source})`, page: page.source, phrases});
    }
  }
  return entries;
}

/** Site code every page runs: what it imports is public. */
const SITE_CODE_DIRS = ['src/theme', 'src/pages', 'src/clientModules'];
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]((?:\.{1,2}\/|@site\/)[^'"]+)['"]/g;
const RESOLVE_EXTENSIONS = ['', '.tsx', '.ts', '.jsx', '.js', '.mdx', '.md', '/index.tsx', '/index.ts', '/index.js'];

/** Every local file a module reaches through relative or `@site/` imports, itself included. */
function localImportClosure(root: string, entries: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = entries.map((entry) => path.resolve(root, entry));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file) || !existsSync(file) || !statSync(file).isFile()) {
      continue;
    }
    seen.add(file);
    if (/\.(css|scss|sass)$/.test(file)) {
      continue;
    }
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] as string;
      const base = specifier.startsWith('@site/')
        ? path.join(root, specifier.slice('@site/'.length))
        : path.resolve(path.dirname(file), specifier);
      const resolved = RESOLVE_EXTENSIONS.map((extension) => `${base}${extension}`).find(
        (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
      );
      if (resolved) {
        pending.push(resolved);
      }
    }
  }
  return seen;
}

/**
 * Stylesheets that restricted pages reach through their local imports and
 * that no public page or site code reaches: each, with a restricted page
 * that imports it. (The bundler merges every stylesheet into one file all
 * pages link, so such styles would reach every member.)
 */
export function restrictedStylesheets(
  root: string,
  restrictedSources: string[],
  publicSources: string[],
): {source: string; stylesheet: string}[] {
  const siteCode = SITE_CODE_DIRS.map((dir) => path.join(root, dir))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => filesUnder(dir).map((file) => file.full));
  const shared = localImportClosure(root, [...publicSources, ...siteCode]);
  const found: {source: string; stylesheet: string}[] = [];
  for (const source of restrictedSources) {
    for (const file of localImportClosure(root, [source])) {
      if (/\.(css|scss|sass)$/.test(file) && !shared.has(file)) {
        found.push({source, stylesheet: path.relative(root, file).split(path.sep).join('/')});
      }
    }
  }
  return found;
}

/**
 * Links and images of restricted pages that name a file under `static/`
 * (`/files/x.pdf`, `pathname:///files/x.pdf`, `src="/img/x.png"`): such a file
 * is copied to every build as it is, so every reader gets it.
 */
export function restrictedStaticLinks(root: string, pages: {source: string; text: string}[]): {source: string; file: string}[] {
  const staticDir = path.join(root, 'static');
  if (!existsSync(staticDir)) {
    return [];
  }
  const found: {source: string; file: string}[] = [];
  const target = /(?:\]\(\s*<?|\b(?:src|href)=["'{]\s*["']?)(?:pathname:\/\/)?(\/[^)\s"'>}]+)/g;
  for (const page of pages) {
    for (const match of page.text.matchAll(target)) {
      const file = decodeURIComponent((match[1] as string).split(/[?#]/)[0] as string).replace(/^\/+/, '');
      if (file !== '' && existsSync(path.join(staticDir, file)) && statSync(path.join(staticDir, file)).isFile()) {
        found.push({source: page.source, file});
      }
    }
  }
  return found;
}

/**
 * Every (page, phrase, file) hit under `dir`. A file is searched twice: with
 * HTML tags stripped, and as is (so that a `<` comparison in minified JS can
 * never make the tag stripper swallow a string).
 */
export function findLeaks({pages, dir, files}: {pages: PagePhrases[]; dir: string; files?: string[]}): Leak[] {
  const leaks: Leak[] = [];
  for (const file of files ?? searchableFiles(dir)) {
    const content = readSearchable(file);
    const views = [normaliseText(content), normaliseText(content, {stripTags: false})];
    for (const page of pages) {
      for (const phrase of page.phrases) {
        if (views.some((view) => view.includes(phrase))) {
          leaks.push({file, source: page.source, phrase});
        }
      }
    }
  }
  return leaks;
}

/** The manifest the members build writes (plugins/access/manifest.ts), one page of it. */
type ManifestPage = AccessManifest['pages'][number];

export function parseManifest(json: string, where: string): AccessManifest {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new Error(`${where}: not valid JSON (${(error as Error).message})`);
  }
  const manifest = value as Partial<AccessManifest> | null;
  if (!manifest || typeof manifest !== 'object' || manifest.version !== 1 || !Array.isArray(manifest.pages)) {
    throw new Error(`${where}: expected {"version": 1, "pages": [...], "files": {...}}`);
  }
  if (!manifest.files || typeof manifest.files !== 'object' || Array.isArray(manifest.files)) {
    throw new Error(`${where}: no computed list of restricted files ("files"); run \`npm run build\` again`);
  }
  manifest.pages.forEach((page: Partial<ManifestPage> | null, index) => {
    const kind = page?.rule?.kind;
    if (
      !page ||
      typeof page.source !== 'string' ||
      typeof page.route !== 'string' ||
      (kind !== 'public' && kind !== 'signed-in' && kind !== 'roles')
    ) {
      throw new Error(`${where}: pages[${index}] needs a route, a source and a rule of kind public, signed-in or roles`);
    }
  });
  return manifest as AccessManifest;
}

/** The routes an llms.txt links to: each `](<baseUrl>….md)` is a page. */
export function llmsIndexRoutes(index: string): string[] {
  return [...index.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => routeForMarkdownPath(match[1] ?? ''))
    .filter((route): route is string => route !== null);
}

/**
 * The docs for coding agents (plugins/agent-docs), checked against the
 * manifest: the phrase search above already covers their text in every
 * public file; this checks what they list and how the gate decides them.
 *
 * - each llms.txt lists exactly its reader's pages: the public build's the
 *   public pages, the members build's also the signed-in ones, each role
 *   variant folder's also that variant's routes; each llms-full.txt holds
 *   exactly the Markdown of the pages its llms.txt lists;
 * - each restricted page's Markdown is one of the page's files in the
 *   manifest, with the page's rule, so the gate decides it as the page; both
 *   builds have it (the public one the withheld placeholder's).
 */
export function agentDocsProblems({
  manifest,
  publicDir,
  membersDir,
}: {
  manifest: AccessManifest;
  publicDir: string;
  membersDir: string;
}): string[] {
  const problems: string[] = [];
  const routesOf = (kinds: string[]) => manifest.pages.filter((page) => kinds.includes(page.rule.kind)).map((page) => page.route);
  const membersBase = routesOf(['public', 'signed-in']);
  const readerSets = [
    {dir: publicDir, folder: '', routes: routesOf(['public'])},
    {dir: membersDir, folder: '', routes: membersBase},
    ...(manifest.searchIndexes ?? []).map((variant) => ({
      dir: membersDir,
      folder: variant.dir,
      routes: [...membersBase, ...variant.routes],
    })),
  ];
  for (const {dir, folder, routes} of readerSets) {
    const where = path.join(path.basename(dir), folder);
    const indexFile = path.join(dir, folder, LLMS_INDEX_FILE);
    const fullFile = path.join(dir, folder, LLMS_FULL_FILE);
    if (!existsSync(indexFile) || !existsSync(fullFile)) {
      problems.push(`MISSING ${where}/${LLMS_INDEX_FILE} or ${LLMS_FULL_FILE} (plugins/agent-docs)`);
      continue;
    }
    const listed = llmsIndexRoutes(readFileSync(indexFile, 'utf8'));
    const expected = new Set(routes);
    const extra = listed.filter((route) => !expected.has(route));
    const absent = routes.filter((route) => !listed.includes(route));
    if (extra.length > 0) {
      problems.push(`LEAK ${where}/${LLMS_INDEX_FILE} lists page(s) its reader may not read: ${extra.join(', ')}`);
    }
    if (absent.length > 0) {
      problems.push(`WRONG ${where}/${LLMS_INDEX_FILE} leaves out page(s) its reader may read: ${absent.join(', ')}`);
    }
    const full = readFileSync(fullFile, 'utf8');
    const pagesOfBuild = manifest.pages.filter((page) => existsSync(path.join(dir, markdownFileFor(page.route, manifest.baseUrl))));
    for (const page of pagesOfBuild) {
      const markdown = readFileSync(path.join(dir, markdownFileFor(page.route, manifest.baseUrl)), 'utf8');
      if (expected.has(page.route) !== full.includes(markdown)) {
        problems.push(
          expected.has(page.route)
            ? `WRONG ${where}/${LLMS_FULL_FILE} lacks the Markdown of ${page.route}`
            : `LEAK ${where}/${LLMS_FULL_FILE} holds the Markdown of ${page.route}, which its reader may not read`,
        );
      }
    }
  }
  for (const page of manifest.pages) {
    const markdown = markdownFileFor(page.route, manifest.baseUrl);
    for (const dir of [publicDir, membersDir]) {
      if (!existsSync(path.join(dir, markdown))) {
        problems.push(`MISSING ${path.basename(dir)}/${markdown}, the Markdown of ${page.route}`);
      }
    }
    if (page.rule.kind === 'public') {
      continue;
    }
    const rules = manifest.files[markdown];
    if (!page.files.includes(markdown) || !rules?.some((rule) => JSON.stringify(rule) === JSON.stringify(page.rule))) {
      problems.push(`LEAK ${markdown}: the Markdown of the restricted page ${page.route} is not among its files in the access manifest`);
    }
  }
  return problems;
}

export interface LeakCheckOptions {
  /** Repository root: sources and folders are resolved from it (default: this repository). */
  root?: string;
  /** Default `build/access-manifest.json`. */
  manifest?: string;
  /** Default `build/public`. */
  publicDir?: string;
  /** Default `build/members`. */
  membersDir?: string;
}

export interface LeakCheckResult {
  /** 0 clean, 1 a leak or a blind check, 2 the check could not run. */
  exitCode: 0 | 1 | 2;
  /** What to print: the `LEAK ...` lines, the problems or the summary. */
  lines: string[];
  leaks: Leak[];
  /** Restricted pages whose phrases were not found in the members build. */
  blindPages: string[];
}

/** The whole check, without printing or exiting: what `npm run leak-check` runs. */
export function runLeakCheck(options: LeakCheckOptions = {}): LeakCheckResult {
  const root = path.resolve(options.root ?? ROOT);
  const fromRoot = (file: string) => path.resolve(root, file);
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const manifestFile = fromRoot(options.manifest ?? 'build/access-manifest.json');
  const publicDir = fromRoot(options.publicDir ?? 'build/public');
  const membersDir = fromRoot(options.membersDir ?? 'build/members');
  const failure = (message: string): LeakCheckResult => ({exitCode: 2, lines: [`leak check: ${message}`], leaks: [], blindPages: []});

  try {
    if (!existsSync(manifestFile)) {
      return failure(`${relative(manifestFile)} not found; run \`npm run build\` first (it writes the manifest and both audience builds)`);
    }
    for (const dir of [publicDir, membersDir]) {
      if (!existsSync(dir) || !statSync(dir).isDirectory()) {
        return failure(`${relative(dir)}/ not found; run \`npm run build\` first (it builds build/public and build/members)`);
      }
    }
    const manifest = parseManifest(readFileSync(manifestFile, 'utf8'), relative(manifestFile));
    const readSource = (page: ManifestPage) => {
      const file = fromRoot(page.source);
      if (!existsSync(file)) {
        throw new Error(`${page.source} (page ${page.route} in ${relative(manifestFile)}) not found`);
      }
      return readFileSync(file, 'utf8');
    };

    // A phrase that a public page contains too proves nothing: leave it out.
    const publicProse = manifest.pages
      .filter((page) => page.rule.kind === 'public' && existsSync(fromRoot(page.source)))
      .map((page) => normaliseText(proseSegments(readSource(page)).join(' ')));
    const restricted = manifest.pages.filter((page) => page.rule.kind !== 'public');
    const prosePhrases: (PagePhrases & {page: string})[] = restricted.map((page) => ({
      source: page.source,
      page: page.source,
      phrases: distinctivePhrases(readSource(page), {
        source: page.source,
        exclude: (phrase) => publicProse.some((prose) => prose.includes(phrase)),
      }),
    }));
    const dataPhrases = restrictedDataPhrases(
      root,
      manifest.pages
        .filter((page) => existsSync(fromRoot(page.source)))
        .map((page) => ({source: page.source, restricted: page.rule.kind !== 'public', text: readSource(page)})),
    );
    const pages = [...prosePhrases, ...dataPhrases];

    const publicFiles = searchableFiles(publicDir);
    if (publicFiles.length === 0) {
      return failure(`${relative(publicDir)}/ is empty; run \`npm run build\` first`);
    }
    const publicLeaks = findLeaks({pages, dir: publicDir, files: publicFiles});
    const membersHits = findLeaks({pages, dir: membersDir});
    const found = new Set(membersHits.map((hit) => hit.source));
    const blindPages = pages.filter((page) => !found.has(page.source)).map((page) => page.source);
    // Every member downloads the members build's shared files (version data,
    // search index, other pages): a page that needs a role may appear only in
    // files that the gate gives to readers who may read it, which the access
    // manifest's computed list (`files`, plugins/access/placement.ts) names:
    // each file with the rules of the pages that use it.
    const fileRules = new Map(Object.entries(manifest.files ?? {}).map(([file, rules]) => [path.join(membersDir, file), rules]));
    const ruleOf = new Map(restricted.map((page) => [page.source, page.rule]));
    /** The search bundles the gate gives only to readers who may read this page (every file under them). */
    const variantDirsOf = (page: string) =>
      (manifest.searchIndexes ?? [])
        .filter((index) => index.routes.includes(restricted.find((candidate) => candidate.source === page)?.route ?? ''))
        .map((index) => {
          // Only the folder the gate never serves by name may hold a variant (never the bundle every member gets).
          if (!index.dir.startsWith(`${SEARCH_VARIANTS_DIR}/`)) {
            throw new Error(`search index ${index.dir} in the manifest is not under ${SEARCH_VARIANTS_DIR}/`);
          }
          return `${path.join(membersDir, index.dir)}${path.sep}`;
        });
    // A restricted data module's texts may be where the page that shows them may be.
    const pageOf = new Map(pages.map((entry) => [entry.source, entry.page]));
    const membersLeaks = membersHits.filter((hit) => {
      const page = pageOf.get(hit.source) ?? hit.source;
      const needed = ruleOf.get(page);
      if (!needed || needed.kind !== 'roles') {
        return false;
      }
      // A precompressed sibling is served only as its file, under its rules.
      const held = fileRules.get(hit.file) ?? fileRules.get(hit.file.replace(SIBLING_SUFFIX, ''));
      const readersMayReadPage = held !== undefined && held.every((rule) => ruleImplies(rule, needed));
      return !readersMayReadPage && !variantDirsOf(page).some((dir) => hit.file.startsWith(dir));
    });
    // Stylesheets are merged into the stylesheet every page links (the
    // bundler's `styles` group), whatever page imports them: a stylesheet that
    // only restricted pages reach (their class names, `content:` text) would
    // reach every member.
    const restrictedStyles = restrictedStylesheets(
      root,
      restricted.map((page) => page.source),
      manifest.pages.filter((page) => page.rule.kind === 'public').map((page) => page.source),
    );
    // Files under static/ are copied to every build as they are: a restricted page must not link to one.
    const staticLinks = restrictedStaticLinks(
      root,
      restricted.map((page) => ({source: page.source, text: readSource(page)})),
    );
    const leaks = [...publicLeaks, ...membersLeaks];
    const restrictedNames = new Set(Object.keys(manifest.files ?? {}));
    const siblings = [publicDir, membersDir].flatMap((dir) =>
      badSiblings(dir, dir === publicDir ? restrictedNames : new Set()).map((bad) => ({...bad, dir})),
    );

    const agentDocs = agentDocsProblems({manifest, publicDir, membersDir});

    const lines = [
      ...agentDocs,
      ...publicLeaks.map((leak) => `LEAK ${relative(leak.file)}: "${leak.phrase}" from ${leak.source}`),
      ...membersLeaks.map(
        (leak) =>
          `LEAK ${relative(leak.file)}: "${leak.phrase}" from ${leak.source} (every member downloads this file; the page needs a role)`,
      ),
    ];
    for (const {source, stylesheet} of restrictedStyles) {
      lines.push(
        `LEAK ${source}: imports ${stylesheet}, which only restricted pages use; the bundler merges it into the stylesheet ` +
          `every member downloads (style restricted pages with the site's own components and classes)`,
      );
    }
    for (const link of staticLinks) {
      lines.push(
        `LEAK ${link.source}: links to static/${link.file}, which every reader gets (static/ is copied to every build); ` +
          `put the file beside the page and link it relatively, so the build gives it the page's rule`,
      );
    }
    for (const {dir, sibling, problem} of siblings) {
      lines.push(`LEAK ${relative(dir)}/${sibling}: ${problem}`);
    }
    for (const source of blindPages) {
      lines.push(
        `BLIND ${source}: none of its phrases is in ${relative(membersDir)}/, so the check cannot see this page ` +
          `(the build renders its prose differently from what the leak check extracts)`,
      );
    }
    const phraseCount = pages.reduce((sum, page) => sum + page.phrases.length, 0);
    const summary =
      `leak check: ${prosePhrases.length} restricted pages, ${dataPhrases.length} restricted data modules shown by them, ${phraseCount} phrases, ${publicFiles.length} files in ${relative(publicDir)}, ` +
      `${publicLeaks.length} leaks, ${membersLeaks.length} in files shared by all members (${blindPages.length === 0 ? `every page found in ${relative(membersDir)}` : `${blindPages.length} page(s) not found in ${relative(membersDir)}`})`;
    lines.push(summary);
    const failed =
      leaks.length > 0 ||
      blindPages.length > 0 ||
      restrictedStyles.length > 0 ||
      staticLinks.length > 0 ||
      siblings.length > 0 ||
      agentDocs.length > 0;
    return {exitCode: failed ? 1 : 0, lines, leaks, blindPages};
  } catch (error) {
    // An unreadable manifest or source, or a page with too little prose.
    if (error instanceof Error) {
      return failure(error.message);
    }
    throw error;
  }
}

export function main(options: LeakCheckOptions = {}): number {
  const result = runLeakCheck(options);
  const print = result.exitCode === 0 ? console.log : console.error;
  for (const line of result.lines) {
    print(line);
  }
  return result.exitCode;
}

if (require.main === module) {
  process.exitCode = main();
}
