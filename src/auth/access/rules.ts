/**
 * Who may read a page. Written in a doc's front matter (`access:`) or as a
 * folder default in its `_category_.json` (`customProps.access`):
 *
 *   access: public                      anyone (the default)
 *   access: signed-in                   any signed-in member of the organisation
 *   access: {roles: [admin], permissions: [services:deploy]}
 *
 * `roles` is any-of (one of the listed roles is enough), `permissions` is
 * all-of (every listed permission is needed); a rule with both needs both.
 * Shared by the build (which pages to withhold), the gate server (which
 * build to serve) and the browser (locks and "you need the … role"), so the
 * three can never disagree. No imports: it runs in all three places.
 */

export type AccessRule = {kind: 'public'} | {kind: 'signed-in'} | {kind: 'roles'; roles: string[]; permissions: string[]};

/** What the reader holds: from the verified access token on the server, from the SDK in the browser. */
export interface Principal {
  roles: string[];
  permissions: string[];
}

export const PUBLIC_RULE: AccessRule = {kind: 'public'};
export const SIGNED_IN_RULE: AccessRule = {kind: 'signed-in'};

/** Where the access plugin writes a restricted page's rule for the browser (the page's front matter). */
export const RULE_FRONT_MATTER_KEY = 'portal_access';

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The reader's roles and permissions from access-token claims (or the SDK's
 * state, which mirrors them): `roles` together with the single `role`, and
 * `permissions`. The one place that reads them, for the gate and the browser.
 */
export function principalFromClaims(claims: {
  readonly role?: unknown;
  readonly roles?: unknown;
  readonly permissions?: unknown;
}): Principal {
  const roles = stringList(claims.roles);
  if (typeof claims.role === 'string' && claims.role !== '' && !roles.includes(claims.role)) {
    roles.push(claims.role);
  }
  return {roles, permissions: stringList(claims.permissions)};
}

/** Every role and permission some rule asks about: all a session needs to hold. */
export function namesRulesUse(rules: AccessRule[]): {roles: Set<string>; permissions: Set<string>} {
  const roles = new Set<string>();
  const permissions = new Set<string>();
  for (const rule of rules) {
    if (rule.kind === 'roles') {
      rule.roles.forEach((role) => roles.add(role));
      rule.permissions.forEach((permission) => permissions.add(permission));
    }
  }
  return {roles, permissions};
}

function names(value: unknown, field: string, where: string): string[] {
  if (value === undefined) {
    return [];
  }
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new Error(`${where}: access.${field} must be a list of names, got ${JSON.stringify(value)}`);
  }
  return list.map((item: string) => item.trim());
}

/**
 * Validates a front-matter value. Throws with the file and the accepted forms
 * on anything else, which stops the build: a typo must never publish a page.
 */
export function parseAccessRule(value: unknown, where: string): AccessRule {
  if (value === undefined || value === null || value === 'public') {
    return PUBLIC_RULE;
  }
  if (value === 'signed-in') {
    return {kind: 'signed-in'};
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const {roles, permissions, ...rest} = value as Record<string, unknown>;
    const unknownKeys = Object.keys(rest);
    if (unknownKeys.length > 0) {
      throw new Error(`${where}: unknown access field(s) ${unknownKeys.join(', ')}; use roles and/or permissions`);
    }
    const rule = {kind: 'roles' as const, roles: names(roles, 'roles', where), permissions: names(permissions, 'permissions', where)};
    if (rule.roles.length === 0 && rule.permissions.length === 0) {
      throw new Error(`${where}: access needs at least one role or permission (or use "signed-in")`);
    }
    return rule;
  }
  throw new Error(`${where}: access must be "public", "signed-in" or {roles: [...], permissions: [...]}, got ${JSON.stringify(value)}`);
}

export function isRestricted(rule: AccessRule): boolean {
  return rule.kind !== 'public';
}

/**
 * Whether every reader `held` lets in may also read a page with rule `needed`
 * (a file readable under `held` may then hold that page's words).
 */
export function ruleImplies(held: AccessRule, needed: AccessRule): boolean {
  if (needed.kind === 'public') {
    return true;
  }
  if (held.kind === 'public') {
    return false;
  }
  if (needed.kind === 'signed-in') {
    return true;
  }
  if (held.kind !== 'roles') {
    return false;
  }
  const roleImplied = needed.roles.length === 0 || (held.roles.length > 0 && held.roles.every((role) => needed.roles.includes(role)));
  return roleImplied && needed.permissions.every((permission) => held.permissions.includes(permission));
}

/** Whether someone (null: signed out) may read a page with this rule. */
export function canRead(rule: AccessRule, principal: Principal | null): boolean {
  if (rule.kind === 'public') {
    return true;
  }
  if (!principal) {
    return false;
  }
  if (rule.kind === 'signed-in') {
    return true;
  }
  const hasRole = rule.roles.length === 0 || rule.roles.some((role) => principal.roles.includes(role));
  const hasPermissions = rule.permissions.every((permission) => principal.permissions.includes(permission));
  return hasRole && hasPermissions;
}

/**
 * What a reader lacks, in words for the page ("You need the admin role"), or
 * null when they may read it.
 */
export function missingAccess(rule: AccessRule, principal: Principal | null): string | null {
  if (canRead(rule, principal)) {
    return null;
  }
  if (!principal || rule.kind !== 'roles') {
    return 'Sign in to read this page.';
  }
  const parts: string[] = [];
  if (!(rule.roles.length === 0 || rule.roles.some((role) => principal.roles.includes(role)))) {
    parts.push(rule.roles.length === 1 ? `the ${rule.roles[0]} role` : `one of the roles ${rule.roles.join(', ')}`);
  }
  const missingPermissions = rule.permissions.filter((permission) => !principal.permissions.includes(permission));
  if (missingPermissions.length > 0) {
    parts.push(`${missingPermissions.length === 1 ? 'the permission' : 'the permissions'} ${missingPermissions.join(', ')}`);
  }
  return `You need ${parts.join(' and ')} to read this page.`;
}

/** Who to ask for access, said wherever a signed-in reader is told what they lack. */
export const ASK_FOR_ACCESS = 'Ask your team lead or #team-identity if you need it.';

/**
 * What a signed-in reader who may not read a page is told instead of it, in
 * its HTML (RestrictedPage) and in its Markdown (the gate's answer to a
 * member without the role, plugins/agent-docs): what they lack as the
 * heading, whom to ask below it. Null when they may read it.
 */
export function signedInWithheldMessage(rule: AccessRule, principal: Principal): {title: string; body: string} | null {
  const missing = missingAccess(rule.kind === 'public' ? SIGNED_IN_RULE : rule, principal);
  return missing ? {title: missing.replace(/ to read this page\.$/, ''), body: ASK_FOR_ACCESS} : null;
}
