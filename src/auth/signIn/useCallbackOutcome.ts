/**
 * Reports how this page load's sign-in callback ended, where the SDK only
 * logs it: a provider that sent the reader back with an error, a code whose
 * exchange failed, or a code this tab never asked for (a possible login
 * forgery). The address bar loses the callback's parameters either way.
 */
import {useEffect, useRef, useState} from 'react';
import {useHistory} from '@docusaurus/router';
import {resolveRedirectUri, type AuthSettings} from '../config';
import {currentReturnTo} from '../returnTo';
import {safeRemoveItem} from '../storage';
import {CODE_VERIFIER_KEY} from './authkitMirror';
import {snapshotCallback, withoutCallbackParams, type CallbackSnapshot} from './callback';
import type {NoticeAction} from './notices';

export type CallbackOutcome = 'no-callback' | 'refused-at-provider' | 'awaiting-exchange' | 'signed-in' | 'exchange-failed' | 'forged';

/**
 * Once the SDK has settled (`isLoading` false) it never loads again on this
 * page, and after a callback it does not refresh, so the outcome, once
 * known, stays.
 */
export function callbackOutcome(callback: CallbackSnapshot | null, isLoading: boolean, sdkHasUser: boolean): CallbackOutcome {
  if (!callback) {
    return 'no-callback';
  }
  if (callback.error !== null) {
    return 'refused-at-provider';
  }
  if (isLoading) {
    return 'awaiting-exchange';
  }
  if (sdkHasUser) {
    return 'signed-in';
  }
  return callback.hadVerifier ? 'exchange-failed' : 'forged';
}

/** Returns whether this page load was a callback that did not sign the reader in. */
export function useCallbackOutcome({
  settings,
  isLoading,
  sdkHasUser,
  dispatch,
}: {
  settings: Pick<AuthSettings, 'redirectUri' | 'basePath'>;
  isLoading: boolean;
  sdkHasUser: boolean;
  dispatch: (action: NoticeAction) => void;
}): boolean {
  const history = useHistory();
  // Read on the first render, before the SDK's effect clears the query.
  const [callback] = useState(() =>
    typeof window === 'undefined' ? null : snapshotCallback(window.location, resolveRedirectUri(settings, window.location.origin)),
  );
  const outcome = callbackOutcome(callback, isLoading, sdkHasUser);
  // Each outcome is reported once per page load (a console line, a notice,
  // a history entry), while this effect runs again whenever an input changes
  // identity (`history` among them).
  const reported = useRef<CallbackOutcome | null>(null);

  useEffect(() => {
    if (!callback || reported.current === outcome) {
      return;
    }
    if (outcome === 'refused-at-provider') {
      reported.current = outcome;
      // Its description is the provider's text: logged as text, never rendered.
      // (The SDK still refreshes a stored session on this page load, as it
      // only treats a page with a code as a callback.)
      console.warn(
        `Developer Portal: the sign-in provider answered "${(callback.error ?? '').slice(0, 100)}" instead of a code` +
          (callback.errorDescription ? `: ${callback.errorDescription.slice(0, 300)}` : '.'),
      );
      if (callback.hadVerifier) {
        // This sign-in is over; its one-time PKCE verifier must not pair with a later code.
        safeRemoveItem('sessionStorage', CODE_VERIFIER_KEY);
        dispatch({type: 'show', notice: {kind: 'sign-in-denied'}});
      }
      history.replace(callback.hadVerifier && callback.returnTo ? callback.returnTo : withoutCallbackParams(window.location));
    } else if (outcome === 'exchange-failed' || outcome === 'forged') {
      reported.current = outcome;
      dispatch({type: 'show', notice: {kind: outcome === 'exchange-failed' ? 'exchange-failed' : 'forged-callback'}});
      // A sign-in this tab started that failed: back to the page it started
      // from, as after a successful one (a forged link stays where it landed).
      if (callback.hadVerifier && callback.returnTo && callback.returnTo !== currentReturnTo(window.location)) {
        history.replace(callback.returnTo);
      }
    }
  }, [callback, outcome, dispatch, history]);

  return outcome === 'exchange-failed' || outcome === 'forged';
}
