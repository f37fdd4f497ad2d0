/**
 * The single source of truth for facts that more than one documentation page
 * mentions: service names, ports, owners, databases, environment variables,
 * make targets and shared libraries. Pages render these through the MDX
 * components in `src/components/platform/`, so a port or a variable name can
 * never differ between two pages. Change a fact here, and every page follows.
 */

/** Product name shown in the tagline, footer and docs. Change it here only. */
export const PRODUCT_NAME = 'Acme AI';

/** npm scope of the backend monorepo's packages. */
export const PACKAGE_SCOPE = '@acme';

export type ServiceId =
  | 'api-gateway'
  | 'auth-service'
  | 'admin-service'
  | 'tenant-service'
  | 'file-service'
  | 'template-service'
  | 'cleverscreen-service'
  | 'kira-service'
  | 'vera-service';

export interface EnvVar {
  name: string;
  description: string;
  /** Default used by `docker-compose.yml` for local development, if any. */
  localDefault?: string;
  /**
   * Value `make dev` gives the variable when it runs the service on the host,
   * where Compose host names such as `postgres` or `file-service` do not
   * resolve. Only set when it differs from `localDefault`.
   */
  makeDevValue?: string;
  /** True for credentials: kept in Secrets Manager outside local development, never logged. */
  secret?: boolean;
  required: boolean;
  /**
   * Shared variables only: true when each service sets its own value in
   * `apps/<service-id>/.env` instead of the root `.env` (PORT, DATABASE_URL). Who loads which file is told
   * once, in docs/internal-developers/architecture/docker-setup.md.
   */
  perService?: boolean;
  /** True for variables that exist only in local development (set in `.env`, absent in AWS). */
  localOnly?: boolean;
}

export interface Service {
  id: ServiceId;
  name: string;
  /** One sentence: what the service is for. */
  purpose: string;
  /** HTTP port inside the Docker network and on localhost. */
  port: number;
  /** Public route prefix exposed by the API gateway. */
  gatewayPrefix: string;
  /** Owning team (Slack channel is `#team-<owner>`). */
  owner: string;
  /** PostgreSQL database name, or null for stateless services. */
  database: string | null;
  /**
   * Other services it calls synchronously over HTTP. For the gateway, every
   * service it routes to. Each entry gives the service a base-URL variable
   * (see `serviceUrlVar`), added to `env` below.
   */
  dependsOn: ServiceId[];
  /**
   * Environment variables specific to this service (shared ones are in
   * SHARED_ENV), including one base-URL variable per service in `dependsOn`.
   */
  env: EnvVar[];
}

/** Environment variables every service reads, through `@acme/constants`. */
export const SHARED_ENV: EnvVar[] = [
  {name: 'NODE_ENV', description: 'Runtime mode: `development`, `test` or `production`.', localDefault: 'development', required: true},
  {
    name: 'PORT',
    description: 'HTTP port the service listens on. Set in the service’s own `.env`.',
    localDefault: 'see the ports table',
    perService: true,
    required: true,
  },
  {name: 'LOG_LEVEL', description: 'Minimum log level: `debug`, `info`, `warn` or `error`.', localDefault: 'debug', required: false},
  {
    name: 'DATABASE_URL',
    description: 'PostgreSQL connection string used by Prisma (stateful services only). Set in the service’s own `.env`.',
    localDefault: 'postgresql://acme:acme@postgres:5432/<database>',
    perService: true,
    makeDevValue: 'postgresql://acme:acme@localhost:5432/<database>',
    secret: true,
    required: false,
  },
  {
    name: 'REDIS_URL',
    description: 'Redis connection string for caching, rate limits and queues.',
    localDefault: 'redis://redis:6379',
    makeDevValue: 'redis://localhost:6379',
    required: true,
  },
  {
    name: 'INTERNAL_SERVICE_TOKEN',
    description:
      'Shared secret that services present to each other in the `x-internal-token` header; also the key of internal session tokens.',
    localDefault: 'local-internal-token',
    secret: true,
    required: true,
  },
];

/**
 * The services as written by hand. `SERVICES` below adds the base-URL
 * variables derived from `dependsOn`, so they cannot drift from the ports.
 */
