import {createContext, useContext} from 'react';
import type {AuthActions, AuthState} from './entities';
import type {AuthNotice} from './signIn/notices';

export interface PortalAuthValue extends AuthState, AuthActions {
  /** Whether sign-in UI should be offered at all. */
  available: boolean;
  notice: AuthNotice | null;
  dismissNotice: () => void;
}

export const SIGNED_OUT: AuthState = {
  isLoading: false,
  user: null,
  role: null,
  roles: [],
  organizationId: null,
  permissions: [],
  featureFlags: [],
  impersonator: null,
};

/** Provided by PortalAuthProvider (src/theme/Root.tsx). */
export const PortalAuthContext = createContext<PortalAuthValue | null>(null);

/**
 * The spec's auth context (state and actions) plus the portal's notices.
 * Throws when used outside PortalAuthProvider with the spec's message, the
 * SDK's own for its useAuth.
 */
export default function usePortalAuth(): PortalAuthValue {
  const value = useContext(PortalAuthContext);
  if (!value) {
    throw new Error('useAuth must be used within an AuthKitProvider');
  }
  return value;
}
