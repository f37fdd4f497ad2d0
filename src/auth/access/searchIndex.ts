/**
 * Where the search indexes live in a build, shared by the build
 * (plugins/access/searchIndexes.ts) and the gate (server/decide.ts), which
 * answers a member's request for the index with the variant their session
 * may read. No imports: it runs in both.
 */

/** The index every reader's browser asks for; the gate may answer with a variant. */
export const SEARCH_INDEX_FILE = 'search-index.json';
/** Where the members build keeps the variants; never served under their own names. */
export const SEARCH_VARIANTS_DIR = '_portal/search';