const SERVICE_DEFINITIONS: Service[] = [
  {
    id: 'api-gateway',
    name: 'API Gateway',
    purpose:
      'Single public entry point behind the AWS load balancer: authenticates requests, applies rate limits and routes them to the internal services.',
    port: 8080,
    gatewayPrefix: '/',
    owner: 'platform',
    database: null,
    dependsOn: [
      'auth-service',
      'admin-service',
      'tenant-service',
      'file-service',
      'template-service',
      'cleverscreen-service',
      'kira-service',
      'vera-service',
    ],
    env: [
      {
        name: 'GATEWAY_RATE_LIMIT_PER_MINUTE',
        description: 'Requests per minute allowed per user (per client IP on public routes other than `GET /health`).',
        localDefault: '600',
        required: false,
      },
      {
        name: 'GATEWAY_UPSTREAM_TIMEOUT_MS',
        description:
          'Milliseconds the gateway waits for a target service to start its answer; after that the request fails as an unavailable upstream. No environment overrides the default.',
        localDefault: '30000',
        required: false,
      },
      {
        name: 'GATEWAY_CORS_ORIGINS',
        description: 'Comma-separated origins allowed to call the API from a browser.',
        localDefault: 'http://localhost:3000',
        required: true,
      },
      {
        name: 'WORKOS_CLIENT_ID',
        description: 'WorkOS AuthKit client id: selects the JWKS the gateway verifies access tokens against.',
        required: true,
      },
    ],
  },
  {
    id: 'auth-service',
    name: 'Auth Service',
    purpose:
      'Runs the WorkOS AuthKit sign-in, refresh and sign-out, verifies sessions for the gateway, resolves a user to their tenant, roles and permissions and issues internal session tokens.',
    port: 3001,
    gatewayPrefix: '/auth',
    owner: 'identity',
    database: 'auth',
    dependsOn: ['tenant-service'],
    env: [
      {
        name: 'WORKOS_API_KEY',
        description: 'Server-side WorkOS API key: exchanges codes, refreshes and revokes sessions. The secret of the pair.',
        secret: true,
        required: true,
      },
      {
        name: 'WORKOS_CLIENT_ID',
        description: 'WorkOS AuthKit client id of the environment; the gateway uses the same one.',
        required: true,
      },
      {
        name: 'SESSION_TTL_SECONDS',
        description: 'Lifetime of an internal session token, and so an upper bound on how long the gateway caches a verification.',
        localDefault: '900',
        required: false,
      },
    ],
  },
  {
    id: 'admin-service',
    name: 'Admin Service',
    purpose:
      'Back-office API for support and operations staff: user look-up, feature flags, audit log, tenant suspension and plan changes.',
    port: 3002,
    gatewayPrefix: '/admin',
    owner: 'platform',
    database: 'admin',
    dependsOn: ['auth-service', 'tenant-service'],
    // Its own variables are facts only its restricted page shows: src/data/restricted/adminService.ts.
    env: [],
  },
  {
    id: 'tenant-service',
    name: 'Tenant Service',
    purpose: 'Owns tenants (customer organisations), their plans, quotas and settings, and maps WorkOS organisations to tenants.',
    port: 3003,
    gatewayPrefix: '/tenants',
    owner: 'identity',
    database: 'tenant',
    dependsOn: [],
    env: [{name: 'TENANT_DEFAULT_PLAN', description: 'Plan given to a newly created tenant.', localDefault: 'trial', required: false}],
  },
  {
    id: 'file-service',
    name: 'File Service',
    purpose: 'Uploads, stores and serves files in S3-compatible object storage, with virus scanning and signed download URLs.',
    port: 3004,
    gatewayPrefix: '/files',
    owner: 'content',
    database: 'file',
    dependsOn: ['tenant-service'],
    env: [
      {name: 'S3_BUCKET', description: 'Bucket holding uploaded files.', localDefault: 'acme-local-files', required: true},
      {
        name: 'S3_ENDPOINT',
        description: 'S3 endpoint: MinIO locally; empty in AWS, so the SDK uses the regional S3 endpoint.',
        localDefault: 'http://minio:9000',
        makeDevValue: 'http://localhost:9000',
        required: false,
      },
      {name: 'FILE_MAX_UPLOAD_MB', description: 'Largest accepted upload, in megabytes.', localDefault: '50', required: false},
      {
        name: 'AWS_ACCESS_KEY_ID',
        description: 'Local only: MinIO’s user, read by the AWS SDK. Unset in AWS, where the task role grants access to the bucket.',
        localDefault: 'acme-local',
        localOnly: true,
        required: false,
      },
      {
        name: 'AWS_SECRET_ACCESS_KEY',
        description: 'Local only: MinIO’s password, read by the AWS SDK. Unset in AWS, as above.',
        localDefault: 'acme-local-secret',
        localOnly: true,
        required: false,
      },
    ],
  },
  {
    id: 'template-service',
    name: 'Template Service',
    purpose:
      'Stores versioned templates (platform-wide prompts for the assistants, owned by #team-content; tenant-owned document templates for exports) and renders them with tenant data.',
    port: 3005,
    gatewayPrefix: '/templates',
    owner: 'content',
    database: 'template',
    dependsOn: ['tenant-service', 'file-service'],
    env: [
      {
        name: 'TEMPLATE_CACHE_TTL_SECONDS',
        description: 'How long rendered template metadata is cached in Redis.',
        localDefault: '300',
        required: false,
      },
    ],
  },
  {
    id: 'cleverscreen-service',
    name: 'CleverScreen Service',
    purpose: 'Screens uploaded candidate documents against a role profile and produces a scored, explainable shortlist.',
    port: 3006,
    gatewayPrefix: '/screening',
    owner: 'ai',
    database: 'cleverscreen',
    dependsOn: ['file-service', 'template-service', 'tenant-service'],
    env: [
      {name: 'LLM_API_KEY', description: 'API key for the language-model provider.', secret: true, required: true},
      {
        name: 'SCREENING_QUEUE',
        description: 'BullMQ queue for screening jobs, one job per candidate document.',
        localDefault: 'screening-jobs',
        required: false,
      },
    ],
  },
  {
    id: 'kira-service',
    name: 'Kira Service',
    purpose: 'Kira, the conversational assistant for end users: chat sessions, keyword retrieval over tenant documents and tool calls.',
    port: 3007,
    gatewayPrefix: '/kira',
    owner: 'ai',
    database: 'kira',
    dependsOn: ['file-service', 'template-service', 'tenant-service'],
    env: [
      {name: 'LLM_API_KEY', description: 'API key for the language-model provider.', secret: true, required: true},
      {name: 'KIRA_MODEL', description: 'Model identifier used for chat completions.', localDefault: 'gpt-4o-mini', required: false},
    ],
  },
  {
    id: 'vera-service',
    name: 'Vera Service',
    purpose:
      'Vera, the voice and meeting assistant: transcribes recordings (timestamps, no speaker labels), summarises them and extracts action items.',
    port: 3008,
    gatewayPrefix: '/vera',
    owner: 'ai',
    database: 'vera',
    dependsOn: ['file-service', 'template-service', 'tenant-service'],
    env: [
      {name: 'LLM_API_KEY', description: 'API key for the language-model provider.', secret: true, required: true},
      {name: 'VERA_TRANSCRIPTION_MODEL', description: 'Speech-to-text model identifier.', localDefault: 'whisper-1', required: false},
    ],
  },
];

