import {LoginRequiredError} from '@workos-inc/authkit-react';
import {SIGNED_OUT, type PortalAuthValue} from '../usePortalAuth';
import type {NoticeAction, SessionNotices} from './notices';

/**
 * The portal's auth context when sign-in cannot work: signed out. With a
 * `reason` (sign-in is on but this browser cannot do it) the sign-in
 * controls stay and explain why; without one (turned off) they are hidden.
 */
export function unavailableAuth(
  notices: SessionNotices,
  dispatch: (action: NoticeAction) => void,
  reason: string | null,
  isLoading = false,
): PortalAuthValue {
  const explain = async () => {
    if (reason) {
      dispatch({type: 'show', notice: {kind: 'sign-in-unavailable', reason}});
    }
  };
  return {
    ...SIGNED_OUT,
    isLoading,
    available: reason !== null,
    notice: notices.notice,
    dismissNotice: () => dispatch({type: 'dismiss'}),
    signIn: explain,
    signUp: explain,
    signOut: () => undefined,
    getAccessToken: () => Promise.reject(new LoginRequiredError()),
    getUser: () => null,
    switchToOrganization: explain,
  };
}
