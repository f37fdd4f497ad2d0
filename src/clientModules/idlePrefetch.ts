/**
 * Moves Docusaurus's link prefetching into idle time.
 *
 * Every internal link prefetches its page's chunks when it scrolls into
 * view. On a doc page that is the sidebar, the table of contents and the
 * links in the text, all seen in the first frame after hydration: Docusaurus
 * matches each one against every route and appends its `<link
 * rel="prefetch">` elements in one task, measured at 230 ms of main thread at
 * 4× CPU throttling on the long doc page (bench/README.md, Front-end performance). The same
 * prefetches still happen, a few per idle period, so the page answers input
 * in between. Hover and touch still preload at once (`window.docusaurus.preload`).
 *
 * Installed from `onRouteUpdate`, which Docusaurus calls during the first
 * render (before any link mounts), after it has put its helpers on
 * `window.docusaurus`.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

type DocusaurusHelpers = Window['docusaurus'];

/**
 * How long one slice may prefetch for. An idle period can offer up to 50 ms,
 * but one prefetch takes several ms on a slow phone and input that arrives
 * meanwhile waits for the slice to end.
 */
const SLICE_MS = 8;

interface IdleScheduler {
  request(callback: (timeLeft: () => number) => void): void;
}

function browserScheduler(): IdleScheduler {
  if (typeof window.requestIdleCallback === 'function') {
    return {
      request: (callback) =>
        window.requestIdleCallback((deadline) => {
          const started = performance.now();
          callback(() => Math.min(deadline.timeRemaining(), SLICE_MS - (performance.now() - started)));
        }),
    };
  }
  // Safari has no requestIdleCallback: a macrotask with the same budget.
  return {
    request: (callback) =>
      window.setTimeout(() => {
        const started = performance.now();
        callback(() => SLICE_MS - (performance.now() - started));
      }, 0),
  };
}

/**
 * Wraps `prefetch` so that calls queue and run in idle slices. Returns the
 * helpers to put on `window.docusaurus`. Exported for tests.
 */
export function idlePrefetchHelpers(original: DocusaurusHelpers, scheduler: IdleScheduler = browserScheduler()): DocusaurusHelpers {
  const queued = new Set<string>();
  let scheduled = false;

  const drain = (timeLeft: () => number): void => {
    scheduled = false;
    for (const routePath of queued) {
      if (timeLeft() <= 1) {
        schedule();
        return;
      }
      queued.delete(routePath);
      try {
        const started = original.prefetch(routePath);
        // A chunk that fails to prefetch is fetched again on navigation.
        if (started) {
          started.catch(() => undefined);
        }
      } catch {
        // Prefetching is an optimisation: never let it break the page.
      }
    }
  };

  function schedule(): void {
    if (!scheduled && queued.size > 0) {
      scheduled = true;
      scheduler.request(drain);
    }
  }

  return Object.freeze({
    ...original,
    prefetch: (routePath: string) => {
      queued.add(routePath);
      schedule();
      // Docusaurus's Link ignores the value; the promise says "queued".
      return Promise.resolve([]);
    },
  });
}

let installed = false;

export function onRouteUpdate(): void {
  if (installed || !ExecutionEnvironment.canUseDOM || !window.docusaurus) {
    return;
  }
  installed = true;
  window.docusaurus = idlePrefetchHelpers(window.docusaurus);
}
