/**
 * Browser storage can throw on access (private modes, blocked site data,
 * sandboxed frames). The SDK needs sessionStorage for the PKCE verifier and,
 * in dev mode, localStorage for the refresh token.
 */
export function isBrowserStorageUsable(): boolean {
  try {
    const probe = '__portal_storage_probe__';
    window.localStorage.setItem(probe, probe);
    window.localStorage.removeItem(probe);
    window.sessionStorage.setItem(probe, probe);
    window.sessionStorage.removeItem(probe);
    return true;
  } catch (error) {
    console.warn('Developer Portal: browser storage is unavailable, so sign-in is turned off in this tab.', error);
    return false;
  }
}

/** Reads a storage key without ever throwing. */
export function safeGetItem(storage: 'localStorage' | 'sessionStorage', key: string): string | null {
  try {
    return window[storage].getItem(key);
  } catch {
    return null;
  }
}

/** Removes a storage key without ever throwing. */
export function safeRemoveItem(storage: 'localStorage' | 'sessionStorage', key: string): void {
  try {
    window[storage].removeItem(key);
  } catch {
    // Storage that throws holds nothing the SDK could read back either.
  }
}
