/**
 * The sign-in layer end to end in jsdom: the real SDK and our provider layer,
 * against the local provider's MSW handlers (the same ones `npm start` serves).
 */
import {setupServer} from 'msw/node';
import {createProviderHandlers, type ProviderState} from '../../scripts/local-provider/handlers';
import {
  completeSignInAtProvider,
  endPageTimers,
  loadPage,
  navigations,
  PROVIDER_ORIGIN,
  SITE_ORIGIN,
  testSettings,
  type LoadedPage,
} from '../support/portalPage';

const DEEP_PAGE = '/docs/internal-developers/services/api-gateway?tab=linux#rate-limiting';
const REFRESH_TOKEN_KEY = 'workos:refresh-token:client_local';

let providerState: ProviderState;
const server = setupServer();
let requestsInFlight = 0;
server.events.on('request:start', () => {
  requestsInFlight += 1;
});
server.events.on('request:end', () => {
  requestsInFlight -= 1;
});

// Each test signs in through several page loads with real 1 s refresh checks.
jest.setTimeout(15_000);

beforeAll(async () => {
  const provider = createProviderHandlers({
    clientId: 'client_local',
    allowedOrigins: [SITE_ORIGIN],
    issuer: PROVIDER_ORIGIN,
    // Shorter than the SDK's 10 s refresh buffer: every background check
    // (each second) refreshes, so refresh outcomes show up quickly.
    accessTokenTtlSeconds: 5,
  });
  providerState = provider.state;
  server.use(...provider.handlers);
  server.listen({onUnhandledRequest: 'error'});
});

afterAll(() => server.close());

let page: LoadedPage | null = null;
let consoleError: jest.SpyInstance;
let consoleWarn: jest.SpyInstance;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  navigations().length = 0;
  providerState.fault = null;
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  consoleWarn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'debug').mockImplementation(() => undefined);
});

/** Leaves the current page like a browser does: nothing of it keeps running. */
async function leavePage(): Promise<void> {
  if (!page) {
    return;
  }
  const leaving = page;
  page = null;
  leaving.unmount();
  // Let a request the old page already sent finish before its timers end.
  await leaving.waitFor(() => expect(requestsInFlight).toBe(0));
  await new Promise((resolve) => setTimeout(resolve, 0));
  endPageTimers();
}

afterEach(async () => {
  await leavePage();
  jest.restoreAllMocks();
});

async function open(url: string, settings = testSettings()): Promise<LoadedPage> {
  await leavePage();
  page = loadPage(url, settings);
  return page;
}

async function clickSignIn(current: LoadedPage): Promise<URL> {
  const button = await current.screen.findByRole('button', {name: 'Sign in'});
  current.fireEvent.click(button);
  await current.waitFor(() => expect(navigations()).toHaveLength(1));
  return new URL(navigations()[0] as string);
}

/** Signs in from `from` as `userId` and loads the callback page. */
async function signIn(from: string, userId: string, settings = testSettings()): Promise<LoadedPage> {
  const authorizeUrl = await clickSignIn(await open(from, settings));
  const callbackUrl = await completeSignInAtProvider(authorizeUrl.toString(), userId);
  navigations().length = 0;
  const callbackPage = await open(callbackUrl.replace(SITE_ORIGIN, ''), settings);
  return callbackPage;
}