/** Name of the variable that holds a service's base URL, e.g. `FILE_SERVICE_URL` for `file-service`. */
export function serviceUrlVar(id: ServiceId): string {
  return `${id.toUpperCase().replace(/-/g, '_')}_URL`;
}

/**
 * The base-URL variable a caller reads to reach `id`: the Compose host name
 * in containers, `localhost` under `make dev`, the service's internal DNS
 * name in AWS. Code builds URLs from it, never from a hard-coded host.
 */
function serviceUrlEnv(id: ServiceId): EnvVar {
  const target = SERVICE_DEFINITIONS.find((candidate) => candidate.id === id);
  if (!target) {
    throw new Error(`Unknown service id "${id}" in dependsOn`);
  }
  return {
    name: serviceUrlVar(id),
    description: `Base URL of the ${target.name}, without a trailing slash.`,
    localDefault: `http://${id}:${target.port}`,
    makeDevValue: `http://localhost:${target.port}`,
    required: true,
  };
}

export const SERVICES: Service[] = SERVICE_DEFINITIONS.map((service) => ({
  ...service,
  env: [...service.env, ...service.dependsOn.map(serviceUrlEnv)],
}));

/** Infrastructure containers started by `make up` next to the services. */
export const INFRASTRUCTURE = [
  {name: 'postgres', image: 'postgres:16-alpine', port: 5432, purpose: 'One PostgreSQL server holding one database per stateful service.'},
  {name: 'redis', image: 'redis:7-alpine', port: 6379, purpose: 'Cache, rate-limit counters and job queues.'},
  {name: 'minio', image: 'minio/minio', port: 9000, purpose: 'S3-compatible object storage for the file service.'},
] as const;

