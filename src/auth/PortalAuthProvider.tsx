/**
 * The portal's sign-in layer: AuthKitProvider (the official SDK) plus what
 * the SDK leaves to the app: where to go after sign-in, what to tell the
 * user when something fails, and turning sign-in off cleanly when it cannot
 * work (no client id, no browser storage, AUTH_DISABLED).
 *
 * Server rendering: AuthKitProvider creates its client in an effect, so the
 * static HTML is rendered with `isLoading: true` and never touches `window`.
 */
import {createContext, useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type ReactNode, type SetStateAction} from 'react';
import {AuthKitProvider, LoginRequiredError, useAuth} from '@workos-inc/authkit-react';
import type {OnRefreshResponse} from '@workos-inc/authkit-js';
import {useHistory} from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {resolveRedirectUri, type AuthSettings} from './config';
import type {AccessTokenClaims, AuthActions, AuthResponse, AuthState, User} from './entities';
import {orNull, readAccessTokenClaims, toAuthResponse, toUser} from './adapters';
import {currentReturnTo, safeReturnTo} from './returnTo';
import {isBrowserStorageUsable, safeGetItem, safeRemoveItem} from './storage';
import type {Audience} from './access/audience';
import {clearMembersReloadMark, endGateSession, recordGateSync, reloadForMembersOnce, syncGateSession} from './access/gateSession';

/** The provider's latest answer, mapped to the spec's entities (adapters.ts). */
interface ProviderSession {
  response: AuthResponse;
  claims: AccessTokenClaims;
}

/** Something the user should know about their session, shown by AuthNotices. */
export type AuthNotice =
  | {kind: 'exchange-failed'}
  | {kind: 'forged-callback'}
  | {kind: 'sign-in-denied'}
  | {kind: 'session-expired'}
  | {kind: 'provider-unreachable'}
  | {kind: 'provider-timeout'}
  | {kind: 'signed-out-elsewhere'}
  | {kind: 'sign-in-unavailable'; reason: string}
  | {kind: 'sign-in-failed'};

export interface PortalAuthValue extends AuthState, AuthActions {
  /** Whether sign-in UI should be offered at all. */
  available: boolean;
  notice: AuthNotice | null;
  dismissNotice: () => void;
}

export const PortalAuthContext = createContext<PortalAuthValue | null>(null);

// The SDK's session-storage key for the PKCE verifier (authkit-js storage-keys.ts).
const CODE_VERIFIER_KEY = 'workos:code-verifier';
const REFRESH_TOKEN_KEY = 'workos:refresh-token';

/**
 * How long the sign-in layer waits for the provider's first answer (the
 * code exchange, or the refresh at page load) before telling the reader it
 * is not answering. The SDK's requests have no time limit of their own.
 */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** Where a tab tells this site's other tabs that the reader signed out (same origin only). */
const SIGN_OUT_CHANNEL = 'developer-portal:sign-out';

// The query parameters of a sign-in callback (OAuth 2.0, RFC 6749 §4.1.2).
const CALLBACK_PARAMS = ['code', 'state', 'error', 'error_description', 'error_uri'];

interface CallbackSnapshot {
  hadVerifier: boolean;
  /** The provider's `error` (an OAuth error callback, e.g. access_denied), when there is no code. */
  error: string | null;
  /** Its `error_description`: the provider's text, for the console only. */
  errorDescription: string | null;
  /** The page sign-in started from, as `state` names it (untrusted: checked by safeReturnTo), or null. */
  returnTo: string | null;
}

/** `returnTo` from the callback's `state` (the SDK's JSON), when it is a same-origin path. */
function returnToOfState(state: string | null): string | null {
  if (state === null) {
    return null;
  }
  try {
    const parsed = JSON.parse(state) as unknown;
    const value = parsed && typeof parsed === 'object' ? (parsed as {returnTo?: unknown}).returnTo : undefined;
    return safeReturnTo(value, window.location.origin, '') || null;
  } catch {
    return null;
  }
}

/**
 * Whether this page load is the sign-in callback (the SDK's own rule: a
 * `code` in the query on the redirect path, with or without trailing slash),
 * read before the SDK consumes and clears it. An `error` instead of a code
 * (the provider's answer when sign-in is cancelled or refused) is a
 * callback too, which the SDK leaves alone.
 */
