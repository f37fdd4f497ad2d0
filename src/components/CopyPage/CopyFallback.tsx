/**
 * Shown when the clipboard refuses the page's Markdown: the text in a
 * read-only box, focused and selected, to copy with the keyboard. Loaded on
 * first use (see ./index.tsx). Escape or "Close" hands focus back to the button.
 */
import {useEffect, useId, useRef, type KeyboardEvent, type ReactNode} from 'react';
import styles from './styles.module.css';

export interface CopyFallbackProps {
  markdown: string;
  onClose: () => void;
}

/** The copy shortcut of the reader's platform. */
function copyShortcut(): string {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘C' : 'Ctrl+C';
}

export default function CopyFallback({markdown, onClose}: CopyFallbackProps): ReactNode {
  const titleId = useId();
  const hintId = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    textRef.current?.focus();
    textRef.current?.select();
  }, [markdown]);

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };

  return (
    // Not modal: the page stays usable; Escape closes it from anywhere inside.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape is a shortcut for the Close button inside
    <div role="dialog" aria-labelledby={titleId} aria-describedby={hintId} className={styles.fallback} onKeyDown={closeOnEscape}>
      <p id={titleId} className={styles.fallbackTitle}>
        The clipboard is not available here
      </p>
      <p id={hintId} className={styles.fallbackHint}>
        The page’s Markdown is selected below: press {copyShortcut()} to copy it.
      </p>
      <textarea ref={textRef} className={styles.fallbackText} readOnly value={markdown} aria-label="This page as Markdown" rows={8} />
      <button type="button" className={`button button--secondary button--sm ${styles.action}`} onClick={onClose}>
        Close
      </button>
    </div>
  );
}