export type SharedLibraryId =
  | 'constants'
  | 'database'
  | 'decorators'
  | 'filters'
  | 'guards'
  | 'interfaces'
  | 'middleware'
  | 'migrations'
  | 'pipes'
  | 'types'
  | 'utils'
  | 'validators';

export interface SharedLibrary {
  id: SharedLibraryId;
  /** npm package name inside the monorepo, under `libs/<id>`. */
  packageName: string;
  summary: string;
}

export const SHARED_LIBRARIES: SharedLibrary[] = [
  {
    id: 'constants',
    packageName: `${PACKAGE_SCOPE}/constants`,
    summary: 'Typed configuration loader, environment variable names, header names and error codes.',
  },
  {
    id: 'database',
    packageName: `${PACKAGE_SCOPE}/database`,
    summary: 'PrismaService, transaction helper and tenant-scoped query extension.',
  },
  {
    id: 'decorators',
    packageName: `${PACKAGE_SCOPE}/decorators`,
    summary: 'Route and parameter decorators: @CurrentUser, @TenantId, @Roles, @Permissions, @Public.',
  },
  {
    id: 'filters',
    packageName: `${PACKAGE_SCOPE}/filters`,
    summary: 'Exception filters that turn every error into the standard problem-details response.',
  },
  {
    id: 'guards',
    packageName: `${PACKAGE_SCOPE}/guards`,
    summary:
      'AuthGuard, RolesGuard, PermissionsGuard and InternalServiceGuard with GuardsModule, which hands them the internal token, plus the feature flag reader (FeatureFlagsModule, FeatureFlags, RequireFlag).',
  },
  {
    id: 'interfaces',
    packageName: `${PACKAGE_SCOPE}/interfaces`,
    summary: 'Contracts shared between services: request context, paginated results, events.',
  },
  {
    id: 'middleware',
    packageName: `${PACKAGE_SCOPE}/middleware`,
    summary:
      'Request id, structured request logging and tenant context middleware, and the shared interceptors (BigInt columns serialised as strings).',
  },
  {
    id: 'migrations',
    packageName: `${PACKAGE_SCOPE}/migrations`,
    summary: 'Migration runner and conventions for Prisma migrations across service databases.',
  },
  {
    id: 'pipes',
    packageName: `${PACKAGE_SCOPE}/pipes`,
    summary: 'Validation and parsing pipes: ZodValidationPipe, ParseCuidPipe, pagination parsing.',
  },
  {
    id: 'types',
    packageName: `${PACKAGE_SCOPE}/types`,
    summary: 'Branded ids, utility types and the generated Prisma enums re-exported for clients.',
  },
  {
    id: 'utils',
    packageName: `${PACKAGE_SCOPE}/utils`,
    summary: 'Small pure helpers: retry with back-off, date handling, slugs, safe JSON.',
  },
  {
    id: 'validators',
    packageName: `${PACKAGE_SCOPE}/validators`,
    summary: 'Zod schemas shared by services and clients: emails, ids, pagination, file names.',
  },
];

export interface MakeTarget {
  name: string;
  description: string;
  /** Variables the target reads, e.g. `SERVICE=kira-service`. */
  variables?: string;
}

/** Every target of the monorepo's Makefile, in the order `make help` prints them. */
export const MAKE_TARGETS: MakeTarget[] = [
  {name: 'help', description: 'List every target with its one-line description.'},
  {name: 'setup', description: 'Install dependencies, copy `.env.example` files and generate Prisma clients.'},
  {
    name: 'up',
    description: 'Start infrastructure and all services with Docker Compose, detached, and wait until every container is healthy.',
  },
  {name: 'down', description: 'Stop and remove the Compose containers; volumes are kept.'},
  {name: 'logs', description: 'Follow the logs of all services, or of one.', variables: 'SERVICE'},
  {name: 'dev', description: 'Run one service on the host with hot reload, infrastructure in Docker.', variables: 'SERVICE'},
  {name: 'build', description: 'Compile every service and library with the TypeScript project references.'},
  {name: 'test', description: 'Run unit tests for all packages, or one.', variables: 'SERVICE'},
  {name: 'test-e2e', description: 'Run end-to-end tests against a fresh Compose stack.'},
  {name: 'lint', description: 'Run ESLint, Prettier and the drift checks.', variables: 'API_REMOVAL'},
  {name: 'format', description: 'Rewrite files with Prettier and ESLint fixes.'},
  {name: 'db-migrate', description: 'Apply pending Prisma migrations to one service database, or all.', variables: 'SERVICE'},
  {
    name: 'db-migration',
    description: 'Create a new migration from schema changes (not applied; run db-migrate and db-generate next).',
    variables: 'SERVICE, NAME',
  },
  {
    name: 'db-generate',
    description: 'Generate the Prisma client of one service, or all, from its schema (`prisma generate`).',
    variables: 'SERVICE',
  },
  {name: 'db-seed', description: 'Load the seed data used by local development and e2e tests.'},
  {name: 'db-reset', description: 'Drop, recreate, migrate and seed a local database.', variables: 'SERVICE'},
  {name: 'db-studio', description: 'Open Prisma Studio for one service database.', variables: 'SERVICE'},
  {
    name: 'new-service',
    description:
      'Scaffold a service from the template, with its Compose entry, built from the shared docker/Dockerfile.service (no per-service Dockerfile).',
    variables: 'NAME',
  },
  {name: 'docker-build', description: 'Build production images for every service, tagged with the short git SHA (GIT_SHA).'},
  {name: 'tf-plan', description: 'Run `terraform plan` for an environment.', variables: 'ENV'},
  {name: 'tf-apply', description: 'Apply a reviewed Terraform plan for an environment.', variables: 'ENV'},
  {name: 'clean', description: 'Remove build output, coverage and Docker volumes.'},
];

