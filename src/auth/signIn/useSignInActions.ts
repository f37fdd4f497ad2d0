/**
 * The portal's sign-in, sign-up and sign-out on top of the SDK's: sign-in
 * remembers the page it started from (as `state`, checked on the way back)
 * and the configured organisation; sign-out ends the gate's session first,
 * tells the other tabs, then the provider's.
 */
import {useCallback} from 'react';
import type {useAuth} from '@workos-inc/authkit-react';
import type {AuthSettings} from '../config';
import {currentReturnTo} from '../returnTo';
import type {NoticeAction} from './notices';

type Sdk = Pick<ReturnType<typeof useAuth>, 'signIn' | 'signUp' | 'signOut'>;

export interface SignInActions {
  signIn: () => Promise<void>;
  signUp: () => Promise<void>;
  signOut: () => void;
}

export function useSignInActions({
  sdk,
  organizationId,
  dispatch,
  endGateSessionThen,
  announceSignOut,
}: {
  sdk: Sdk;
  organizationId: AuthSettings['organizationId'];
  dispatch: (action: NoticeAction) => void;
  endGateSessionThen: (next: () => void) => void;
  announceSignOut: () => void;
}): SignInActions {
  const {signIn: sdkSignIn, signUp: sdkSignUp, signOut: sdkSignOut} = sdk;

  const start = useCallback(
    async (signUp: boolean) => {
      const options = {
        state: {returnTo: currentReturnTo(window.location)},
        ...(organizationId ? {organizationId} : {}),
      };
      try {
        // The SDK makes the PKCE pair (S256) and keeps the verifier in this tab's session storage.
        await (signUp ? sdkSignUp(options) : sdkSignIn(options));
      } catch (error) {
        console.error('Developer Portal: could not start sign-in.', error);
        dispatch({type: 'show', notice: {kind: 'sign-in-failed'}});
      }
    },
    [sdkSignIn, sdkSignUp, organizationId, dispatch],
  );

  const signOut = useCallback(() => {
    dispatch({type: 'dismiss'});
    // The gate's cookie goes first, so no members' page is served after sign-out.
    endGateSessionThen(() => {
      // Once the gate has been asked to drop its cookie, so another tab does not load members' pages with it.
      announceSignOut();
      try {
        sdkSignOut({returnTo: window.location.href});
      } catch (error) {
        // No session left in memory (it expired or was revoked): nothing to
        // end at the provider, so reload to show the signed-out page.
        console.warn('Developer Portal: no active session to sign out of.', error);
        window.location.reload();
      }
    });
  }, [dispatch, endGateSessionThen, announceSignOut, sdkSignOut]);

  return {signIn: useCallback(() => start(false), [start]), signUp: useCallback(() => start(true), [start]), signOut};
}
