import {SIGNED_OUT, type PortalAuthValue} from '../../src/auth/usePortalAuth';

/** A hand-built auth context value for component tests: signed out and loaded unless overridden. */
export function authValue(overrides: Partial<PortalAuthValue> = {}): PortalAuthValue {
  return {
    ...SIGNED_OUT,
    available: true,
    notice: null,
    dismissNotice: () => undefined,
    signIn: async () => undefined,
    signUp: async () => undefined,
    signOut: () => undefined,
    getAccessToken: async () => 'token',
    getUser: () => overrides.user ?? null,
    switchToOrganization: async () => undefined,
    ...overrides,
  };
}
