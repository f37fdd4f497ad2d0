import {BANNER_TEXT, bannerScript} from '../../src/components/BaseUrlIssueBanner';
import {SCRIPTS_SETTLED_EVENT} from '../../src/ssr/pageScripts';

function runBannerScript(): void {
  // The script is what the home page's static HTML inlines; run it as the browser would.
  new Function(bannerScript('/'))();
  document.dispatchEvent(new Event(SCRIPTS_SETTLED_EVENT));
}

describe('base URL banner', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    delete (window as {docusaurus?: unknown}).docusaurus;
  });

  it('says "Your site did not load properly" and suggests the current path when the app never started', () => {
    window.history.replaceState(null, '', '/portal');
    runBannerScript();
    const banner = document.getElementById('portal-base-url-issue-banner');
    expect(banner).toHaveTextContent(BANNER_TEXT);
    expect(banner).toHaveTextContent('Your site did not load properly');
    expect(banner).toHaveTextContent('We suggest trying baseUrl: /portal/');
    expect(banner).toHaveAttribute('role', 'alert');
  });

  it('stays hidden when the client app is running', () => {
    (window as {docusaurus?: unknown}).docusaurus = {};
    runBannerScript();
    expect(document.getElementById('portal-base-url-issue-banner')).toBeNull();
  });

  it('never parses the URL as HTML', () => {
    window.history.replaceState(null, '', '/%3Cimg%20src=x%20onerror=alert(1)%3E');
    runBannerScript();
    expect(document.querySelector('#portal-base-url-issue-banner img')).toBeNull();
  });

  it('waits for the page scripts: nothing at DOMContentLoaded, since they start after the first paint', () => {
    new Function(bannerScript('/'))();
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(document.getElementById('portal-base-url-issue-banner')).toBeNull();
  });
});
