/**
 * Open-redirect guard for the page a user returns to after sign-in. Only a
 * same-origin path is accepted; anything else falls back.
 */

// Control characters and backslashes: browsers treat `\` like `/` (so `/\evil`
// is `//evil`), and tabs/newlines are stripped inside URLs.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\\\u0000-\u001f\u007f]/;

/**
 * Returns `value` when it is a same-origin relative path such as
 * `/docs/x?y=1#z`, otherwise `fallback`. Rejects `//host`, absolute URLs,
 * `javascript:`, backslashes and their percent-encoded variants.
 */
export function safeReturnTo(value: unknown, origin: string, fallback = '/'): string {
  if (typeof value !== 'string' || value === '' || value.length > 2048) {
    return fallback;
  }
  let decoded = value;
  // Decode repeatedly so `%252F%252F` cannot hide `//`.
  for (let round = 0; round < 3; round += 1) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) {
        break;
      }
      decoded = next;
    } catch {
      return fallback;
    }
  }
  for (const candidate of [value, decoded]) {
    if (!candidate.startsWith('/') || candidate.startsWith('//') || FORBIDDEN.test(candidate)) {
      return fallback;
    }
  }
  try {
    const resolved = new URL(value, origin);
    // `/.//evil` and `/%2e//evil` resolve to the path `//evil`, which a
    // browser reads as another host: never hand such a path out.
    if (resolved.origin !== new URL(origin).origin || resolved.pathname.startsWith('//')) {
      return fallback;
    }
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return fallback;
  }
}

/** The current page as a return target: path, query and hash. */
export function currentReturnTo(location: {pathname: string; search: string; hash: string}): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
