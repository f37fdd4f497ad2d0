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

export const LOADER_SCRIPT = `(function(){var scripts=JSON.parse(document.currentScript.getAttribute('data-scripts'));var started=false;function settled(){document.dispatchEvent(new Event('${SCRIPTS_SETTLED_EVENT}'))}function start(){if(started)return;started=true;scripts.forEach(function(src,index){var script=document.createElement('script');script.src=src;script.async=false;if(index===scripts.length-1){script.onload=settled;script.onerror=settled}document.head.appendChild(script)})}requestAnimationFrame(function(){setTimeout(start)});setTimeout(start,250)})()`;

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
