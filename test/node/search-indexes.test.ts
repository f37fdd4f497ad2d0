/**
 * Which extra search indexes the members build gets (plugins/access/searchIndexes.ts):
 * one per non-empty set of distinct role rules, the same rule counted once
 * however its lists are ordered.
 */
import type {AccessPage} from '../../plugins/access/manifest';
import {searchIndexVariants} from '../../plugins/access/searchIndexes';

const page = (route: string, rule: AccessPage['rule']): AccessPage => ({route, source: `${route}.md`, title: route, rule});

describe('search index variants', () => {
  it('makes none without role rules, and one for a single rule', () => {
    expect(searchIndexVariants([page('/docs/a', {kind: 'public'}), page('/docs/b', {kind: 'signed-in'})])).toEqual([]);
    const [only, ...rest] = searchIndexVariants([page('/docs/admin', {kind: 'roles', roles: ['admin'], permissions: []})]);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({routes: ['/docs/admin']});
    expect(only?.dir).toMatch(/^_portal\/search\/[0-9a-f]{12}$/);
  });

  it('makes one per subset of distinct rules, merging pages with the same rule in any order', () => {
    const variants = searchIndexVariants([
      page('/docs/admin', {kind: 'roles', roles: ['admin', 'ops'], permissions: []}),
      page('/docs/admin-2', {kind: 'roles', roles: ['ops', 'admin'], permissions: []}),
      page('/docs/deploy', {kind: 'roles', roles: ['ops'], permissions: ['deploy']}),
    ]);
    expect(variants.map((variant) => variant.routes)).toEqual([
      ['/docs/admin', '/docs/admin-2'],
      ['/docs/deploy'],
      ['/docs/admin', '/docs/admin-2', '/docs/deploy'],
    ]);
    expect(new Set(variants.map((variant) => variant.dir)).size).toBe(3);
  });

  it('refuses more distinct rules than it would build indexes for', () => {
    const pages = Array.from({length: 5}, (_, index) =>
      page(`/docs/p${index}`, {kind: 'roles', roles: [`role-${index}`], permissions: []}),
    );
    expect(() => searchIndexVariants(pages)).toThrow(/5 distinct role rules would need 31 search indexes/);
  });
});
