/**
 * What src/auth/signIn/authkitMirror.ts mirrors of authkit-js, checked
 * against the installed SDK itself: its storage keys, its session cookie and
 * its callback rule. When an upgrade changes one, this fails, not a reader's
 * notice. Fresh SDK modules per test: it keeps its session in module memory.
 */
import {
  CODE_VERIFIER_KEY,
  hasStoredSession,
  HAS_SESSION_COOKIE,
  isSdkCallbackPath,
  REFRESH_TOKEN_KEY,
} from '../../src/auth/signIn/authkitMirror';

type AuthKitJs = typeof import('@workos-inc/authkit-js');

const CLIENT_ID = 'client_local';

function freshSdk(): AuthKitJs {
  jest.resetModules();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the SDK's module memory
  return require('@workos-inc/authkit-js') as AuthKitJs;
}

function startSdk({devMode = true, redirectUri = 'http://localhost/'}: {devMode?: boolean; redirectUri?: string} = {}) {
  return freshSdk().createClient(CLIENT_ID, {apiHostname: 'localhost', port: 4010, https: false, devMode, redirectUri});
}

let fetchSpy: jest.SpiedFunction<typeof fetch>;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/docs/');
  // A refresh the provider refuses: the SDK gives up quietly and starts no timers.
  fetchSpy = jest
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async () => new Response(JSON.stringify({error: 'invalid_grant'}), {status: 400}));
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'debug').mockImplementation(() => undefined);
});

afterEach(() => {
  document.cookie = `${HAS_SESSION_COOKIE}=; Max-Age=0; Path=/`;
  jest.restoreAllMocks();
});

/** The refresh token the SDK sent to the provider, if it sent one. */
function refreshTokenSent(): unknown {
  const init = fetchSpy.mock.calls[0]?.[1];
  return init?.body ? (JSON.parse(String(init.body)) as {refresh_token?: unknown}).refresh_token : undefined;
}

describe("the SDK's storage, as the portal reads it", () => {
  it('keeps the PKCE verifier under the key the portal checks and clears', async () => {
    const client = await startSdk();
    await client.getSignInUrl();
    expect(sessionStorage.getItem(CODE_VERIFIER_KEY)).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  });

  it.each([`${REFRESH_TOKEN_KEY}:${CLIENT_ID}`, REFRESH_TOKEN_KEY])(
    'refreshes at page load from a dev-mode token under %s',
    async (key) => {
      localStorage.setItem(key, 'stored-refresh-token');
      expect(hasStoredSession({devMode: true, clientId: CLIENT_ID})).toBe(true);
      await startSdk();
      expect(refreshTokenSent()).toBe('stored-refresh-token');
    },
  );

  it('refreshes at page load when the provider marked a session with its cookie', async () => {
    document.cookie = `${HAS_SESSION_COOKIE}=1; Path=/`;
    expect(hasStoredSession({devMode: false, clientId: CLIENT_ID})).toBe(true);
    await startSdk({devMode: false});
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('has nothing to refresh, and the portal agrees, when neither is there', async () => {
    expect(hasStoredSession({devMode: true, clientId: CLIENT_ID})).toBe(false);
    expect(hasStoredSession({devMode: false, clientId: CLIENT_ID})).toBe(false);
    await startSdk();
    await startSdk({devMode: false});
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe("the SDK's callback rule", () => {
  it.each([
    ['/', 'http://localhost/'],
    ['/docs', 'http://localhost/docs'],
    ['/docs/', 'http://localhost/docs'],
    ['/docs/', 'http://localhost/docs/'],
    ['/docs/x', 'http://localhost/docs'],
    ['/docs', 'http://localhost/'],
    ['/', 'http://localhost/docs'],
  ])('on %s with the redirect URI %s: the portal calls it a callback exactly when the SDK handles one', async (path, redirectUri) => {
    window.history.replaceState(null, '', `${path}?code=some-code`);
    await startSdk({redirectUri});
    // The SDK handles a callback by taking the code out of the address bar.
    const sdkHandledIt = !new URLSearchParams(window.location.search).has('code');
    expect(isSdkCallbackPath(path, redirectUri)).toBe(sdkHandledIt);
  });
});
