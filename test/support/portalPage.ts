/**
 * Loads "a page" of the portal in jsdom the way a browser does: fresh
 * modules (the SDK keeps its session in module memory, which a real page
 * load starts empty), the URL set first, storage kept from earlier pages.
 * Elements are built with the freshly loaded React, so there is one React.
 */
import type {AuthSettings} from '../../src/auth/config';
import type {PortalAuthValue} from '../../src/auth/usePortalAuth';

export const PROVIDER_ORIGIN = 'http://localhost:4010';
export const SITE_ORIGIN = 'http://localhost';

export function testSettings(overrides: Partial<AuthSettings> = {}): AuthSettings {
  return {
    enabled: true,
    clientId: 'client_local',
    organizationId: null,
    apiHostname: 'localhost',
    port: 4010,
    https: false,
    redirectUri: null,
    basePath: '/',
    devMode: true,
    ...overrides,
  };
}

export interface LoadedPage {
  screen: typeof import('@testing-library/react').screen;
  act: typeof import('@testing-library/react').act;
  fireEvent: typeof import('@testing-library/react').fireEvent;
  waitFor: typeof import('@testing-library/react').waitFor;
  /** The latest auth context value seen by the page. */
  auth: () => PortalAuthValue;
  unmount: () => void;
}

/*
 * A page's timers die with the page. In a browser, loading the next page
 * stops the previous page's SDK client (its 1 s background refresh loop); in
 * jsdom the unmounted client would keep refreshing and rotating tokens under
 * the next page. Every timer remembers the page generation it was scheduled
 * in and does nothing once that page is gone.
 */
let pageGeneration = 0;
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = ((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
  const scheduledIn = pageGeneration;
  return realSetTimeout(() => {
    if (scheduledIn === pageGeneration) {
      callback(...args);
    }
  }, delay);
}) as typeof setTimeout;

/** Ends the current page: unmount it first, then call this. */
export function endPageTimers(): void {
  pageGeneration += 1;
}

export {navigations} from './navigations';

export function loadPage(
  url: string,
  settings: AuthSettings | undefined = testSettings(),
  {providerTimeoutMs}: {providerTimeoutMs?: number} = {},
): LoadedPage {
  jest.resetModules();
  window.history.replaceState(null, '', url);
  // Fresh modules per page load (after resetModules an import would be the
  // cached one); the "pure" entry registers no global hooks.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const React = require('react') as typeof import('react');
  const rtl = require('@testing-library/react/pure') as typeof import('@testing-library/react');
  const PortalAuthProvider = (require('../../src/auth/PortalAuthProvider') as typeof import('../../src/auth/PortalAuthProvider')).default;
  const AuthNavbarItem = (require('../../src/auth/components/AuthNavbarItem') as typeof import('../../src/auth/components/AuthNavbarItem'))
    .default;
  const AuthNotices = (require('../../src/auth/components/AuthNotices') as typeof import('../../src/auth/components/AuthNotices')).default;
  const usePortalAuth = (require('../../src/auth/usePortalAuth') as typeof import('../../src/auth/usePortalAuth')).default;
  /* eslint-enable @typescript-eslint/no-require-imports */

  let latest: PortalAuthValue | null = null;
  function Probe(): null {
    latest = usePortalAuth();
    return null;
  }
  const h = React.createElement;
  const view = rtl.render(
    h(PortalAuthProvider, {
      settings,
      providerTimeoutMs,
      children: h(
        React.Fragment,
        null,
        h('header', null, h(AuthNavbarItem)),
        h('main', null, h('h1', null, 'API Gateway'), h('p', null, 'Every request enters through the gateway.')),
        h(AuthNotices),
        h(Probe),
      ),
    }),
  );
  return {
    screen: rtl.screen,
    act: rtl.act,
    fireEvent: rtl.fireEvent,
    waitFor: rtl.waitFor,
    auth: () => {
      if (!latest) {
        throw new Error('the page has not rendered');
      }
      return latest;
    },
    unmount: view.unmount,
  };
}

/**
 * Plays the provider's side of a sign-in: opens the authorize URL the app
 * navigated to, picks a test user, and returns the callback URL (with
 * `code` and `state`) the provider redirects back to.
 */
export async function completeSignInAtProvider(authorizeUrl: string, userId: string): Promise<string> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) {
    throw new Error(`authorize page answered ${page.status}: ${html}`);
  }
  const authorizationId = /name="authorization_id" value="([^"]+)"/.exec(html)?.[1];
  if (!authorizationId) {
    throw new Error('no authorization_id on the authorize page');
  }
  const done = await fetch(`${PROVIDER_ORIGIN}/user_management/authorize/complete`, {
    method: 'POST',
    headers: {'Content-Type': 'application/x-www-form-urlencoded'},
    body: new URLSearchParams({authorization_id: authorizationId, user_id: userId}).toString(),
    redirect: 'manual',
  });
  const location = done.headers.get('location');
  if (done.status !== 302 || !location) {
    throw new Error(`expected a redirect back to the site, got ${done.status}`);
  }
  return location;
}
