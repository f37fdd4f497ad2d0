/**
 * Sign-in through AuthKitProvider (the official SDK: PKCE with S256, the
 * code exchange, refresh and its storage are all the SDK's), configured
 * from the portal's settings, with the SDK's answers turned into the
 * portal's auth context by the hooks of this folder.
 *
 * Server rendering: AuthKitProvider creates its client in an effect, so the
 * static HTML is rendered with `isLoading: true` and never touches `window`.
 */
import {useCallback, useMemo, type ReactNode} from 'react';
import {AuthKitProvider, LoginRequiredError, useAuth, type OnRefreshResponse} from '@workos-inc/authkit-react';
import {orNull, toAuthResponse, toSessionFacts, toUser} from '../adapters';
import {resolveRedirectUri, type AuthSettings} from '../config';
import type {User} from '../entities';
import {PortalAuthContext, type PortalAuthValue} from '../usePortalAuth';
import type {NoticeAction, SessionNotices} from './notices';
import {useCallbackOutcome} from './useCallbackOutcome';
import {useCrossTabSignOut} from './useCrossTabSignOut';
import {useGateSessionFollowsProvider} from './useGateSessionFollowsProvider';
import {useGateSessionSync, type GateContext} from './useGateSessionSync';
import {useProviderTimeout} from './useProviderTimeout';
import {useProviderUnreachableNotice} from './useProviderUnreachableNotice';
import {useReturnAfterSignIn} from './useReturnAfterSignIn';
import {useSignedInMarker} from './useSignedInMarker';
import {useSignInActions} from './useSignInActions';

interface SessionProps {
  settings: AuthSettings;
  gate: GateContext | undefined;
  providerTimeoutMs: number;
  notices: SessionNotices;
  dispatch: (action: NoticeAction) => void;
  children: ReactNode;
}

export default function AuthKitSession(props: SessionProps): ReactNode {
  const {settings, gate, dispatch} = props;
  const gateSession = useGateSessionSync(gate);
  const {syncToken} = gateSession;
  // AuthKitProvider hands these to its client once, when it creates it: they
  // must not depend on anything that changes during the page's life.
  const onRedirectCallback = useReturnAfterSignIn();
  const onRefresh = useCallback(
    (payload: OnRefreshResponse) => {
      // Only an answer that fits the spec's Auth response counts as a session.
      const response = orNull(() => toAuthResponse(payload), 'an authentication response that does not fit');
      if (response) {
        dispatch({type: 'session-refreshed'});
        syncToken(response.accessToken);
      }
    },
    [dispatch, syncToken],
  );
  const onRefreshFailure = useCallback(() => dispatch({type: 'session-ended', why: 'session-expired'}), [dispatch]);

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
      <SdkBridge {...props} endGateSessionThen={gateSession.endSessionThen} />
    </AuthKitProvider>
  );
}

/** Maps the SDK's context to the portal's and watches for what the SDK only logs. */
function SdkBridge({
  settings,
  gate,
  providerTimeoutMs,
  notices,
  dispatch,
  endGateSessionThen,
  children,
}: SessionProps & {endGateSessionThen: (next: () => void) => void}): ReactNode {
  const sdk = useAuth();
  const {sessionEnded} = notices;
  // A session that ended (refused refresh, signed out in another tab) shows
  // nobody, though the SDK keeps its last user and tokens in memory.
  const sdkUser = sessionEnded ? null : sdk.user;
  // A user the adapters cannot map is logged once and shown as signed out.
  const user: User | null = useMemo(() => (sdkUser ? orNull(() => toUser(sdkUser), 'a user that does not fit') : null), [sdkUser]);

  const waitedTooLong = useProviderTimeout(sdk.isLoading, providerTimeoutMs, dispatch);
  const callbackFailed = useCallbackOutcome({settings, isLoading: sdk.isLoading, sdkHasUser: sdk.user !== null, dispatch});
  const settled = !sdk.isLoading && !callbackFailed;
  useProviderUnreachableNotice({settled, signedIn: sdkUser !== null, sessionEnded, settings, dispatch});
  useGateSessionFollowsProvider({
    settled,
    signedIn: sdk.user !== null,
    sessionEnded,
    fromMembersBuild: gate?.audience === 'members',
    settings,
    dispatch,
    endGateSessionThen,
  });
  const onSignedOutElsewhere = useCallback(() => dispatch({type: 'session-ended', why: 'signed-out-elsewhere'}), [dispatch]);
  const announceSignOut = useCrossTabSignOut(sdkUser !== null, onSignedOutElsewhere);
  useSignedInMarker(sdkUser !== null);
  const actions = useSignInActions({sdk, organizationId: settings.organizationId, dispatch, endGateSessionThen, announceSignOut});

  // With no answer from the provider the SDK has no client to sign in with yet.
  const explainTimeout = async () => dispatch({type: 'show', notice: {kind: 'provider-timeout'}});
  const {getAccessToken, getUser, switchToOrganization} = sdk;
  const value: PortalAuthValue = {
    isLoading: sdk.isLoading && !waitedTooLong,
    user,
    // Role, permissions, organisation, … as the SDK reads them, for a user shown as signed in only.
    ...(user ? toSessionFacts(sdk) : toSessionFacts({})),
    available: true,
    notice: notices.notice,
    dismissNotice: () => dispatch({type: 'dismiss'}),
    signIn: waitedTooLong ? explainTimeout : actions.signIn,
    signUp: waitedTooLong ? explainTimeout : actions.signUp,
    signOut: actions.signOut,
    getAccessToken: sessionEnded ? () => Promise.reject(new LoginRequiredError()) : getAccessToken,
    getUser: () => {
      const current = sessionEnded ? null : getUser();
      return current ? orNull(() => toUser(current), 'a user that does not fit') : null;
    },
    switchToOrganization: (organizationId: string) => switchToOrganization({organizationId}),
  };

  return <PortalAuthContext.Provider value={value}>{children}</PortalAuthContext.Provider>;
}
