/**
 * The app's takeover from the server's HTML (src/components/BrowserTakeover):
 * what is under it renders first as on the server (useIsBrowser false, so
 * hydration matches), then as in the browser; as a transition, or, when
 * urgent, batched with the other updates of the same flush of effects, as
 * Docusaurus does it.
 */
import {act, render} from '@testing-library/react';
import {useEffect, useState, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {Context as DocusaurusBrowserContext} from '@docusaurus/core/lib/client/browserContext';
import BrowserTakeover from '../../src/components/BrowserTakeover';

// Not the test doubles jest.config.ts maps these to elsewhere: the takeover
// re-provides an internal of Docusaurus, so it is tested against the installed
// one. The real useIsBrowser reads its context through its own relative import;
// if an upgrade moves that context, or the hook stops reading it, the import
// fails or the takeover no longer reaches the hook, and the tests below fail.
// (The `.js` names are not the mapped ones, so they resolve in node_modules.)
jest.mock('@docusaurus/core/lib/client/browserContext', () => jest.requireActual('@docusaurus/core/lib/client/browserContext.js'));
jest.mock('@docusaurus/useIsBrowser', () => jest.requireActual('@docusaurus/core/lib/client/exports/useIsBrowser.js'));

/** Records each render as `isBrowser/mounted`; its own effect makes an ordinary (default priority) update. */
function Probe({seen}: {seen: string[]}) {
  const isBrowser = useIsBrowser();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  seen.push(`${isBrowser}/${mounted}`);
  return null;
}

/** Renders as at hydration: Docusaurus's own context is still false above Root. */
async function hydrate(tree: ReactNode): Promise<void> {
  await act(async () => {
    render(<DocusaurusBrowserContext.Provider value={false}>{tree}</DocusaurusBrowserContext.Provider>);
  });
}

async function rendersOf(tree: (probe: ReactNode) => ReactNode): Promise<string[]> {
  const seen: string[] = [];
  await hydrate(tree(<Probe seen={seen} />));
  return seen;
}

describe('browser takeover', () => {
  it('renders its children first as the server did, then as the browser, after the urgent updates (a transition)', async () => {
    const seen = await rendersOf((probe) => <BrowserTakeover>{probe}</BrowserTakeover>);
    expect(seen[0]).toBe('false/false');
    // The ordinary update renders on its own first; the takeover follows.
    expect(seen).toContain('false/true');
    expect(seen[seen.length - 1]).toBe('true/true');
  });

  it('urgent: flips in the same render as the other updates of that flush of effects', async () => {
    const seen = await rendersOf((probe) => <BrowserTakeover urgent>{probe}</BrowserTakeover>);
    expect(seen[0]).toBe('false/false');
    expect(seen).not.toContain('false/true');
    expect(seen[seen.length - 1]).toBe('true/true');
  });

  it('mounted after the takeover (a page reached inside the site), it is true from the first render', async () => {
    pageRenders.length = 0;
    await hydrate(
      <BrowserTakeover>
        <LaterPage />
      </BrowserTakeover>,
    );
    expect(pageRenders.length).toBeGreaterThan(0);
    expect(pageRenders).not.toContain(false);
  });
});

/** What the page under a nested takeover saw, render by render. */
const pageRenders: boolean[] = [];

function PageProbe() {
  pageRenders.push(useIsBrowser());
  return null;
}

/** Mounts a nested, urgent takeover (as src/theme/SearchPage does) only once the outer one has flipped. */
function LaterPage() {
  return useIsBrowser() ? (
    <BrowserTakeover urgent>
      <PageProbe />
    </BrowserTakeover>
  ) : null;
}
