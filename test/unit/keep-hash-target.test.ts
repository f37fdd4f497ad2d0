/**
 * A link to a section keeps its heading in view while the page settles
 * (src/clientModules/keepHashTarget.ts): content rendered above it later
 * brings it back, until the reader acts or the page has settled.
 */
import {hashTarget, keepInView, SETTLE_MS} from '../../src/clientModules/keepHashTarget';

/** The page's ResizeObserver, driven by the test: `grow` is content rendered above the heading. */
class FakeResizeObserver {
  static current: FakeResizeObserver | null = null;
  observed: Element[] = [];
  constructor(private readonly callback: ResizeObserverCallback) {
    FakeResizeObserver.current = this;
  }
  observe(target: Element) {
    this.observed.push(target);
  }
  disconnect() {
    this.observed = [];
  }
  grow() {
    this.callback(
      this.observed.map((target) => ({target}) as ResizeObserverEntry),
      this as unknown as ResizeObserver,
    );
  }
}

let headingTop = 0;
let heading: HTMLElement;
const scrolls: number[] = [];

beforeEach(() => {
  jest.useFakeTimers();
  document.body.innerHTML = '<h2 id="rate-limiting" style="scroll-margin-top: 76px">Rate limiting</h2><h2 id="é-section">É</h2>';
  heading = document.getElementById('rate-limiting') as HTMLElement;
  headingTop = 76;
  scrolls.length = 0;
  heading.getBoundingClientRect = () => ({top: headingTop}) as DOMRect;
  // Scrolling to the heading puts it at its scroll margin.
  heading.scrollIntoView = () => {
    scrolls.push(headingTop);
    headingTop = 76;
  };
  Object.defineProperty(window, 'ResizeObserver', {value: FakeResizeObserver, configurable: true, writable: true});
});

afterEach(() => {
  jest.useRealTimers();
  Reflect.deleteProperty(window, 'ResizeObserver');
});

describe('keeping a linked heading in view', () => {
  it('finds the heading a fragment names, encoded or not, and nothing for an empty or unknown fragment', () => {
    expect(hashTarget('#rate-limiting')).toBe(heading);
    expect(hashTarget('#%C3%A9-section')?.textContent).toBe('É');
    expect(hashTarget('#%E0%A4%A')).toBeNull();
    expect(hashTarget('#')).toBeNull();
    expect(hashTarget('')).toBeNull();
    expect(hashTarget('#nope')).toBeNull();
  });

  it('brings the heading back when content rendered above it pushes it down, and leaves it when it did not move', () => {
    keepInView(heading);
    FakeResizeObserver.current?.grow();
    expect(scrolls).toEqual([]);

    headingTop = 76 + 393; // a diagram appeared above
    FakeResizeObserver.current?.grow();
    expect(scrolls).toEqual([469]);
    expect(headingTop).toBe(76);
  });

  it('stops as soon as the reader scrolls, taps or types: where the page is is theirs', () => {
    for (const event of [
      new WheelEvent('wheel'),
      new KeyboardEvent('keydown', {key: 'ArrowDown'}),
      new Event('touchstart'),
      new Event('pointerdown'),
    ]) {
      scrolls.length = 0;
      keepInView(heading);
      window.dispatchEvent(event);
      headingTop = 900;
      FakeResizeObserver.current?.grow();
      expect([event.type, scrolls]).toEqual([event.type, []]);
    }
  });

  it('stops once the page has settled', () => {
    keepInView(heading);
    jest.advanceTimersByTime(SETTLE_MS);
    headingTop = 900;
    FakeResizeObserver.current?.grow();
    expect(scrolls).toEqual([]);
  });
});
