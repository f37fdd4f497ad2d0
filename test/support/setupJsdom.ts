import '@testing-library/jest-dom';
import {webcrypto} from 'node:crypto';

// jsdom has crypto.getRandomValues but no crypto.subtle, which the SDK needs
// for the PKCE S256 challenge: use Node's Web Crypto implementation.
if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, 'crypto', {value: webcrypto, configurable: true});
}
// navigator.locks is absent in jsdom on purpose: the SDK then uses its
// fallback lock (on localStorage), the path older browsers take.
