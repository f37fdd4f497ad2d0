/**
 * The spec's entities (section 3) as the portal uses them, independent of
 * the SDK's own types so a change in the SDK shows up in `adapters.ts` only.
 */

export interface User {
  object: 'user';
  id: string;
  email: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  profilePictureUrl: string | null;
  lastSignInAt: string | null;
  externalId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Impersonator {
  email: string;
  reason: string | null;
}

export interface AuthResponse {
  user: User;
  organizationId: string | null;
  accessToken: string;
  refreshToken: string;
  impersonator: Impersonator | null;
  /** Fields the provider sent that the portal does not model, kept as they came. */
  extra: Record<string, unknown>;
}

/** The access-token claims the portal reads. */
export interface AccessTokenClaims {
  exp: number;
  iat: number;
  sid: string;
  org_id: string | null;
  role: string | null;
  roles: string[];
  permissions: string[];
  feature_flags: string[];
}

/** Auth context state (spec section 3). */
export interface AuthState {
  isLoading: boolean;
  user: User | null;
  role: string | null;
  roles: string[];
  organizationId: string | null;
  permissions: string[];
  featureFlags: string[];
  impersonator: Impersonator | null;
}

/** Auth context actions (spec section 3). */
export interface AuthActions {
  signIn: () => Promise<void>;
  signUp: () => Promise<void>;
  signOut: () => void;
  getAccessToken: (options?: {forceRefresh?: boolean}) => Promise<string>;
  getUser: () => User | null;
  switchToOrganization: (organizationId: string) => Promise<void>;
}
