/**
 * The sign-in layer's own pieces (src/auth/signIn/), each alone: the notice
 * rules, the callback snapshot, the provider time-out, sign-out across tabs
 * and the gate session sync. test/integration/sign-in.test.ts runs them
 * together with the real SDK.
 */
import {act, renderHook, waitFor} from '@testing-library/react';
import {snapshotCallback, withoutCallbackParams} from '../../src/auth/signIn/callback';
import {NO_NOTICES, noticesReducer, type NoticeAction, type SessionNotices} from '../../src/auth/signIn/notices';
import {useCrossTabSignOut} from '../../src/auth/signIn/useCrossTabSignOut';
import {useGateSessionFollowsProvider} from '../../src/auth/signIn/useGateSessionFollowsProvider';
import {GATE_RETRY_DELAYS_MS, useGateSessionSync} from '../../src/auth/signIn/useGateSessionSync';
import {gateSessionStore, recordGateSync} from '../../src/auth/access/gateSession';
import {useProviderTimeout} from '../../src/auth/signIn/useProviderTimeout';
import {navigations} from '../support/navigations';

const reduce = (actions: NoticeAction[], from: SessionNotices = NO_NOTICES) => actions.reduce(noticesReducer, from);

describe('notices', () => {
  it('keeps the first reason a session ended on screen, and clears it when a refresh brings the session back', () => {
    const ended = reduce([
      {type: 'session-ended', why: 'signed-out-elsewhere'},
      {type: 'session-ended', why: 'session-expired'},
    ]);
    expect(ended).toMatchObject({sessionEnded: true, notice: {kind: 'signed-out-elsewhere'}});
    expect(reduce([{type: 'session-refreshed'}], ended)).toMatchObject({sessionEnded: false, notice: null});
  });

  it('lets a refresh leave notices about other things on screen', () => {
    expect(reduce([{type: 'show', notice: {kind: 'forged-callback'}}, {type: 'session-refreshed'}]).notice).toEqual({
      kind: 'forged-callback',
    });
  });

  it('says the provider is late only when no other notice says more, and takes only that notice away when it answers', () => {
    expect(reduce([{type: 'provider-late'}]).notice).toEqual({kind: 'provider-timeout'});
    expect(reduce([{type: 'provider-late'}, {type: 'provider-answered'}]).notice).toBeNull();
    const denied = reduce([{type: 'show', notice: {kind: 'sign-in-denied'}}, {type: 'provider-late'}, {type: 'provider-answered'}]);
    expect(denied.notice).toEqual({kind: 'sign-in-denied'});
  });

  it('reports an outage once: dismissed, it stays dismissed until the provider has answered again', () => {
    const dismissed = reduce([{type: 'provider-unreachable'}, {type: 'dismiss'}, {type: 'provider-unreachable'}]);
    expect(dismissed.notice).toBeNull();
    expect(reduce([{type: 'provider-reachable'}, {type: 'provider-unreachable'}], dismissed).notice).toEqual({
      kind: 'provider-unreachable',
    });
  });
});

describe('callback snapshot', () => {
  const at = (url: string) => {
    window.history.replaceState(null, '', url);
    return window.location;
  };
  afterEach(() => sessionStorage.clear());

  it('reads an error callback with its state, keeping only a same-origin returnTo', () => {
    sessionStorage.setItem('workos:code-verifier', 'verifier');
    const state = (returnTo: string) => encodeURIComponent(JSON.stringify({returnTo}));
    expect(snapshotCallback(at(`/?error=access_denied&error_description=No&state=${state('/docs/x?y=1#z')}`), 'http://localhost/')).toEqual(
      {
        hadVerifier: true,
        error: 'access_denied',
        errorDescription: 'No',
        returnTo: '/docs/x?y=1#z',
      },
    );
    for (const hostile of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      expect(snapshotCallback(at(`/?error=access_denied&state=${state(hostile)}`), 'http://localhost/')?.returnTo).toBeNull();
    }
    expect(snapshotCallback(at('/?code=c&state=not-json{'), 'http://localhost/')).toMatchObject({error: null, returnTo: null});
  });

  it('is no callback off the redirect path or without a code or error', () => {
    expect(snapshotCallback(at('/docs/?code=c'), 'http://localhost/')).toBeNull();
    expect(snapshotCallback(at('/?tab=linux'), 'http://localhost/')).toBeNull();
  });

  it("takes only the callback's parameters out of the address", () => {
    expect(withoutCallbackParams(at('/docs/?tab=linux&code=c&state=s&error=e&error_description=d&error_uri=u#top'))).toBe(
      '/docs/?tab=linux#top',
    );
  });
});

