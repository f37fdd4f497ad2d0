import type {ReactNode} from 'react';
import {useLocation} from '@docusaurus/router';
import Head from '@docusaurus/Head';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {SCRIPTS_SETTLED_EVENT} from '@site/src/ssr/pageScripts';

/**
 * The "wrong baseUrl" help banner, with the spec's wording. It replaces the
 * stock banner (`baseUrlIssueBanner: false` in the config) and works the same
 * way: a tiny inline script, emitted only into the home page's static HTML,
 * inserts the banner when the client bundle never started (which is what a
 * wrong baseUrl causes). It checks once the page's scripts have loaded or
 * failed (src/ssr/pageScripts.ts), not at DOMContentLoaded: they only start
 * after the first paint. It is not rendered by React, so crawlers never index
 * it and a healthy page never shows it.
 */
export const BANNER_TEXT = 'Your site did not load properly.';

export function bannerScript(baseUrl: string): string {
  const suggestion = `var path = window.location.pathname; var suggested = path.slice(-1) === '/' ? path : path + '/';`;
  // textContent only: nothing from the URL is ever parsed as HTML.
  return `document.addEventListener(${JSON.stringify(SCRIPTS_SETTLED_EVENT)}, function () {
  if (typeof window.docusaurus !== 'undefined') return;
  ${suggestion}
  var banner = document.createElement('div');
  banner.id = 'portal-base-url-issue-banner';
  banner.setAttribute('role', 'alert');
  banner.style.cssText = 'border: thick solid #b00020; background: #fff3cd; color: #1c1e21; margin: 20px; padding: 20px; font-size: 20px;';
  var title = document.createElement('p');
  title.style.cssText = 'font-weight: bold; font-size: 28px;';
  title.textContent = ${JSON.stringify(BANNER_TEXT)};
  var reason = document.createElement('p');
  reason.textContent = 'A common reason is a wrong baseUrl setting. Configured baseUrl: ' + ${JSON.stringify(baseUrl)} + '. We suggest trying baseUrl: ' + suggested;
  banner.appendChild(title);
  banner.appendChild(reason);
  document.body.prepend(banner);
});`.replace(/</g, '\\u003c');
}

export default function BaseUrlIssueBanner(): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  const {pathname} = useLocation();
  // Server render only, home page only (the same scope as the stock banner).
  if (ExecutionEnvironment.canUseDOM || pathname !== siteConfig.baseUrl) {
    return null;
  }
  return (
    <Head>
      <script>{bannerScript(siteConfig.baseUrl)}</script>
    </Head>
  );
}
