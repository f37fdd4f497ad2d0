/**
 * The browser's side of the gate server (server/routes/session.ts): after sign-in and
 * after every token refresh, hand the access token to the gate so it can set
 * (and renew) its HttpOnly session cookie; on sign-out, ask it to delete the
 * cookie. The gate marks the pages it serves with a readable `portal_gate`
 * cookie (`__Host-portal_gate` over HTTPS); without it (a static host such as
 * GitHub Pages) no token is sent. Sign-out asks for the deletion in every
 * case: a marker is a cookie, which a sibling subdomain could toss to make
 * the browser skip it.
 */

export const GATE_MARKER_COOKIE = 'portal_gate';
/**
 * Over HTTPS the gate's cookies carry this prefix: a browser then accepts
 * them only Secure, with Path=/ and no Domain, set by this very host, so a
 * sibling subdomain can neither set nor shadow them.
 */
export const HOST_ONLY_PREFIX = '__Host-';
export const SESSION_PATH = '_portal/session';

/**
 * Every value of every cookie named `name` in a Cookie header (or
 * `document.cookie`), in order. The `cookie` package keeps only the first of
 * several cookies of one name, which is the one a sibling subdomain can put
 * in front (a longer Path, set earlier).
 */
export function cookieValues(header: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator !== -1 && pair.slice(0, separator).trim() === name) {
      values.push(pair.slice(separator + 1).trim());
    }
  }
  return values;
}

/**
 * `started`: there was no session (the page on screen came from the public
 * build); `changed`: the roles or permissions the rules look at changed, so
 * what the page holds (its build, its search index) may no longer fit.
 */
export type GateSync = 'no-gate' | 'started' | 'renewed' | 'changed' | 'refused' | 'blocked' | 'failed';

/**
 * What the gate made of this tab's session, from the latest answer to
 * syncGateSession: `active`, so a page withheld from the public build that
 * the reader may read is loaded again and the gate serves the members'
 * version (see RestrictedPage); `refused`, the gate does not accept this
 * sign-in (another organisation or issuer, a token it cannot verify);
 * `blocked`, it refused where the request came from (its origin check: a
 * proxy or address set-up the operators must fix);
 * `unavailable`, it could not check it (not ready, unreachable: tried again);
 * `none`, no answer yet or no gate. One value per page load, in module memory.
 */
export type GateSessionState = 'none' | 'active' | 'refused' | 'blocked' | 'unavailable';

let gateSessionState: GateSessionState = 'none';
const gateSessionListeners = new Set<() => void>();

const STATE_OF: Record<GateSync, GateSessionState> = {
  'no-gate': 'none',
  started: 'active',
  renewed: 'active',
  changed: 'active',
  refused: 'refused',
  blocked: 'blocked',
  failed: 'unavailable',
};

export function recordGateSync(result: GateSync): void {
  const state = STATE_OF[result];
  if (state !== gateSessionState) {
    gateSessionState = state;
    gateSessionListeners.forEach((listener) => listener());
  }
}

/** For useSyncExternalStore: `none` on the server and until the gate has answered. */
export const gateSessionStore = {
  subscribe(listener: () => void): () => void {
    gateSessionListeners.add(listener);
    return () => gateSessionListeners.delete(listener);
  },
  getSnapshot: (): GateSessionState => gateSessionState,
  getServerSnapshot: (): GateSessionState => 'none',
};

/**
 * Loading a page again so the gate can answer with the members' version
 * (after sign-in, or for a page reached inside the public build) is
 * remembered per address for 30 s: a gate that keeps answering with the
 * public page (its cookie refused or blocked) never makes a page reload
 * forever. The mark is cleared once a page comes from the members build.
 */
const RELOADED_KEY = 'portal:opened-members-version';
const RELOAD_WINDOW_MS = 30_000;

const currentAddress = () => window.location.pathname + window.location.search;

/** Whether this address was already loaded again in the last 30 s (true when storage is unusable: without the guard, no automatic reload). */
export function reloadedForMembersRecently(address: string = currentAddress()): boolean {
  try {
    const previous = JSON.parse(window.sessionStorage.getItem(RELOADED_KEY) ?? 'null') as {address?: unknown; at?: unknown} | null;
    return previous?.address === address && typeof previous.at === 'number' && Date.now() - previous.at < RELOAD_WINDOW_MS;
  } catch {
    return true;
  }
}

/** Loads the page again for the gate's members' answer, unless that already happened for this address in the last 30 s; whether it did. */
export function reloadForMembersOnce(address: string = currentAddress()): boolean {
  if (reloadedForMembersRecently(address)) {
    return false;
  }
  try {
    window.sessionStorage.setItem(RELOADED_KEY, JSON.stringify({address, at: Date.now()}));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/** The members' build answered: a later sign-in may reload again. */
export function clearMembersReloadMark(): void {
  try {
    window.sessionStorage.removeItem(RELOADED_KEY);
  } catch {
    // Nothing was stored either.
  }
}

/** Whether a gate served this page (its marker cookie, under either name; a tossed `portal_gate=0` in front cannot hide it). */
export function gatePresent(cookies: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return [GATE_MARKER_COOKIE, `${HOST_ONLY_PREFIX}${GATE_MARKER_COOKIE}`].some((name) => cookieValues(cookies, name).includes('1'));
}

/**
 * Sends the token in a JSON body (never in a URL, and not in a header, which
 * a proxy's header limit could refuse: WorkOS tokens can pass 12 KB),
 * same-origin only. `started`
 * means the request came without a valid session cookie, so the page on
 * screen was served as public and should be loaded again.
 */
export async function syncGateSession(accessToken: string, baseUrl: string, timeoutMs = 10_000): Promise<GateSync> {
  if (!gatePresent()) {
    return 'no-gate';
  }
  // A gate that never answers is one that could not check the token (asked again), not a page that waits forever.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(`${baseUrl}${SESSION_PATH}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({accessToken}),
      signal: controller.signal,
    });
    if (response.status === 401) {
      return 'refused';
    }
    // The gate's check of where the request came from (Origin, Sec-Fetch-Site) failed: its set-up, not the token.
    if (response.status === 403) {
      return 'blocked';
    }
    if (!response.ok) {
      return 'failed';
    }
    const body = (await response.json()) as {hadSession?: unknown; changed?: unknown};
    if (body.changed === true) {
      return 'changed';
    }
    return body.hadSession === true ? 'renewed' : 'started';
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Deletes the gate's cookie; resolves (never rejects) within `timeoutMs`.
 * Sent whether or not the marker cookie says a gate is there (a cookie that
 * script or a sibling subdomain can forge must not decide whether a session
 * ends); a static host answers 404 or 405, which is ignored.
 */
export async function endGateSession(baseUrl: string, timeoutMs = 2000): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await fetch(`${baseUrl}${SESSION_PATH}`, {method: 'DELETE', credentials: 'same-origin', keepalive: true, signal: controller.signal});
  } catch {
    // The cookie still expires with the token (or the gate's ceiling).
  } finally {
    clearTimeout(timer);
  }
}
