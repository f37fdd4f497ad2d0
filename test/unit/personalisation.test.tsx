import type {ReactNode} from 'react';
import {renderToString} from 'react-dom/server';
import {render} from '@testing-library/react';
import {PortalAuthContext, type PortalAuthValue} from '../../src/auth/usePortalAuth';
import {authValue} from '../support/authValue';
import type {User} from '../../src/auth/entities';
import {IfAccess, SignedIn, SignedOut, UserField, type UserFieldName} from '../../src/auth/components/Personalisation';
import MDXComponents from '../../src/theme/MDXComponents';

// The stock components the wrapped swizzle spreads; only Docusaurus's bundler resolves the real ones.
jest.mock('@theme-original/MDXComponents', () => ({__esModule: true, default: {p: 'p'}}), {virtual: true});

const ADA: User = {
  object: 'user',
  id: 'user_1',
  email: 'ada@acme.test',
  emailVerified: true,
  firstName: 'Ada',
  lastName: 'Lovelace',
  profilePictureUrl: null,
  lastSignInAt: null,
  externalId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const LOADING = authValue({isLoading: true});
const SIGNED_OUT = authValue();
const UNAVAILABLE = authValue({available: false});
const signedIn = (overrides: Partial<PortalAuthValue> = {}) =>
  authValue({user: ADA, organizationId: 'org_1', role: 'member', roles: ['member'], ...overrides});

function renderWith(value: PortalAuthValue, ui: ReactNode) {
  return render(<PortalAuthContext.Provider value={value}>{ui}</PortalAuthContext.Provider>);
}

function textWith(value: PortalAuthValue, ui: ReactNode): string {
  return renderWith(value, ui).container.textContent ?? '';
}

const ALL_FOUR = (
  <>
    <SignedIn>in</SignedIn>
    <SignedOut>out</SignedOut>
    <IfAccess role="member" fallback="no-role">
      role
    </IfAccess>
    <UserField name="email" fallback="nobody" />
  </>
);

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  jest.restoreAllMocks();
});

describe('while the session loads', () => {
  it('renders nothing for all four, even for a signed-in value', () => {
    // The same components render text once loaded, so this is not vacuous.
    expect(textWith(signedIn(), ALL_FOUR)).toBe('inrole' + 'ada@acme.test');
    expect(renderWith(LOADING, ALL_FOUR).container).toBeEmptyDOMElement();
    expect(renderWith({...signedIn(), isLoading: true}, ALL_FOUR).container).toBeEmptyDOMElement();
  });

  it('renders nothing into the server HTML', () => {
    const html = renderToString(<PortalAuthContext.Provider value={LOADING}>{ALL_FOUR}</PortalAuthContext.Provider>);
    expect(html).toBe('');
    // Sanity check: the same tree does produce server HTML once loaded.
    expect(renderToString(<PortalAuthContext.Provider value={SIGNED_OUT}>{ALL_FOUR}</PortalAuthContext.Provider>)).toContain('out');
  });
});

describe('SignedIn and SignedOut', () => {
  const both = (
    <>
      <SignedIn>Welcome back</SignedIn>
      <SignedOut>Please sign in</SignedOut>
    </>
  );

  it('shows SignedOut only when nobody is signed in', () => {
    expect(textWith(SIGNED_OUT, both)).toBe('Please sign in');
  });

  it('shows SignedOut when sign-in is unavailable', () => {
    expect(textWith(UNAVAILABLE, both)).toBe('Please sign in');
  });

  it('shows SignedIn only when a user is signed in', () => {
    expect(textWith(signedIn(), both)).toBe('Welcome back');
  });
});

