/**
 * Each page's own chunks for the script loader (plugins/page-scripts): the
 * chunks of its route and of the layout routes around it, their files from
 * the bundler's chunk graph through the one route resolver
 * (plugins/routeChunks.ts) the access placement uses too, written beside the
 * entry scripts.
 */
import type {RouteConfig} from '@docusaurus/types';
import type {BundleGraph} from '../../plugins/access/bundleGraph';
import {pageScriptFiles, withPageChunks, withoutScriptLoader} from '../../plugins/page-scripts';
import {routeChunks} from '../../plugins/routeChunks';

const routes = [
  {
    path: '/docs',
    component: 'docs-root',
    routes: [
      {
        path: '/docs',
        component: 'version',
        routes: [
          {path: '/docs/intro', component: 'doc', exact: true},
          {path: '/docs/other', component: 'doc', exact: true},
        ],
      },
    ],
  },
  {path: '/', component: 'home', exact: true},
  {path: '/docs-extra', component: 'page', exact: true},
] as RouteConfig[];

const routesChunkNames = {
  '/docs-a1b': {__comp: 'root'},
  '/docs-c2d': {__comp: 'version', __props: 'versionProps'},
  '/docs/intro-e3f': {__comp: 'docItem', content: 'intro'},
  '/docs/other-0a1': {__comp: 'docItem', content: 'other'},
  '/-9f8': {__comp: 'home', __context: {plugin: 'pagesPlugin'}},
  '/docs-extra-777': {__comp: 'page'},
};

/** Each named group's files; `intro` loads `diagram` lazily, and brings an image and a stylesheet. */
const group = (name: string, files: string[], children: number[] = []) => ({name, initial: false, files, children});
const graph: BundleGraph = {
  groups: [
    group('root', ['assets/js/1.js']),
    group('version', ['assets/js/2.js']),
    group('versionProps', ['assets/js/3.js']),
    group('docItem', ['assets/js/4.js', 'assets/js/shared.js']),
    group('intro', ['assets/css/5.css', 'assets/images/flow.png', 'assets/js/5.js'], [10]),
    group('other', ['assets/js/6.js']),
    group('home', ['assets/js/7.js']),
    group('pagesPlugin', ['assets/js/8.js']),
    group('page', ['assets/js/9.js']),
    {name: 'main', initial: true, files: ['assets/js/main.js'], children: [0, 1, 2, 3, 4, 5, 6, 7, 8]},
    group('diagram', ['assets/js/diagram.js']),
  ],
};

const chunks = routeChunks(routesChunkNames, routes, graph);
const files = (routePath: string) => pageScriptFiles(chunks, routePath);

describe('page chunks', () => {
  it('are the scripts of the page route chunks plus its layouts, layouts first, each file once', () => {
    expect(files('/docs/intro')).toEqual([
      'assets/js/1.js',
      'assets/js/2.js',
      'assets/js/3.js',
      'assets/js/4.js',
      'assets/js/shared.js',
      'assets/js/5.js',
    ]);
  });

  it('leave out other pages, and routes whose path merely starts the same', () => {
    expect(files('/docs/intro')).not.toContain('assets/js/6.js');
    expect(files('/docs-extra')).toEqual(['assets/js/9.js']);
    // "/" is a page, not a layout around every page.
    expect(files('/docs/intro')).not.toContain('assets/js/7.js');
    expect(files('/')).toEqual(['assets/js/7.js', 'assets/js/8.js']);
  });

  it('are none for a route the build does not know', () => {
    expect(files('/nowhere')).toEqual([]);
  });

  it('leave out what the page loads later; the access placement, which asks for it, gets it too', () => {
    expect(files('/docs/intro')).not.toContain('assets/js/diagram.js');
    expect([...chunks.filesOf('/docs/intro', {lazy: true})]).toEqual(
      expect.arrayContaining(['assets/js/diagram.js', 'assets/images/flow.png', 'assets/css/5.css', 'assets/js/1.js']),
    );
  });

  it('stop at a chunk name the bundle does not know, rather than leave the page without it', () => {
    const renamed = routeChunks({...routesChunkNames, '/docs-extra-777': {__comp: 'renamed'}}, routes, graph);
    expect(() => pageScriptFiles(renamed, '/docs-extra')).toThrow(/renamed is not a chunk group/);
  });
});

describe('the loader attribute', () => {
  const page = (attribute: string) => `<html><body><p>text</p><script ${attribute}>(loader)</script></body></html>`;

  it('lists the chunks that are not entry scripts, in a separate attribute', () => {
    const html = withPageChunks(page(`data-scripts='["/assets/js/runtime.js","/assets/js/main.js"]'`), [
      '/assets/js/main.js',
      '/assets/js/a.js',
    ]);
    expect(html).toContain(`data-scripts='["/assets/js/runtime.js","/assets/js/main.js"]' data-chunks="[&quot;/assets/js/a.js&quot;]"`);
  });

  it('reads an attribute the minifier requoted with entities', () => {
    const html = withPageChunks(page(`data-scripts="[&quot;/main.js&quot;]"`), ['/a.js']);
    expect(html).toContain('data-chunks="[&quot;/a.js&quot;]"');
  });

  it('leaves a page without a loader, without new chunks, or already listed, unchanged', () => {
    expect(withPageChunks('<p>no loader</p>', ['/a.js'])).toBe('<p>no loader</p>');
    const listed = page(`data-scripts='["/main.js"]'`);
    expect(withPageChunks(listed, ['/main.js'])).toBe(listed);
    const once = withPageChunks(listed, ['/a.js']);
    expect(withPageChunks(once, ['/b.js'])).toBe(once);
  });

  it('is what sets two builds of a page apart: without the loader, they compare equal', () => {
    const publicPage = withPageChunks(page(`data-scripts='["/runtime.1.js","/main.1.js"]'`), ['/a.1.js']);
    const membersPage = page(`data-scripts="[&quot;/runtime.2.js&quot;,&quot;/main.2.js&quot;]"`);
    expect(withoutScriptLoader(publicPage)).toBe('<html><body><p>text</p></body></html>');
    expect(withoutScriptLoader(membersPage)).toBe(withoutScriptLoader(publicPage));
    // Only the loader goes: other scripts and the text stay.
    const withOther = `<script src="/x.js"></script>${membersPage}<script>other()</script>`;
    expect(withoutScriptLoader(withOther)).toBe(
      '<script src="/x.js"></script><html><body><p>text</p></body></html><script>other()</script>',
    );
    expect(withoutScriptLoader('<p>no loader</p>')).toBe('<p>no loader</p>');
  });
});
