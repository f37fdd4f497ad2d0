/**
 * "Copy page" and "View as Markdown" at the top of a doc (issue 30): the
 * button fetches the page's Markdown when clicked (never embedded in the
 * page, since what a reader may read is decided per reader by the server) and
 * copies it; the link opens the same file. The fallback shown when the
 * clipboard refuses is loaded on first use, to keep first-load JavaScript small.
 */
import {useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode} from 'react';
import {ClipboardRefusedError, copyMarkdown} from './copyMarkdown';
import type {CopyFallbackProps} from './CopyFallback';
import styles from './styles.module.css';
import {NOT_IN_MARKDOWN_ATTRIBUTE} from '@site/src/auth/access/agentDocs';

/** How long "Copied" stays before the status clears. */
export const STATUS_RESET_MS = 4000;

type Status = {kind: 'idle'} | {kind: 'copying'} | {kind: 'copied'} | {kind: 'failed'; message: string};

type Fallback = {Component: ComponentType<CopyFallbackProps>; markdown: string};

const COPIED = 'Copied';
const FETCH_FAILED = 'Could not load this page’s Markdown. Open it with “View as Markdown”.';
const FALLBACK_FAILED = 'Could not copy this page. Open it with “View as Markdown” and copy it from there.';

export default function CopyPage({markdownUrl}: {markdownUrl: string}): ReactNode {
  const [status, setStatus] = useState<Status>({kind: 'idle'});
  const [fallback, setFallback] = useState<Fallback | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  // "Copied" clears after a while; an error stays until the next attempt.
  useEffect(() => {
    if (status.kind !== 'copied') {
      return undefined;
    }
    const timer = setTimeout(() => setStatus({kind: 'idle'}), STATUS_RESET_MS);
    return () => clearTimeout(timer);
  }, [status]);

  const copy = useCallback(async () => {
    setFallback(null);
    setStatus({kind: 'copying'});
    try {
      await copyMarkdown(markdownUrl);
      setStatus({kind: 'copied'});
    } catch (error) {
      if (!(error instanceof ClipboardRefusedError)) {
        setStatus({kind: 'failed', message: FETCH_FAILED});
        return;
      }
      try {
        const {default: Component} = await import('./CopyFallback');
        setStatus({kind: 'idle'});
        setFallback({Component, markdown: error.markdown});
      } catch {
        setStatus({kind: 'failed', message: FALLBACK_FAILED});
      }
    }
  }, [markdownUrl]);

  const closeFallback = useCallback(() => {
    setFallback(null);
    buttonRef.current?.focus();
  }, []);

  const statusText = status.kind === 'copied' ? COPIED : status.kind === 'failed' ? status.message : '';
  return (
    // Controls, not content: left out of the page's Markdown and of search.
    <div className={styles.copyPage} {...{[NOT_IN_MARKDOWN_ATTRIBUTE]: ''}} data-pagefind-ignore="all">
      <div className={styles.actions}>
        {/* Always in the page, so screen readers track it before its text changes. */}
        <span role="status" className={status.kind === 'failed' ? styles.statusFailed : styles.status}>
          {statusText}
        </span>
        <button
          ref={buttonRef}
          type="button"
          className={`button button--secondary button--outline button--sm ${styles.action}`}
          aria-label="Copy page as Markdown"
          aria-busy={status.kind === 'copying'}
          onClick={() => void copy()}>
          Copy page
        </button>
        {/* eslint-disable-next-line @docusaurus/no-html-links -- the .md is a file, not a route: the router's Link would open the app's not-found page */}
        <a href={markdownUrl} type="text/markdown" className={`button button--secondary button--outline button--sm ${styles.action}`}>
          View as Markdown
        </a>
      </div>
      {fallback && <fallback.Component markdown={fallback.markdown} onClose={closeFallback} />}
    </div>
  );
}