describe('provider time-out', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('says the provider is late after the time-out, and that it answered when it does', () => {
    const dispatch = jest.fn();
    const {result, rerender} = renderHook(({isLoading}) => useProviderTimeout(isLoading, 100, dispatch), {initialProps: {isLoading: true}});
    act(() => jest.advanceTimersByTime(99));
    expect(result.current).toBe(false);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current).toBe(true);
    expect(dispatch).toHaveBeenLastCalledWith({type: 'provider-late'});
    rerender({isLoading: false});
    expect(result.current).toBe(false);
    expect(dispatch).toHaveBeenLastCalledWith({type: 'provider-answered'});
  });

  it('stays quiet when the answer comes in time', () => {
    const dispatch = jest.fn();
    const {rerender} = renderHook(({isLoading}) => useProviderTimeout(isLoading, 100, dispatch), {initialProps: {isLoading: true}});
    rerender({isLoading: false});
    act(() => jest.advanceTimersByTime(1000));
    expect(dispatch).not.toHaveBeenCalledWith({type: 'provider-late'});
  });
});

describe('sign-out across tabs', () => {
  it('ends the session in the other signed-in tabs, never in the one that signed out', async () => {
    const here = jest.fn();
    const elsewhere = jest.fn();
    const thisTab = renderHook(() => useCrossTabSignOut(true, here));
    const otherTab = renderHook(() => useCrossTabSignOut(true, elsewhere));
    const signedOutTab = jest.fn();
    const notSignedIn = renderHook(() => useCrossTabSignOut(false, signedOutTab));

    act(() => thisTab.result.current());
    await waitFor(() => expect(elsewhere).toHaveBeenCalledTimes(1));
    expect(here).not.toHaveBeenCalled();
    expect(signedOutTab).not.toHaveBeenCalled();
    [thisTab, otherTab, notSignedIn].forEach((tab) => tab.unmount());
  });
});

