/**
 * The body of a page withheld from the public build: what each reader is told.
 */
import {renderToString} from 'react-dom/server';
import {act, cleanup, fireEvent, render, screen} from '@testing-library/react';
import {PortalAuthContext, type PortalAuthValue} from '../../src/auth/usePortalAuth';
import {authValue} from '../support/authValue';
import RestrictedPage from '../../src/auth/access/RestrictedPage';
import {setDocFrontMatter} from '../support/docusaurus/docsClient';
import {recordGateSync} from '../../src/auth/access/gateSession';
import {navigations} from '../support/navigations';

const DEVON = {
  object: 'user' as const,
  id: 'user_developer',
  email: 'devon@acme.test',
  emailVerified: true,
  firstName: 'Devon',
  lastName: 'Developer',
  profilePictureUrl: null,
  lastSignInAt: null,
  externalId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const show = (value: PortalAuthValue) =>
  render(
    <PortalAuthContext.Provider value={value}>
      <RestrictedPage />
    </PortalAuthContext.Provider>,
  );

afterEach(() => {
  document.cookie = 'portal_gate=; Max-Age=0; Path=/';
  recordGateSync('no-gate');
  window.sessionStorage.clear();
  navigations().length = 0;
});

describe('restricted page', () => {
  it('asks a signed-out reader to sign in, and starts sign-in from the page', () => {
    setDocFrontMatter({portal_access: {kind: 'signed-in'}});
    const signIn = jest.fn(async () => undefined);
    show(authValue({signIn}));
    expect(screen.getByRole('status')).toHaveTextContent('Sign in to read this page');
    fireEvent.click(screen.getByRole('button', {name: 'Sign in'}));
    expect(signIn).toHaveBeenCalledTimes(1);
  });

  it('renders the loading state on the server, with the button present but disabled (no layout shift)', () => {
    setDocFrontMatter({portal_access: {kind: 'signed-in'}});
    const html = renderToString(
      <PortalAuthContext.Provider value={authValue({isLoading: true})}>
        <RestrictedPage />
      </PortalAuthContext.Provider>,
    );
    expect(html).toContain('Sign in to read this page');
    expect(html).toMatch(/<button[^>]*disabled/);
  });

  it('tells a signed-out reader which role a page needs before they sign in', () => {
    setDocFrontMatter({portal_access: {kind: 'roles', roles: ['admin'], permissions: []}});
    show(authValue({}));
    expect(screen.getByRole('status')).toHaveTextContent('Sign in to read this page');
    expect(
      screen.getByText(/This page is for signed-in members of the organisation\. You need the admin role to read this page\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', {name: 'Sign in'})).toBeEnabled();
  });

  it('tells a signed-in reader without the role which role they need', () => {
    setDocFrontMatter({portal_access: {kind: 'roles', roles: ['admin'], permissions: []}});
    show(authValue({user: DEVON, role: 'member', roles: ['member'], permissions: ['docs:read']}));
    expect(screen.getByRole('status')).toHaveTextContent('You need the admin role');
    expect(screen.queryByRole('button', {name: 'Sign in'})).toBeNull();
  });

  it('says the members’ version is loading when a gate serves the site, and that it is not published on a static host', () => {
    setDocFrontMatter({portal_access: {kind: 'signed-in'}});
    const signedIn = authValue({user: DEVON, role: 'member', roles: ['member']});
    const {unmount} = show(signedIn);
    expect(screen.getByRole('status')).toHaveTextContent('Not published on this site');
    unmount();
    document.cookie = 'portal_gate=1; Path=/';
    show(signedIn);
    expect(screen.getByRole('status')).toHaveTextContent('Opening the page for members');
  });

  it('tells a signed-in reader whose browser blocks cookies that members’ pages need one, not that they are unpublished', () => {
    setDocFrontMatter({portal_access: {kind: 'signed-in'}});
    Object.defineProperty(window.navigator, 'cookieEnabled', {value: false, configurable: true});
    try {
      show(authValue({user: DEVON, role: 'member', roles: ['member']}));
      expect(screen.getByRole('status')).toHaveTextContent('Your browser blocks cookies for this site');
      fireEvent.click(screen.getByRole('button', {name: 'Reload'}));
      expect(navigations()).toHaveLength(1);
    } finally {
      Reflect.deleteProperty(window.navigator, 'cookieEnabled');
    }
    expect(window.navigator.cookieEnabled).toBe(true);
  });

  describe('a page the reader may read, reached inside the public build (after the gate answered for a page they may not)', () => {
    const signedIn = authValue({user: DEVON, role: 'member', roles: ['member']});
    beforeEach(() => {
      setDocFrontMatter({portal_access: {kind: 'signed-in'}});
      document.cookie = 'portal_gate=1; Path=/';
      window.history.replaceState(null, '', '/docs/deployment/guide?tab=aws#rollback');
    });

    it('loads the page again once the gate holds the session, so the gate serves the members’ version', () => {
      show(signedIn);
      expect(navigations()).toEqual([]);
      act(() => recordGateSync('renewed'));
      expect(navigations()).toEqual(['reload http://localhost/docs/deployment/guide?tab=aws#rollback']);
      expect(screen.getByRole('status')).toHaveTextContent('Opening the page for members');
    });

    it('does not loop: after a reload that did not help, it says so and offers one', () => {
      act(() => recordGateSync('renewed'));
      show(signedIn);
      expect(navigations()).toHaveLength(1);
      // The gate answered with the public page again (its session ended in between).
      cleanup();
      show(signedIn);
      expect(navigations()).toHaveLength(1);
      expect(screen.getByRole('status')).toHaveTextContent('The members’ version did not open');
      fireEvent.click(screen.getByRole('button', {name: 'Reload'}));
      expect(navigations()).toHaveLength(2);
    });

    it('never reloads while the gate has no session for the tab, and says why when it refused or could not check it', () => {
      const signOut = jest.fn();
      show({...signedIn, signOut});
      expect(screen.getByRole('status')).toHaveTextContent('Opening the page for members');
      act(() => recordGateSync('refused'));
      expect(navigations()).toEqual([]);
      expect(screen.getByRole('status')).toHaveTextContent('The portal’s server did not accept your sign-in');
      expect(screen.getByText(/another organisation/)).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', {name: 'Sign out'}));
      expect(signOut).toHaveBeenCalledTimes(1);

      act(() => recordGateSync('blocked'));
      expect(navigations()).toEqual([]);
      expect(screen.getByRole('status')).toHaveTextContent('The portal’s server refused this page’s sign-in request');
      expect(screen.getByText(/not at your account/)).toBeInTheDocument();
      expect(screen.queryByRole('button', {name: 'Sign out'})).toBeNull();

      act(() => recordGateSync('failed'));
      expect(navigations()).toEqual([]);
      expect(screen.getByRole('status')).toHaveTextContent('The portal’s server could not check your sign-in');
      fireEvent.click(screen.getByRole('button', {name: 'Reload'}));
      expect(navigations()).toHaveLength(1);
    });

    it('opens the members’ version once the gate, unavailable at first, takes the session', () => {
      show(signedIn);
      act(() => recordGateSync('failed'));
      expect(navigations()).toEqual([]);
      act(() => recordGateSync('started'));
      expect(navigations()).toEqual(['reload http://localhost/docs/deployment/guide?tab=aws#rollback']);
    });

    it('offers the reload instead of reloading when storage is unusable (no loop guard)', () => {
      const getItem = jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
        throw new DOMException('blocked', 'SecurityError');
      });
      try {
        act(() => recordGateSync('renewed'));
        show(signedIn);
        expect(navigations()).toEqual([]);
        expect(screen.getByRole('button', {name: 'Reload'})).toBeInTheDocument();
      } finally {
        getItem.mockRestore();
      }
    });
  });

  it('explains when sign-in is not available at all', () => {
    setDocFrontMatter({portal_access: {kind: 'signed-in'}});
    show(authValue({available: false}));
    expect(screen.getByText(/Sign-in is not available on this site/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
