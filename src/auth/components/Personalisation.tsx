/**
 * MDX components for personalising a page: <SignedIn>, <SignedOut>,
 * <IfAccess role=… permission=…>, <UserField name=…>. Registered in src/theme/MDXComponents
 * so doc authors can use them without imports.
 *
 * Personalisation only, NOT protection: whatever sits inside <SignedIn> or
 * <IfAccess> is still shipped in the page's HTML and JavaScript to every
 * reader. Pages are protected by their front-matter `access` rule and the
 * gate server; never put a secret inside these components.
 *
 * While the session loads (which is also the state during static rendering)
 * all four render nothing, so the server HTML holds none of them and
 * hydration never mismatches.
 */
import type {ReactNode} from 'react';
import usePortalAuth, {type PortalAuthValue} from '../usePortalAuth';
import {canRead, principalFromClaims} from '../access/rules';

const reported = new Set<string>();

/** Logs an author mistake once (per message), without breaking the page. */
function reportOnce(message: string): void {
  if (!reported.has(message)) {
    reported.add(message);
    console.error(`Developer Portal: ${message}`);
  }
}

/** Children only when a user is signed in. */
export function SignedIn({children}: {children?: ReactNode}): ReactNode {
  const {isLoading, user} = usePortalAuth();
  return !isLoading && user ? children : null;
}

/** Children only when the session has loaded and nobody is signed in (also when sign-in is unavailable). */
export function SignedOut({children}: {children?: ReactNode}): ReactNode {
  const {isLoading, user} = usePortalAuth();
  return !isLoading && !user ? children : null;
}

/** A string or a list of strings from MDX (untyped at runtime), as trimmed non-empty names. */
function toNames(value: unknown, component: string, prop: string): string[] {
  if (value === undefined || value === null) {
    return [];
  }
  const list: unknown[] = Array.isArray(value) ? value : [value];
  const names = list.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim());
  if (names.length !== list.length) {
    reportOnce(
      `<${component} ${prop}=…> expects a name or a list of names, got ${JSON.stringify(value)}; the invalid entries are ignored.`,
    );
  }
  return names;
}

export interface IfAccessProps {
  /** Any of these roles is enough (matched against the session's `roles` and `role`). */
  role?: string | string[];
  /** Every one of these permissions is needed. */
  permission?: string | string[];
  /** Shown to readers who do not match, including signed-out readers. Default: nothing. */
  fallback?: ReactNode;
  children?: ReactNode;
}

/**
 * Children when the signed-in user has one of `role` and all of `permission`
 * (the same rule as front-matter `access: {roles, permissions}`), else `fallback`.
 */
export function IfAccess({role, permission, fallback = null, children}: IfAccessProps): ReactNode {
  const auth = usePortalAuth();
  const roles = toNames(role, 'IfAccess', 'role');
  const permissions = toNames(permission, 'IfAccess', 'permission');
  if (roles.length === 0 && permissions.length === 0) {
    reportOnce('<IfAccess> needs a `role` or a `permission` prop (for example <IfAccess role="admin">); it renders nothing without one.');
    return null;
  }
  if (auth.isLoading) {
    return null;
  }
  const principal = auth.user ? principalFromClaims(auth) : null;
  return canRead({kind: 'roles', roles, permissions}, principal) ? children : fallback;
}

type FieldReader = (auth: PortalAuthValue) => string | null;

const FIELDS = {
  firstName: (auth) => auth.user?.firstName ?? null,
  lastName: (auth) => auth.user?.lastName ?? null,
  fullName: (auth) => (auth.user ? [auth.user.firstName, auth.user.lastName].filter(Boolean).join(' ') : null),
  email: (auth) => auth.user?.email ?? null,
  organizationId: (auth) => (auth.user ? auth.organizationId : null),
  role: (auth) => (auth.user ? auth.role : null),
} satisfies Record<string, FieldReader>;

export type UserFieldName = keyof typeof FIELDS;

export const USER_FIELD_NAMES = Object.keys(FIELDS) as UserFieldName[];

function isFieldName(name: unknown): name is UserFieldName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(FIELDS, name);
}

export interface UserFieldProps {
  name: UserFieldName;
  /** Shown when signed out or when the field is empty. Default: ''. */
  fallback?: string;
}

/** One field of the signed-in user, as plain text in a <span> (never parsed as HTML). */
export function UserField({name, fallback = ''}: UserFieldProps): ReactNode {
  const auth = usePortalAuth();
  const fallbackText = typeof fallback === 'string' ? fallback : '';
  const known = isFieldName(name);
  if (!known) {
    // MDX is untyped: the name can be anything at runtime.
    const raw: unknown = name;
    const shown = typeof raw === 'string' ? JSON.stringify(raw) : `{${String(raw)}}`;
    reportOnce(`<UserField name=${shown}> is not a known field; use one of ${USER_FIELD_NAMES.join(', ')}.`);
  }
  if (auth.isLoading) {
    return null;
  }
  const value = known ? FIELDS[name](auth) : null;
  const text = value || fallbackText;
  return text ? <span>{text}</span> : null;
}
