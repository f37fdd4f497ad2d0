/**
 * What the portal mirrors of authkit-js without a public API for it: where
 * the SDK keeps its session and PKCE verifier, and which page it treats as
 * the sign-in callback. Kept here only, and checked against the installed
 * SDK by test/unit/authkit-mirror.test.ts (UPGRADING.md lists the coupling).
 */
import {safeGetItem} from '../storage';

/** The SDK's sessionStorage key for the one-time PKCE verifier (authkit-js storage-keys.ts). */
export const CODE_VERIFIER_KEY = 'workos:code-verifier';

/** The SDK's localStorage key for the refresh token in dev mode; `:<clientId>` is appended, the bare key is its legacy one. */
export const REFRESH_TOKEN_KEY = 'workos:refresh-token';

/** The cookie the provider sets (outside dev mode) while it holds a session for this browser. */
export const HAS_SESSION_COOKIE = 'workos-has-session';

/**
 * Whether the SDK treats this page as the sign-in callback (authkit-js
 * is-redirect-callback.ts): a `code` in the query, on the redirect URI's path
 * with or without a trailing slash. An `error` callback is the caller's to
 * recognise: the SDK leaves it alone.
 */
export function isSdkCallbackPath(pathname: string, redirectUri: string): boolean {
  let redirectPath: string;
  try {
    redirectPath = new URL(redirectUri).pathname;
  } catch {
    return false;
  }
  return pathname === redirectPath || pathname === `${redirectPath}/`;
}

/** Whether the SDK has a session to refresh at page load (so a missing user means the provider did not answer). */
export function hasStoredSession({devMode, clientId}: {devMode: boolean; clientId: string}): boolean {
  if (devMode) {
    return (
      safeGetItem('localStorage', `${REFRESH_TOKEN_KEY}:${clientId}`) !== null || safeGetItem('localStorage', REFRESH_TOKEN_KEY) !== null
    );
  }
  return new RegExp(`(?:^|;\\s*)${HAS_SESSION_COOKIE}=`).test(document.cookie);
}