describe('IfAccess', () => {
  it('renders the children for any one of the roles, from roles or role', () => {
    expect(textWith(signedIn({roles: ['member']}), <IfAccess role={['admin', 'member']}>yes</IfAccess>)).toBe('yes');
    expect(textWith(signedIn({role: 'admin', roles: []}), <IfAccess role="admin">yes</IfAccess>)).toBe('yes');
  });

  it('renders the fallback when the user has none of the roles, and nothing by default', () => {
    expect(
      textWith(
        signedIn(),
        <IfAccess role={['admin', 'owner']} fallback="Ask an admin">
          yes
        </IfAccess>,
      ),
    ).toBe('Ask an admin');
    expect(renderWith(signedIn(), <IfAccess role="admin">yes</IfAccess>).container).toBeEmptyDOMElement();
  });

  it('needs every permission', () => {
    const user = signedIn({permissions: ['services:read', 'services:deploy']});
    expect(textWith(user, <IfAccess permission={['services:read', 'services:deploy']}>deploy</IfAccess>)).toBe('deploy');
    expect(
      textWith(
        user,
        <IfAccess permission={['services:deploy', 'billing:read']} fallback="no">
          deploy
        </IfAccess>,
      ),
    ).toBe('no');
  });

  it('needs both the role and the permissions when given both', () => {
    const user = signedIn({role: 'admin', roles: ['admin'], permissions: ['services:read']});
    expect(
      textWith(
        user,
        <IfAccess role="admin" permission="services:read">
          both
        </IfAccess>,
      ),
    ).toBe('both');
    expect(
      textWith(
        user,
        <IfAccess role="admin" permission="services:deploy" fallback="no">
          both
        </IfAccess>,
      ),
    ).toBe('no');
    expect(
      textWith(
        user,
        <IfAccess role="owner" permission="services:read" fallback="no">
          both
        </IfAccess>,
      ),
    ).toBe('no');
  });

  it('renders the fallback when signed out', () => {
    expect(
      textWith(
        SIGNED_OUT,
        <IfAccess role="member" fallback="Sign in first">
          yes
        </IfAccess>,
      ),
    ).toBe('Sign in first');
  });

  it('renders nothing and logs once, without throwing, when neither role nor permission is given', () => {
    const ui = <IfAccess fallback="fallback">secret</IfAccess>;
    expect(renderWith(signedIn(), ui).container).toBeEmptyDOMElement();
    renderWith(signedIn(), ui);
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('<IfAccess> needs a `role` or a `permission`'));
  });
});

describe('UserField', () => {
  it.each<[UserFieldName, string]>([
    ['firstName', 'Ada'],
    ['lastName', 'Lovelace'],
    ['fullName', 'Ada Lovelace'],
    ['email', 'ada@acme.test'],
    ['organizationId', 'org_1'],
    ['role', 'member'],
  ])('renders %s as %p in a span', (name, expected) => {
    const {container} = renderWith(signedIn(), <UserField name={name} />);
    expect(container.innerHTML).toBe(`<span>${expected}</span>`);
  });

  it('joins only the names present in fullName, and uses the fallback for a missing field', () => {
    const onlyFirst = signedIn({user: {...ADA, lastName: null}});
    expect(textWith(onlyFirst, <UserField name="fullName" />)).toBe('Ada');
    expect(textWith(onlyFirst, <UserField name="lastName" fallback="(no last name)" />)).toBe('(no last name)');
    expect(textWith(signedIn({user: {...ADA, firstName: null, lastName: null}}), <UserField name="fullName" fallback="colleague" />)).toBe(
      'colleague',
    );
  });

  it('renders the fallback, or nothing, when signed out', () => {
    expect(textWith(SIGNED_OUT, <UserField name="email" fallback="guest" />)).toBe('guest');
    expect(renderWith(SIGNED_OUT, <UserField name="firstName" />).container).toBeEmptyDOMElement();
  });

  it('renders markup in a value as text, not HTML', () => {
    const {container} = renderWith(signedIn({user: {...ADA, firstName: '<b>x</b>'}}), <UserField name="firstName" />);
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('<b>x</b>');
    expect(container.innerHTML).toBe('<span>&lt;b&gt;x&lt;/b&gt;</span>');
  });

  it('renders the fallback for an unknown name and logs the bad name once', () => {
    const ui = <UserField name={'password' as UserFieldName} fallback="?" />;
    expect(textWith(signedIn(), ui)).toBe('?');
    renderWith(signedIn(), ui);
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('<UserField name="password"> is not a known field'));
  });

  it('does not read inherited properties for a name like "constructor"', () => {
    expect(textWith(signedIn(), <UserField name={'constructor' as UserFieldName} fallback="?" />)).toBe('?');
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('"constructor"'));
  });
});

describe('MDX registration', () => {
  it('offers the four components to every doc without an import', () => {
    expect(MDXComponents).toMatchObject({p: 'p', SignedIn, SignedOut, IfAccess, UserField});
  });
});
