/**
 * Search (plugins/search, src/components/search/pagefind.ts): which pages
 * each search bundle holds, and how the browser reads Pagefind's answers
 * (excerpts as text with marked words, never HTML; URLs as the site's
 * routes).
 */
import type {AccessPage} from '../../plugins/access/manifest';
import {searchIndexVariants} from '../../plugins/access/searchIndexes';
import {searchBundles} from '../../plugins/search';
import {MAX_QUERY_LENGTH, parseExcerpt, routeOf, searchDocs} from '../../src/components/search/pagefind';

const page = (route: string, rule: AccessPage['rule']): AccessPage => ({route, source: `${route}.md`, title: route, rule});
const ADMIN = {kind: 'roles' as const, roles: ['admin'], permissions: []};
const PAGES = [page('/docs/a', {kind: 'public'}), page('/docs/ops', {kind: 'signed-in'}), page('/docs/admin', ADMIN)];

describe('search bundles', () => {
  it('gives the public build the public pages only', () => {
    expect(searchBundles(PAGES, 'public', searchIndexVariants(PAGES))).toEqual([{dir: '', routes: ['/docs/a']}]);
  });

  it('gives the members build the signed-in pages, and each role variant its pages on top', () => {
    const variants = searchIndexVariants(PAGES);
    const [own, ...roleBundles] = searchBundles(PAGES, 'members', variants);
    expect(own).toEqual({dir: '', routes: ['/docs/a', '/docs/ops']});
    expect(roleBundles).toEqual([{dir: variants[0]?.dir, routes: ['/docs/a', '/docs/ops', '/docs/admin']}]);
  });
});

describe('search answers in the browser', () => {
  it('reads an excerpt as text runs, marking the matched words and decoding entities, never markup', () => {
    expect(parseExcerpt('Set <mark>DATABASE_URL</mark> &amp; restart &lt;img src=x onerror=alert(1)&gt; <b>now</b>')).toEqual([
      {text: 'Set ', marked: false},
      {text: 'DATABASE_URL', marked: true},
      {text: ' & restart <img src=x onerror=alert(1)> now', marked: false},
    ]);
  });

  it('turns Pagefind URLs into routes, keeping the docs root and section hashes', () => {
    expect(routeOf('/docs/internal-developers/services/file-service/', '/')).toBe('/docs/internal-developers/services/file-service');
    expect(routeOf('/docs/x/#ports', '/')).toBe('/docs/x#ports');
    expect(routeOf('/docs/', '/')).toBe('/docs/');
    expect(routeOf('/portal/docs/', '/portal/')).toBe('/portal/docs/');
  });

  it('cuts a long query, loads only the results asked for, and picks the section with most matches', async () => {
    const searched: string[] = [];
    const loaded: string[] = [];
    const result = (id: string) => ({
      id,
      data: async () => {
        loaded.push(id);
        return {
          url: `/docs/${id}/`,
          meta: {title: `Page ${id}`},
          excerpt: `top of ${id}`,
          sub_results: [
            {title: `Page ${id}`, url: `/docs/${id}/`, excerpt: 'top', locations: [1]},
            {title: 'Ports', url: `/docs/${id}/#ports`, excerpt: 'the <mark>port</mark>', locations: [5, 9]},
          ],
        };
      },
    });
    const api = {
      options: async () => undefined,
      init: async () => undefined,
      search: async (query: string) => {
        searched.push(query);
        return {results: ['a', 'b', 'c'].map(result)};
      },
    };
    const answer = await searchDocs(api, ` ${'x'.repeat(MAX_QUERY_LENGTH + 50)} `, '/', 2);
    expect(searched).toEqual(['x'.repeat(MAX_QUERY_LENGTH)]);
    expect(loaded).toEqual(['a', 'b']);
    expect(answer.total).toBe(3);
    expect(answer.hits[0]).toEqual({
      title: 'Page a',
      url: '/docs/a#ports',
      section: 'Ports',
      excerpt: [
        {text: 'the ', marked: false},
        {text: 'port', marked: true},
      ],
    });
    expect(await searchDocs(api, '   ', '/', 2)).toEqual({query: '', hits: [], total: 0});
  });
});