describe('sign-in round trip', () => {
  it('exchanges the code, signs in, stores the session, clears the query and returns to the page the user started from', async () => {
    const current = await signIn(DEEP_PAGE, 'user_developer');
    await current.screen.findByRole('button', {name: /Devon Developer/});
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(DEEP_PAGE);
    expect(window.location.search).not.toContain('code=');
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toMatch(/\S{20,}/);
    // The verifier is single-use and removed after the exchange.
    expect(sessionStorage.getItem('workos:code-verifier')).toBeNull();
    expect(current.auth().user).toMatchObject({
      object: 'user',
      id: 'user_developer',
      email: 'devon.developer@acme.test',
      emailVerified: true,
    });
  });

  it('stays signed in on the next page load by refreshing with the stored refresh token', async () => {
    await (await signIn('/docs/', 'user_developer')).screen.findByRole('button', {name: /Devon Developer/});
    const before = localStorage.getItem(REFRESH_TOKEN_KEY);

    const reloaded = await open('/docs/');
    await reloaded.screen.findByRole('button', {name: /Devon Developer/});
    // Rotation: the refresh gave a new refresh token.
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).not.toBe(before);
  });

  it('sends the authorize request with PKCE S256, the return path in state and the configured organisation', async () => {
    const authorizeUrl = await clickSignIn(await open(DEEP_PAGE, testSettings({organizationId: 'org_acme_platform'})));
    const params = authorizeUrl.searchParams;

    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${PROVIDER_ORIGIN}/user_management/authorize`);
    expect(params.get('client_id')).toBe('client_local');
    expect(params.get('redirect_uri')).toBe(`${SITE_ORIGIN}/`);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('provider')).toBe('authkit');
    expect(params.get('organization_id')).toBe('org_acme_platform');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.has('screen_hint')).toBe(false);
    expect(JSON.parse(params.get('state') as string)).toEqual({returnTo: DEEP_PAGE});
    // The verifier stays in this tab's session storage, never in the URL.
    const verifier = sessionStorage.getItem('workos:code-verifier');
    expect(verifier).toBeTruthy();
    expect(authorizeUrl.toString()).not.toContain(verifier as string);
  });

  it('asks for the sign-up screen only for sign-up', async () => {
    const current = await open('/docs/');
    await current.screen.findByRole('button', {name: 'Sign in'});
    await current.act(() => current.auth().signUp());
    expect(new URL(navigations()[0] as string).searchParams.get('screen_hint')).toBe('sign-up');
  });
});

describe('sign-in failures', () => {
  it('treats a code without a stored verifier as a possible forgery: not signed in, a visible warning, docs readable', async () => {
    const current = await open('/?code=forged-code&state=%7B%22returnTo%22%3A%22%2Fdocs%2F%22%7D');

    await current.screen.findByRole('alert', {name: 'Sign-in link ignored'});
    expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
    expect(current.screen.getByRole('button', {name: 'Sign in'})).toBeVisible();
    expect(window.location.search).toBe('');
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining("Couldn't exchange code"));
  });

  it("keeps a signed-in reader's warning on screen when a used or forged sign-in link is opened, without calling the provider unreachable", async () => {
    await (await signIn('/docs/', 'user_developer')).screen.findByRole('button', {name: /Devon Developer/});

    const current = await open('/?code=old-code');
    await current.screen.findByRole('alert', {name: 'Sign-in link ignored'});
    await current.waitFor(() => expect(window.location.search).toBe(''));
    expect(current.screen.getByRole('alert', {name: 'Sign-in link ignored'})).toBeVisible();
    // It does not tell a signed-in reader they were signed out.
    expect(current.screen.getByRole('alert', {name: 'Sign-in link ignored'})).toHaveTextContent(
      'If you were signed in before, reload the page',
    );
    expect(current.screen.queryByRole('status', {name: 'Sign-in service unreachable'})).toBeNull();
    // The stored session is not touched: the next page load resumes it.
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeTruthy();
    await (await open('/docs/')).screen.findByRole('button', {name: /Devon Developer/});
  });

  it('says so when the provider sends the reader back with an error instead of a code, and returns them to their page', async () => {
    const authorizeUrl = await clickSignIn(await open(DEEP_PAGE));
    const state = authorizeUrl.searchParams.get('state') as string;
    const description = '<img src=x onerror=alert(1)><b>Denied by policy</b>';
    navigations().length = 0;

    const current = await open(
      `/?error=access_denied&error_description=${encodeURIComponent(description)}&state=${encodeURIComponent(state)}`,
    );
    await current.screen.findByRole('alert', {name: 'Sign-in cancelled'});
    await current.waitFor(() => expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(DEEP_PAGE));
    // The provider's text is never rendered, and this sign-in's verifier is gone.
    expect(document.querySelector('img, b')).toBeNull();
    expect(document.body.textContent).not.toContain('Denied by policy');
    expect(sessionStorage.getItem('workos:code-verifier')).toBeNull();
    expect(await current.screen.findByRole('button', {name: 'Sign in'})).toBeEnabled();
    expect(navigations()).toEqual([]);
  });

  it.each(['//evil.example/', '/\\evil.example', 'https://evil.example/'])(
    'keeps a cancelled sign-in on this site when its state names %s',
    async (returnTo) => {
      await clickSignIn(await open('/docs/'));
      navigations().length = 0;
      const current = await open(`/?error=access_denied&state=${encodeURIComponent(JSON.stringify({returnTo}))}`);
      await current.screen.findByRole('alert', {name: 'Sign-in cancelled'});
      await current.waitFor(() => expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/'));
      expect(window.location.origin).toBe(SITE_ORIGIN);
      expect(navigations()).toEqual([]);
    },
  );

  it('takes an error callback this tab did not start out of the address bar, without a notice', async () => {
    const current = await open('/?tab=linux&error=access_denied&state=%7B%22returnTo%22%3A%22%2F%2Fevil.example%22%7D#top');
    await current.screen.findByRole('button', {name: 'Sign in'});
    await current.waitFor(() =>
      expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/?tab=linux#top'),
    );
    expect(current.screen.queryByRole('alert')).toBeNull();
  });

  it('moves keyboard focus to the main content when a notice is dismissed', async () => {
    const current = await open('/?code=forged-code');
    await current.screen.findByRole('alert', {name: 'Sign-in link ignored'});
    const dismiss = current.screen.getByRole('button', {name: 'Dismiss'});
    dismiss.focus();
    current.fireEvent.click(dismiss);
    expect(current.screen.queryByRole('alert', {name: 'Sign-in link ignored'})).toBeNull();
    expect(document.activeElement).toBe(current.screen.getByRole('main'));
  });

  it('shows a failed exchange on the page sign-in started from, and logs the provider error_description', async () => {
    const current = await signIn(DEEP_PAGE, 'user_locked');

    await current.screen.findByRole('alert', {name: 'Sign-in failed'});
    await current.waitFor(() => expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(DEEP_PAGE));
    expect(current.screen.getByRole('button', {name: 'Sign in'})).toBeVisible();
    expect(consoleError).toHaveBeenCalledWith(
      expect.objectContaining({message: 'This account is locked. Ask #team-identity to unlock it.'}),
    );
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
  });

  it('does not sign in when the provider answers garbage (HTML instead of JSON)', async () => {
    const authorizeUrl = await clickSignIn(await open('/docs/'));
    const callbackUrl = await completeSignInAtProvider(authorizeUrl.toString(), 'user_developer');
    providerState.fault = {
      delayMs: 0,
      passThrough: false,
      status: 200,
      body: '<html>gateway error</html>',
      contentType: 'text/html',
      remaining: 1,
    };

    const current = await open(callbackUrl.replace(SITE_ORIGIN, ''));
    await current.screen.findByRole('alert', {name: 'Sign-in failed'});
    expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
  });

  it('shows the signed-out view, and logs once, when the provider sends a user without the fields the spec requires', async () => {
    const authorizeUrl = await clickSignIn(await open('/docs/'));
    const callbackUrl = await completeSignInAtProvider(authorizeUrl.toString(), 'user_developer');
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const accessToken = `${encode({alg: 'RS256'})}.${encode({sid: 'session_x', iat: now, exp: now + 300, role: 'member'})}.c2ln`;
    providerState.fault = {
      delayMs: 0,
      passThrough: false,
      status: 200,
      // A user without created_at / updated_at.
      body: JSON.stringify({user: {object: 'user', id: 'user_x', email: 'x@acme.test'}, access_token: accessToken, refresh_token: 'r'}),
      contentType: 'application/json',
      remaining: 1,
    };

    const current = await open(callbackUrl.replace(SITE_ORIGIN, ''));
    await current.waitFor(() => expect(providerState.fault).toBeNull());
    await current.waitFor(() => expect(current.screen.getByRole('button', {name: 'Sign in'})).toBeVisible());
    expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
    // The same fault reaches two adapters (the response and the user); it is reported once.
    const reports = consoleError.mock.calls.filter(([message]) => String(message).includes('user.createdAt must be a non-empty string'));
    expect(reports).toHaveLength(1);
    expect(String(reports[0]?.[0])).toMatch(/^Developer Portal: ignoring /);
  });
});

describe('hostile or broken callbacks', () => {
  it('survives a 10 KB code: the exchange is refused, the query is cleared and the docs stay readable', async () => {
    sessionStorage.setItem('workos:code-verifier', 'a-verifier-from-an-earlier-sign-in');
    const current = await open(`/?code=${'x'.repeat(10 * 1024)}`);
    await current.screen.findByRole('alert', {name: 'Sign-in failed'});
    expect(window.location.search).toBe('');
    expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
  });

  it('signs in with a state that is not JSON, staying on the callback page', async () => {
    const authorizeUrl = await clickSignIn(await open('/docs/'));
    const callbackUrl = new URL(await completeSignInAtProvider(authorizeUrl.toString(), 'user_developer'));
    callbackUrl.searchParams.set('state', 'not-json{');
    const current = await open(`${callbackUrl.pathname}${callbackUrl.search}`);
    await current.screen.findByRole('button', {name: /Devon Developer/});
    expect(`${window.location.pathname}${window.location.search}`).toBe('/');
  });

  it('never follows a returnTo on another origin', async () => {
    const authorizeUrl = await clickSignIn(await open('/docs/'));
    const callbackUrl = new URL(await completeSignInAtProvider(authorizeUrl.toString(), 'user_developer'));
    callbackUrl.searchParams.set('state', JSON.stringify({returnTo: 'https://evil.example/phish'}));
    navigations().length = 0;
    const current = await open(`${callbackUrl.pathname}${callbackUrl.search}`);
    await current.screen.findByRole('button', {name: /Devon Developer/});
    expect(window.location.origin).toBe(SITE_ORIGIN);
    expect(window.location.pathname).toBe('/');
    expect(navigations()).toEqual([]);
  });

  it('stays on the callback page after a failed sign-in whose state names another origin or a protocol-relative path', async () => {
    for (const returnTo of ['https://evil.example/phish', '//evil.example/phish', '/\\evil.example']) {
      const authorizeUrl = await clickSignIn(await open('/docs/'));
      const callbackUrl = new URL(await completeSignInAtProvider(authorizeUrl.toString(), 'user_locked'));
      callbackUrl.searchParams.set('state', JSON.stringify({returnTo}));
      navigations().length = 0;
      const current = await open(`${callbackUrl.pathname}${callbackUrl.search}`);
      await current.screen.findByRole('alert', {name: 'Sign-in failed'});
      expect(window.location.origin).toBe(SITE_ORIGIN);
      expect(window.location.pathname).toBe('/');
      expect(navigations()).toEqual([]);
    }
  });

  it('signs out quietly when the stored refresh token has expired or been revoked', async () => {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'expired-refresh-token');
    const current = await open('/docs/');
    await current.screen.findByRole('button', {name: 'Sign in'});
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    // Nothing to act on: the user simply sees "Sign in", no alarming message.
    expect(current.screen.queryByRole('alert')).toBeNull();
  });
});

describe('session refresh', () => {
  it('clears the credentials, shows the reader signed out and offers "Sign in again" back to the same page when a refresh is refused (4xx)', async () => {
    const settings = testSettings({organizationId: 'org_acme_platform'});
    const current = await signIn(DEEP_PAGE, 'user_developer', settings);
    await current.screen.findByRole('button', {name: /Devon Developer/});
    providerState.fault = {
      delayMs: 0,
      passThrough: false,
      status: 400,
      body: JSON.stringify({error: 'invalid_grant', error_description: 'Session revoked by an administrator.'}),
      contentType: 'application/json',
      remaining: 1,
    };

    const again = await current.screen.findByRole('button', {name: 'Sign in again'}, {timeout: 4000});
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    // The navbar no longer shows the account the provider ended.
    expect(current.screen.queryByRole('button', {name: /Devon Developer/})).toBeNull();
    expect(current.screen.getByRole('button', {name: 'Sign in'})).toBeEnabled();
    expect(current.auth().user).toBeNull();
    expect(document.documentElement.hasAttribute('data-portal-signed-in')).toBe(false);
    current.fireEvent.click(again);
    await current.waitFor(() => expect(navigations()[0]).toContain('/user_management/authorize'));
    // The same sign-in as the navbar's: back to this page, in the configured organisation.
    const params = new URL(navigations()[0] as string).searchParams;
    expect(JSON.parse(params.get('state') as string)).toEqual({returnTo: DEEP_PAGE});
    expect(params.get('organization_id')).toBe('org_acme_platform');
  });

  it('says the provider is not answering when its first answer takes too long, then signs in when it comes', async () => {
    await (await signIn('/docs/', 'user_developer')).screen.findByRole('button', {name: /Devon Developer/});
    // The fault is set once the previous page is gone, so only this page's first request meets it.
    await leavePage();
    providerState.fault = {delayMs: 1500, passThrough: true, status: 200, body: '', contentType: 'application/json', remaining: 1};
    page = loadPage('/docs/', testSettings(), {providerTimeoutMs: 100});
    const current = page;
    await current.screen.findByRole('status', {name: 'Sign-in service not answering'});
    // No endless "Checking your session…": Sign in is offered and explains the wait.
    const signInButton = current.screen.getByRole('button', {name: 'Sign in'});
    expect(signInButton).toBeEnabled();
    current.fireEvent.click(current.screen.getByRole('button', {name: 'Dismiss'}));
    expect(current.screen.queryByRole('status', {name: 'Sign-in service not answering'})).toBeNull();
    current.fireEvent.click(signInButton);
    await current.screen.findByRole('status', {name: 'Sign-in service not answering'});
    expect(navigations()).toEqual([]);
    expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
    // The late answer signs the reader in and the notice goes.
    await current.screen.findByRole('button', {name: /Devon Developer/}, {timeout: 4000});
    await current.waitFor(() => expect(current.screen.queryByRole('status', {name: 'Sign-in service not answering'})).toBeNull());
  });

  it('offers a reload that drops the one-time code when the code exchange is late, so the reload does not replay it', async () => {
    const authorizeUrl = await clickSignIn(await open(DEEP_PAGE));
    const callbackUrl = new URL(await completeSignInAtProvider(authorizeUrl.toString(), 'user_developer'));
    await leavePage();
    providerState.fault = {delayMs: 1500, passThrough: true, status: 200, body: '', contentType: 'application/json', remaining: 1};
    page = loadPage(`${callbackUrl.pathname}${callbackUrl.search}`, testSettings(), {providerTimeoutMs: 100});
    const current = page;
    await current.screen.findByRole('status', {name: 'Sign-in service not answering'});
    navigations().length = 0;
    current.fireEvent.click(current.screen.getByRole('button', {name: 'Reload'}));
    expect(navigations()).toHaveLength(1);
    const target = new URL(navigations()[0] as string, SITE_ORIGIN);
    // Back to the page the sign-in started from, as a finished sign-in would.
    expect(`${target.pathname}${target.search}${target.hash}`).toBe(DEEP_PAGE);
    // The late answer still signs the reader in on this page.
    await current.screen.findByRole('button', {name: /Devon Developer/}, {timeout: 4000});
  });

  it('keeps the user signed in when a refresh fails with a server error (5xx)', async () => {
    const current = await signIn('/docs/', 'user_developer');
    await current.screen.findByRole('button', {name: /Devon Developer/});
    providerState.fault = {
      delayMs: 0,
      passThrough: false,
      status: 503,
      body: '{"error":"unavailable"}',
      contentType: 'application/json',
      remaining: 1,
    };

    // The background check consumes the fault on its next refresh…
    await current.waitFor(() => expect(providerState.fault).toBeNull(), {timeout: 4000});
    // …and the user is still signed in, with the stored session kept.
    expect(current.screen.getByRole('button', {name: /Devon Developer/})).toBeVisible();
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeTruthy();
  });

  it('says the provider is unreachable at page load, keeps the session, and recovers without a reload', async () => {
    await (await signIn('/docs/', 'user_developer')).screen.findByRole('button', {name: /Devon Developer/});
    providerState.fault = {delayMs: 0, passThrough: false, status: 502, body: 'Bad gateway', contentType: 'text/plain', remaining: 1};

    const current = await open('/docs/');
    const notice = await current.screen.findByRole('status', {name: 'Sign-in service unreachable'});
    expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
    // Dismissing it sticks for this outage.
    current.fireEvent.click(current.screen.getByRole('button', {name: 'Dismiss'}));
    expect(notice).not.toBeInTheDocument();
    expect(current.screen.queryByRole('status', {name: 'Sign-in service unreachable'})).toBeNull();
    // The next background refresh succeeds and the notice goes away.
    await current.screen.findByRole('button', {name: /Devon Developer/}, {timeout: 4000});
    await current.waitFor(() => expect(current.screen.queryByRole('status', {name: 'Sign-in service unreachable'})).toBeNull());
  });

  it('switches organisation with a refresh that carries the new organization id', async () => {
    const current = await signIn('/docs/', 'user_admin');
    await current.screen.findByRole('button', {name: /Ada Admin/});
    expect(current.auth().organizationId).toBe('org_acme_platform');

    await current.act(() => current.auth().switchToOrganization('org_acme_labs'));
    await current.waitFor(() => expect(current.auth().organizationId).toBe('org_acme_labs'));
    expect(current.auth().role).toBe('member');
  });
});

describe('what signed-in users see', () => {
  it('shows role, roles, permissions, feature flags and organisation in the user menu', async () => {
    const current = await signIn('/docs/', 'user_admin');
    const menuButton = await current.screen.findByRole('button', {name: /Ada Admin/});
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    current.fireEvent.click(menuButton);
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');

    const panel = current.screen.getByRole('group', {name: 'Account'});
    expect(panel).toHaveTextContent('ada.admin@acme.test');
    expect(panel).toHaveTextContent('org_acme_platform');
    expect(panel).toHaveTextContent('Roleadmin');
    expect(panel).toHaveTextContent('admin, member');
    expect(panel).toHaveTextContent('docs:read, docs:write, services:deploy, users:manage');
    expect(panel).toHaveTextContent('beta-docs, new-search');
    expect(current.auth()).toMatchObject({role: 'admin', roles: ['admin', 'member'], featureFlags: ['beta-docs', 'new-search']});

    current.fireEvent.keyDown(document, {key: 'Escape'});
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton).toHaveFocus();

    // Tabbing past "Sign out" to the rest of the page closes it too; moving within it or clicking its text does not.
    current.fireEvent.click(menuButton);
    const signOut = current.screen.getByRole('button', {name: 'Sign out'});
    current.fireEvent.blur(menuButton, {relatedTarget: signOut});
    current.fireEvent.blur(signOut, {relatedTarget: null});
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    current.fireEvent.blur(signOut, {relatedTarget: document.body});
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    expect(panel).not.toBeVisible();
  });

  it('shows who impersonates the user, and why, on every page', async () => {
    const current = await signIn('/docs/', 'user_impersonated');
    const banner = await current.screen.findByRole('status', {name: 'Impersonation'});
    expect(banner).toHaveTextContent('Imani Customer (imani.customer@acme.test), impersonated by support.lead@acme.test');
    expect(banner).toHaveTextContent('Reason: Reproducing ticket SUP-4821.');
    expect(current.auth().impersonator).toEqual({email: 'support.lead@acme.test', reason: 'Reproducing ticket SUP-4821'});
  });

  it('signs out through the provider logout URL with the session id and a return to the current page', async () => {
    const current = await signIn(DEEP_PAGE, 'user_developer');
    current.fireEvent.click(await current.screen.findByRole('button', {name: /Devon Developer/}));
    const sessionId = [...providerState.sessionsByRefreshToken.values()].at(-1)?.sid;
    current.fireEvent.click(current.screen.getByRole('button', {name: 'Sign out'}));

    const logout = new URL(navigations()[0] as string);
    expect(`${logout.origin}${logout.pathname}`).toBe(`${PROVIDER_ORIGIN}/user_management/sessions/logout`);
    expect(logout.searchParams.get('session_id')).toBe(sessionId);
    expect(logout.searchParams.get('return_to')).toBe(`${SITE_ORIGIN}${DEEP_PAGE}`);
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
  });
});

describe('when sign-in cannot work', () => {
  it('rejects getAccessToken with "No access token available" when nobody is signed in', async () => {
    const current = await open('/docs/');
    await current.screen.findByRole('button', {name: 'Sign in'});
    await expect(current.auth().getAccessToken()).rejects.toThrow('No access token available');
  });

  it('hides sign-in and logs a clear error when the client id is missing, and the page still renders', async () => {
    const current = await open('/docs/', testSettings({clientId: ''}));
    expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
    expect(current.screen.queryByRole('button', {name: 'Sign in'})).toBeNull();
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('Missing Client ID'));
  });

  it('hides every sign-in control when sign-in is disabled', async () => {
    const current = await open('/docs/', testSettings({enabled: false}));
    expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
    expect(current.screen.queryByRole('button', {name: 'Sign in'})).toBeNull();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it.each(['setItem', 'getItem'] as const)(
    'keeps the page working when browser storage throws on %s, and explains why sign-in is unavailable',
    async (method) => {
      jest.spyOn(Storage.prototype, method).mockImplementation(() => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      });
      const current = await open('/docs/');
      expect(current.screen.getByRole('heading', {name: 'API Gateway'})).toBeVisible();
      expect(consoleWarn).toHaveBeenCalledWith(expect.stringContaining('browser storage is unavailable'), expect.anything());

      current.fireEvent.click(current.screen.getByRole('button', {name: 'Sign in'}));
      await current.screen.findByRole('status', {name: 'Sign-in unavailable'});
      expect(navigations()).toEqual([]);
    },
  );
});