function snapshotCallback(redirectUri: string): CallbackSnapshot | null {
  const params = new URLSearchParams(window.location.search);
  const error = params.has('code') ? null : params.get('error');
  if (!params.has('code') && error === null) {
    return null;
  }
  let redirectPath: string;
  try {
    redirectPath = new URL(redirectUri).pathname;
  } catch {
    return null;
  }
  // Exactly the SDK's rule (authkit-js is-redirect-callback.ts), so we never
  // report a failure for a page the SDK did not treat as the callback.
  const path = window.location.pathname;
  if (path !== redirectPath && path !== `${redirectPath}/`) {
    return null;
  }
  return {
    hadVerifier: safeGetItem('sessionStorage', CODE_VERIFIER_KEY) !== null,
    error,
    errorDescription: params.get('error_description'),
    returnTo: returnToOfState(params.get('state')),
  };
}

/** This page's path, query and hash without the callback's parameters. */
function withoutCallbackParams(location: Location): string {
  const url = new URL(location.href);
  for (const name of CALLBACK_PARAMS) {
    url.searchParams.delete(name);
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

function hasStoredSession(settings: AuthSettings): boolean {
  if (settings.devMode) {
    return (
      safeGetItem('localStorage', `${REFRESH_TOKEN_KEY}:${settings.clientId}`) !== null ||
      safeGetItem('localStorage', REFRESH_TOKEN_KEY) !== null
    );
  }
  return /(?:^|;\s*)workos-has-session=/.test(document.cookie);
}

export const SIGNED_OUT: AuthState = {
  isLoading: false,
  user: null,
  role: null,
  roles: [],
  organizationId: null,
  permissions: [],
  featureFlags: [],
  impersonator: null,
};

type SetNotice = Dispatch<SetStateAction<AuthNotice | null>>;

function unavailableValue(notice: AuthNotice | null, setNotice: SetNotice, reason: string | null, isLoading = false): PortalAuthValue {
  const explain = async () => {
    if (reason) {
      setNotice({kind: 'sign-in-unavailable', reason});
    }
  };
  return {
    ...SIGNED_OUT,
    isLoading,
    available: reason !== null,
    notice,
    dismissNotice: () => setNotice(null),
    signIn: explain,
    signUp: explain,
    signOut: () => undefined,
    getAccessToken: () => Promise.reject(new LoginRequiredError()),
    getUser: () => null,
    switchToOrganization: explain,
  };
}

/** Which audience build this page came from, and where the gate's endpoints live. */
export interface GateContext {
  audience: Audience;
  baseUrl: string;
}

export default function PortalAuthProvider({
  settings,
  gate,
  providerTimeoutMs = PROVIDER_TIMEOUT_MS,
  children,
}: {
  settings: AuthSettings | undefined;
  gate?: GateContext;
  /** PROVIDER_TIMEOUT_MS; tests shorten it. */
  providerTimeoutMs?: number;
  children: ReactNode;
}): ReactNode {
  const [notice, setNotice] = useState<AuthNotice | null>(null);
  // The provider refused a refresh, or the reader signed out in another tab:
  // the SDK keeps its last user in memory, so the portal stops showing it.
  const [sessionEnded, setSessionEnded] = useState(false);
  const history = useHistory();
  const historyRef = useRef(history);
  useEffect(() => {
    historyRef.current = history;
  }, [history]);

  const disabled = !settings || !settings.enabled;
  const missingClientId = !disabled && !settings.clientId;
  // Decided once per page load, in the browser only; the server renders the
  // signed-in layer in its loading state either way.
  const [storageUsable] = useState(() => typeof window === 'undefined' || disabled || missingClientId || isBrowserStorageUsable());

  // False while the server renders and while the browser hydrates.
  const hydrated = useIsBrowser();

  useEffect(() => {
    if (missingClientId) {
      console.error(
        'Developer Portal: sign-in is turned off: Missing Client ID. Set WORKOS_CLIENT_ID, or leave it unset to use the local provider.',
      );
    }
  }, [missingClientId]);

  const onRedirectCallback = useCallback(({state}: {state?: Record<string, unknown> | null}) => {
    const here = currentReturnTo(window.location);
    const target = safeReturnTo(state?.returnTo, window.location.origin, window.location.pathname);
    if (target !== here) {
      historyRef.current.replace(target);
    }
  }, []);

  // The first reason the session ended stays on screen: a refresh that then
  // fails in a tab signed out elsewhere does not replace (or bring back) it.
  const sessionEndedRef = useRef(false);
  const endSession = useCallback((why: AuthNotice) => {
    if (sessionEndedRef.current) {
      return;
    }
    sessionEndedRef.current = true;
    setSessionEnded(true);
    setNotice(why);
  }, []);
  const onRefreshFailure = useCallback(() => endSession({kind: 'session-expired'}), [endSession]);

  // After sign-in and every refresh: give the gate server the new token so
  // its session cookie lives as long as the token. When the page on screen
  // was served without a session (the public build), load it again so the
  // gate can serve the members' version.
  const gateAudience = gate?.audience;
  // This page came from the members build: a reload for it worked, so a later one may happen again.
  useEffect(() => {
    if (gateAudience === 'members') {
      clearMembersReloadMark();
    }
  }, [gateAudience]);
  const gateBaseUrl = gate?.baseUrl;
  // The provider's answer, as the spec's Auth response and access-token
  // claims: what the context exposes (role, permissions, …) is read from these.
  const [session, setSession] = useState<ProviderSession | null>(null);
  const onRefresh = useCallback(
    (payload: OnRefreshResponse) => {
      const response = orNull(() => toAuthResponse(payload), 'an authentication response that does not fit');
      setSession(response ? {response, claims: readAccessTokenClaims(response.accessToken)} : null);
      if (response) {
        // Signed in again (in this tab or, through the shared session, another).
        sessionEndedRef.current = false;
        setSessionEnded(false);
        setNotice((current) => (current?.kind === 'session-expired' || current?.kind === 'signed-out-elsewhere' ? null : current));
      }
      if (!response || !gateBaseUrl) {
        return;
      }
      void syncGateSession(response.accessToken, gateBaseUrl).then((result) => {
        recordGateSync(result);
        // Load the page again when the gate now answers differently: into the
        // members build after sign-in, or with what a changed role may read
        // (the search worker keeps the index it loaded for the page's life).
        if ((result === 'started' && gateAudience === 'public') || result === 'changed') {
          if (!reloadForMembersOnce()) {
            console.warn('Developer Portal: the gate still answers this page as public after loading it again; is its cookie blocked?');
          }
        } else if (result === 'refused' || result === 'failed') {
          console.warn(`Developer Portal: the gate server did not accept the session (${result}); pages for members stay hidden.`);
        }
      });
    },
    [gateAudience, gateBaseUrl],
  );

  if (disabled || missingClientId) {
    return <PortalAuthContext.Provider value={unavailableValue(notice, setNotice, null)}>{children}</PortalAuthContext.Provider>;
  }
  if (!storageUsable) {
    const reason =
      'This browser blocks site storage (for example in a private window), and sign-in needs it. The documentation stays readable.';
    // The server rendered the loading state; keep it until hydration is done.
    return (
      <PortalAuthContext.Provider value={unavailableValue(notice, setNotice, reason, !hydrated)}>{children}</PortalAuthContext.Provider>
    );
  }

  return (
    <AuthKitProvider
      clientId={settings.clientId}
      apiHostname={settings.apiHostname}
      port={settings.port ?? undefined}
      https={settings.https}
      // Only read in AuthKitProvider's effect, so the server value never matters.
      redirectUri={typeof window === 'undefined' ? undefined : resolveRedirectUri(settings, window.location.origin)}
      devMode={settings.devMode}
      onRedirectCallback={onRedirectCallback}
      onRefresh={onRefresh}
      onRefreshFailure={onRefreshFailure}>
      <SdkBridge
        settings={settings}
        session={session}
        sessionEnded={sessionEnded}
        endSession={endSession}
        gateBaseUrl={gateBaseUrl}
        providerTimeoutMs={providerTimeoutMs}
        notice={notice}
        setNotice={setNotice}>
        {children}
      </SdkBridge>
    </AuthKitProvider>
  );
}

/** Maps the SDK's context to the portal's and watches for failures the SDK only logs. */
function SdkBridge({
  settings,
  session,
  sessionEnded,
  endSession,
  gateBaseUrl,
  providerTimeoutMs,
  notice,
  setNotice,
  children,
}: {
  settings: AuthSettings;
  session: ProviderSession | null;
  sessionEnded: boolean;
  endSession: (why: AuthNotice) => void;
  gateBaseUrl: string | undefined;
  providerTimeoutMs: number;
  notice: AuthNotice | null;
  setNotice: SetNotice;
  children: ReactNode;
}): ReactNode {
  const sdk = useAuth();
  const sdkUser = sessionEnded ? null : sdk.user;
  const history = useHistory();
  const [callback] = useState(() =>
    typeof window === 'undefined' ? null : snapshotCallback(resolveRedirectUri(settings, window.location.origin)),
  );
  const reportedCallback = useRef(false);
  // A code that did not sign in: the SDK does not refresh on that page load,
  // so a stored session is not "unreachable", only unused until the next.
  const callbackFailed = useRef(false);
  const reportedUnreachable = useRef(false);

  // The provider's first answer never came: say so, and stop showing
  // "Checking your session…" (the SDK's requests have no time limit).
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (!sdk.isLoading) {
      // A late answer ends the wait (timedOut only counts while loading).
      setNotice((current) => (current?.kind === 'provider-timeout' ? null : current));
      return;
    }
    const timer = setTimeout(() => {
      setTimedOut(true);
      // A notice already on screen (a cancelled sign-in, say) says more.
      setNotice((current) => current ?? {kind: 'provider-timeout'});
    }, providerTimeoutMs);
    return () => clearTimeout(timer);
  }, [sdk.isLoading, providerTimeoutMs, setNotice]);

  useEffect(() => {
    if (callback?.error != null && !reportedCallback.current) {
      // The provider sent the reader back without signing them in (cancelled,
      // refused, or an error on its side): say so and take the error out of
      // the address bar. Its description is the provider's text: logged as
      // text, never rendered. (The SDK still refreshes a stored session on
      // this page load, as it only treats a page with a code as a callback.)
      reportedCallback.current = true;
      console.warn(
        `Developer Portal: the sign-in provider answered "${callback.error.slice(0, 100)}" instead of a code` +
          (callback.errorDescription ? `: ${callback.errorDescription.slice(0, 300)}` : '.'),
      );
      if (callback.hadVerifier) {
        // This sign-in is over; its one-time PKCE verifier must not pair with a later code.
        safeRemoveItem('sessionStorage', CODE_VERIFIER_KEY);
        setNotice({kind: 'sign-in-denied'});
      }
      history.replace(callback.hadVerifier && callback.returnTo ? callback.returnTo : withoutCallbackParams(window.location));
      return;
    }
    if (sdk.isLoading) {
      return;
    }
    if (callback && !reportedCallback.current) {
      reportedCallback.current = true;
      if (!sdk.user) {
        callbackFailed.current = true;
        setNotice({kind: callback.hadVerifier ? 'exchange-failed' : 'forged-callback'});
        // A sign-in this tab started that failed: back to the page it started
        // from, as after a successful one (a forged link stays where it landed).
        if (callback.hadVerifier && callback.returnTo && callback.returnTo !== currentReturnTo(window.location)) {
          history.replace(callback.returnTo);
        }
        return;
      }
    }
    if (callbackFailed.current) {
      return;
    }
    if (!sdkUser && !sessionEnded && hasStoredSession(settings)) {
      // The SDK keeps the session on a network error or 5xx and retries in
      // the background; tell the user (once per outage, so dismissing it
      // sticks) rather than silently showing "Sign in".
      if (!reportedUnreachable.current) {
        reportedUnreachable.current = true;
        setNotice({kind: 'provider-unreachable'});
      }
    } else if (sdkUser) {
      reportedUnreachable.current = false;
      if (notice?.kind === 'provider-unreachable') {
        setNotice(null);
      }
    }
  }, [sdk.isLoading, sdk.user, sdkUser, sessionEnded, callback, settings, notice, setNotice, history]);

  // Signing out in another tab ends the session here too (its gate cookie and
  // provider session are gone): the navbar stops showing an account that no
  // longer works, and the page on screen stays. A channel never receives its
  // own messages, so this tab announces its sign-out through the same one.
  const signOutChannel = useRef<BroadcastChannel | null>(null);
  useEffect(() => {
    if (!sdkUser || typeof BroadcastChannel === 'undefined') {
      return;
    }
    const channel = new BroadcastChannel(SIGN_OUT_CHANNEL);
    signOutChannel.current = channel;
    channel.onmessage = (event: MessageEvent) => {
      if (event.data === 'signed-out') {
        endSession({kind: 'signed-out-elsewhere'});
      }
    };
    return () => {
      channel.close();
      signOutChannel.current = null;
    };
  }, [sdkUser, endSession]);

  // Lets CSS drop the sidebar locks of pages that only need sign-in.
  useEffect(() => {
    document.documentElement.toggleAttribute('data-portal-signed-in', Boolean(sdkUser));
  }, [sdkUser]);

  // A user the adapters cannot map is logged once and shown as signed out.
  const user: User | null = useMemo(() => (sdkUser ? orNull(() => toUser(sdkUser), 'a user that does not fit') : null), [sdkUser]);
  const claims = user ? (session?.claims ?? null) : null;
  const {signIn: sdkSignIn, signUp: sdkSignUp, signOut: sdkSignOut, switchToOrganization: sdkSwitch, getAccessToken, getUser} = sdk;

  const start = useCallback(
    async (signUp: boolean) => {
      const options = {
        state: {returnTo: currentReturnTo(window.location)},
        ...(settings.organizationId ? {organizationId: settings.organizationId} : {}),
      };
      try {
        await (signUp ? sdkSignUp(options) : sdkSignIn(options));
      } catch (error) {
        console.error('Developer Portal: could not start sign-in.', error);
        setNotice({kind: 'sign-in-failed'});
      }
    },
    [sdkSignIn, sdkSignUp, settings.organizationId, setNotice],
  );

  const stuck = timedOut && sdk.isLoading;
  const explainTimeout = async () => setNotice({kind: 'provider-timeout'});
  const value: PortalAuthValue = {
    isLoading: sdk.isLoading && !timedOut,
    user,
    role: claims?.role ?? null,
    roles: claims?.roles ?? [],
    organizationId: user ? (claims?.org_id ?? session?.response.organizationId ?? null) : null,
    permissions: claims?.permissions ?? [],
    featureFlags: claims?.feature_flags ?? [],
    impersonator: user ? (session?.response.impersonator ?? null) : null,
    available: true,
    notice,
    dismissNotice: () => setNotice(null),
    // With no answer from the provider the SDK has no client to sign in with yet.
    signIn: stuck ? explainTimeout : () => start(false),
    signUp: stuck ? explainTimeout : () => start(true),
    signOut: () => {
      setNotice(null);
      const endProviderSession = () => {
        // Once the gate has been asked to drop its cookie, so another tab does not load members' pages with it.
        signOutChannel.current?.postMessage('signed-out');
        try {
          sdkSignOut({returnTo: window.location.href});
        } catch (error) {
          // No session left in memory (it expired or was revoked): nothing to
          // end at the provider, so reload to show the signed-out page.
          console.warn('Developer Portal: no active session to sign out of.', error);
          window.location.reload();
        }
      };
      // The gate's cookie goes first, so no members' page is served after
      // sign-out. Asked for on every site with a base URL, never only when
      // the (forgeable) marker cookie is there; a static host's 404 is harmless.
      if (gateBaseUrl) {
        void endGateSession(gateBaseUrl).then(endProviderSession);
      } else {
        endProviderSession();
      }
    },
    // A session that ended (refused refresh, signed out in another tab) lends
    // nothing, though the SDK keeps its last tokens in memory.
    getAccessToken: sessionEnded ? () => Promise.reject(new LoginRequiredError()) : getAccessToken,
    getUser: () => {
      const current = sessionEnded ? null : getUser();
      return current ? orNull(() => toUser(current), 'a user that does not fit') : null;
    },
    switchToOrganization: (organizationId: string) => sdkSwitch({organizationId}),
  };

  return <PortalAuthContext.Provider value={value}>{children}</PortalAuthContext.Provider>;
}
