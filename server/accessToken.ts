/**
 * Verifies a provider access token: the one check behind both the session
 * endpoint (`POST _portal/session`, which turns it into the gate's cookie)
 * and the MCP endpoint (`Authorization: Bearer`, ./mcp/route.ts). Signature
 * against the provider's keys (./keys.ts), expiry, issued-at, session id,
 * issuer, client and organisation, and size limits.
 */
import {jwtVerify, type JWTPayload} from 'jose';
import {principalFromClaims, type Principal} from '../src/auth/access/rules';
import {KeysUnavailableError, type KeyStore} from './keys';

/** How far in the future a token's `iat` may be (clock skew between the provider and this machine), in seconds. */
const MAX_IAT_SKEW_S = 60;
/** Access tokens past this size are refused before any parsing (WorkOS tokens with every permission stay well below). */
export const MAX_TOKEN_BYTES = 64 * 1024;
/** Longest `sid` or `sub` accepted (characters): they go into the session cookie, which browsers keep only under 4 KB. */
const MAX_ID_LENGTH = 256;

export interface VerifiedAccessToken {
  principal: Principal;
  sid: string;
  sub: string;
  exp: number;
}

export type AccessTokenVerdict = VerifiedAccessToken | 'refused' | 'keys-unavailable';

export interface AccessTokenPolicy {
  keys: KeyStore;
  /** Accepted `iss` values. */
  issuers: string[];
  /** The provider client whose tokens are accepted (see issuedToThisClient). */
  clientId: string;
  /** When set, tokens must carry this `org_id`. */
  organizationId: string | null;
}

/**
 * Whether the token was issued to this portal's client. WorkOS documents
 * its session (access) tokens with `iss`, `sub`, `sid`, `org_id`, `role`,
 * `roles`, `permissions`, `jti`, `exp`, `iat`; the reference example
 * shows `"iss": "https://api.workos.com"`
 * (https://workos.com/docs/reference/authkit/session-tokens), while tokens
 * seen in practice name the client in the issuer,
 * `https://<api host>/user_management/<client id>` (the shape WorkOS's
 * Node SDK suggests for its `issuer` option, and the one the local
 * provider signs). Its Connect tokens carry `aud` and `client_id`
 * (https://workos.com/docs/authkit/connect/token-claims). So: a token is
 * bound when its issuer ends with the client id, or when its `aud` or
 * `client_id` names it; any `aud` or `client_id` it carries must name it.
 * A token of another client of the same environment (same keys, same bare
 * issuer) is refused.
 */
function issuedToClient(payload: JWTPayload, expectedClientId: string): boolean {
  const {aud, client_id: clientId} = payload;
  if (aud !== undefined && !(typeof aud === 'string' ? aud === expectedClientId : Array.isArray(aud) && aud.includes(expectedClientId))) {
    return false;
  }
  if (clientId !== undefined && clientId !== expectedClientId) {
    return false;
  }
  return (typeof payload.iss === 'string' && payload.iss.endsWith(`/${expectedClientId}`)) || aud !== undefined || clientId !== undefined;
}

/** The verified access token's claims, or why not. */
export function createAccessTokenVerifier(policy: AccessTokenPolicy): (token: unknown) => Promise<AccessTokenVerdict> {
  return async (token) => {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_BYTES || token.split('.').length !== 3) {
      return 'refused';
    }
    try {
      const {payload} = await jwtVerify(token, policy.keys.getKey, {
        algorithms: ['RS256'],
        issuer: policy.issuers,
        requiredClaims: ['exp', 'iat', 'sid'],
      });
      if (policy.organizationId && payload.org_id !== policy.organizationId) {
        return 'refused';
      }
      const {sid, sub, exp, iat} = payload;
      // A session needs an id (sign-out ends it by `sid`) and a reader (`sub`, for the audit log),
      // each short enough to keep the session cookie small (WorkOS ids are about 30 characters).
      const isId = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= MAX_ID_LENGTH;
      if (!isId(sid) || !isId(sub) || typeof exp !== 'number') {
        return 'refused';
      }
      // Issued in the future: a clock or a signer not to trust (jose only checks that `iat` is a number).
      if (typeof iat !== 'number' || iat > Math.floor(Date.now() / 1000) + MAX_IAT_SKEW_S) {
        return 'refused';
      }
      if (!issuedToClient(payload, policy.clientId)) {
        return 'refused';
      }
      const {role, roles, permissions} = payload;
      return {principal: principalFromClaims({role, roles, permissions}), sid, sub, exp};
    } catch (error) {
      return error instanceof KeysUnavailableError ? 'keys-unavailable' : 'refused';
    }
  };
}
