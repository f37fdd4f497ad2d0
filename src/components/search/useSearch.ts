/**
 * A search as React state: the answer for the latest query, whether one is
 * under way, and a failure to load the index (offline, or a static host
 * without one). Answers to older queries that arrive late are dropped.
 */
import {useCallback, useEffect, useRef, useState} from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {loadSearch, searchDocs, type SearchAnswer} from './pagefind';

export type SearchStatus = 'idle' | 'searching' | 'done' | 'failed';

/** Time after the last keystroke before searching (ms): a word typed quickly is one query. */
const TYPING_PAUSE_MS = 120;

export function useSearch(limit: number): {
  answer: SearchAnswer | null;
  status: SearchStatus;
  ready: boolean;
  search: (query: string) => void;
  prepare: () => void;
} {
  const {siteConfig} = useDocusaurusContext();
  const {baseUrl} = siteConfig;
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [status, setStatus] = useState<SearchStatus>('idle');
  const [ready, setReady] = useState(false);
  const latest = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const prepare = useCallback(() => {
    loadSearch(baseUrl).then(
      () => setReady(true),
      () => undefined,
    );
  }, [baseUrl]);

  const search = useCallback(
    (query: string) => {
      const ticket = ++latest.current;
      clearTimeout(timer.current);
      if (query.trim() === '') {
        setAnswer(null);
        setStatus('idle');
        return;
      }
      setStatus('searching');
      timer.current = setTimeout(() => {
        loadSearch(baseUrl)
          .then((api) => {
            setReady(true);
            return searchDocs(api, query, baseUrl, limit);
          })
          .then(
            (result) => {
              if (ticket === latest.current) {
                setAnswer(result);
                setStatus('done');
              }
            },
            () => {
              if (ticket === latest.current) {
                setStatus('failed');
              }
            },
          );
      }, TYPING_PAUSE_MS);
    },
    [baseUrl, limit],
  );

  return {answer, status, ready, search, prepare};
}
