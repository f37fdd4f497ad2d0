/**
 * Test users of the local sign-in provider. Each one exercises a different
 * path of the portal's sign-in layer.
 */
export interface LocalUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Shown on the local sign-in page. */
  label: string;
  /** Organisations the user belongs to, first is the default. */
  organizations: {id: string; role: string; roles: string[]; permissions: string[]}[];
  featureFlags: string[];
  profilePictureUrl: string | null;
  /** Present for a session started by an admin impersonating the user. */
  impersonator?: {email: string; reason: string | null};
  /** When set, the code exchange fails with this error_description. */
  exchangeError?: string;
}

export const PRIMARY_ORG = 'org_acme_platform';
export const SECOND_ORG = 'org_acme_labs';

export const LOCAL_USERS: LocalUser[] = [
  {
    id: 'user_admin',
    email: 'ada.admin@acme.test',
    firstName: 'Ada',
    lastName: 'Admin',
    label: 'Admin: several roles and permissions, two organisations',
    organizations: [
      {
        id: PRIMARY_ORG,
        role: 'admin',
        roles: ['admin', 'member'],
        permissions: ['docs:read', 'docs:write', 'services:deploy', 'users:manage'],
      },
      {id: SECOND_ORG, role: 'member', roles: ['member'], permissions: ['docs:read']},
    ],
    featureFlags: ['beta-docs', 'new-search'],
    profilePictureUrl: null,
  },
  {
    id: 'user_developer',
    email: 'devon.developer@acme.test',
    firstName: 'Devon',
    lastName: 'Developer',
    label: 'Developer: plain member',
    organizations: [{id: PRIMARY_ORG, role: 'member', roles: ['member'], permissions: ['docs:read']}],
    featureFlags: [],
    profilePictureUrl: null,
  },
  {
    id: 'user_impersonated',
    email: 'imani.customer@acme.test',
    firstName: 'Imani',
    lastName: 'Customer',
    label: 'Impersonated session: support is acting as this user',
    organizations: [{id: PRIMARY_ORG, role: 'member', roles: ['member'], permissions: ['docs:read']}],
    featureFlags: [],
    profilePictureUrl: null,
    impersonator: {email: 'support.lead@acme.test', reason: 'Reproducing ticket SUP-4821'},
  },
  {
    id: 'user_locked',
    email: 'lee.locked@acme.test',
    firstName: 'Lee',
    lastName: 'Locked',
    label: 'Locked account: the code exchange fails',
    organizations: [{id: PRIMARY_ORG, role: 'member', roles: ['member'], permissions: []}],
    featureFlags: [],
    profilePictureUrl: null,
    exchangeError: 'This account is locked. Ask #team-identity to unlock it.',
  },
];
