/**
 * The browser's side of the gate server: when it talks to the gate, what it
 * sends, and how it reads the answers.
 */
import {
  clearMembersReloadMark,
  endGateSession,
  gatePresent,
  reloadedForMembersRecently,
  reloadForMembersOnce,
  syncGateSession,
} from '../../src/auth/access/gateSession';
import {navigations} from '../support/navigations';

const TOKEN = 'header.payload.signature';

function answer(status: number, body: unknown = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {status, headers: {'Content-Type': 'application/json'}});
}

let fetchSpy: jest.SpiedFunction<typeof fetch>;

beforeEach(() => {
  fetchSpy = jest.spyOn(globalThis, 'fetch');
});

afterEach(() => {
  fetchSpy.mockRestore();
  document.cookie = 'portal_gate=; Max-Age=0; Path=/';
});

describe('gate session (browser side)', () => {
  it('sends no token where no gate serves the site (a static host)', async () => {
    await expect(syncGateSession(TOKEN, '/')).resolves.toBe('no-gate');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('recognises the gate by its marker under either name, even behind a tossed portal_gate=0', async () => {
    fetchSpy.mockResolvedValue(answer(200, {hadSession: true}));
    expect(gatePresent('portal_gate=0; __Host-portal_gate=1')).toBe(true);
    expect(gatePresent('portal_gate=0; portal_gate=1')).toBe(true);
    expect(gatePresent('other=1; __Host-portal_gate=1')).toBe(true);
    expect(gatePresent('portal_gate=0')).toBe(false);
    expect(gatePresent('xportal_gate=1; portal_gate_x=1')).toBe(false);
  });

  it.each([404, 405])(
    'asks the gate to end its session on sign-out without looking at any cookie; a static host answering %i is harmless and silent',
    async (status) => {
      const consoleSpies = (['error', 'warn', 'log'] as const).map((level) =>
        jest.spyOn(console, level).mockImplementation(() => undefined),
      );
      try {
        // No marker at all, as on a static host, or after a sibling subdomain tossed portal_gate=0.
        document.cookie = 'portal_gate=0; Path=/';
        fetchSpy.mockResolvedValue(new Response('Not Found', {status}));
        await expect(endGateSession('/portal/')).resolves.toBeUndefined();
        const [url, init] = fetchSpy.mock.calls[0] as [string, RequestInit];
        expect(url).toBe('/portal/_portal/session');
        expect(init).toMatchObject({method: 'DELETE', credentials: 'same-origin'});
        consoleSpies.forEach((spy) => expect(spy).not.toHaveBeenCalled());
      } finally {
        consoleSpies.forEach((spy) => spy.mockRestore());
      }
    },
  );

  it('posts the token in a JSON body, never in the URL or a header, to the site under its baseUrl', async () => {
    document.cookie = 'portal_gate=1; Path=/';
    fetchSpy.mockResolvedValue(answer(200, {hadSession: false}));
    await expect(syncGateSession(TOKEN, '/portal/')).resolves.toBe('started');
    const [url, init] = fetchSpy.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/portal/_portal/session');
    expect(url).not.toContain(TOKEN);
    expect(init).toMatchObject({method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/json'}});
    expect(JSON.parse(String(init.body))).toEqual({accessToken: TOKEN});
    expect(JSON.stringify(init.headers)).not.toContain(TOKEN);
  });

  it.each([
    [answer(200, {hadSession: true}), 'renewed'],
    [answer(200, {hadSession: true, changed: true}), 'changed'],
    [answer(401, {error: 'invalid'}), 'refused'],
    [answer(403), 'blocked'],
    [answer(502), 'failed'],
    [new Response('<html>proxy error</html>', {status: 200}), 'failed'],
  ])('reads the answer %# as %s', async (response, expected) => {
    document.cookie = 'portal_gate=1; Path=/';
    fetchSpy.mockResolvedValue(response);
    await expect(syncGateSession(TOKEN, '/')).resolves.toBe(expected);
  });

  it('reports a network failure instead of throwing', async () => {
    document.cookie = 'portal_gate=1; Path=/';
    fetchSpy.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(syncGateSession(TOKEN, '/')).resolves.toBe('failed');
  });

  it('ends the session with a DELETE that survives leaving the page, and never rejects', async () => {
    document.cookie = 'portal_gate=1; Path=/';
    fetchSpy.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(endGateSession('/')).resolves.toBeUndefined();
    const [url, init] = fetchSpy.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/_portal/session');
    expect(init).toMatchObject({method: 'DELETE', keepalive: true});
  });
});

describe("loading a page again for the gate's members' answer", () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/docs/deployment/guide?tab=aws#rollback');
  });
  afterEach(() => {
    jest.useRealTimers();
    window.sessionStorage.clear();
    navigations().length = 0;
  });

  it('reloads an address once in 30 s, so a gate that keeps answering with the public page never loops', () => {
    jest.useFakeTimers({now: Date.parse('2026-11-23T08:00:00Z')});
    expect(reloadForMembersOnce()).toBe(true);
    expect(navigations()).toEqual(['reload http://localhost/docs/deployment/guide?tab=aws#rollback']);
    expect(reloadedForMembersRecently()).toBe(true);
    expect(reloadForMembersOnce()).toBe(false);
    expect(navigations()).toHaveLength(1);
    // Another address is another page.
    expect(reloadForMembersOnce('/docs/other')).toBe(true);
    // And after 30 s the first may be tried again.
    jest.setSystemTime(Date.parse('2026-11-23T08:00:31Z'));
    expect(reloadForMembersOnce()).toBe(true);
  });

  it('may reload again once a page came from the members build (a sign-out and a new sign-in soon after)', () => {
    expect(reloadForMembersOnce()).toBe(true);
    clearMembersReloadMark();
    expect(reloadForMembersOnce()).toBe(true);
    expect(navigations()).toHaveLength(2);
  });

  it('never reloads when storage throws (no loop guard), and says it did not', () => {
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'QuotaExceededError');
    });
    try {
      expect(reloadForMembersOnce()).toBe(false);
      expect(navigations()).toEqual([]);
    } finally {
      setItem.mockRestore();
    }
  });
});
