import {startTransition, useContext, useEffect, useState, type ReactNode} from 'react';
// Docusaurus's own context behind `useIsBrowser` (not a public export; the
// module has held only this context and its provider since v2).
import {Context as BrowserContext} from '@docusaurus/core/lib/client/browserContext';

/**
 * The moment the app takes over from the server's HTML (`useIsBrowser`
 * turning true), re-provided for what is under it.
 *
 * Docusaurus flips it with a plain state update right after hydration, so
 * everything that reads it (the colour mode and every code block through
 * it, Tabs, which mount again, sidebar categories, the search bar)
 * re-renders in one synchronous task on a phone. Re-provided above the
 * layout, the same update is a transition, which React renders in slices
 * between the browser's frames.
 *
 * `urgent` flips it as Docusaurus does, in the same flush of effects as the
 * hydration, for code that depends on that timing (the search page).
 *
 * It starts from the enclosing value: mounted after the takeover (a page
 * reached by a link inside the site), it is true from the first render.
 */
export default function BrowserTakeover({children, urgent = false}: {children: ReactNode; urgent?: boolean}): ReactNode {
  const enclosing = useContext(BrowserContext);
  const [isBrowser, setIsBrowser] = useState(enclosing);
  useEffect(() => {
    if (urgent) {
      // The cascading render is the point: it is Docusaurus's own takeover.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setIsBrowser(true);
    } else {
      startTransition(() => setIsBrowser(true));
    }
  }, [urgent]);
  return <BrowserContext.Provider value={isBrowser}>{children}</BrowserContext.Provider>;
}
