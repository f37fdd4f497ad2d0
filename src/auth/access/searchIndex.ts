/**
 * Where the search indexes live in a build, shared by the build
 * (plugins/search, plugins/access/searchIndexes.ts), the gate
 * (server/decide.ts) and the browser's search box (src/components/search),
 * which asks for `<baseUrl>pagefind/…`. The gate answers each such request
 * from the index of exactly the pages the reader's session may read. No
 * imports: it runs in all three places.
 */

/** The search bundle (Pagefind: its script, its WebAssembly, index chunks and one fragment per page) under the site's root. */
export const SEARCH_BUNDLE_DIR = 'pagefind';
/** Where the members build keeps the indexes of readers with roles, each `<id>/pagefind/`; never served under their own names. */
export const SEARCH_VARIANTS_DIR = '_portal/search';
