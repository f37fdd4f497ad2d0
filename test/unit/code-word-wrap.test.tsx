/**
 * A code block's word wrap (src/components/CodeBlock/useCodeWordWrap.ts): the
 * wrap button is offered exactly when the code is wider than its block (or is
 * wrapped, so it can be unwrapped), as measured by the page's ResizeObserver;
 * the toggle wraps and unwraps; hidden blocks keep their answer; a block that
 * goes away stops being observed; without ResizeObserver nothing breaks.
 */
import {act, fireEvent, render, screen} from '@testing-library/react';
import type {ReactNode} from 'react';
import * as hook from '../../src/components/CodeBlock/useCodeWordWrap';

type Hook = typeof hook;

/** The page's ResizeObserver, driven by the test: `report` is what the browser does after a layout. */
class FakeResizeObserver {
  static instances: FakeResizeObserver[] = [];
  readonly observed = new Set<Element>();
  constructor(private readonly callback: ResizeObserverCallback) {
    FakeResizeObserver.instances.push(this);
  }
  observe(target: Element) {
    this.observed.add(target);
  }
  unobserve(target: Element) {
    this.observed.delete(target);
  }
  disconnect() {
    this.observed.clear();
  }
  report(targets: Element[]) {
    const entries = targets.filter((target) => this.observed.has(target)).map((target) => ({target}) as ResizeObserverEntry);
    if (entries.length > 0) {
      this.callback(entries, this as unknown as ResizeObserver);
    }
  }
}

/** jsdom does no layout: give an element the box sizes a browser would. */
function setBox(element: Element, {scrollWidth, clientWidth, shown = true}: {scrollWidth: number; clientWidth: number; shown?: boolean}) {
  Object.defineProperty(element, 'scrollWidth', {value: scrollWidth, configurable: true});
  Object.defineProperty(element, 'clientWidth', {value: clientWidth, configurable: true});
  Object.defineProperty(element, 'getClientRects', {value: () => (shown ? [{}] : []), configurable: true});
}

/** A block as the theme renders it: the `<pre>` carries the ref, the button shows when the context says so. */
function blockComponent({useCodeWordWrap}: Hook) {
  return function Block(): ReactNode {
    const wordWrap = useCodeWordWrap();
    return (
      <div>
        <pre ref={wordWrap.codeBlockRef} data-testid="pre">
          <code data-testid="code">const veryLongLine = 1;</code>
        </pre>
        {(wordWrap.isEnabled || wordWrap.isCodeScrollable) && <button onClick={wordWrap.toggle}>Toggle word wrap</button>}
      </div>
    );
  };
}

const wrapButton = () => screen.queryByRole('button', {name: 'Toggle word wrap'});
const observer = () => {
  const instance = FakeResizeObserver.instances[0];
  if (!instance) {
    throw new Error('no ResizeObserver was created');
  }
  return instance;
};

