/**
 * The gate's own session: a small signed cookie issued in exchange for a
 * verified provider access token. WorkOS access tokens carry every
 * permission of the role and can pass 12 KB, over the 4 KB browsers keep in
 * one cookie and over common header limits when sent on every request. The
 * session holds only what the access rules can ask about (the roles and
 * permissions that some rule names), the provider's session id, the user id
 * (`sub`, for the audit log) and the expiry, so it stays a few hundred bytes
 * whatever the token holds.
 *
 * HS256 (jose) with `PORTAL_SESSION_SECRET`; secrets listed after the first
 * still verify, so a rotation can keep sessions alive until they expire.
 */
import {randomUUID} from 'node:crypto';
import {errors, jwtVerify, SignJWT} from 'jose';
import type {Principal} from '../src/auth/access/rules';

export interface GateSession {
  /** Our id for this cookie (revocation on sign-out). */
  id: string;
  /** The provider's session id (`sid`). */
  providerSessionId: string;
  /** The provider's user id (`sub`): names the reader in the audit log. */
  subject: string;
  principal: Principal;
  /** Seconds since the epoch: the provider token's `exp`, or sooner (the gate's ceiling, DEFAULT_SESSION_MAX_AGE_S). */
  expiresAt: number;
}

export interface SessionCodec {
  issue(session: Omit<GateSession, 'id'>): Promise<{value: string; session: GateSession}>;
  /** The session, or null for anything not issued by us, expired or revoked. */
  read(value: string | undefined): Promise<GateSession | null>;
  /**
   * Refuses this cookie from now on (until it would expire anyway), and
   * ends its provider session here: a still-valid access token of that
   * session (`sid`) cannot start a new one after sign-out.
   */
  revoke(session: GateSession): void;
  /** Whether sign-out ended this provider session (`sid`) in this process. */
  providerSessionEnded(providerSessionId: string): boolean;
}

const ISSUER = 'developer-portal-gate';
export const MIN_SECRET_BYTES = 32;
/**
 * The longest a gate session lasts, whatever the token's `exp` says (s;
 * PORTAL_SESSION_MAX_AGE). WorkOS access tokens live 5 minutes by default
 * and the browser hands the gate every refreshed one, so an hour leaves a
 * wide margin for a longer token lifetime set in the dashboard while a
 * stolen or replayed cookie (sign-out is per process) opens nothing for
 * more than an hour, even for a token that claims to be valid for years.
 */
export const DEFAULT_SESSION_MAX_AGE_S = 60 * 60;
/**
 * How long an ended provider session is remembered (s): past the expiry of
 * any access token issued before sign-out (WorkOS's last 5 minutes by
 * default), as the provider ends the session itself and issues no new ones.
 */
const ENDED_SESSION_MEMORY_S = 60 * 60;
/** Verified cookies kept so that a member's next requests skip the HMAC; oldest dropped first. */
const VERIFIED_CACHE_SIZE = 10_000;

/** Whether a value has the three parts of a compact JWS (exactly two dots), without splitting it. */
function isCompactJws(value: string): boolean {
  const first = value.indexOf('.');
  const second = first === -1 ? -1 : value.indexOf('.', first + 1);
  return second !== -1 && value.indexOf('.', second + 1) === -1;
}

export function createSessionCodec({
  secrets,
  relevant,
  deployment,
}: {
  secrets: Uint8Array[];
  relevant: {roles: Set<string>; permissions: Set<string>};
  /**
   * Names who issued the session (accepted issuers, organisation, base URL):
   * a cookie from another deployment that happens to share the secret, such
   * as staging, is refused.
   */
  deployment: string;
}): SessionCodec {
  if (secrets.length === 0 || secrets.some((secret) => secret.length < MIN_SECRET_BYTES)) {
    throw new Error(`session secrets must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  const [signingSecret] = secrets as [Uint8Array, ...Uint8Array[]];
  // Revoked cookie ids → their expiry (s). Per process: another replica
  // accepts a replayed cookie until it expires (decisions/0004-access-in-detail.md).
  const revoked = new Map<string, number>();
  // Provider session ids ended by sign-out → until when they are refused (s). Per process too.
  const endedProviderSessions = new Map<string, number>();
  // Cookie value → the session it verified to. Only values this process has
  // verified are here, so a hit proves the signature as the first check did;
  // expiry and revocation are checked on every hit.
  const verified = new Map<string, GateSession>();

  function remember(value: string, session: GateSession): void {
    if (verified.size >= VERIFIED_CACHE_SIZE) {
      verified.delete(verified.keys().next().value as string);
    }
    verified.set(value, session);
  }

  function pruneRevoked(now: number): void {
    for (const list of [revoked, endedProviderSessions]) {
      for (const [id, until] of list) {
        if (until <= now) {
          list.delete(id);
        }
      }
    }
  }

  function providerSessionEnded(providerSessionId: string): boolean {
    const until = endedProviderSessions.get(providerSessionId);
    return until !== undefined && until > Math.floor(Date.now() / 1000);
  }

  return {
    async issue(session) {
      const full: GateSession = {
        ...session,
        id: randomUUID(),
        principal: {
          roles: session.principal.roles.filter((role) => relevant.roles.has(role)),
          permissions: session.principal.permissions.filter((permission) => relevant.permissions.has(permission)),
        },
      };
      const value = await new SignJWT({sid: full.providerSessionId, roles: full.principal.roles, permissions: full.principal.permissions})
        .setProtectedHeader({alg: 'HS256'})
        .setIssuer(ISSUER)
        .setSubject(full.subject)
        .setAudience(deployment)
        .setJti(full.id)
        .setIssuedAt()
        .setExpirationTime(full.expiresAt)
        .sign(signingSecret);
      return {value, session: full};
    },

    async read(value) {
      if (!value || value.length > 4096 || !isCompactJws(value)) {
        return null;
      }
      const now = Math.floor(Date.now() / 1000);
      const known = verified.get(value);
      if (known) {
        if (known.expiresAt > now && !revoked.has(known.id) && !providerSessionEnded(known.providerSessionId)) {
          return known;
        }
        verified.delete(value);
        return null;
      }
      for (const secret of secrets) {
        try {
          const {payload} = await jwtVerify(value, secret, {
            algorithms: ['HS256'],
            issuer: ISSUER,
            audience: deployment,
            requiredClaims: ['jti', 'exp', 'sid', 'sub'],
          });
          const list = (claim: unknown) => (Array.isArray(claim) ? claim.filter((item): item is string => typeof item === 'string') : []);
          const id = String(payload.jti);
          if (revoked.has(id) || providerSessionEnded(String(payload.sid))) {
            return null;
          }
          const session = {
            id,
            providerSessionId: String(payload.sid),
            subject: String(payload.sub),
            principal: {roles: list(payload.roles), permissions: list(payload.permissions)},
            expiresAt: payload.exp ?? 0,
          };
          remember(value, session);
          return session;
        } catch (error) {
          // Another secret may have signed it (rotation); anything else is no session.
          if (!(error instanceof errors.JWSSignatureVerificationFailed)) {
            return null;
          }
        }
      }
      return null;
    },

    revoke(session) {
      const now = Math.floor(Date.now() / 1000);
      pruneRevoked(now);
      if (session.expiresAt > now) {
        revoked.set(session.id, session.expiresAt);
      }
      endedProviderSessions.set(session.providerSessionId, Math.max(session.expiresAt, now + ENDED_SESSION_MEMORY_S));
    },

    providerSessionEnded,
  };
}