export type RoleName = 'member' | 'admin' | 'support' | 'operations';

export interface Role {
  name: RoleName;
  description: string;
}

/**
 * Roles assigned in WorkOS on an organisation membership. The auth service
 * expands them into permissions; routes check permissions, never roles (the
 * back office adds a staff-role fence on its controllers).
 */
export const ROLES: Role[] = [
  {
    name: 'member',
    description: 'Customer role. Regular user of a customer organisation: uses Kira, Vera and CleverScreen and uploads files.',
  },
  {
    name: 'admin',
    description:
      "Customer role. Administrator of a customer organisation: everything a member can do, plus tenant settings, deleting files, editing and publishing the tenant's document templates and managing Kira knowledge sources.",
  },
  {
    name: 'support',
    description:
      'Staff role, Acme staff organisation only. Support staff: user look-up, session revocation, reading flags and the audit log in the admin service.',
  },
  {
    name: 'operations',
    description:
      'Staff role, Acme staff organisation only. Operations staff: everything support can do, plus creating, changing and deleting feature flags, suspending tenants and changing their plan.',
  },
];

export interface Permission {
  /** `<resource>:<action>`, checked with `@Permissions()`. */
  name: string;
  description: string;
  /** Roles that hold the permission by default (seeded into `RolePermission`). */
  roles: RoleName[];
}

/** Every permission a route may require, with the roles that grant it by default. */
export const PERMISSIONS: Permission[] = [
  {name: 'tenants:read', description: 'Read the own tenant, its settings, plan features and quotas.', roles: ['member', 'admin']},
  {name: 'tenants:manage', description: 'Rename the own tenant and change its settings.', roles: ['admin']},
  {name: 'files:read', description: 'List files, read their metadata and download them.', roles: ['member', 'admin']},
  {name: 'files:upload', description: 'Request upload URLs and complete uploads.', roles: ['member', 'admin']},
  {name: 'files:delete', description: 'Delete files of the tenant.', roles: ['admin']},
  {name: 'templates:read', description: "List, read and preview-render the tenant's document templates.", roles: ['member', 'admin']},
  {
    name: 'templates:write',
    description:
      "Create the tenant's document templates and add draft versions. Platform prompt templates are not editable through the API.",
    roles: ['admin'],
  },
  {name: 'templates:publish', description: 'Make a version of a tenant document template the current one.', roles: ['admin']},
  {name: 'screening:read', description: 'Read role profiles, screening runs and shortlists.', roles: ['member', 'admin']},
  {name: 'screening:write', description: 'Create and edit role profiles, start and cancel screening runs.', roles: ['member', 'admin']},
  {name: 'kira:chat', description: 'Chat with Kira and read the knowledge sources of the tenant.', roles: ['member', 'admin']},
  {name: 'kira:manage-sources', description: 'Add and remove Kira knowledge sources.', roles: ['admin']},
  {name: 'vera:read', description: 'Read meetings, transcripts and action items.', roles: ['member', 'admin']},
  {name: 'vera:write', description: 'Create, reprocess and delete meetings and edit action items.', roles: ['member', 'admin']},
  {name: 'admin:users-read', description: 'Look up users across tenants in the admin service.', roles: ['support', 'operations']},
  {name: 'admin:sessions-revoke', description: 'Sign a user out everywhere.', roles: ['support', 'operations']},
  {name: 'admin:flags-read', description: 'Read feature flags and their tenant overrides.', roles: ['support', 'operations']},
  {
    name: 'admin:flags-write',
    description: 'Create, change and delete feature flags, their defaults and tenant overrides.',
    roles: ['operations'],
  },
  {name: 'admin:audit-read', description: 'Read the back-office audit log.', roles: ['support', 'operations']},
  {name: 'admin:tenants-suspend', description: 'Suspend and reactivate tenants.', roles: ['operations']},
  {name: 'admin:tenants-plan', description: 'Move a tenant to another plan.', roles: ['operations']},
];

