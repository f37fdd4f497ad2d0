/**
 * `/search?q=…`: every page that matches, best first, each an <article> with
 * its title (a link), where it is and an excerpt with the query's words
 * marked. Typing updates the address, so a search can be shared or
 * bookmarked; the count is announced politely to screen readers.
 */
import {useCallback, useEffect, useSyncExternalStore, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {useHistory} from '@docusaurus/router';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';
import Excerpt from './Excerpt';
import {MAX_QUERY_LENGTH} from './pagefind';
import {announcement} from './SearchBox';
import {useSearch} from './useSearch';
import styles from './search.module.css';

/** Results listed on the page (the best ones; a query that matches more is shown as "the first N of M"). */
const MAX_RESULTS = 50;

export default function SearchPage(): ReactNode {
  const history = useHistory();
  // The address is the query's one home: a link to /search?q=… (or Back) searches
  // for it. The server's page has no query, so hydration starts from ''.
  const subscribe = useCallback((onChange: () => void) => history.listen(onChange), [history]);
  const query = useSyncExternalStore(
    subscribe,
    () => new URLSearchParams(window.location.search).get('q') ?? '',
    () => '',
  );
  const {answer, status, search} = useSearch(MAX_RESULTS);
  useEffect(() => search(query), [query, search]);

  const title = query.trim() ? `Search results for “${query.trim()}”` : 'Search the documentation';
  return (
    <Layout title={title} description="Search the Developer Portal">
      <main className={`container ${styles.page}`}>
        <Heading as="h1">{title}</Heading>
        <input
          type="search"
          className={styles.pageInput}
          aria-label="Search the documentation"
          placeholder="Search the documentation"
          maxLength={MAX_QUERY_LENGTH}
          value={query}
          onChange={(event) => history.replace({search: event.target.value ? `?q=${encodeURIComponent(event.target.value)}` : ''})}
        />
        <div role="status" aria-live="polite" className={styles.visuallyHidden}>
          {announcement(status, answer?.total, query)}
        </div>
        <div className={styles.results}>
          {status === 'failed' && <p>Search is not available right now. Try again in a moment.</p>}
          {status === 'done' && answer && answer.hits.length === 0 && <p>No documents were found for “{answer.query}”.</p>}
          {answer && answer.total > answer.hits.length && (
            <p>
              The best {answer.hits.length} of {answer.total} pages.
            </p>
          )}
          {answer?.hits.map((hit) => (
            <article key={hit.url} className={styles.result}>
              <Heading as="h2">
                <Link to={hit.url}>{hit.title}</Link>
              </Heading>
              <div className={styles.path}>
                {hit.url.split('#')[0]}
                {hit.section && ` › ${hit.section}`}
              </div>
              <p>
                <Excerpt parts={hit.excerpt} />
              </p>
            </article>
          ))}
        </div>
      </main>
    </Layout>
  );
}
