// Test double: the browser location in jsdom; on the server (no window) a
// fixed location, as Docusaurus's static router provides while prerendering.
export function useLocation(): {pathname: string; search: string; hash: string} {
  if (typeof window === 'undefined') {
    return {pathname: '/docs/', search: '', hash: ''};
  }
  const {pathname, search, hash} = window.location;
  return {pathname, search, hash};
}

export function useHistory(): {push: (path: string) => void; replace: (path: string) => void} {
  return {
    push: (path: string) => window.history.pushState(null, '', path),
    replace: (path: string) => window.history.replaceState(null, '', path),
  };
}
