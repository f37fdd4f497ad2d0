import {useEffect, useState} from 'react';
import type {NoticeAction} from './notices';

/**
 * How long the sign-in layer waits for the provider's first answer (the
 * code exchange, or the refresh at page load) before telling the reader it
 * is not answering. The SDK's requests have no time limit of their own.
 */
export const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * Watches the provider's first answer: when it takes longer than
 * `timeoutMs`, says so and returns true (while it is still awaited), so the
 * page stops showing "Checking your session…"; a late answer takes the
 * notice away.
 */
export function useProviderTimeout(isLoading: boolean, timeoutMs: number, dispatch: (action: NoticeAction) => void): boolean {
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (!isLoading) {
      dispatch({type: 'provider-answered'});
      return;
    }
    const timer = setTimeout(() => {
      setTimedOut(true);
      dispatch({type: 'provider-late'});
    }, timeoutMs);
    return () => clearTimeout(timer);
  }, [isLoading, timeoutMs, dispatch]);
  return timedOut && isLoading;
}
