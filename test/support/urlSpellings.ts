/**
 * Other spellings of one URL path, as an attacker would try them, each with
 * what a server must do with it: `same` spellings name the same file (the
 * server answers them exactly as the clean path, possibly through a redirect
 * to it), `refused` ones must get 400 or 404. Used by the gate's unit tests
 * (fixture build) and the build tests (real build, gate and nginx).
 */
export interface Spelling {
  name: string;
  url: string;
  /** `either`: servers may reasonably differ (a chunk under a page-style suffix); only no-leak is required. */
  expect: 'same' | 'refused' | 'either';
}

/** `path` is a clean absolute path such as `/docs/x/y` or `/assets/js/a.js`. */
export function spellingsOf(path: string): Spelling[] {
  const segments = path.split('/').filter(Boolean);
  if (segments.length < 2) {
    throw new Error(`spellingsOf needs a path with at least two segments, got ${path}`);
  }
  const head = `/${segments.slice(0, -1).join('/')}`;
  const last = segments[segments.length - 1] as string;
  const first = segments[0] as string;
  const rest = `/${segments.slice(1).join('/')}`;
  const isPage = !last.includes('.');
  const encodeFirstLetter = (segment: string) => `%${segment.charCodeAt(0).toString(16)}${segment.slice(1)}`;
  const table: Spelling[] = [
    {name: 'clean', url: path, expect: 'same'},
    {name: 'leading double slash', url: `/${path}`, expect: 'same'},
    {name: 'triple slashes everywhere', url: `///${segments.join('///')}`, expect: 'same'},
    {name: 'double slash inside', url: `/${first}/${rest}`, expect: 'same'},
    {name: 'dot segment', url: `${head}/./${last}`, expect: 'same'},
    {name: 'leading dot segment', url: `/.${path}`, expect: 'same'},
    {name: 'encoded dot segment', url: `${head}/%2e/${last}`, expect: 'same'},
    {name: 'encoded dot segment, upper case', url: `${head}/%2E/${last}`, expect: 'same'},
    {name: 'dot-dot back into place', url: `${head}/x/../${last}`, expect: 'same'},
    {name: 'encoded dot-dot back into place', url: `${head}/x/%2e%2e/${last}`, expect: 'same'},
    {name: 'percent-encoded letter', url: `${head}/${encodeFirstLetter(last)}`, expect: 'same'},
    {name: 'query string', url: `${path}?x=1`, expect: 'same'},
    {name: 'trailing dot segment', url: `${path}/.`, expect: isPage ? 'same' : 'refused'},
    {name: 'trailing double slash', url: `${path}//`, expect: isPage ? 'same' : 'refused'},
    {name: 'trailing slash', url: `${path}/`, expect: isPage ? 'same' : 'refused'},
    {name: '/index', url: `${path}/index`, expect: isPage ? 'same' : 'refused'},
    {name: '/index.html', url: `${path}/index.html`, expect: isPage ? 'same' : 'refused'},
    {name: '.html', url: `${path}.html`, expect: isPage ? 'same' : 'either'},
    {name: 'upper case', url: path.toUpperCase(), expect: 'refused'},
    {
      name: 'one upper-case letter in the last segment',
      url: `${head}/${last.replace(/[a-z]/, (letter) => letter.toUpperCase())}`,
      expect: 'refused',
    },
    {name: 'upper-case .HTML', url: `${path}.HTML`, expect: 'refused'},
    {name: 'encoded slash', url: `/${first}%2F${rest.slice(1)}`, expect: 'refused'},
    {name: 'encoded slash, lower case', url: `/${first}%2f${rest.slice(1)}`, expect: 'refused'},
    {name: 'encoded backslash', url: `${head}%5C${last}`, expect: 'refused'},
    {name: 'double-encoded dot segment', url: `${head}/%252e/${last}`, expect: 'refused'},
    {name: 'encoded NUL', url: `${path}%00`, expect: 'refused'},
    {name: 'encoded NUL before .html', url: `${path}%00.html`, expect: 'refused'},
    {name: 'encoded tab', url: `${head}/%09${last}`, expect: 'refused'},
    {name: 'trailing space', url: `${path}%20`, expect: 'refused'},
    {name: 'trailing dot', url: `${path}.`, expect: 'refused'},
    {name: 'path parameter', url: `${path};x=1`, expect: 'refused'},
    {name: 'dot-dot above the root', url: `/../..${path}`, expect: 'refused'},
    // RFC 9112 §3.2.2: servers must accept absolute-form; the authority names nothing on a one-site server.
    {name: 'absolute-form', url: `http://localhost${path}`, expect: 'same'},
    {name: 'absolute-form, another host', url: `http://other.example${path}`, expect: 'same'},
    {name: 'absolute-form, https and a port', url: `HTTPS://localhost:1${path}`, expect: 'same'},
    {name: 'absolute-form, dot-dot above the root', url: `http://localhost/..${path}`, expect: 'refused'},
    {name: 'absolute-form, backslash in the authority', url: `http://localhost\\@other.example${path}`, expect: 'refused'},
  ];
  return table;
}

/** Where a redirect may send a reader: a path on the same origin, never `//host` or `/\host`. */
export function isSameOriginPath(location: string | undefined): boolean {
  return location !== undefined && /^\/(?![/\\])/.test(location) && !/[\s\\]/.test(location);
}
