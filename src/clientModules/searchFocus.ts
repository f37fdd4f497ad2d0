/**
 * Keeps keyboard focus where the reader put it while the search index loads.
 *
 * The search plugin (@easyops-cn/docusaurus-search-local) starts loading its
 * index when the navbar's search box gets focus, and focuses the box again
 * once the index has loaded, even if the reader has moved on meanwhile: a
 * keyboard user who tabs through the search box to "Sign in" is pulled back
 * into it a moment later. Here, focus that comes to the search box with no key
 * or pointer press since the reader moved on from it to another control,
 * within the few seconds an index takes to load, is handed back to where they
 * went, once. Ctrl+K, a click or a tap still focus it as before, and so does
 * anything after that window (a screen reader moving focus there without a
 * key press, say).
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

/** The plugin's search box in the navbar. */
const SEARCH_INPUT = '.navbar__search-input';

/** Well past the time the index takes to load (about 400 KB gzip) on a slow connection. */
export const INDEX_LOAD_WINDOW_MS = 10_000;

const isSearchInput = (target: EventTarget | null): target is HTMLInputElement =>
  target instanceof HTMLInputElement && target.matches(SEARCH_INPUT);

/** Installs the guard on `doc`; returns the function that removes it. */
export function guardSearchFocus(doc: Document = document, now: () => number = () => performance.now()): () => void {
  // Counters, not clocks: a press and a focus change can share a timestamp.
  let step = 0;
  let lastPress = -1;
  let left: {at: number; time: number; to: HTMLElement} | null = null;
  // The box losing focus because this guard moved it is not the reader leaving.
  let handingBack = false;

  const onPress = () => {
    lastPress = step += 1;
  };
  const onFocusOut = (event: FocusEvent) => {
    if (handingBack) {
      handingBack = false;
    } else if (isSearchInput(event.target) && event.relatedTarget instanceof HTMLElement) {
      // The reader moved on to another control. (A focus loss to nowhere is
      // also what moving the box in the page does: the plugin's suggestions
      // wrap it once the index has loaded, and it then focuses the box again.)
      left = {at: (step += 1), time: now(), to: event.relatedTarget};
    }
  };
  const onFocusIn = (event: FocusEvent) => {
    if (!isSearchInput(event.target) || left === null || lastPress > left.at || now() - left.time > INDEX_LOAD_WINDOW_MS) {
      return;
    }
    // Focus the reader did not ask for: back to where they went, if it is still there.
    const destination = left.to;
    left = null;
    if (destination.isConnected) {
      // Focus events fire during focus(): the flag covers exactly that call.
      handingBack = true;
      destination.focus();
      handingBack = false;
    }
  };
  doc.addEventListener('keydown', onPress, true);
  doc.addEventListener('pointerdown', onPress, true);
  doc.addEventListener('focusout', onFocusOut, true);
  doc.addEventListener('focusin', onFocusIn, true);
  return () => {
    doc.removeEventListener('keydown', onPress, true);
    doc.removeEventListener('pointerdown', onPress, true);
    doc.removeEventListener('focusout', onFocusOut, true);
    doc.removeEventListener('focusin', onFocusIn, true);
  };
}

if (ExecutionEnvironment.canUseDOM) {
  guardSearchFocus();
}
