/**
 * The highlighter's chunk, loaded when a block first renders in the browser
 * and prefetched meanwhile (idle network, no evaluation) so a later
 * navigation finds it.
 *
 * The server bundle gets HighlightedContent.tsx in place of this module
 * (plugins/code-blocks), so pages are rendered highlighted in one pass
 * instead of with a fallback that streams in later.
 */
import {lazy} from 'react';

export default lazy(() => import(/* webpackPrefetch: true */ './HighlightedContent'));
