// Test double: the location is the jsdom window location.
export function useLocation(): {pathname: string; search: string; hash: string} {
  const {pathname, search, hash} = window.location;
  return {pathname, search, hash};
}

export function useHistory(): {push: (path: string) => void; replace: (path: string) => void} {
  return {
    push: (path: string) => window.history.pushState(null, '', path),
    replace: (path: string) => window.history.replaceState(null, '', path),
  };
}
