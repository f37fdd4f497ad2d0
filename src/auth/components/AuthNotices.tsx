/**
 * Session messages the user should see: failed sign-in, a possible login
 * forgery, an expired session, an unreachable provider, and the banner of an
 * impersonated session. Fixed at the bottom of the viewport, so they never
 * push the page content around, and announced to screen readers.
 */
import type {ReactNode} from 'react';
import clsx from 'clsx';
import usePortalAuth from '../usePortalAuth';
import {returnToOfState, withoutCallbackParams} from '../signIn/callback';
import type {AuthNotice} from '../signIn/notices';
import {displayName} from './AuthNavbarItem';
import SignInButton from './SignInButton';
import styles from './auth.module.css';

interface NoticeText {
  title: string;
  body: string;
  tone: 'danger' | 'warning' | 'info';
}

export function noticeText(notice: AuthNotice): NoticeText {
  switch (notice.kind) {
    case 'exchange-failed':
      return {
        tone: 'danger',
        title: 'Sign-in failed',
        body: 'The sign-in provider did not accept the sign-in. Please try again; if it keeps failing, ask #team-identity.',
      };
    case 'forged-callback':
      return {
        tone: 'warning',
        title: 'Sign-in link ignored',
        body: 'This page was opened with a sign-in code that this browser did not request, possibly a forged link, so it signed nobody in. If you were signed in before, reload the page: your session is kept. Otherwise use "Sign in" to start a new sign-in.',
      };
    case 'sign-in-denied':
      return {
        tone: 'warning',
        title: 'Sign-in cancelled',
        body: 'The sign-in provider sent you back without signing you in: the sign-in was cancelled or refused. Use "Sign in" to try again.',
      };
    case 'session-expired':
      return {tone: 'warning', title: 'Your session has ended', body: 'Sign in again to continue where you were.'};
    case 'provider-unreachable':
      return {
        tone: 'info',
        title: 'Sign-in service unreachable',
        body: 'Your session is kept and will resume automatically when the sign-in service answers again. The documentation stays readable.',
      };
    case 'provider-timeout':
      return {
        tone: 'info',
        title: 'Sign-in service not answering',
        body: 'The sign-in service has not answered yet. The documentation stays readable; reload the page to try signing in again.',
      };
    case 'signed-out-elsewhere':
      return {tone: 'info', title: 'Signed out', body: 'You signed out in another tab. Sign in again to read pages for members.'};
    case 'sign-in-unavailable':
      return {tone: 'info', title: 'Sign-in unavailable', body: notice.reason};
    case 'sign-in-failed':
      return {
        tone: 'danger',
        title: 'Could not start sign-in',
        body: 'Your browser could not prepare a secure sign-in. Reload the page and try again.',
      };
  }
}

/**
 * Loads the page again without the sign-in callback's parameters: reloading
 * an address that still holds the one-time code would hand the provider a
 * code it already took (or one that expired), and fail. On a callback (a
 * code in the address), the page the sign-in started from (its `state`, a
 * same-origin path only).
 */
function reloadWithoutCallback(): void {
  const {pathname, search, hash, origin} = window.location;
  const params = new URLSearchParams(search);
  const returnTo = params.has('code') ? returnToOfState(params.get('state'), origin) : null;
  const target = returnTo ?? withoutCallbackParams(window.location);
  if (target === `${pathname}${search}${hash}`) {
    window.location.reload();
  } else {
    window.location.assign(target);
  }
}

/**
 * Where keyboard focus goes when a notice closes (its Dismiss button goes
 * with it): the page's main content, without scrolling it.
 */
function focusMainContent(): void {
  const main = document.querySelector('main');
  if (main instanceof HTMLElement) {
    if (!main.hasAttribute('tabindex')) {
      // Only for this focus, as Docusaurus's skip link does: a click in the text must not focus <main>.
      main.setAttribute('tabindex', '-1');
      main.addEventListener('blur', () => main.removeAttribute('tabindex'), {once: true});
    }
    main.focus({preventScroll: true});
  }
}

export default function AuthNotices(): ReactNode {
  const auth = usePortalAuth();
  const dismiss = () => {
    auth.dismissNotice();
    focusMainContent();
  };
  const notice = auth.notice;
  if (!notice && !(auth.user && auth.impersonator)) {
    return null;
  }
  const text = notice ? noticeText(notice) : null;
  return (
    <div className={styles.notices}>
      {auth.user && auth.impersonator && (
        <section className={clsx('alert alert--secondary', styles.notice)} role="status" aria-label="Impersonation">
          <p>
            <strong>Impersonation:</strong> you are viewing the portal as {displayName(auth.user)} ({auth.user.email}), impersonated by{' '}
            {auth.impersonator.email}.{auth.impersonator.reason ? ` Reason: ${auth.impersonator.reason}.` : ''}
          </p>
          <button type="button" className="button button--sm button--secondary" onClick={() => auth.signOut()}>
            End session
          </button>
        </section>
      )}
      {notice && text && (
        <section
          className={clsx('alert', `alert--${text.tone}`, styles.notice)}
          role={text.tone === 'info' ? 'status' : 'alert'}
          aria-label={text.title}>
          <p>
            <strong>{text.title}.</strong> {text.body}
          </p>
          <div className={styles.noticeActions}>
            {notice.kind === 'session-expired' && <SignInButton appearance="solid" label="Sign in again" onClick={auth.signIn} />}
            {notice.kind === 'provider-timeout' && (
              <button type="button" className="button button--sm button--primary" onClick={reloadWithoutCallback}>
                Reload
              </button>
            )}
            <button type="button" className="button button--sm button--secondary" onClick={dismiss}>
              Dismiss
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
