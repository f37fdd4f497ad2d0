/**
 * The public build's page conversions, reused by the members build of the
 * same `npm run build` (issue 30's build-time target, bench/README.md).
 *
 * Most pages are public, and a public page's article is the same HTML in
 * both builds, so converting it again in the members build only repeats
 * work (about half of this plugin's time). The two builds run in separate
 * processes (scripts/build.ts says why), so the public build writes what it
 * converted to a file scripts/build.ts names (`PORTAL_AGENT_DOCS_REUSE`, a
 * fresh temporary folder per run, removed when the build ends), and the
 * members build looks each page up there before converting it.
 *
 * Why this cannot leak a restricted page's text into the public build:
 * - the file is written by the public build only and read by the members
 *   build only, so it holds nothing but what the public build itself
 *   converted (exactly its own `.md` files' text), and flows one way;
 * - an entry's key is a hash of everything the Markdown is made from (the
 *   article's HTML, the title, the description, the diagrams' sources, and
 *   a digest of the build's doc routes, since links to them become `.md`
 *   links and the members build has more of them), so
 *   a hit is the Markdown the members build would have produced from the
 *   same input; a page that renders differently for members (withheld in
 *   public, or listing more pages) has another key and is converted anew.
 * The converter is the same code in both processes of one run, and the file
 * lives only as long as that run, so no entry outlives the code that made it.
 */
import {createHash} from 'node:crypto';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';

/**
 * What a page's Markdown is made from: `pageMarkdown`'s input, with the page
 * reduced to its article. The route too, although today's Markdown does not
 * depend on it (the same page has the same route in both builds, so reuse
 * loses nothing), so that a converter that resolves links against the page
 * cannot be handed another page's Markdown.
 */
export interface ConversionInput {
  route: string;
  title: string;
  description?: string;
  articleHtml: string;
  diagrams: string[];
  /** A digest of the site's doc routes (links to them become `.md` links): `routesDigest`. */
  docRoutesDigest: string;
}

/** One digest of the doc routes per build, for every page's key (the list is the same for each page). */
export function routesDigest(routes: Iterable<string>): string {
  return createHash('sha256')
    .update(JSON.stringify([...routes].sort()))
    .digest('base64url');
}

export function conversionKey({route, title, description, articleHtml, diagrams, docRoutesDigest}: ConversionInput): string {
  return createHash('sha256')
    .update(JSON.stringify([route, title, description ?? null, diagrams, docRoutesDigest, articleHtml]))
    .digest('base64url');
}

/** Conversion key → the page's Markdown. */
export type Conversions = Map<string, string>;

/** The public build's conversions; none when the file is absent (a members build run on its own). */
export function readConversions(file: string): Conversions {
  if (!existsSync(file)) {
    return new Map();
  }
  return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>));
}

export function writeConversions(file: string, conversions: Conversions): void {
  writeFileSync(file, JSON.stringify(Object.fromEntries(conversions)));
}
