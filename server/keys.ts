/**
 * The provider's signing keys (JWKS) for the one place that needs them:
 * turning an access token into a gate session (`POST _portal/session`).
 * Page requests never touch this: they carry the gate's own session.
 *
 * - The last good key set is kept until a newer one arrives; a failing or
 *   hanging endpoint never throws it away.
 * - Refreshes run in the background: every `refreshIntervalMs`, and after a
 *   failure again with exponential back-off (1 s, 2 s, 4 s … up to
 *   `maxBackoffMs`), each fetch bounded by `fetchTimeoutMs`.
 * - A verification waits for the key endpoint at most `waitBoundMs`: before
 *   the first key set has arrived, or once for a key id it does not know yet
 *   (the provider rotated its keys), at most once per `unknownKeyCooldownMs`.
 */
import {createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey} from 'jose';

export interface KeyStoreOptions {
  url: URL;
  refreshIntervalMs?: number;
  fetchTimeoutMs?: number;
  maxBackoffMs?: number;
  waitBoundMs?: number;
  unknownKeyCooldownMs?: number;
  /** For tests: how the key set is fetched. */
  fetchJwks?: (url: URL, signal: AbortSignal) => Promise<Response>;
  onRefreshError?: (message: string, retryInMs: number) => void;
}

export interface KeyStatus {
  /** A key set is loaded (possibly an older one kept through failures). */
  ready: boolean;
  consecutiveFailures: number;
}

export interface KeyStore {
  getKey: JWTVerifyGetKey;
  status(): KeyStatus;
  /** Fetches now, unless a fetch is already under way; never rejects. */
  refresh(): Promise<void>;
  close(): void;
}

export class KeysUnavailableError extends Error {
  constructor() {
    super('the provider signing keys are not loaded yet');
    this.name = 'KeysUnavailableError';
  }
}

const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

export function createKeyStore(options: KeyStoreOptions): KeyStore {
  const refreshIntervalMs = options.refreshIntervalMs ?? 10 * 60_000;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 3_000;
  const maxBackoffMs = options.maxBackoffMs ?? 5 * 60_000;
  const waitBoundMs = options.waitBoundMs ?? 1_000;
  const unknownKeyCooldownMs = options.unknownKeyCooldownMs ?? 30_000;
  const fetchJwks = options.fetchJwks ?? ((url: URL, signal: AbortSignal) => fetch(url, {signal, headers: {Accept: 'application/json'}}));

  let keys: JWTVerifyGetKey | null = null;
  let failures = 0;
  let inFlight: Promise<void> | null = null;
  let lastAttemptAt = 0;
  /** After a failure, requests do not start fetches before this (ms); the back-off timer does. */
  let backoffUntil = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  function schedule(ms: number): void {
    if (closed) {
      return;
    }
    if (timer) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => void refresh(), ms);
    timer.unref();
  }

  async function fetchOnce(): Promise<void> {
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), fetchTimeoutMs);
    timeout.unref();
    try {
      const response = await fetchJwks(options.url, controller.signal);
      if (!response.ok) {
        throw new Error(`HTTP ${response.status}`);
      }
      const body = (await response.json()) as JSONWebKeySet;
      if (!body || !Array.isArray(body.keys) || body.keys.length === 0) {
        throw new Error('the answer is not a key set');
      }
      keys = createLocalJWKSet(body);
      failures = 0;
      backoffUntil = 0;
      schedule(refreshIntervalMs);
    } catch (error) {
      failures += 1;
      const retryIn = Math.min(maxBackoffMs, 1000 * 2 ** (failures - 1));
      const reason = controller.signal.aborted
        ? `no answer within ${fetchTimeoutMs} ms`
        : error instanceof Error
          ? error.message
          : String(error);
      options.onRefreshError?.(
        `signing keys from ${options.url.href}: ${reason}; ${keys ? 'keeping the last good set' : 'none loaded yet'}`,
        retryIn,
      );
      backoffUntil = Date.now() + retryIn;
      schedule(retryIn);
    } finally {
      clearTimeout(timeout);
    }
  }

  function refresh(): Promise<void> {
    if (!inFlight) {
      lastAttemptAt = Date.now();
      inFlight = fetchOnce().finally(() => {
        inFlight = null;
      });
    }
    return inFlight;
  }

  /**
   * For a request: waits for the running fetch, or starts one unless the
   * endpoint is backing off, but never longer than waitBoundMs.
   */
  async function boundedRefresh(): Promise<void> {
    if (!inFlight && Date.now() < backoffUntil) {
      return;
    }
    await Promise.race([refresh(), wait(waitBoundMs)]);
  }

  void refresh();

  const getKey: JWTVerifyGetKey = async (header, token) => {
    if (!keys) {
      await boundedRefresh();
    }
    const current = keys;
    if (!current) {
      throw new KeysUnavailableError();
    }
    try {
      return await current(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || Date.now() - lastAttemptAt < unknownKeyCooldownMs) {
        throw error;
      }
      await boundedRefresh();
      if (!keys || keys === current) {
        throw error;
      }
      return keys(header, token);
    }
  };

  return {
    getKey,
    refresh,
    status: () => ({ready: keys !== null, consecutiveFailures: failures}),
    close() {
      closed = true;
      if (timer) {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * The key store when sign-in is off (AUTH_DISABLED=true): ready at once, fetching nothing and holding no key, so
 * every token is refused as signed by an unknown key. Without it the gate would take keys from the local provider's
 * URL, which nothing serves in production and any process on the machine could then answer.
 */
export function createNoKeyStore(): KeyStore {
  return {
    getKey: () => {
      throw new errors.JWKSNoMatchingKey();
    },
    refresh: () => Promise.resolve(),
    status: () => ({ready: true, consecutiveFailures: 0}),
    close() {},
  };
}
