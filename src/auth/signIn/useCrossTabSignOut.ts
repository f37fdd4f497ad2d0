import {useCallback, useEffect, useRef} from 'react';

/** Where a tab tells this site's other tabs that the reader signed out (same origin only). */
const SIGN_OUT_CHANNEL = 'developer-portal:sign-out';
const SIGNED_OUT_MESSAGE = 'signed-out';

/**
 * Signing out in another tab ends the session here too (its gate cookie and
 * provider session are gone): `onSignedOutElsewhere` runs, so the navbar
 * stops showing an account that no longer works while the page on screen
 * stays. Returns how this tab announces its own sign-out.
 */
export function useCrossTabSignOut(signedIn: boolean, onSignedOutElsewhere: () => void): () => void {
  // The announcement goes through the very channel this tab listens on: a
  // channel never receives its own messages, while a second channel of the
  // same name in this tab would hear it and end this tab's session as
  // "signed out elsewhere". A ref, since announcing is no reason to render.
  const channelRef = useRef<BroadcastChannel | null>(null);
  useEffect(() => {
    if (!signedIn || typeof BroadcastChannel === 'undefined') {
      return;
    }
    const channel = new BroadcastChannel(SIGN_OUT_CHANNEL);
    channelRef.current = channel;
    channel.onmessage = (event: MessageEvent) => {
      if (event.data === SIGNED_OUT_MESSAGE) {
        onSignedOutElsewhere();
      }
    };
    return () => {
      channel.close();
      channelRef.current = null;
    };
  }, [signedIn, onSignedOutElsewhere]);
  return useCallback(() => channelRef.current?.postMessage(SIGNED_OUT_MESSAGE), []);
}
