import type {ReactNode} from 'react';
import SearchPage from '@theme-original/SearchPage';
import BrowserTakeover from '@site/src/components/BrowserTakeover';

/**
 * The search plugin's page, taken over from the server's HTML as Docusaurus
 * does it, not as a transition (see BrowserTakeover in Root). The page reads
 * `?q=` only once `useIsBrowser` is true, and on mounting writes its query,
 * still empty, back to the URL. It finds the reader's query only when the
 * takeover lands in the same flush of effects as that write, before the
 * router passes the emptied URL down; a transition comes later, and the
 * page then showed no results for a query in its URL.
 */
export default function SearchPageWrapper(): ReactNode {
  return (
    <BrowserTakeover urgent>
      <SearchPage />
    </BrowserTakeover>
  );
}
