import {startTransition, useEffect, useState, type ReactNode} from 'react';
// Docusaurus's own context behind `useIsBrowser` (not a public export; the
// module has held only this context and its provider since v2).
import {Context as BrowserContext} from '@docusaurus/core/lib/client/browserContext';

/**
 * The moment the app takes over from the server's HTML (`useIsBrowser`
 * turning true) as a transition. Docusaurus flips it with a plain state
 * update right after hydration, so everything that reads it (the colour
 * mode and every code block through it, Tabs, which mount again, sidebar
 * categories, the search bar) re-renders in one synchronous task on a
 * phone. Re-provided here, above the layout, the same update is a
 * transition, which React renders in slices between the browser's frames.
 */
export default function BrowserTakeover({children}: {children: ReactNode}): ReactNode {
  const [isBrowser, setIsBrowser] = useState(false);
  useEffect(() => {
    startTransition(() => setIsBrowser(true));
  }, []);
  return <BrowserContext.Provider value={isBrowser}>{children}</BrowserContext.Provider>;
}
