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

/**
 * A rejected promise that records whether anything handled its rejection.
 * `catch`, `await` and `then(_, onRejected)` all reach the rejection through
 * `then` with a rejection handler, so this sees whatever the module does with
 * it. (A spy on `process.on('unhandledRejection')` cannot: jest gives each
 * test file its own copy of `process`, which Node never emits on.)
 */
function watchedRejection(error: Error) {
  let handled = false;
  class Watched<T> extends Promise<T> {
    override then<TResult1 = T, TResult2 = never>(
      onFulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | null,
      onRejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
    ): Promise<TResult1 | TResult2> {
      if (onRejected) {
        handled = true;
      }
      return super.then(onFulfilled, onRejected);
    }
  }
  const promise = Watched.reject(error) as Promise<never[]>;
  return {
    promise,
    handled: () => handled,
    /** Handles it for the test's sake once checked, so a failing check does not also leave a real unhandled rejection. */
    settle: () => Promise.prototype.then.call(promise, undefined, () => undefined),
  };
}

function setUp() {
  const idle = manualScheduler();
  // Made on first use: a test that never prefetches '/fails' leaves no rejection behind.
  let failing: ReturnType<typeof watchedRejection> | undefined;
  const failingPrefetch = () => (failing ??= watchedRejection(new Error('offline')));
  const prefetched: string[] = [];
  const original = {
    prefetch: jest.fn((route: string) => {
      prefetched.push(route);
      idle.spend();
      return route === '/fails' ? failingPrefetch().promise : Promise.resolve([]);
    }),
    preload: jest.fn(() => Promise.resolve([])),
  };
  return {idle, prefetched, original, failingPrefetch, helpers: idlePrefetchHelpers(original, idle.scheduler)};
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
    const {idle, prefetched, failingPrefetch, helpers} = setUp();
    void helpers.prefetch('/fails');
    void helpers.prefetch('/after');
    idle.runSlice(10);
    // Handled in the same task it was started in: before Node could report it as unhandled.
    const handled = failingPrefetch().handled();
    await failingPrefetch().settle();
    expect(prefetched).toEqual(['/fails', '/after']);
    expect(handled).toBe(true);
  });

  it('preloads at once, as Docusaurus does on hover and touch', () => {
    const {original, helpers} = setUp();
    void helpers.preload('/x');
    expect(original.preload).toHaveBeenCalledWith('/x');
  });
});
