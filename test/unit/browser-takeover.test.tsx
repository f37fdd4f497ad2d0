/**
 * The app's takeover from the server's HTML (src/components/BrowserTakeover):
 * what is under it renders first as on the server (useIsBrowser false, so
 * hydration matches), then as in the browser.
 */
import {act, render} from '@testing-library/react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import BrowserTakeover from '../../src/components/BrowserTakeover';

function Probe({seen}: {seen: boolean[]}) {
  seen.push(useIsBrowser());
  return null;
}

describe('browser takeover', () => {
  it('renders its children first as the server did, then as the browser', async () => {
    const seen: boolean[] = [];
    await act(async () => {
      render(
        <BrowserTakeover>
          <Probe seen={seen} />
        </BrowserTakeover>,
      );
    });
    expect(seen[0]).toBe(false);
    expect(seen[seen.length - 1]).toBe(true);
  });
});

describe('browser takeover, urgent (as Docusaurus flips it)', () => {
  it('also renders its children first as the server did, then as the browser', async () => {
    const seen: boolean[] = [];
    await act(async () => {
      render(
        <BrowserTakeover urgent>
          <Probe seen={seen} />
        </BrowserTakeover>,
      );
    });
    expect(seen[0]).toBe(false);
    expect(seen[seen.length - 1]).toBe(true);
  });
});