/** Deployment environments managed by Terraform. */
export const ENVIRONMENTS = [
  {name: 'dev', url: 'https://api.dev.acme.internal', deploys: 'every merge to main'},
  {name: 'staging', url: 'https://api.staging.acme.internal', deploys: 'every release tag'},
  {name: 'production', url: 'https://api.acme.ai', deploys: 'manual approval of a release tag'},
] as const;

export function serviceById(id: ServiceId): Service {
  const service = SERVICES.find((candidate) => candidate.id === id);
  if (!service) {
    throw new Error(`Unknown service id "${id}" in src/data/platform.ts`);
  }
  return service;
}

export function libraryById(id: SharedLibraryId): SharedLibrary {
  const library = SHARED_LIBRARIES.find((candidate) => candidate.id === id);
  if (!library) {
    throw new Error(`Unknown shared library id "${id}" in src/data/platform.ts`);
  }
  return library;
}

/*
 * Operating the platform beyond a laptop: AWS accounts and access, feature
 * flags, queues and observability. Rendered by the guides under
 * docs/internal-developers/deployment/ and docs/internal-developers/development/.
 */

export type AwsAccountName = 'shared' | 'dev' | 'staging' | 'production';

export interface AwsAccount {
  name: AwsAccountName;
  /** AWS account id. */
  id: string;
  /** Named AWS CLI profile every guide uses for this account (`aws configure sso`). */
  profile: string;
  /** What lives in the account. */
  holds: string;
}

/** One AWS account per environment, plus the shared account that outlives them. Region: eu-central-1. */
export const AWS_ACCOUNTS: AwsAccount[] = [
  {
    name: 'shared',
    id: '444455556666',
    profile: 'acme-shared',
    holds:
      'The ECR repositories (one per service) and the Terraform state of every stack: the bucket `acme-terraform-state`, which holds each stack’s state file and, next to it, its lock file (`<key>.tflock`). No environment runs here.',
  },
  {
    name: 'dev',
    id: '111122223333',
    profile: 'acme-dev',
    holds: 'The dev environment: its ECS cluster, RDS instance, Redis, buckets and secrets.',
  },
  {name: 'staging', id: '777788889999', profile: 'acme-staging', holds: 'The staging environment, the same shape as production.'},
  {name: 'production', id: '555566667777', profile: 'acme-production', holds: 'Production: customer data.'},
];

export interface AwsAccess {
  /** IAM Identity Center permission set, or the IAM role a GitHub Actions workflow assumes. */
  name: string;
  kind: 'permission set' | 'workflow role';
  /** Who holds it. */
  holders: string;
  /** What it may do, per account. */
  rights: string;
}

