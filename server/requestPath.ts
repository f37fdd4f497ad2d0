/**
 * One canonical form for a request path, decided once, before anything looks
 * for a file or a rule. The same page can be asked for in many spellings
 * (`//x`, `/./x`, `%2e`, `/x/index`, `/x.html`, `/x//`); every one of them is
 * either refused, or redirected to the single clean spelling, or resolved to
 * exactly the file the clean spelling resolves to. The gate then decides on
 * that file (server/decide.ts), never on the URL as sent.
 *
 * A target in absolute-form (`http://host/x`), which RFC 9112 §3.2.2 says a
 * server must accept, is the path it carries: the gate serves one site, as
 * nginx's default server does, so the authority names nothing here.
 *
 * Refused outright (400): anything else that is not an origin-form path, encoded
 * slashes and backslashes (`%2F`, `%5C`: a file name never contains them,
 * and proxies disagree on them), backslashes and control characters after
 * decoding, malformed percent-encoding, and `..` above the root.
 */

export type CanonicalPath =
  /** Serve `path` (decoded, canonical). `trailingSlash` is part of `path` already. */
  | {kind: 'path'; path: string; segments: string[]; trailingSlash: boolean}
  /** The same resource under its clean spelling; `location` always starts with one `/`. */
  | {kind: 'redirect'; location: string}
  | {kind: 'bad'; reason: string};

/** `http://` or `https://` and the authority (RFC 3986's characters; anything else is left in the path, where it is refused). */
const ABSOLUTE_FORM_PREFIX = /^https?:\/\/[\w.~%!$&'()*+,;=:@[\]-]*/i;
const ENCODED_SEPARATOR_OR_CONTROL = /%(?:2f|5c|[01][0-9a-f]|7f)/i;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f\\]/;
/** What may follow `?` in a redirect we send: printable ASCII without spaces. */
const SAFE_QUERY = /^[\x21-\x7e]*$/;

/** `/a/b/` from segments, each percent-encoded: never starts with `//`. */
export function encodePath(segments: string[], trailingSlash: boolean): string {
  if (segments.length === 0) {
    return '/';
  }
  return `/${segments.map(encodeURIComponent).join('/')}${trailingSlash ? '/' : ''}`;
}

/** Request targets whose canonical form is remembered (per process; cleared when full), and the longest one. */
const REMEMBERED_TARGETS = 2048;
const REMEMBERED_TARGET_LENGTH = 512;
const remembered = new Map<string, Readonly<CanonicalPath>>();

/**
 * Canonicalises the path of a request target (`rawTarget` may carry a query,
 * which a redirect keeps when it is plain printable ASCII). The answer
 * depends on the target alone, so the targets asked for most (every reader's
 * next page) are decoded once per process; the result is frozen, shared.
 */
export function canonicalisePath(rawTarget: string): Readonly<CanonicalPath> {
  const known = remembered.get(rawTarget);
  if (known) {
    return known;
  }
  const canonical = canonicalise(rawTarget);
  if (canonical.kind === 'path') {
    Object.freeze(canonical.segments);
  }
  Object.freeze(canonical);
  if (rawTarget.length <= REMEMBERED_TARGET_LENGTH) {
    // Targets are the client's to choose: the memory stays bounded.
    if (remembered.size >= REMEMBERED_TARGETS) {
      remembered.clear();
    }
    remembered.set(rawTarget, canonical);
  }
  return canonical;
}

function canonicalise(requestTarget: string): CanonicalPath {
  const authority = ABSOLUTE_FORM_PREFIX.exec(requestTarget)?.[0];
  const afterAuthority = authority === undefined ? requestTarget : requestTarget.slice(authority.length);
  // `http://host` and `http://host?x` name the root.
  const rawTarget = authority !== undefined && !afterAuthority.startsWith('/') ? `/${afterAuthority}` : afterAuthority;
  const queryStart = rawTarget.search(/[?#]/);
  const rawPath = queryStart === -1 ? rawTarget : rawTarget.slice(0, queryStart);
  const query = queryStart === -1 || rawTarget[queryStart] === '#' ? '' : (rawTarget.slice(queryStart + 1).split('#')[0] ?? '');
  if (!rawPath.startsWith('/')) {
    return {kind: 'bad', reason: 'not a path'};
  }
  if (ENCODED_SEPARATOR_OR_CONTROL.test(rawPath) || rawPath.includes('\\')) {
    return {kind: 'bad', reason: 'encoded separator, backslash or control character'};
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return {kind: 'bad', reason: 'malformed percent-encoding'};
  }
  if (CONTROL_OR_BACKSLASH.test(decoded)) {
    return {kind: 'bad', reason: 'backslash or control character'};
  }

  const parts = decoded.split('/').slice(1);
  const segments: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') {
      continue;
    }
    if (part === '..') {
      if (segments.length === 0) {
        return {kind: 'bad', reason: 'path escapes the root'};
      }
      segments.pop();
      continue;
    }
    segments.push(part);
  }
  const last = parts[parts.length - 1] ?? '';
  let trailingSlash = segments.length > 0 && (last === '' || last === '.' || last === '..');
  // Clean URLs, as Docusaurus links them: `/x/index.html`, `/x/index` and
  // `/x.html` are other spellings of `/x/` and `/x`.
  const name = segments[segments.length - 1];
  if (!trailingSlash && (name === 'index.html' || name === 'index')) {
    segments.pop();
    trailingSlash = segments.length > 0;
  } else if (!trailingSlash && name !== undefined && name.endsWith('.html') && name.length > '.html'.length) {
    segments[segments.length - 1] = name.slice(0, -'.html'.length);
  }

  const path = segments.length === 0 ? '/' : `/${segments.join('/')}${trailingSlash ? '/' : ''}`;
  if (path !== decoded) {
    const location = encodePath(segments, trailingSlash);
    return {kind: 'redirect', location: query && SAFE_QUERY.test(query) ? `${location}?${query}` : location};
  }
  return {kind: 'path', path, segments, trailingSlash};
}
