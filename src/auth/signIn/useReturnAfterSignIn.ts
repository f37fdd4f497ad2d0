import {useCallback} from 'react';
import {useHistory} from '@docusaurus/router';
import {currentReturnTo, safeReturnTo} from '../returnTo';

/**
 * AuthKit's `onRedirectCallback`: after a successful sign-in, back to the
 * page it started from, as its `state` names it (untrusted: only a
 * same-origin path is followed, anything else stays on the callback page).
 * The SDK's client keeps the first callback it is given; react-router's
 * history is one object for the app's life, so capturing it is safe.
 */
export function useReturnAfterSignIn(): (answer: {state?: Record<string, unknown> | null}) => void {
  const history = useHistory();
  return useCallback(
    ({state}) => {
      const here = currentReturnTo(window.location);
      const target = safeReturnTo(state?.returnTo, window.location.origin, window.location.pathname);
      if (target !== here) {
        history.replace(target);
      }
    },
    [history],
  );
}
