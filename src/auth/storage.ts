/**
 * Browser storage can throw on access (private modes, blocked site data,
 * sandboxed frames). The SDK needs sessionStorage for the PKCE verifier and,
 * in dev mode, localStorage for the refresh token.
 */
export function isBrowserStorageUsable(): boolean {
  try {
    const probe = '__portal_storage_probe__';
    // Written, read back and removed: storage whose reads throw (or that
    // drops what it is given) loses the PKCE verifier as surely as one whose writes throw.
    for (const storage of [window.localStorage, window.sessionStorage]) {
      storage.setItem(probe, probe);
      const readBack = storage.getItem(probe);
      storage.removeItem(probe);
      if (readBack !== probe) {
        throw new Error('storage did not keep what was written');
      }
    }
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
