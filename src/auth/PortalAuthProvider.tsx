/**
 * The portal's sign-in layer: AuthKitProvider (the official SDK) plus what
 * the SDK leaves to the app, each in a hook of its own under ./signIn/:
 * where to go after sign-in (useReturnAfterSignIn) and after a failed or
 * refused callback (useCallbackOutcome), what to tell the reader
 * (notices.ts, useProviderTimeout, useProviderUnreachableNotice), sign-out
 * across tabs (useCrossTabSignOut), the gate's session (useGateSessionSync),
 * and turning sign-in off cleanly when it cannot work
 * (useSignInAvailability: no client id, no browser storage, AUTH_DISABLED).
 */
import {useReducer, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import type {AuthSettings} from './config';
import {PortalAuthContext} from './usePortalAuth';
import AuthKitSession from './signIn/AuthKitSession';
import {NO_NOTICES, noticesReducer} from './signIn/notices';
import {unavailableAuth} from './signIn/unavailableAuth';
import type {GateContext} from './signIn/useGateSessionSync';
import {PROVIDER_TIMEOUT_MS} from './signIn/useProviderTimeout';
import {useSignInAvailability} from './signIn/useSignInAvailability';

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
  // Here, above AuthKitProvider: its callbacks (a refused refresh) report into it too.
  const [notices, dispatch] = useReducer(noticesReducer, NO_NOTICES);
  const availability = useSignInAvailability(settings);
  // False while the server renders and while the browser hydrates.
  const hydrated = useIsBrowser();

  if (availability.kind === 'off') {
    return <PortalAuthContext.Provider value={unavailableAuth(notices, dispatch, null)}>{children}</PortalAuthContext.Provider>;
  }
  if (availability.kind === 'unavailable') {
    // The server rendered the loading state; keep it until hydration is done.
    return (
      <PortalAuthContext.Provider value={unavailableAuth(notices, dispatch, availability.reason, !hydrated)}>
        {children}
      </PortalAuthContext.Provider>
    );
  }
  return (
    <AuthKitSession
      settings={availability.settings}
      gate={gate}
      providerTimeoutMs={providerTimeoutMs}
      notices={notices}
      dispatch={dispatch}>
      {children}
    </AuthKitSession>
  );
}
