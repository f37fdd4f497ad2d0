/**
 * Drift between the pages and the platform data (`src/data/platform.ts`,
 * `sidebars.ts`) that a machine can see, in text still typed by hand around
 * the rendered fact tables: make targets and `SERVICE=` values, local ports
 * and service hostnames, hard-coded service base URLs, permission names,
 * owning teams, fact components (known ids, tables rendered on their one
 * page, summary boxes on their own page), the sidebar against the services
 * and libraries, and "Called by" of every service the gateway routes to.
 */
import {AWS_ACCOUNTS, INFRASTRUCTURE, MAKE_TARGETS, PERMISSIONS, SERVICES, SHARED_ENV, SHARED_LIBRARIES} from '../../src/data/platform';
import {sourceLines, type Page, type Problem, type SourceLine} from './pages';

/** The facts of `src/data/platform.ts` the checks compare pages against. */
export interface PlatformFacts {
  services: {
    id: string;
    name: string;
    port: number;
    gatewayPrefix: string;
    owner: string;
    dependsOn: readonly string[];
    env: readonly {name: string; localDefault?: string}[];
  }[];
  infrastructure: readonly {name: string; port: number}[];
  sharedEnv: readonly {name: string; localDefault?: string; perService?: boolean}[];
  libraries: readonly {id: string}[];
  makeTargets: readonly {name: string}[];
  permissions: readonly {name: string}[];
  /** AWS accounts by environment name; defaults to AWS_ACCOUNTS of platform.ts. */
  awsAccounts?: readonly {name: string; id: string}[];
}

export const PLATFORM: PlatformFacts = {
  services: SERVICES,
  infrastructure: INFRASTRUCTURE,
  sharedEnv: SHARED_ENV,
  libraries: SHARED_LIBRARIES,
  makeTargets: MAKE_TARGETS,
  permissions: PERMISSIONS,
  awsAccounts: AWS_ACCOUNTS,
};

const PLATFORM_FILE = '../src/data/platform.ts';
const SIDEBARS_FILE = '../sidebars.ts';

/** Where the sidebar keeps service and shared-library pages (doc ids `internal-developers/<dir>/<id>`). */
const SERVICES_DIR = 'internal-developers/services';
const LIBRARIES_DIR = 'internal-developers/shared-libraries';

/**
 * Local ports that are not a service or infrastructure container of
 * `src/data/platform.ts` but that pages may name on localhost.
 */
export const OTHER_LOCAL_PORTS: Record<number, string> = {
  5555: 'Prisma Studio (make db-studio)',
  9001: 'MinIO console',
  9229: 'Node.js inspector (debugger attach)',
};

/**
 * The hypothetical service that the "Adding a New Service" walkthrough scaffolds.
 * Its name and port are allowed on that page only; everything else about it
 * (hard-coded base URLs, for example) is checked like a real service.
 */
export const EXAMPLE_SERVICES = [{id: 'insights-service', port: 3009, page: 'internal-developers/development/adding-new-service.md'}];

/**
 * Fact tables rendered on exactly one page, their canonical home; other pages
 * link there instead of rendering the table again.
 */
export const SINGLE_HOME_COMPONENTS: {pattern: RegExp; tag: string; page: string}[] = [
  {pattern: /<PortsTable\b/, tag: '<PortsTable />', page: 'internal-developers/getting-started/introduction.md'},
  {pattern: /<EnvVarTable\s+shared\b/, tag: '<EnvVarTable shared />', page: 'internal-developers/getting-started/introduction.md'},
  {pattern: /<MakeTargetsTable\b/, tag: '<MakeTargetsTable />', page: 'internal-developers/development/make-commands-reference.md'},
  {pattern: /<RolesTable\b/, tag: '<RolesTable />', page: 'internal-developers/services/auth-service.md'},
  {pattern: /<PermissionsTable\b/, tag: '<PermissionsTable />', page: 'internal-developers/services/auth-service.md'},
];

/** Code block languages whose lines run commands, where `make <target>` is checked. */
const COMMAND_LANGUAGES = new Set([
  'bash',
  'sh',
  'shell',
  'zsh',
  'console',
  'terminal',
  'yaml',
  'yml',
  'make',
  'makefile',
  'mk',
  'dockerfile',
]);
/** Code block languages that are configuration: the place where service base URLs are set. */
const CONFIG_LANGUAGES = new Set([
  'yaml',
  'yml',
  'env',
  'dotenv',
  'ini',
  'properties',
  'toml',
  'hcl',
  'terraform',
  'tf',
  'dockerfile',
  'mermaid',
]);
const MAKEFILE_LANGUAGES = new Set(['make', 'makefile', 'mk']);

/** Inline code spans of a prose line. */
function inlineCode(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((span) => span[1] ?? '');
}

