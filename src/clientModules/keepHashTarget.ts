/**
 * A link to a section (`/docs/page#section`) lands on its heading and stays
 * there while the page settles.
 *
 * The browser scrolls to the heading as soon as it is parsed, but some
 * content above it is only rendered in the browser, after the scripts run:
 * Mermaid diagrams (theme-mermaid renders them client-side, 300 to 600 px
 * each on the service pages). Each one pushed the heading down, and the
 * reader landed in the middle of the previous section. Until the reader
 * scrolls, types or taps, or for at most 10 s after the page loaded, the
 * heading is brought back whenever the page's height changes.
 *
 * Only on a fresh visit with a `#fragment` (not on back/forward or reload,
 * where the browser restores where the reader was), and only for the first
 * page: Docusaurus scrolls itself after client-side navigations.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

/** The page settles well within this; after it, nothing is moved any more. */
export const SETTLE_MS = 10_000;
/** What the reader does that ends the watch: from then on, where the page is is theirs. */
const READER_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/** The element a fragment names (`#id`, percent-encoded or not), or null. */
export function hashTarget(hash: string, doc: Document = document): HTMLElement | null {
  if (hash.length < 2) {
    return null;
  }
  const raw = hash.slice(1);
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    // A malformed escape: look the fragment up as it is written.
  }
  return doc.getElementById(id) ?? doc.getElementById(raw);
}

/** Whether this page load is a fresh visit (a link, the address bar), not back/forward or a reload. */
function isFreshVisit(): boolean {
  // Navigation Timing 2; without it (older engines), any visit counts as fresh.
  const entries = typeof performance.getEntriesByType === 'function' ? performance.getEntriesByType('navigation') : [];
  const [entry] = entries as PerformanceNavigationTiming[];
  return !entry || entry.type === 'navigate';
}

/**
 * Keeps `target` where a fragment link puts it (at its scroll margin below the
 * navbar) whenever the page's height changes, until the reader acts or
 * `settleMs` pass. Returns the function that stops watching.
 */
export function keepInView(target: HTMLElement, {win = window, settleMs = SETTLE_MS} = {}): () => void {
  const doc = win.document;
  let stopped = false;
  const realign = () => {
    const wanted = parseFloat(win.getComputedStyle(target).scrollMarginTop) || 0;
    if (Math.abs(target.getBoundingClientRect().top - wanted) > 1) {
      target.scrollIntoView({block: 'start'});
    }
  };
  const observer = typeof win.ResizeObserver === 'function' ? new win.ResizeObserver(() => stopped || realign()) : null;
  const stop = () => {
    if (stopped) {
      return;
    }
    stopped = true;
    observer?.disconnect();
    win.clearTimeout(timer);
    for (const type of READER_EVENTS) {
      win.removeEventListener(type, stop, true);
    }
  };
  const timer = win.setTimeout(stop, settleMs);
  for (const type of READER_EVENTS) {
    win.addEventListener(type, stop, {capture: true, passive: true});
  }
  // The app's root grows with the content; <body> keeps the window's height (Infima: height 100%).
  observer?.observe(doc.getElementById('__docusaurus') ?? doc.body);
  return stop;
}

if (ExecutionEnvironment.canUseDOM && isFreshVisit()) {
  const target = hashTarget(window.location.hash);
  if (target) {
    keepInView(target);
  }
}