describe('gate session sync', () => {
  let fetchSpy: jest.SpiedFunction<typeof fetch>;
  const answer = (body: unknown) => new Response(JSON.stringify(body), {status: 200, headers: {'Content-Type': 'application/json'}});

  beforeEach(() => {
    fetchSpy = jest.spyOn(globalThis, 'fetch');
    navigations().length = 0;
    sessionStorage.clear();
    window.history.replaceState(null, '', '/docs/private/');
  });
  afterEach(() => {
    fetchSpy.mockRestore();
    document.cookie = 'portal_gate=; Max-Age=0; Path=/';
    recordGateSync('no-gate');
  });

  it('loads a public page again once the gate has started a session, so the gate serves the members version', async () => {
    document.cookie = 'portal_gate=1; Path=/';
    fetchSpy.mockResolvedValue(answer({hadSession: false}));
    const {result} = renderHook(() => useGateSessionSync({audience: 'public', baseUrl: '/'}));
    act(() => result.current.syncToken('header.payload.signature'));
    await waitFor(() => expect(navigations()).toEqual(['reload http://localhost/docs/private/']));
    expect(fetchSpy).toHaveBeenCalledWith(
      '/_portal/session',
      expect.objectContaining({method: 'POST', body: JSON.stringify({accessToken: 'header.payload.signature'})}),
    );
  });

  describe('while the gate cannot check the token (fake timers for its waits)', () => {
    const ALL_RETRY_WAITS_MS = GATE_RETRY_DELAYS_MS.reduce((sum, wait) => sum + wait, 0);
    beforeEach(() => {
      jest.useFakeTimers();
      document.cookie = 'portal_gate=1; Path=/';
    });
    afterEach(() => jest.useRealTimers());

    it('asks the gate again while it cannot check the token (starting, unreachable), then opens the members version', async () => {
      fetchSpy
        .mockResolvedValueOnce(new Response('{"reason":"keys"}', {status: 503}))
        .mockRejectedValueOnce(new TypeError('Failed to fetch'))
        .mockResolvedValue(answer({hadSession: false}));
      const {result} = renderHook(() => useGateSessionSync({audience: 'public', baseUrl: '/'}));
      act(() => result.current.syncToken('header.payload.signature'));
      await act(async () => undefined);
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      expect(gateSessionStore.getSnapshot()).toBe('unavailable');
      await act(async () => jest.advanceTimersByTimeAsync(GATE_RETRY_DELAYS_MS[0] as number));
      expect(fetchSpy).toHaveBeenCalledTimes(2);
      expect(navigations()).toEqual([]);
      await act(async () => jest.advanceTimersByTimeAsync(GATE_RETRY_DELAYS_MS[1] as number));
      expect(fetchSpy).toHaveBeenCalledTimes(3);
      expect(gateSessionStore.getSnapshot()).toBe('active');
      expect(navigations()).toEqual(['reload http://localhost/docs/private/']);
    });

    it('stops asking with an older token once a newer one came, and gives up after the last wait', async () => {
      fetchSpy.mockResolvedValue(new Response(null, {status: 503}));
      const {result, unmount} = renderHook(() => useGateSessionSync({audience: 'public', baseUrl: '/'}));
      act(() => result.current.syncToken('old.token.value'));
      await act(async () => undefined);
      act(() => result.current.syncToken('new.token.value'));
      await act(async () => jest.advanceTimersByTimeAsync(ALL_RETRY_WAITS_MS * 2));
      const bodies = fetchSpy.mock.calls.map(([, init]) => String(init?.body));
      expect(bodies.filter((body) => body.includes('old.token.value'))).toHaveLength(1);
      // The first ask and one after each wait, then no more.
      expect(bodies.filter((body) => body.includes('new.token.value'))).toHaveLength(GATE_RETRY_DELAYS_MS.length + 1);
      unmount();
    });

    it('never hands the gate a token again after the session ended, even with a retry pending', async () => {
      fetchSpy.mockResolvedValueOnce(new Response(null, {status: 503})).mockResolvedValue(new Response(null, {status: 204}));
      const {result} = renderHook(() => useGateSessionSync({audience: 'public', baseUrl: '/'}));
      act(() => result.current.syncToken('header.payload.signature'));
      await act(async () => undefined);
      act(() => result.current.endSessionThen(() => undefined));
      await act(async () => jest.advanceTimersByTimeAsync(ALL_RETRY_WAITS_MS));
      expect(fetchSpy.mock.calls.map(([, init]) => init?.method)).toEqual(['POST', 'DELETE']);
    });

    it('treats a gate that does not answer within 10 s as unavailable, and asks again', async () => {
      fetchSpy.mockImplementation(
        (_url, init) =>
          new Promise<Response>((_resolve, reject) =>
            init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      );
      const {result, unmount} = renderHook(() => useGateSessionSync({audience: 'public', baseUrl: '/'}));
      act(() => result.current.syncToken('header.payload.signature'));
      await act(async () => jest.advanceTimersByTimeAsync(10_000));
      expect(gateSessionStore.getSnapshot()).toBe('unavailable');
      await act(async () => jest.advanceTimersByTimeAsync(GATE_RETRY_DELAYS_MS[0] as number));
      expect(fetchSpy).toHaveBeenCalledTimes(2);
      unmount();
    });
  });

  it('sends the deletion again when a request already on its way set a cookie after the session ended', async () => {
    document.cookie = 'portal_gate=1; Path=/';
    let answerPost: (response: Response) => void = () => undefined;
    fetchSpy.mockImplementation(async (_url, init) =>
      init?.method === 'POST' ? new Promise<Response>((resolve) => (answerPost = resolve)) : new Response(null, {status: 204}),
    );
    const {result} = renderHook(() => useGateSessionSync({audience: 'public', baseUrl: '/'}));
    act(() => result.current.syncToken('header.payload.signature'));
    act(() => result.current.endSessionThen(() => undefined));
    await waitFor(() => expect(fetchSpy.mock.calls.map(([, init]) => init?.method)).toEqual(['POST', 'DELETE']));
    answerPost(answer({hadSession: false}));
    await waitFor(() => expect(fetchSpy.mock.calls.map(([, init]) => init?.method)).toEqual(['POST', 'DELETE', 'DELETE']));
    expect(navigations()).toEqual([]);
  });

  it('keeps a members page when the gate started a session for it', async () => {
    document.cookie = 'portal_gate=1; Path=/';
    fetchSpy.mockResolvedValue(answer({hadSession: false}));
    const {result} = renderHook(() => useGateSessionSync({audience: 'members', baseUrl: '/'}));
    act(() => result.current.syncToken('header.payload.signature'));
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    await act(async () => undefined);
    expect(navigations()).toEqual([]);
  });

  it('ends the provider session at once where the site has no gate, and after the gate answered where it has one', async () => {
    const next = jest.fn();
    renderHook(() => useGateSessionSync(undefined)).result.current.endSessionThen(next);
    expect(next).toHaveBeenCalledTimes(1);

    let answerDelete: (response: Response) => void = () => undefined;
    fetchSpy.mockImplementation(() => new Promise((resolve) => (answerDelete = resolve)));
    const later = jest.fn();
    renderHook(() => useGateSessionSync({audience: 'members', baseUrl: '/'})).result.current.endSessionThen(later);
    expect(fetchSpy).toHaveBeenCalledWith('/_portal/session', expect.objectContaining({method: 'DELETE'}));
    expect(later).not.toHaveBeenCalled();
    answerDelete(new Response(null, {status: 204}));
    await waitFor(() => expect(later).toHaveBeenCalledTimes(1));
  });
});

describe('the gate session follows the provider’s', () => {
  const settings = {devMode: true, clientId: 'client_test'};
  const base = {settled: true, signedIn: false, sessionEnded: false, fromMembersBuild: true, settings};
  beforeEach(() => {
    document.cookie = 'portal_gate=1; Path=/';
  });
  afterEach(() => {
    localStorage.clear();
    document.cookie = 'portal_gate=; Max-Age=0; Path=/';
  });

  function follow(props: Partial<typeof base> = {}) {
    const dispatch = jest.fn<void, [NoticeAction]>();
    const endGateSessionThen = jest.fn<void, [() => void]>();
    const hook = renderHook(
      (overrides: Partial<typeof base>) => useGateSessionFollowsProvider({...base, ...props, ...overrides, dispatch, endGateSessionThen}),
      {initialProps: {}},
    );
    return {dispatch, endGateSessionThen, ...hook};
  }

  it('ends the session when a members page loads and the provider refused the refresh (no stored session left)', () => {
    const {dispatch, endGateSessionThen, rerender} = follow();
    expect(dispatch).toHaveBeenCalledWith({type: 'session-ended', why: 'session-expired'});
    // The notices reducer now reports the session as ended: the gate's cookie goes.
    rerender({sessionEnded: true});
    expect(endGateSessionThen).toHaveBeenCalledTimes(1);
  });

  it('keeps the session while the provider is only unreachable (the SDK keeps its stored session), for a signed-in reader, on a public page, before the provider answered, and on the dev server', () => {
    localStorage.setItem('workos:refresh-token:client_test', 'stored');
    expect(follow().dispatch).not.toHaveBeenCalled();
    localStorage.clear();
    for (const props of [{signedIn: true}, {fromMembersBuild: false}, {settled: false}]) {
      const {dispatch, endGateSessionThen} = follow(props);
      expect([props, dispatch.mock.calls.length, endGateSessionThen.mock.calls.length]).toEqual([props, 0, 0]);
    }
    // The dev server's members pages (no gate, so no marker cookie) hold no one's session.
    document.cookie = 'portal_gate=; Max-Age=0; Path=/';
    const devServer = follow();
    expect([devServer.dispatch.mock.calls.length, devServer.endGateSessionThen.mock.calls.length]).toEqual([0, 0]);
  });

  it('ends the gate’s session when the provider refuses a refresh later, or the reader signed out in another tab', () => {
    const {endGateSessionThen, rerender} = follow({signedIn: true});
    expect(endGateSessionThen).not.toHaveBeenCalled();
    rerender({signedIn: false, sessionEnded: true});
    expect(endGateSessionThen).toHaveBeenCalledTimes(1);
  });
});
