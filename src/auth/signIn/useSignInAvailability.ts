/**
 * Whether sign-in can work on this page load: turned off (AUTH_DISABLED, or
 * no client id, which is logged), unavailable (browser storage throws, and
 * the SDK needs it), or ready with the settings AuthKit is configured from.
 */
import {useEffect, useState} from 'react';
import type {AuthSettings} from '../config';
import {isBrowserStorageUsable} from '../storage';

export type SignInAvailability = {kind: 'off'} | {kind: 'unavailable'; reason: string} | {kind: 'ready'; settings: AuthSettings};

const STORAGE_BLOCKED =
  'This browser blocks site storage (for example in a private window), and sign-in needs it. The documentation stays readable.';

export function useSignInAvailability(settings: AuthSettings | undefined): SignInAvailability {
  const off = !settings || !settings.enabled;
  const missingClientId = !off && !settings.clientId;
  // Decided once per page load, in the browser only; the server renders the
  // signed-in layer in its loading state either way.
  const [storageUsable] = useState(() => typeof window === 'undefined' || off || missingClientId || isBrowserStorageUsable());

  useEffect(() => {
    if (missingClientId) {
      console.error(
        'Developer Portal: sign-in is turned off: Missing Client ID. Set WORKOS_CLIENT_ID, or leave it unset to use the local provider.',
      );
    }
  }, [missingClientId]);

  if (off || missingClientId) {
    return {kind: 'off'};
  }
  return storageUsable ? {kind: 'ready', settings} : {kind: 'unavailable', reason: STORAGE_BLOCKED};
}