/** `make` invocations in a command: the targets and the `SERVICE=` values each names. */
function makeInvocations(command: string): {targets: string[]; services: string[]}[] {
  const invocations: {targets: string[]; services: string[]}[] = [];
  const start = /(?:^|&&|\|\||;|\(|\$\s|\bthen\s|\bdo\s|\brun:|\bRUN\s|^\s*-\s)\s*(?:\$\(MAKE\)|make)\s+([^\n;&|#>]*)/g;
  for (const match of command.matchAll(start)) {
    const rest = match[1] ?? '';
    const targets: string[] = [];
    const services: string[] = [];
    for (const token of rest.trim().split(/\s+/).filter(Boolean)) {
      if (token.startsWith('-')) {
        continue;
      }
      const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(token);
      if (assignment) {
        if (assignment[1] === 'SERVICE' && /^[a-z][a-z0-9-]*$/.test(assignment[2] ?? '')) {
          services.push(assignment[2] ?? '');
        }
        continue;
      }
      if (!/^[a-z][a-z0-9_-]*$/.test(token)) {
        break;
      }
      targets.push(token);
    }
    invocations.push({targets, services});
  }
  return invocations;
}

/**
 * (a) Every `make <target>` in a page (inline code, shell, YAML and Makefile code
 * blocks) names a target in MAKE_TARGETS, and every `SERVICE=<id>` names a
 * service. Targets that a Makefile block on the same page defines are allowed
 * (the page shows how to add them).
 */
export function checkMakeTargets(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const lines = sourceLines(page.source);
  const known = new Set(facts.makeTargets.map((target) => target.name));
  for (const line of lines) {
    if (line.code !== null && MAKEFILE_LANGUAGES.has(line.code)) {
      const defined = /^([a-z][a-z0-9_-]*)\s*:(?!=)/.exec(line.text);
      if (defined?.[1]) {
        known.add(defined[1]);
      }
    }
  }
  const services = new Set([
    ...facts.services.map((service) => service.id),
    ...EXAMPLE_SERVICES.filter((example) => example.page === page.file).map((example) => example.id),
  ]);
  const problems: Problem[] = [];
  for (const line of lines) {
    let commands: string[];
    if (line.code === null) {
      commands = inlineCode(line.text).filter((span) => /(?:^|&&|;|\$\s)\s*make\s/.test(span));
    } else if (COMMAND_LANGUAGES.has(line.code)) {
      commands = [line.text.replace(/(^|\s)#.*$/, '')];
    } else {
      continue;
    }
    for (const command of commands) {
      for (const {targets, services: named} of makeInvocations(command)) {
        for (const target of targets.filter((candidate) => !known.has(candidate))) {
          problems.push({
            file: page.file,
            line: line.number,
            rule: 'make-target',
            message: `"make ${target}" is not a target in MAKE_TARGETS of src/data/platform.ts`,
          });
        }
        for (const service of named.filter((candidate) => !services.has(candidate))) {
          problems.push({
            file: page.file,
            line: line.number,
            rule: 'make-target',
            message: `SERVICE=${service} is not a service id in src/data/platform.ts`,
          });
        }
      }
    }
  }
  return problems;
}

/** Name of the configuration variable that holds a service's base URL. */
export function baseUrlVariable(serviceId: string): string {
  return `${serviceId.toUpperCase().replace(/-/g, '_')}_URL`;
}

/**
 * (b) Ports and hostnames: `localhost:NNNN` names a port of platform.ts (a
 * service, an infrastructure container, a local default or OTHER_LOCAL_PORTS),
 * `scheme://<service or container>:NNNN` uses that one's port, and no code
 * block except configuration hard-codes a service base URL
 * (`http://<service-id>[:port]`) instead of reading its `<SERVICE>_URL` variable.
 */
export function checkAddresses(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const examples = EXAMPLE_SERVICES.filter((example) => example.page === page.file);
  const hosts = new Map<string, number>([
    ...facts.services.map((service) => [service.id, service.port] as [string, number]),
    ...facts.infrastructure.map((container) => [container.name, container.port] as [string, number]),
    ...examples.map((example) => [example.id, example.port] as [string, number]),
  ]);
  const serviceIds = new Set([...facts.services.map((service) => service.id), ...examples.map((example) => example.id)]);
  const localPorts = new Set<number>([...hosts.values(), ...Object.keys(OTHER_LOCAL_PORTS).map(Number)]);
  for (const variable of [...facts.sharedEnv, ...facts.services.flatMap((service) => service.env)]) {
    for (const match of (variable.localDefault ?? '').matchAll(/localhost:(\d+)/g)) {
      localPorts.add(Number(match[1]));
    }
  }
  const problems: Problem[] = [];
  const report = (line: SourceLine, rule: string, message: string) => problems.push({file: page.file, line: line.number, rule, message});
  for (const line of sourceLines(page.source)) {
    for (const match of line.text.matchAll(/\b(?:localhost|127\.0\.0\.1):(\d{2,5})\b/g)) {
      const port = Number(match[1]);
      if (!localPorts.has(port)) {
        report(line, 'port', `${match[0]}: no service or container of src/data/platform.ts listens on ${port}`);
      }
    }
    for (const match of line.text.matchAll(/(?<=\/\/|@)([a-z][a-z0-9-]*):(\d{2,5})\b/g)) {
      const expected = hosts.get(match[1] ?? '');
      if (expected !== undefined && expected !== Number(match[2])) {
        report(line, 'port', `${match[0]}: ${match[1]} listens on ${expected} in src/data/platform.ts`);
      }
    }
    if (line.code === null || CONFIG_LANGUAGES.has(line.code)) {
      continue;
    }
    for (const match of line.text.matchAll(/https?:\/\/([a-z][a-z0-9-]*)(?::\d+)?(?![\w.-])/g)) {
      const id = match[1] ?? '';
      if (!serviceIds.has(id)) {
        continue;
      }
      const before = line.text.slice(0, match.index);
      if (/\b[A-Z][A-Z0-9_]*_URL\s*[:=]\s*["']?$/.test(before)) {
        continue; // the value of the configuration variable itself, e.g. FILE_SERVICE_URL=http://file-service:3004
      }
      report(line, 'service-url', `${match[0]} is hard-coded; read the base URL from configuration (${baseUrlVariable(id)})`);
    }
  }
  return problems;
}

/**
 * Permission names (`resource:action`) written in inline code or quoted in
 * code blocks name a permission of PERMISSIONS in platform.ts, for the
 * resources that platform.ts knows.
 */
export function checkPermissions(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const known = new Set(facts.permissions.map((permission) => permission.name));
  const resources = new Set(facts.permissions.map((permission) => permission.name.split(':')[0]));
  const problems: Problem[] = [];
  for (const line of sourceLines(page.source)) {
    const candidates =
      line.code === null
        ? inlineCode(line.text)
        : [...line.text.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)].map((match) => match[1] ?? match[2] ?? '');
    for (const candidate of candidates) {
      const permission = /^([a-z]+):([a-z][a-z-]*)$/.exec(candidate.trim());
      if (permission && resources.has(permission[1]) && !known.has(permission[0])) {
        problems.push({
          file: page.file,
          line: line.number,
          rule: 'permission',
          message: `"${permission[0]}" is not a permission in PERMISSIONS of src/data/platform.ts`,
        });
      }
    }
  }
  return problems;
}

/**
 * Owning teams: every `#team-<name>` is the owner of a service in platform.ts,
 * and a prose or table line that names one team and links service pages (or
 * renders `<Service id>`) names only services that team owns.
 */
export function checkOwners(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const owners = new Map(facts.services.map((service) => [service.id, service.owner]));
  const teams = new Set(owners.values());
  const problems: Problem[] = [];
  for (const line of sourceLines(page.source).filter((candidate) => candidate.code === null)) {
    const named = new Set([...line.text.matchAll(/#team-([a-z][a-z0-9-]*)/g)].map((match) => match[1] ?? ''));
    for (const team of [...named].filter((candidate) => !teams.has(candidate))) {
      problems.push({
        file: page.file,
        line: line.number,
        rule: 'owner',
        message: `#team-${team} owns no service in src/data/platform.ts (teams: ${[...teams].join(', ')})`,
      });
    }
    if (named.size !== 1) {
      continue;
    }
    const [team] = [...named];
    const linked = [...line.text.matchAll(/\]\([^)\s]*services\/([a-z][a-z0-9-]*)\.mdx?[)#]|<Service id="([a-z][a-z0-9-]*)"/g)].map(
      (match) => match[1] ?? match[2] ?? '',
    );
    for (const id of new Set(linked)) {
      const owner = owners.get(id);
      if (owner && owner !== team) {
        problems.push({
          file: page.file,
          line: line.number,
          rule: 'owner',
          message: `${id} is owned by #team-${owner} in src/data/platform.ts, not #team-${team}`,
        });
      }
    }
  }
  return problems;
}

/**
 * Fact components: they name ids that platform.ts has (an unknown id throws
 * at build time), a table with a single home is rendered only there, and the
 * summary box of a service or library page names that page's own id.
 */
export function checkComponents(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const problems: Problem[] = [];
  const services = new Set(facts.services.map((service) => service.id));
  const libraries = new Set(facts.libraries.map((library) => library.id));
  const own = /\/(services|shared-libraries)\/([a-z0-9-]+)\.mdx?$/.exec(page.file);
  for (const line of sourceLines(page.source).filter((candidate) => candidate.code === null)) {
    const text = line.text.replace(/`[^`]*`/g, '');
    for (const {pattern, tag, page: home} of SINGLE_HOME_COMPONENTS) {
      if (pattern.test(text) && page.file !== home) {
        problems.push({
          file: page.file,
          line: line.number,
          rule: 'single-home',
          message: `${tag} is rendered only in docs/${home}; link there instead`,
        });
      }
    }
    for (const match of text.matchAll(/<(Port|Service|ServiceSummary|EnvVarTable|LibrarySummary)\s+(?:id|service)="([^"]*)"/g)) {
      const known = match[1] === 'LibrarySummary' ? libraries : services;
      if (!known.has(match[2] ?? '')) {
        problems.push({
          file: page.file,
          line: line.number,
          rule: 'component-id',
          message: `<${match[1]}> names "${match[2]}", which is not in src/data/platform.ts (the build would fail)`,
        });
      }
    }
    for (const match of text.matchAll(/<(ServiceSummary|LibrarySummary)\s+id="([^"]*)"/g)) {
      const expected = match[1] === 'ServiceSummary' ? 'services' : 'shared-libraries';
      if (own?.[1] !== expected || own[2] !== match[2]) {
        problems.push({
          file: page.file,
          line: line.number,
          rule: 'summary-id',
          message: `<${match[1]} id="${match[2]}"> belongs on docs/internal-developers/${expected}/${match[2]}.md only`,
        });
      }
    }
  }
  return problems;
}

/** Doc ids of a sidebar (strings, `{type: 'doc', id}` and nested categories). */
export function sidebarDocIds(items: unknown): string[] {
  if (typeof items === 'string') {
    return [items];
  }
  if (Array.isArray(items)) {
    return items.flatMap(sidebarDocIds);
  }
  if (items && typeof items === 'object') {
    const item = items as {type?: string; id?: unknown; items?: unknown};
    if (item.type === 'doc' && typeof item.id === 'string') {
      return [item.id];
    }
    if (item.items) {
      return sidebarDocIds(item.items);
    }
    return Object.values(items).flatMap(sidebarDocIds);
  }
  return [];
}

/**
 * (c) The sidebar and platform.ts agree: every service and shared library has
 * its page in the sidebar, and every services/ and shared-libraries/ page in
 * the sidebar is a service or library of platform.ts.
 */
export function checkSidebar(docIds: string[], facts: PlatformFacts = PLATFORM): Problem[] {
  const problems: Problem[] = [];
  const ids = new Set(docIds);
  const groups = [
    {dir: SERVICES_DIR, what: 'service', list: 'SERVICES', known: facts.services.map((service) => service.id)},
    {dir: LIBRARIES_DIR, what: 'shared library', list: 'SHARED_LIBRARIES', known: facts.libraries.map((library) => library.id)},
  ];
  for (const {dir, what, list, known} of groups) {
    for (const id of known.filter((candidate) => !ids.has(`${dir}/${candidate}`))) {
      problems.push({
        file: SIDEBARS_FILE,
        rule: 'sidebar',
        message: `the ${what} "${id}" of src/data/platform.ts has no page ${dir}/${id} in the sidebar`,
      });
    }
    for (const docId of docIds.filter((candidate) => candidate.startsWith(`${dir}/`))) {
      const id = docId.slice(dir.length + 1);
      if (!known.includes(id)) {
        problems.push({
          file: PLATFORM_FILE,
          rule: 'sidebar',
          message: `the sidebar page ${docId} is not a ${what} in ${list} of src/data/platform.ts`,
        });
      }
    }
  }
  return problems;
}

/**
 * (d) "Called by" (computed from dependsOn) is never empty for a service the
 * gateway routes to: the gateway lists every service with a public prefix.
 */
export function checkCallers(facts: PlatformFacts = PLATFORM): Problem[] {
  const gateway = facts.services.find((service) => service.gatewayPrefix === '/');
  const problems: Problem[] = [];
  for (const service of facts.services.filter((candidate) => candidate !== gateway)) {
    const callers = facts.services.filter((other) => other.dependsOn.includes(service.id)).map((other) => other.id);
    if (gateway && !callers.includes(gateway.id)) {
      const shown = callers.length === 0 ? 'its "Called by" is empty' : `its "Called by" (${callers.join(', ')}) leaves the gateway out`;
      problems.push({
        file: PLATFORM_FILE,
        rule: 'called-by',
        message: `the gateway routes ${service.gatewayPrefix} to ${service.id}, but ${gateway.id} does not list it in dependsOn, so ${shown}`,
      });
    }
  }
  return problems;
}
