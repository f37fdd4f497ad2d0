/**
 * Thin adapters from what the provider (or the SDK) returns to the spec's
 * entities. They validate as they map: a provider answering garbage gives a
 * ProviderResponseError with a clear message instead of a half-built user.
 */
import {getClaims} from '@workos-inc/authkit-js';
import type {AccessTokenClaims, AuthResponse, AuthState, Impersonator, User} from './entities';

export class ProviderResponseError extends Error {
  constructor(message: string) {
    super(`Unexpected response from the sign-in provider: ${message}`);
    this.name = 'ProviderResponseError';
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(source: Json, key: string, context: string): string {
  const value = source[key];
  if (typeof value !== 'string' || value === '') {
    throw new ProviderResponseError(`${context}.${key} must be a non-empty string`);
  }
  return value;
}

function optionalString(source: Json, key: string): string | null {
  const value = source[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * Maps a user from the provider's snake_case JSON (`email_verified`) or the
 * SDK's camelCase object (`emailVerified`) to the spec's User.
 */
export function toUser(raw: unknown): User {
  if (!isObject(raw)) {
    throw new ProviderResponseError('user must be an object');
  }
  const pick = (snake: string, camel: string) => (snake in raw ? raw[snake] : raw[camel]);
  const view: Json = {
    id: raw.id,
    email: raw.email,
    emailVerified: pick('email_verified', 'emailVerified'),
    firstName: pick('first_name', 'firstName'),
    lastName: pick('last_name', 'lastName'),
    profilePictureUrl: pick('profile_picture_url', 'profilePictureUrl'),
    lastSignInAt: pick('last_sign_in_at', 'lastSignInAt'),
    externalId: pick('external_id', 'externalId'),
    createdAt: pick('created_at', 'createdAt'),
    updatedAt: pick('updated_at', 'updatedAt'),
  };
  return {
    object: 'user',
    id: requireString(view, 'id', 'user'),
    email: requireString(view, 'email', 'user'),
    emailVerified: view.emailVerified === true,
    firstName: optionalString(view, 'firstName'),
    lastName: optionalString(view, 'lastName'),
    profilePictureUrl: optionalString(view, 'profilePictureUrl'),
    lastSignInAt: optionalString(view, 'lastSignInAt'),
    externalId: optionalString(view, 'externalId'),
    createdAt: requireString(view, 'createdAt', 'user'),
    updatedAt: requireString(view, 'updatedAt', 'user'),
  };
}

export function toImpersonator(raw: unknown): Impersonator | null {
  if (!isObject(raw) || typeof raw.email !== 'string') {
    return null;
  }
  return {email: raw.email, reason: typeof raw.reason === 'string' ? raw.reason : null};
}

const KNOWN_RESPONSE_KEYS = new Set([
  'user',
  'organization_id',
  'organizationId',
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'impersonator',
]);

/**
 * Maps an authenticate response to the spec's Auth response: the provider's
 * snake_case JSON, or the SDK's camelCase `onRefresh` payload (which leaves
 * the refresh token out).
 */
export function toAuthResponse(raw: unknown): AuthResponse {
  if (!isObject(raw)) {
    throw new ProviderResponseError('the authenticate response must be a JSON object');
  }
  const camel = 'accessToken' in raw;
  const accessToken = requireString(raw, camel ? 'accessToken' : 'access_token', 'response');
  // Throws "Invalid JWT format" for a token that is not three parts (the claims themselves come from the SDK).
  getClaims(accessToken);
  const extra = Object.fromEntries(Object.entries(raw).filter(([key]) => !KNOWN_RESPONSE_KEYS.has(key)));
  const refreshToken = raw[camel ? 'refreshToken' : 'refresh_token'];
  return {
    user: toUser(raw.user),
    organizationId: optionalString(raw, camel ? 'organizationId' : 'organization_id'),
    accessToken,
    refreshToken: typeof refreshToken === 'string' ? refreshToken : '',
    impersonator: toImpersonator(raw.impersonator),
    extra,
  };
}

/** The session facts authkit-react's useAuth() holds besides the user. */
export type SessionFacts = Pick<AuthState, 'role' | 'roles' | 'organizationId' | 'permissions' | 'featureFlags' | 'impersonator'>;

/**
 * The session facts as the SDK's useAuth() gives them (it reads role, roles,
 * permissions and feature flags from the access token, the organisation and
 * impersonator from the provider's answer), checked as the other adapters
 * check: a value of the wrong shape (a garbage token) reads as absent, and
 * the SDK's `roles: null` as no roles.
 */
export function toSessionFacts(sdk: Partial<Record<keyof SessionFacts, unknown>>): SessionFacts {
  return {
    role: typeof sdk.role === 'string' ? sdk.role : null,
    roles: stringList(sdk.roles),
    organizationId: typeof sdk.organizationId === 'string' && sdk.organizationId !== '' ? sdk.organizationId : null,
    permissions: stringList(sdk.permissions),
    featureFlags: stringList(sdk.featureFlags),
    impersonator: toImpersonator(sdk.impersonator),
  };
}

const reported = new Set<string>();

/**
 * For rendering: the adapters' result, or null (shown as signed out) when the
 * provider's answer does not fit; the problem is logged once, never thrown
 * into a render.
 */
export function orNull<T>(adapt: () => T, what: string): T | null {
  try {
    return adapt();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!reported.has(message)) {
      reported.add(message);
      console.error(`Developer Portal: ignoring ${what}. ${message}`);
    }
    return null;
  }
}

/**
 * Reads the claims the portal uses. A token that is not three dot-separated
 * parts throws "Invalid JWT format" (from the SDK's decoder).
 */
export function readAccessTokenClaims(accessToken: string): AccessTokenClaims {
  const claims: Json = getClaims(accessToken);
  const number = (key: string) => (typeof claims[key] === 'number' ? (claims[key] as number) : 0);
  return {
    exp: number('exp'),
    iat: number('iat'),
    sid: typeof claims.sid === 'string' ? claims.sid : '',
    org_id: typeof claims.org_id === 'string' ? claims.org_id : null,
    role: typeof claims.role === 'string' ? claims.role : null,
    roles: stringList(claims.roles),
    permissions: stringList(claims.permissions),
    feature_flags: stringList(claims.feature_flags),
  };
}
