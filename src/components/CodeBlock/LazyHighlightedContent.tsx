/**
 * The highlighter's chunk, loaded when a block first renders in the browser.
 * Not prefetched: a bundler prefetch (`webpackPrefetch`) would download it
 * on every page load, also on 2g connections and with data saving on, where
 * the site prefetches nothing (spec; Docusaurus's own route prefetching).
 *
 * The server bundle gets HighlightedContent.tsx in place of this module
 * (plugins/code-blocks), so pages are rendered highlighted in one pass
 * instead of with a fallback that streams in later.
 */
import {lazy} from 'react';

export default lazy(() => import('./HighlightedContent'));
