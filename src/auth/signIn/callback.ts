/**
 * The sign-in callback as this page load found it, read before the SDK
 * consumes and clears its query. Everything in it came through the address
 * bar, so nothing is trusted: `state` only ever yields a same-origin path.
 */
import {safeReturnTo} from '../returnTo';
import {safeGetItem} from '../storage';
import {CODE_VERIFIER_KEY, isSdkCallbackPath} from './authkitMirror';

// The query parameters of a sign-in callback (OAuth 2.0, RFC 6749 §4.1.2).
const CALLBACK_PARAMS = ['code', 'state', 'error', 'error_description', 'error_uri'];

export interface CallbackSnapshot {
  /** Whether this tab started a sign-in (the SDK's PKCE verifier is stored), so the callback is its own. */
  hadVerifier: boolean;
  /** The provider's `error` (an OAuth error callback, e.g. access_denied), when there is no code. */
  error: string | null;
  /** Its `error_description`: the provider's text, for the console only. */
  errorDescription: string | null;
  /** The page sign-in started from, as `state` names it (checked by safeReturnTo), or null. */
  returnTo: string | null;
}

/** `returnTo` from the callback's `state` (the SDK's JSON), when it is a same-origin path. */
export function returnToOfState(state: string | null, origin: string): string | null {
  if (state === null) {
    return null;
  }
  try {
    const parsed = JSON.parse(state) as unknown;
    const value = parsed && typeof parsed === 'object' ? (parsed as {returnTo?: unknown}).returnTo : undefined;
    return safeReturnTo(value, origin, '') || null;
  } catch {
    return null;
  }
}

/**
 * This page load as a sign-in callback, or null: a `code` on the page the
 * SDK treats as the callback, or an `error` instead of a code there (the
 * provider's answer when sign-in is cancelled or refused). Using the SDK's
 * own rule, a failure is never reported for a page the SDK did not handle.
 */
export function snapshotCallback(location: Location, redirectUri: string): CallbackSnapshot | null {
  const params = new URLSearchParams(location.search);
  const error = params.has('code') ? null : params.get('error');
  if ((!params.has('code') && error === null) || !isSdkCallbackPath(location.pathname, redirectUri)) {
    return null;
  }
  return {
    hadVerifier: safeGetItem('sessionStorage', CODE_VERIFIER_KEY) !== null,
    error,
    errorDescription: params.get('error_description'),
    returnTo: returnToOfState(params.get('state'), location.origin),
  };
}

/** This page's path, query and hash without the callback's parameters. */
export function withoutCallbackParams(location: Location): string {
  const url = new URL(location.href);
  for (const name of CALLBACK_PARAMS) {
    url.searchParams.delete(name);
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
