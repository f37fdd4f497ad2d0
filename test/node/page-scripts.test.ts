/**
 * Each page's own chunks for the script loader (plugins/page-scripts): the
 * chunks of its route and of the layout routes around it, as the client
 * manifest names their files, written beside the entry scripts.
 */
import type {RouteConfig} from '@docusaurus/types';
import {pageChunkFiles, withPageChunks, withoutScriptLoader} from '../../plugins/page-scripts';

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

const manifest = {
  origins: {
    root: ['1'],
    version: ['2'],
    versionProps: ['3'],
    docItem: ['shared', '4'],
    intro: ['5'],
    other: ['6'],
    home: ['7'],
    pagesPlugin: ['8'],
    page: ['9'],
  },
  assets: Object.fromEntries(
    ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'shared'].map((id) => [id, {js: [{file: `assets/js/${id}.js`}]}]),
  ),
};

const files = pageChunkFiles(routesChunkNames, manifest, routes);

describe('page chunks', () => {
  it('are the page route chunks plus its layouts, each file once', () => {
    expect(files('/docs/intro')).toEqual([
      'assets/js/1.js',
      'assets/js/2.js',
      'assets/js/3.js',
      'assets/js/shared.js',
      'assets/js/4.js',
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
