/**
 * The one "Sign in" button: in the navbar (and its mobile sidebar), on a
 * withheld page, and in the "session ended" notice. While the session loads
 * it keeps its size, is disabled and says "Checking your session…" to
 * screen readers, so nothing shifts when the session resolves.
 */
import type {ReactNode} from 'react';
import clsx from 'clsx';
import usePortalAuth from '../usePortalAuth';
import styles from './auth.module.css';

export interface SignInButtonProps {
  /** `outline` in the navbar, `solid` where sign-in is the page's main action. */
  appearance?: 'outline' | 'solid';
  size?: 'sm' | 'md';
  label?: string;
  /** What to start instead of the portal's sign-in (a notice's own retry). */
  onClick?: () => Promise<void>;
  className?: string;
}

export default function SignInButton({
  appearance = 'outline',
  size = 'sm',
  label = 'Sign in',
  onClick,
  className,
}: SignInButtonProps): ReactNode {
  const {isLoading, signIn} = usePortalAuth();
  const classes = clsx(
    'button button--primary',
    appearance === 'outline' && 'button--outline',
    size === 'sm' && 'button--sm',
    styles.signIn,
    className,
  );
  // A person icon, shown instead of the label where the navbar is narrow (CSS).
  const icon = (
    <svg
      className={styles.signInIcon}
      aria-hidden="true"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2">
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
    </svg>
  );
  if (isLoading) {
    return (
      <button type="button" className={clsx(classes, styles.pending)} disabled aria-busy="true">
        <span className={styles.visuallyHidden}>Checking your session…</span>
        {icon}
        <span className={styles.signInLabel} aria-hidden="true">
          {label}
        </span>
      </button>
    );
  }
  return (
    <button type="button" className={classes} onClick={() => void (onClick ?? signIn)()}>
      {icon}
      <span className={styles.signInLabel}>{label}</span>
    </button>
  );
}
