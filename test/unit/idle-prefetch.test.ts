/**
 * Link prefetching in idle slices (src/clientModules/idlePrefetch.ts): the
 * same prefetches happen, once per route, a slice at a time, and a failing
 * prefetch never reaches the page; preloading on hover is untouched.
 */
import {idlePrefetchHelpers} from '../../src/clientModules/idlePrefetch';

type Callback = (timeLeft: () => number) => void;

/** An idle scheduler the test drives: each slice has `budget` ticks; each prefetch uses one. */
function manualScheduler() {
  const pending: Callback[] = [];
  let ticksLeft = 0;
  return {
    scheduler: {request: (callback: Callback) => pending.push(callback)},
    pendingSlices: () => pending.length,
    runSlice(budget: number) {
      const callback = pending.shift();
      ticksLeft = budget;
      callback?.(() => ticksLeft);
    },
    spend() {
      ticksLeft -= 1;
    },
  };
}

function setUp() {
  const idle = manualScheduler();
  const prefetched: string[] = [];
  const original = {
    prefetch: jest.fn((route: string) => {
      prefetched.push(route);
      idle.spend();
      return route === '/fails' ? Promise.reject(new Error('offline')) : Promise.resolve([]);
    }),
    preload: jest.fn(() => Promise.resolve([])),
  };
  return {idle, prefetched, original, helpers: idlePrefetchHelpers(original, idle.scheduler)};
}

describe('idle prefetching', () => {
  it('prefetches nothing during the call, then each route once, in idle slices', () => {
    const {idle, prefetched, helpers} = setUp();
    for (const route of ['/a', '/b', '/a', '/c', '/d']) {
      void helpers.prefetch(route);
    }
    expect(prefetched).toEqual([]);
    expect(idle.pendingSlices()).toBe(1);
    // Room for two per slice: none starts with 1 tick or less left.
    idle.runSlice(3);
    expect(prefetched).toEqual(['/a', '/b']);
    expect(idle.pendingSlices()).toBe(1);
    idle.runSlice(3);
    expect(prefetched).toEqual(['/a', '/b', '/c', '/d']);
    expect(idle.pendingSlices()).toBe(0);
  });

  it('keeps a failed prefetch away from the page and carries on', async () => {
    const {idle, prefetched, helpers} = setUp();
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    void helpers.prefetch('/fails');
    void helpers.prefetch('/after');
    idle.runSlice(10);
    await new Promise((resolve) => setTimeout(resolve, 0));
    process.off('unhandledRejection', unhandled);
    expect(prefetched).toEqual(['/fails', '/after']);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('preloads at once, as Docusaurus does on hover and touch', () => {
    const {original, helpers} = setUp();
    void helpers.preload('/x');
    expect(original.preload).toHaveBeenCalledWith('/x');
  });
});
