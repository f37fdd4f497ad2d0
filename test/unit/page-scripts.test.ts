/**
 * The loader every static page uses to start the app after the first paint.
 */
import {waitFor} from '@testing-library/react';
import {CHUNKS_ATTRIBUTE, LOADER_SCRIPT, SCRIPTS_SETTLED_EVENT} from '../../src/ssr/pageScripts';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

function runLoader(scripts: string[], chunks?: string[]): void {
  const loader = document.createElement('script');
  loader.setAttribute('data-scripts', JSON.stringify(scripts));
  if (chunks) {
    loader.setAttribute(CHUNKS_ATTRIBUTE, JSON.stringify(chunks));
  }
  loader.textContent = LOADER_SCRIPT;
  document.body.appendChild(loader);
}

const appScripts = () => Array.from(document.head.querySelectorAll('script'));

describe('page script loader', () => {
  it('starts the scripts once, in order (async off), after the first frame', () => {
    jest.useFakeTimers();
    try {
      runLoader(['/assets/js/runtime~main.1.js', '/assets/js/main.2.js']);
      // Nothing during the parse: the text paints first.
      expect(appScripts()).toHaveLength(0);
      // The first frame, then the task it schedules.
      jest.advanceTimersToNextFrame();
      expect(appScripts()).toHaveLength(0);
      jest.advanceTimersToNextTimer();
      expect(appScripts().map((script) => [script.getAttribute('src'), script.async])).toEqual([
        ['/assets/js/runtime~main.1.js', false],
        ['/assets/js/main.2.js', false],
      ]);
      // The 250 ms fallback (for background tabs, which run no frames) fires and does not start them a second time.
      jest.advanceTimersByTime(250);
      expect(jest.getTimerCount()).toBe(0);
      expect(appScripts()).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('starts the scripts from the 250 ms fallback when no frame comes (a background tab)', () => {
    jest.useFakeTimers({doNotFake: ['requestAnimationFrame', 'cancelAnimationFrame']});
    const frames = jest.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    try {
      runLoader(['/runtime.js', '/main.js']);
      expect(frames).toHaveBeenCalledTimes(1);
      jest.advanceTimersByTime(249);
      expect(appScripts()).toHaveLength(0);
      jest.advanceTimersByTime(1);
      expect(appScripts().map((script) => script.getAttribute('src'))).toEqual(['/runtime.js', '/main.js']);
    } finally {
      frames.mockRestore();
      jest.useRealTimers();
    }
  });

  it.each(['load', 'error'])('announces when the last script fired "%s", so the base-URL banner can check', async (outcome) => {
    const settled = jest.fn();
    document.addEventListener(SCRIPTS_SETTLED_EVENT, settled);
    runLoader(['/a.js', '/b.js']);
    await waitFor(() => expect(appScripts()).toHaveLength(2));
    appScripts()[0]?.dispatchEvent(new Event(outcome));
    expect(settled).not.toHaveBeenCalled();
    appScripts()[1]?.dispatchEvent(new Event(outcome));
    expect(settled).toHaveBeenCalledTimes(1);
    document.removeEventListener(SCRIPTS_SETTLED_EVENT, settled);
  });

  it("adds the page's chunks after the entry scripts, one per task, and never one already in the page", () => {
    jest.useFakeTimers();
    try {
      // main.js got to the second chunk first (webpack inserts the chunks it needs).
      const early = document.createElement('script');
      early.src = '/assets/js/b.js';
      document.head.appendChild(early);
      runLoader(['/assets/js/runtime.js', '/assets/js/main.js'], ['/assets/js/a.js', '/assets/js/b.js', '/assets/js/c.js']);
      const sources = () => appScripts().map((script) => script.getAttribute('src'));
      jest.advanceTimersToNextFrame();
      jest.advanceTimersToNextTimer();
      // The entry scripts go in together, in one task.
      expect(sources()).toEqual(['/assets/js/b.js', '/assets/js/runtime.js', '/assets/js/main.js']);
      jest.advanceTimersToNextTimer();
      expect(sources()).toHaveLength(4);
      jest.advanceTimersToNextTimer();
      // b.js is in the page already: skipped.
      expect(sources()).toHaveLength(4);
      jest.runAllTimers();
      expect(appScripts().map((script) => [script.getAttribute('src'), script.async])).toEqual([
        // webpack's own, which the loader never touched (jsdom has no `async` of its own: these read what the loader set).
        ['/assets/js/b.js', undefined],
        ['/assets/js/runtime.js', false],
        ['/assets/js/main.js', false],
        ['/assets/js/a.js', false],
        ['/assets/js/c.js', false],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('never inserts a chunk webpack already loaded and took its script out of the page again', () => {
    jest.useFakeTimers();
    // webpack removes the <script> it inserted once the chunk has run; the fetch stays in the browser's resource list.
    const fetched = new URL('/assets/js/b.js', document.baseURI).href;
    // jsdom keeps no resource list: this stands in for the browser's.
    const getEntriesByName = jest.fn((name: string) => (name === fetched ? [{name, entryType: 'resource'}] : []));
    Object.defineProperty(performance, 'getEntriesByName', {value: getEntriesByName, configurable: true});
    try {
      runLoader(['/assets/js/main.js'], ['/assets/js/a.js', '/assets/js/b.js', '/assets/js/c.js']);
      jest.advanceTimersToNextFrame();
      jest.runAllTimers();
      expect(appScripts().map((script) => script.getAttribute('src'))).toEqual([
        '/assets/js/main.js',
        '/assets/js/a.js',
        '/assets/js/c.js',
      ]);
      expect(getEntriesByName).toHaveBeenCalledWith(fetched, 'resource');
    } finally {
      Reflect.deleteProperty(performance, 'getEntriesByName');
      jest.useRealTimers();
    }
  });

  it('announces when main.js settles, whatever the chunks do', async () => {
    const settled = jest.fn();
    document.addEventListener(SCRIPTS_SETTLED_EVENT, settled);
    runLoader(['/runtime.js', '/main.js'], ['/chunk.js']);
    await waitFor(() => expect(appScripts()).toHaveLength(3));
    expect(appScripts().map((script) => script.getAttribute('src'))).toEqual(['/runtime.js', '/main.js', '/chunk.js']);
    appScripts()[2]?.dispatchEvent(new Event('error'));
    expect(settled).not.toHaveBeenCalled();
    appScripts()[1]?.dispatchEvent(new Event('load'));
    expect(settled).toHaveBeenCalledTimes(1);
    document.removeEventListener(SCRIPTS_SETTLED_EVENT, settled);
  });
});
