import {useContext} from 'react';
import {PortalAuthContext, type PortalAuthValue} from './PortalAuthProvider';

/**
 * The spec's auth context (state and actions) plus the portal's notices.
 * Throws when used outside PortalAuthProvider (src/theme/Root.tsx) with the
 * spec's message, the SDK's own for its useAuth.
 */
export default function usePortalAuth(): PortalAuthValue {
  const value = useContext(PortalAuthContext);
  if (!value) {
    throw new Error('useAuth must be used within an AuthKitProvider');
  }
  return value;
}
