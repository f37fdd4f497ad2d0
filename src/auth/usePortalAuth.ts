import {useContext} from 'react';
import {PortalAuthContext, type PortalAuthValue} from './PortalAuthProvider';

/**
 * The spec's auth context (state and actions) plus the portal's notices.
 * Throws when used outside PortalAuthProvider, like the SDK's useAuth.
 */
export default function usePortalAuth(): PortalAuthValue {
  const value = useContext(PortalAuthContext);
  if (!value) {
    throw new Error('usePortalAuth must be used within a PortalAuthProvider (src/theme/Root.tsx)');
  }
  return value;
}