describe('code block word wrap', () => {
  // The hook creates the page's one observer when the first block mounts.
  beforeAll(() => {
    Object.defineProperty(globalThis, 'ResizeObserver', {value: FakeResizeObserver, configurable: true, writable: true});
  });
  afterAll(() => {
    Reflect.deleteProperty(globalThis, 'ResizeObserver');
  });

  it('offers the button once the browser reports the code wider than its block, and not before', () => {
    const Block = blockComponent(hook);
    render(<Block />);
    const pre = screen.getByTestId('pre');
    expect(observer().observed).toEqual(new Set([pre, screen.getByTestId('code')]));
    expect(wrapButton()).toBeNull();

    setBox(pre, {scrollWidth: 900, clientWidth: 380});
    act(() => observer().report([pre]));
    expect(wrapButton()).toBeInTheDocument();
  });

  it('follows the block getting wider or narrower without a window resize', () => {
    const Block = blockComponent(hook);
    render(<Block />);
    const pre = screen.getByTestId('pre');
    const code = screen.getByTestId('code');

    setBox(pre, {scrollWidth: 700, clientWidth: 700});
    act(() => observer().report([pre, code]));
    expect(wrapButton()).toBeNull();

    // The docs sidebar expanded: the same code no longer fits.
    setBox(pre, {scrollWidth: 700, clientWidth: 500});
    act(() => observer().report([pre]));
    expect(wrapButton()).toBeInTheDocument();

    // Collapsed again.
    setBox(pre, {scrollWidth: 700, clientWidth: 900});
    act(() => observer().report([pre]));
    expect(wrapButton()).toBeNull();
  });

  it('wraps and unwraps, keeping the button while the lines are wrapped', () => {
    const Block = blockComponent(hook);
    render(<Block />);
    const pre = screen.getByTestId('pre');
    const code = screen.getByTestId('code');
    setBox(pre, {scrollWidth: 900, clientWidth: 380});
    act(() => observer().report([pre]));

    fireEvent.click(wrapButton()!);
    expect(code).toHaveStyle({whiteSpace: 'pre-wrap', overflowWrap: 'anywhere'});
    // Wrapped, the code fits: the button stays so the reader can unwrap.
    setBox(pre, {scrollWidth: 380, clientWidth: 380});
    act(() => observer().report([pre, code]));
    expect(wrapButton()).toBeInTheDocument();

    fireEvent.click(wrapButton()!);
    expect(code).not.toHaveAttribute('style');
    expect(wrapButton()).toBeInTheDocument();
    setBox(pre, {scrollWidth: 900, clientWidth: 380});
    act(() => observer().report([pre, code]));
    expect(wrapButton()).toBeInTheDocument();
  });

  it('keeps the answer of a block in a hidden tab until it is shown', () => {
    const Block = blockComponent(hook);
    render(<Block />);
    const pre = screen.getByTestId('pre');
    setBox(pre, {scrollWidth: 900, clientWidth: 380});
    act(() => observer().report([pre]));

    setBox(pre, {scrollWidth: 0, clientWidth: 0, shown: false});
    act(() => observer().report([pre]));
    expect(wrapButton()).toBeInTheDocument();
  });

  it('stops observing a block that goes away, and one observer serves every block', () => {
    const Block = blockComponent(hook);
    const first = render(<Block />);
    const second = render(<Block />);
    expect(FakeResizeObserver.instances).toHaveLength(1);
    expect(observer().observed.size).toBe(4);
    first.unmount();
    expect(observer().observed.size).toBe(2);
    second.unmount();
    expect(observer().observed.size).toBe(0);
  });

  it('measures a <pre> React did not render (the server HTML) through attachCodeBlock, and lets it go', () => {
    let wordWrap: ReturnType<Hook['useCodeWordWrap']> | undefined;
    function ServerBlock(): ReactNode {
      wordWrap = hook.useCodeWordWrap();
      return wordWrap.isCodeScrollable ? <button onClick={wordWrap.toggle}>Toggle word wrap</button> : null;
    }
    render(<ServerBlock />);
    const pre = document.createElement('pre');
    pre.appendChild(document.createElement('code')).textContent = 'kept from the server';
    document.body.appendChild(pre);

    act(() => hook.attachCodeBlock(wordWrap!.codeBlockRef, pre));
    expect(wordWrap!.codeBlockRef.current).toBe(pre);
    setBox(pre, {scrollWidth: 900, clientWidth: 380});
    act(() => observer().report([pre]));
    expect(wrapButton()).toBeInTheDocument();

    act(() => hook.attachCodeBlock(wordWrap!.codeBlockRef, null));
    expect(observer().observed.size).toBe(0);
    expect(wordWrap!.codeBlockRef.current).toBeNull();
  });

  it('renders without a ResizeObserver (no wrap button, no error)', () => {
    Reflect.deleteProperty(globalThis, 'ResizeObserver');
    const Block = blockComponent(hook);
    render(<Block />);
    expect(screen.getByTestId('code')).toBeInTheDocument();
    expect(wrapButton()).toBeNull();
  });
});
