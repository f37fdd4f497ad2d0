import {render} from '@testing-library/react';
import {useAuth} from '@workos-inc/authkit-react';
import {safeReturnTo} from '../../src/auth/returnTo';
import {ProviderResponseError, readAccessTokenClaims, toAuthResponse, toUser} from '../../src/auth/adapters';
import usePortalAuth from '../../src/auth/usePortalAuth';

const ORIGIN = 'https://docs.example.com';

describe('return-to guard (open redirects)', () => {
  it.each([
    '//evil.example',
    '///evil.example',
    'https://evil.example/docs',
    'http://docs.example.com.evil.example/',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '/\\evil.example',
    '\\\\evil.example',
    '/%2F%2Fevil.example',
    '%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%252F%252Fevil.example',
    '/\tevil',
    '/.//evil.example',
    '/%2e//evil.example',
    '/././/evil.example/x',
    '/docs/..//evil.example',
    '/docs/%2e%2e//evil.example',
    '/docs\nSet-Cookie: x=1',
    'docs/relative',
    '',
    null,
    42,
  ])('rejects %p and falls back', (hostile) => {
    expect(safeReturnTo(hostile, ORIGIN, '/fallback')).toBe('/fallback');
  });

  it.each([
    ['/docs/', '/docs/'],
    [
      '/docs/internal-developers/services/api-gateway?tab=linux#rate-limiting',
      '/docs/internal-developers/services/api-gateway?tab=linux#rate-limiting',
    ],
    ['/', '/'],
  ])('accepts the same-origin path %p', (value, expected) => {
    expect(safeReturnTo(value, ORIGIN)).toBe(expected);
  });
});

describe('adapters', () => {
  const rawUser = {
    object: 'user',
    id: 'user_1',
    email: 'ada@acme.test',
    email_verified: true,
    first_name: 'Ada',
    last_name: null,
    profile_picture_url: 'https://img.example/ada.png',
    last_sign_in_at: '2025-06-01T10:00:00.000Z',
    external_id: 'ext-1',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-06-01T10:00:00.000Z',
  };
  const payload = Buffer.from(
    JSON.stringify({
      exp: 2000,
      iat: 1700,
      sid: 'session_1',
      org_id: 'org_1',
      role: 'admin',
      roles: ['admin'],
      permissions: ['docs:write'],
      feature_flags: ['beta'],
    }),
  ).toString('base64url');
  const token = `eyJhbGciOiJSUzI1NiJ9.${payload}.c2lnbmF0dXJl`;

  it('maps the provider user to the spec User', () => {
    expect(toUser(rawUser)).toEqual({
      object: 'user',
      id: 'user_1',
      email: 'ada@acme.test',
      emailVerified: true,
      firstName: 'Ada',
      lastName: null,
      profilePictureUrl: 'https://img.example/ada.png',
      lastSignInAt: '2025-06-01T10:00:00.000Z',
      externalId: 'ext-1',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-06-01T10:00:00.000Z',
    });
  });

  it('maps the authenticate response, keeping unknown fields and the impersonator', () => {
    const response = toAuthResponse({
      user: rawUser,
      organization_id: 'org_1',
      access_token: token,
      refresh_token: 'refresh',
      impersonator: {email: 'support@acme.test', reason: 'ticket 1'},
      authentication_method: 'Password',
    });
    expect(response).toMatchObject({
      organizationId: 'org_1',
      accessToken: token,
      refreshToken: 'refresh',
      impersonator: {email: 'support@acme.test', reason: 'ticket 1'},
    });
    expect(response.extra).toEqual({authentication_method: 'Password'});
  });

  it.each([[null], ['<html>'], [{user: {id: 'x'}, access_token: token}], [{user: rawUser}]])(
    'rejects a garbage response %p with a clear error',
    (garbage) => {
      expect(() => toAuthResponse(garbage)).toThrow(ProviderResponseError);
    },
  );

  it('reads the claims the portal uses', () => {
    expect(readAccessTokenClaims(token)).toEqual({
      exp: 2000,
      iat: 1700,
      sid: 'session_1',
      org_id: 'org_1',
      role: 'admin',
      roles: ['admin'],
      permissions: ['docs:write'],
      feature_flags: ['beta'],
    });
  });

  it.each(['not-a-jwt', 'a.b', 'a.b.c.d'])('rejects a token that is not three parts (%p) with "Invalid JWT format"', (malformed) => {
    expect(() => readAccessTokenClaims(malformed)).toThrow('Invalid JWT format');
  });
});

describe('hooks outside their provider', () => {
  function Probe({hook}: {hook: () => unknown}): null {
    hook();
    return null;
  }

  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('the SDK hook throws "useAuth must be used within an AuthKitProvider"', () => {
    expect(() => render(<Probe hook={useAuth} />)).toThrow('useAuth must be used within an AuthKitProvider');
  });

  it("the portal hook (what the site's components call) throws the spec's message too", () => {
    expect(() => render(<Probe hook={usePortalAuth} />)).toThrow('useAuth must be used within an AuthKitProvider');
  });
});
