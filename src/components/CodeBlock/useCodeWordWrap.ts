/**
 * A code block's word wrap: what theme-common's `useCodeWordWrap` gives the
 * block (its `<pre>` ref, whether lines wrap, whether the code is wider than
 * the block, the toggle), with the width measured by a ResizeObserver.
 *
 * The stock hook reads every block's `scrollWidth` in effects right after
 * hydration, which makes the browser lay out the whole page there and then,
 * and sets state two or three times per block at default priority: on a
 * phone, one synchronous re-render of every block of a long page, inside the
 * first long task after hydration. A ResizeObserver reports right after the
 * browser's own layout, so reading the widths there costs no extra layout;
 * the block re-renders only when the answer changes, and as a transition.
 *
 * It also follows what the stock hook only partly does: the block changing
 * width without the window resizing (the docs sidebar collapsed, a hidden
 * tab shown) and the code changing width (fonts loading).
 */
import {startTransition, useCallback, useState, type ComponentProps} from 'react';
import type {CodeBlockContextProvider} from '@docusaurus/theme-common/internal';

export type WordWrap = ComponentProps<typeof CodeBlockContextProvider>['wordWrap'];

/** One observer for every block on the page; each observed element maps to its block's measure. */
const measures = new WeakMap<Element, () => void>();
let sharedObserver: ResizeObserver | null = null;

function observer(): ResizeObserver | null {
  if (typeof ResizeObserver === 'undefined') {
    return null;
  }
  sharedObserver ??= new ResizeObserver((entries) => {
    const blocks = new Set(entries.map((entry) => measures.get(entry.target)));
    for (const measure of blocks) {
      measure?.();
    }
  });
  return sharedObserver;
}

/** The `<pre>` and its `<code>`: the code grows with its longest line while the `<pre>` keeps the block's width. */
function observedElements(pre: HTMLPreElement): Element[] {
  const code = pre.querySelector('code');
  return code ? [pre, code] : [pre];
}

/** Whether the reader can use the wrap button: the code overflows, or it is wrapped now (so it can be unwrapped). */
function canWrap(pre: HTMLPreElement): boolean {
  return pre.scrollWidth > pre.clientWidth || Boolean(pre.querySelector('code')?.hasAttribute('style'));
}

/**
 * Points a block's word-wrap ref at a `<pre>` React did not render itself (the
 * server's HTML, kept as it is when the page hydrates), or at nothing, so the
 * block is measured, and stops being measured, as when React sets the ref.
 */
export function attachCodeBlock(ref: WordWrap['codeBlockRef'], pre: HTMLPreElement | null): void {
  if (typeof ref === 'function') {
    (ref as (pre: HTMLPreElement | null) => void)(pre);
  } else {
    ref.current = pre;
  }
}

export function useCodeWordWrap(): WordWrap {
  const [isEnabled, setIsEnabled] = useState(false);
  const [isCodeScrollable, setIsCodeScrollable] = useState(false);

  // A ref object (the context's type, read by the theme's buttons) that is also
  // a callback ref, so the block starts and stops being observed with its `<pre>`.
  const [codeBlockRef] = useState(() => {
    let observed: Element[] = [];
    let lastAnswer = false;
    const measure = () => {
      const pre = ref.current;
      // A block in a hidden tab has no box to measure: it keeps its answer until shown.
      if (!pre || pre.getClientRects().length === 0) {
        return;
      }
      const answer = canWrap(pre);
      if (answer !== lastAnswer) {
        lastAnswer = answer;
        startTransition(() => setIsCodeScrollable(answer));
      }
    };
    const ref = Object.assign(
      (pre: HTMLPreElement | null) => {
        for (const element of observed) {
          observer()?.unobserve(element);
          measures.delete(element);
        }
        ref.current = pre;
        observed = pre ? observedElements(pre) : [];
        for (const element of observed) {
          measures.set(element, measure);
          observer()?.observe(element);
        }
      },
      {current: null as HTMLPreElement | null},
    );
    return ref;
  });

  const toggle = useCallback(() => {
    const code = codeBlockRef.current?.querySelector('code');
    if (!code) {
      return;
    }
    if (isEnabled) {
      code.removeAttribute('style');
    } else {
      code.style.whiteSpace = 'pre-wrap';
      // Wrap even a single token longer than the line (a URL, a hash).
      code.style.overflowWrap = 'anywhere';
    }
    setIsEnabled((enabled) => !enabled);
  }, [codeBlockRef, isEnabled]);

  return {codeBlockRef, isEnabled, isCodeScrollable, toggle};
}
