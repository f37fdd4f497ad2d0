/**
 * The navbar's search box: an ARIA combobox (WAI-ARIA APG "list autocomplete"
 * pattern). Typing suggests pages (title, section, excerpt with the query's
 * words marked); ↓/↑ move through them, Enter opens one (or, with none
 * chosen, the full results on /search), Escape closes the list and then
 * clears the box. A polite live region says how many pages matched. The
 * search script loads when the box is first focused or typed in.
 */
import {useId, useRef, useState, type KeyboardEvent, type ReactNode} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {useHistory} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Excerpt from './Excerpt';
import {MAX_QUERY_LENGTH} from './pagefind';
import {useSearch} from './useSearch';
import styles from './search.module.css';

/**
 * Suggestions shown under the box; the /search page lists them all. Each one downloads its page's Pagefind
 * fragment (the page's text, 5 to 10 KB compressed), so this number is what keeps one search within its
 * 150 KB (scripts/budget.ts) as the handbook grows: at 8, the handbook of 2026-11-28 needed 150.9 KB.
 */
const SUGGESTIONS = 6;

export function searchPageUrl(baseUrl: string, query: string): string {
  return `${baseUrl}search?q=${encodeURIComponent(query.trim())}`;
}

export function announcement(status: string, total: number | undefined, query: string): string {
  if (status === 'failed') {
    return 'Search is not available right now.';
  }
  if (status !== 'done' || total === undefined || query.trim() === '') {
    return '';
  }
  return total === 0 ? `No results for ${query.trim()}` : `${total} ${total === 1 ? 'page matches' : 'pages match'} ${query.trim()}`;
}

export default function SearchBox(): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  const history = useHistory();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const {answer, status, ready, search, prepare} = useSearch(SUGGESTIONS);
  const hits = answer && answer.query === query.trim() ? answer.hits : (answer?.hits ?? []);
  const showList = open && query.trim() !== '' && (hits.length > 0 || status === 'done' || status === 'failed');
  const optionId = (index: number) => `${listId}-option-${index}`;

  const go = (url: string) => {
    setOpen(false);
    setActive(-1);
    inputRef.current?.blur();
    history.push(url);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (hits.length > 0) {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // -1 is the box itself: the list wraps through it.
        setActive((current) => {
          const next = current + step;
          return next >= hits.length ? -1 : next < -1 ? hits.length - 1 : next;
        });
      }
    } else if (event.key === 'Enter') {
      if (query.trim() === '') {
        return;
      }
      event.preventDefault();
      const chosen = active >= 0 ? hits[active] : undefined;
      go(chosen ? chosen.url : searchPageUrl(siteConfig.baseUrl, query));
    } else if (event.key === 'Escape') {
      if (open && showList) {
        setOpen(false);
        setActive(-1);
      } else {
        setQuery('');
        search('');
      }
    }
  };

  return (
    <div className={styles.box} data-search-ready={ready ? 'true' : undefined}>
      <input
        ref={inputRef}
        type="search"
        className={clsx('navbar__search-input', styles.input)}
        placeholder="Search"
        aria-label="Search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 && active < hits.length ? optionId(active) : undefined}
        maxLength={MAX_QUERY_LENGTH}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onFocus={() => {
          prepare();
          setOpen(true);
        }}
        onBlur={() => setOpen(false)}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(-1);
          setOpen(true);
          search(event.target.value);
        }}
        onKeyDown={onKeyDown}
      />
      <div className={clsx(styles.panel, !showList && styles.hidden)}>
        <ul id={listId} role="listbox" aria-label="Search suggestions" className={styles.list}>
          {showList &&
            hits.map((hit, index) => (
              // The keyboard reaches options through the box (aria-activedescendant), as the APG
              // combobox pattern does: options are never focused, so they need no key handlers.
              // eslint-disable-next-line jsx-a11y/click-events-have-key-events
              <li
                key={hit.url}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={clsx(styles.option, index === active && styles.active)}
                // Keep focus in the box: the click below opens the page.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => go(hit.url)}>
                <span className={styles.title}>
                  {hit.title}
                  {hit.section && <span className={styles.section}> › {hit.section}</span>}
                </span>
                <span className={styles.excerpt}>
                  <Excerpt parts={hit.excerpt} />
                </span>
              </li>
            ))}
        </ul>
        {showList && status === 'done' && hits.length === 0 && <p className={styles.empty}>No results for “{query.trim()}”</p>}
        {showList && status === 'failed' && <p className={styles.empty}>Search is not available right now.</p>}
        {showList && hits.length > 0 && (
          <Link
            className={styles.all}
            to={searchPageUrl(siteConfig.baseUrl, query)}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              setOpen(false);
              setActive(-1);
            }}>
            See all {answer?.total ?? hits.length} results
          </Link>
        )}
      </div>
      <div role="status" aria-live="polite" className={styles.visuallyHidden}>
        {open ? announcement(status, answer?.total, query) : ''}
      </div>
    </div>
  );
}
