/**
 * How every static page starts the app (used by `ssrTemplate` in
 * docusaurus.config.ts). Pure strings, no imports: the config loads this in
 * Node, the base-URL banner in the browser.
 *
 * The app's scripts start after the first paint instead of as `defer`
 * scripts: with `defer`, Chrome evaluates main.js (React, router, theme:
 * about 2 s of CPU on a slow phone) before it paints the server-rendered
 * text. The URLs sit in a data attribute so the loader's text, and so its
 * CSP hash, stays the same from build to build (static/_headers lists it).
 * Scripts are not preloaded: a high-priority preload competes with the
 * stylesheet for the first paint on slow links. Background tabs run no
 * animation frames, hence the 250 ms fallback.
 */

/** Fired on `document` once the last app script has loaded or failed. */
export const SCRIPTS_SETTLED_EVENT = 'portal:scripts-settled';

/**
 * The page's own chunks (plugins/page-scripts adds them after the build).
 * They are appended one per task after the entry scripts, so they download
 * beside main.js without one long task of script insertions (each costs a
 * few ms on a slow phone); main.js runs first, finds them by URL and waits
 * for them instead of inserting its own, and the page's modules are
 * evaluated in their own task afterwards. One main.js got to first is not
 * inserted twice: webpack removes its `<script>` once the chunk has run, so
 * the browser's list of fetched resources says so then.
 */
export const CHUNKS_ATTRIBUTE = 'data-chunks';

export const LOADER_SCRIPT = `(function(){var me=document.currentScript;function list(name){return JSON.parse(me.getAttribute(name)||'[]')}var scripts=list('data-scripts'),chunks=list('${CHUNKS_ATTRIBUTE}');var started=false;function settled(){document.dispatchEvent(new Event('${SCRIPTS_SETTLED_EVENT}'))}function present(src){for(var all=document.scripts,i=0;i<all.length;i++){if(all[i].getAttribute('src')===src)return true}var perf=window.performance;return Boolean(perf&&perf.getEntriesByName&&perf.getEntriesByName(new URL(src,document.baseURI).href,'resource').length)}function add(src,last){var script=document.createElement('script');script.src=src;script.async=false;if(last){script.onload=settled;script.onerror=settled}document.head.appendChild(script)}function next(index){if(index>=chunks.length)return;if(!present(chunks[index]))add(chunks[index],false);setTimeout(function(){next(index+1)})}function start(){if(started)return;started=true;scripts.forEach(function(src,index){add(src,index===scripts.length-1)});setTimeout(function(){next(0)})}requestAnimationFrame(function(){setTimeout(start)});setTimeout(start,250)})()`;

/** Docusaurus's page template (ssgTemplate.html in @docusaurus/core) with the loader in place of the `defer` scripts. */
export const SSR_TEMPLATE = `<!DOCTYPE html>
<html <%~ it.htmlAttributes %>>
  <head>
    <meta charset="UTF-8">
    <meta name="generator" content="Docusaurus v<%= it.version %>">
    <% it.metaAttributes.forEach((metaAttribute) => { %>
      <%~ metaAttribute %>
    <% }); %>
    <%~ it.headTags %>
    <% it.stylesheets.forEach((stylesheet) => { %>
      <link rel="stylesheet" href="<%= it.baseUrl %><%= stylesheet %>" />
    <% }); %>
  </head>
  <body <%~ it.bodyAttributes %>>
    <%~ it.preBodyTags %>
    <div id="__docusaurus"><%~ it.appHtml %></div>
    <%~ it.postBodyTags %>
    <script data-scripts="<%= JSON.stringify(it.scripts.map((script) => it.baseUrl + script)) %>">${LOADER_SCRIPT}</script>
  </body>
</html>`;