/** How people and workflows reach the AWS accounts. Nobody holds long-lived AWS keys. */
export const AWS_ACCESS: AwsAccess[] = [
  {
    name: 'developer',
    kind: 'permission set',
    holders: 'Every backend engineer, from the access checklist of the introduction.',
    rights:
      'Read-only in shared, staging and production, including CloudWatch logs, metrics and dashboards but no secret values. In dev also: apply Terraform, run one-off tasks, force a new deployment of a running service, and read and write secret values. The Terraform state is reached cross-account with the role of the stack’s own account (`AWS_PROFILE=acme-dev` for dev): the policy of the bucket `acme-terraform-state` in shared lets this role of every account read the state files and write and delete the lock files (`*.tflock`), so a local plan of any stack can take the state lock, and let the role of dev also write the dev stack’s state file, so a dev apply can save it. No deploys by hand anywhere: images reach every account through the Deploy workflow.',
  },
  {
    name: 'secrets-<team>',
    kind: 'permission set',
    holders: 'Engineers of the owning team, on their team lead’s approval (for example `secrets-ai`).',
    rights:
      'In staging and production: read and write the secrets `acme/<env>/<service-id>` of the team’s own services. `secrets-platform` may also write every service’s secret, to set and rotate the shared `INTERNAL_SERVICE_TOKEN`.',
  },
  {
    name: 'platform-admin',
    kind: 'permission set',
    holders: 'The platform on-call engineer, during an incident only; each use is announced in `#backend-alerts`.',
    rights: 'Administrator in every account. Not for routine changes: those go through a workflow.',
  },
  {
    name: 'github-deploy',
    kind: 'workflow role',
    holders: 'The Deploy and Queues workflows of `acme-backend`, through GitHub OIDC, per GitHub environment.',
    rights: 'Push images to ECR (shared); register task definitions, run one-off tasks and update ECS services (dev, staging, production).',
  },
  {
    name: 'github-database',
    kind: 'workflow role',
    holders: 'The Database workflow of `acme-backend`, through GitHub OIDC, per GitHub environment.',
    rights:
      'In dev, staging and production: run one-off tasks, read the RDS master secret of the environment, and read and write the secrets `acme/<env>/<service-id>` to set `DATABASE_URL`, leaving the other keys as they are.',
  },
  {
    name: 'github-terraform',
    kind: 'workflow role',
    holders: 'The Terraform workflow of `acme-backend`, through GitHub OIDC, per GitHub environment.',
    rights:
      'Plan and apply the stack of its account. In shared, where every stack’s state lives: read and write its own stack’s state file and lock file (`<key>.tflock`) in `acme-terraform-state`, and read the shared stack’s state (for the ECR repository URLs).',
  },
];

/** How feature flags are named and stored. The admin service writes them; product services only read. */
export const FEATURE_FLAG_SCHEMA = {
  /** Written as `<area>-<feature>`; `<area>` is the gateway prefix, without its slash, of the service that reads the flag. */
  keyPattern: '<area>-<feature>',
  /** Lower-case kebab case after the area, e.g. `kira-web-search`. Keys are case-sensitive. */
  keyRegex: /^[a-z]+(?:-[a-z0-9]+)+$/,
  example: 'kira-web-search',
  /** The Redis hash a flag is published to. */
  redisKey: 'flag:<key>',
  /** Fields of that hash: the default, and one per tenant override; values are "1" (on) or "0" (off). */
  fields: {default: 'default', override: '<tenantId>'},
  /** Library that holds the key constants (`FLAGS`). */
  keysLibrary: 'constants' as SharedLibraryId,
  /** Library that reads flags (`FeatureFlags`, `RequireFlag`). */
  readerLibrary: 'guards' as SharedLibraryId,
  /** How long a reader caches an answer in memory. */
  cacheSeconds: 10,
} as const;

