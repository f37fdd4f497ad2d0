/**
 * The loader every static page uses to start the app after the first paint.
 */
import {waitFor} from '@testing-library/react';
import {LOADER_SCRIPT, SCRIPTS_SETTLED_EVENT} from '../../src/ssr/pageScripts';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

function runLoader(scripts: string[]): void {
  const loader = document.createElement('script');
  loader.setAttribute('data-scripts', JSON.stringify(scripts));
  loader.textContent = LOADER_SCRIPT;
  document.body.appendChild(loader);
}

const appScripts = () => Array.from(document.head.querySelectorAll('script'));

describe('page script loader', () => {
  it('starts the scripts once, in order (async off), after the first frame', async () => {
    runLoader(['/assets/js/runtime~main.1.js', '/assets/js/main.2.js']);
    // Nothing during the parse: the text paints first.
    expect(appScripts()).toHaveLength(0);
    await waitFor(() => expect(appScripts()).toHaveLength(2));
    expect(appScripts().map((script) => [script.getAttribute('src'), script.async])).toEqual([
      ['/assets/js/runtime~main.1.js', false],
      ['/assets/js/main.2.js', false],
    ]);
    // The 250 ms fallback does not start them a second time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(appScripts()).toHaveLength(2);
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
});
