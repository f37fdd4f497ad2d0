import {useEffect} from 'react';
import type {AuthSettings} from '../config';
import {hasStoredSession} from './authkitMirror';
import type {NoticeAction} from './notices';

/**
 * The SDK keeps a stored session on a network error or 5xx and retries in
 * the background, showing nobody signed in meanwhile: tell the reader (once
 * per outage, so dismissing it sticks) rather than silently offering
 * "Sign in", and take the notice away when the provider answers.
 * `settled`: the provider's first answer came, and this page load was not
 * a failed callback (the SDK does not refresh then, so a stored session is
 * not "unreachable", only unused until the next page load).
 */
export function useProviderUnreachableNotice({
  settled,
  signedIn,
  sessionEnded,
  settings,
  dispatch,
}: {
  settled: boolean;
  signedIn: boolean;
  sessionEnded: boolean;
  settings: Pick<AuthSettings, 'devMode' | 'clientId'>;
  dispatch: (action: NoticeAction) => void;
}): void {
  const {devMode, clientId} = settings;
  useEffect(() => {
    if (!settled) {
      return;
    }
    if (signedIn) {
      dispatch({type: 'provider-reachable'});
    } else if (!sessionEnded && hasStoredSession({devMode, clientId})) {
      dispatch({type: 'provider-unreachable'});
    }
  }, [settled, signedIn, sessionEnded, devMode, clientId, dispatch]);
}