/** The areas a flag key may start with: the gateway prefixes of the product services. */
export function featureFlagAreas(): {area: string; service: ServiceId}[] {
  return SERVICES.filter((service) => service.gatewayPrefix !== '/' && service.id !== 'admin-service').map((service) => ({
    area: service.gatewayPrefix.replace(/^\//, ''),
    service: service.id,
  }));
}

export interface QueueFact {
  name: string;
  /** The one service whose worker reads the queue. Its ECS tasks run the worker. */
  service: ServiceId;
  /** Jobs one worker process runs at the same time (`concurrency` of the BullMQ worker). */
  concurrency: number;
  /** Why the concurrency is what it is. */
  limitedBy: string;
}

/** The product queues and their workers, as the queue contract catalogues them. */
export const QUEUES: QueueFact[] = [
  {name: 'file-scan', service: 'file-service', concurrency: 4, limitedBy: 'CPU of the virus scan in the task.'},
  {name: 'screening-jobs', service: 'cleverscreen-service', concurrency: 5, limitedBy: 'The language-model provider’s rate limit.'},
  {name: 'kira-indexing', service: 'kira-service', concurrency: 2, limitedBy: 'Memory: a large document is chunked in the task.'},
  {name: 'meeting-jobs', service: 'vera-service', concurrency: 2, limitedBy: 'Memory and the speech-to-text provider’s limit.'},
];

/** How long BullMQ keeps finished jobs in Redis (worker options `removeOnComplete` and `removeOnFail`), for every queue. */
export const QUEUE_RETENTION = {
  completed: {ageSeconds: 24 * 60 * 60, count: 1000},
  failed: {ageSeconds: 7 * 24 * 60 * 60},
} as const;

export interface MetricFact {
  name: string;
  /** CloudWatch namespace (with its dimensions). */
  namespace: string;
  unit: string;
  /** Where the value comes from. */
  source: string;
}

/** Metrics every service has in CloudWatch, in every environment. */
export const METRICS: MetricFact[] = [
  {
    name: 'RequestCount',
    namespace: 'Acme/Services (Service)',
    unit: 'Count',
    source: 'A metric filter on the request log line of `@acme/middleware`.',
  },
  {
    name: 'ServerErrorCount',
    namespace: 'Acme/Services (Service)',
    unit: 'Count',
    source: 'The same log lines with a status of 500 or more.',
  },
  {
    name: 'RequestDuration',
    namespace: 'Acme/Services (Service)',
    unit: 'Milliseconds',
    source: 'The duration of the same log lines; read it as p50, p95 or p99.',
  },
  {
    name: 'QueueWaiting',
    namespace: 'Acme/Queues (Queue)',
    unit: 'Count',
    source:
      'The `queue.stats` line each worker service logs once a minute per queue it reads. Every task logs the same queue-wide count, so read it as Maximum, never Sum.',
  },
  {
    name: 'QueueFailed',
    namespace: 'Acme/Queues (Queue)',
    unit: 'Count',
    source: 'The same `queue.stats` line: jobs in the failed set; read it as Maximum too.',
  },
  {
    name: 'CPUUtilization, MemoryUtilization',
    namespace: 'AWS/ECS (ClusterName, ServiceName)',
    unit: 'Percent',
    source: 'ECS, per service.',
  },
  {
    name: 'RunningTaskCount, DesiredTaskCount',
    namespace: 'ECS/ContainerInsights (ClusterName, ServiceName)',
    unit: 'Count',
    source:
      'Container Insights, which Terraform enables on each environment’s ECS cluster (`AWS/ECS` has no task counts). The `tasks` alarm and the running tasks on the dashboards read them.',
  },
  {
    name: 'HTTPCode_ELB_5XX_Count, TargetResponseTime',
    namespace: 'AWS/ApplicationELB',
    unit: 'Count, Seconds',
    source: 'The load balancer in front of the gateway.',
  },
];

export interface DashboardFact {
  /** CloudWatch dashboard name; `<env>` and `<service-id>` are placeholders. */
  name: string;
  shows: string;
}

/** CloudWatch dashboards, one set per environment account, declared in Terraform. */
export const DASHBOARDS: DashboardFact[] = [
  {
    name: 'acme-<env>-overview',
    shows: 'Gateway traffic and 5xx, p95 latency and server errors per service, queue backlog, RDS and Redis load.',
  },
  {
    name: 'acme-<env>-<service-id>',
    shows: 'One service: requests, errors, p50/p95/p99 latency, CPU, memory, running tasks, and its queue if it has a worker.',
  },
  {name: 'acme-<env>-queues', shows: 'Waiting and failed jobs per queue.'},
];

export interface AlertFact {
  /** CloudWatch alarm name; placeholders as in DASHBOARDS. */
  name: string;
  condition: string;
  /** What happens in production; in dev and staging every alarm only posts to #backend-alerts. */
  production: string;
}

/** The alarms every service gets. Alarm actions post to #backend-alerts; production pages the owning team. */
export const ALERTS: AlertFact[] = [
  {
    name: 'acme-<env>-<service-id>-5xx',
    condition: '`ServerErrorCount` above 2 % of `RequestCount` for 5 minutes.',
    production: 'Pages the owning team’s on-call engineer.',
  },
  {
    name: 'acme-<env>-<service-id>-latency',
    condition:
      '`RequestDuration` p95 above the service’s threshold (1000 ms unless `latency_threshold_ms` in its `monitoring.tf` sets another) for 10 minutes.',
    production: 'Pages the owning team’s on-call engineer.',
  },
  {
    name: 'acme-<env>-<service-id>-tasks',
    condition: '`RunningTaskCount` below `DesiredTaskCount` for 5 minutes.',
    production: 'Pages the owning team’s on-call engineer.',
  },
  {
    name: 'acme-<env>-<queue>-backlog',
    condition: '`QueueWaiting` (Maximum) above 500 for 15 minutes.',
    production: 'Posts to `#backend-alerts`; the owning team picks it up in working hours.',
  },
  {
    name: 'acme-<env>-<queue>-failed',
    condition: '`QueueFailed` (Maximum) grew in the last 15 minutes.',
    production: 'Posts to `#backend-alerts`; the owning team picks it up in working hours.',
  },
];
