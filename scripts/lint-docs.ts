/**
 * Our own documentation rules (markdownlint-cli2 checks Markdown style):
 * front matter, length, structure, code block languages, required diagrams,
 * no paragraph copied between pages, and drift between the pages and the
 * platform data (`src/data/platform.ts`, `sidebars.ts`) that a machine can see:
 * make targets, ports and service hostnames, hard-coded service base URLs,
 * permission names, owning teams, fact tables
 * rendered once and summary boxes on their own page, the sidebar, "Called by" of routed services, a budget
 * for prose repeated across pages, and the facts with one home of issue 31 (`checkHomes`: one status rule for
 * upstream failures, one validation-error shape, Compose container names, each variable's .env file, AWS account
 * ids, the public-route list, who adds you to the staff organisation, the CI matrix, who applies Terraform beyond
 * dev, one ECS secrets entry per variable, and where the logs are). Usage:
 *   npm run lint:docs       (every page under docs/, then markdownlint-cli2)
 *   npx ts-node -P test/tsconfig.json --transpile-only scripts/lint-docs.ts [files...]
 *       (only the problems of these files; shared paragraphs and repeated prose are
 *       still measured on every page. `npm run lint:docs -- <files>` hands the files
 *       to markdownlint-cli2 only, so lint-docs then reports every page.)
 *   npx ts-node -P test/tsconfig.json --transpile-only scripts/lint-docs.ts --shingles-at <git revision>
 *       (prints the repeated-prose figure of the pages at that revision)
 * Prints `docs/<file>[:<line>]: <rule>: <message>` per problem (problems in the
 * data files name `src/data/platform.ts` or `sidebars.ts`) and exits 1 when there is any.
 */
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {filesUnder} from './support/files';
import {parseFrontMatter} from './support/frontMatter';
import {AWS_ACCOUNTS, INFRASTRUCTURE, MAKE_TARGETS, PERMISSIONS, SERVICES, SHARED_ENV, SHARED_LIBRARIES} from '../src/data/platform';
import sidebars from '../sidebars';

export const MIN_WORDS = 350;
export const MIN_H2_SECTIONS = 3;
/** A paragraph shorter than this may repeat (e.g. "See the reference."). */
export const MIN_DUPLICATE_WORDS = 12;

/** Length of the word shingles that measure prose repeated across pages. */
export const SHINGLE_WORDS = 8;
/**
 * Distinct prose 8-word shingles that occur on two or more pages, measured on the
 * 33 handbook pages at commit 42a6c3f (before the handbook rework of issue 16):
 * `scripts/lint-docs.ts --shingles-at 42a6c3f` (see Usage). Repeated prose must stay at or
 * below REPEATED_PROSE_BUDGET of it (issue 16: at least 20 % less repetition).
 */
export const REPEATED_SHINGLES_BASELINE = 29;
export const REPEATED_PROSE_BUDGET = 0.8;

/** Pages that must contain at least one mermaid diagram. */
export const MERMAID_REQUIRED = [
  'internal-developers/architecture/build-architecture.md',
  'internal-developers/architecture/docker-setup.md',
  'internal-developers/architecture/database-prisma.md',
  'internal-developers/services/api-gateway.md',
  'internal-developers/services/auth-service.md',
  'internal-developers/deployment/deployment-guide.md',
];

const SERVICE_SECTIONS = ['Purpose', 'API surface', 'Data model', 'Configuration', 'Dependencies', 'Local development', 'Troubleshooting'];
const LIBRARY_SECTIONS = ['What it provides', 'Usage example', 'Conventions', 'Pitfalls'];

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

export interface Problem {
  /** Path relative to docs/, with forward slashes (`../src/data/platform.ts` for the data files). */
  file: string;
  rule: string;
  message: string;
  /** 1-based line in the file, when the problem is on one line. */
  line?: number;
}

export interface Page {
  /** Path relative to docs/, with forward slashes. */
  file: string;
  source: string;
}

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

interface ParsedPage {
  frontMatter: Record<string, unknown>;
  /** Body without fenced code blocks. */
  prose: string;
  fences: {language: string}[];
}

/** Where the front matter block ends (to number source lines); its fields are read by Docusaurus's parser. */
const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n?/;

function parse(source: string): ParsedPage {
  const match = FRONT_MATTER.exec(source);
  const {frontMatter} = parseFrontMatter(source);
  const body = match ? source.slice(match[0].length) : source;
  const fences: ParsedPage['fences'] = [];
  const prose = body.replace(/^[ \t]*(```+|~~~+)([^\n]*)\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, (_all, _fence: string, info: string) => {
    fences.push({language: info.trim().split(/\s+/)[0] ?? ''});
    return '\n';
  });
  return {frontMatter, prose, fences};
}

export interface SourceLine {
  /** 1-based line number in the file. */
  number: number;
  text: string;
  /** Language of the fenced code block the line is in ('' without a tag), or null for prose. */
  code: string | null;
}

/** The lines after the front matter, each marked as prose or as code of a language (fence lines left out). */
export function sourceLines(source: string): SourceLine[] {
  const lines = source.split('\n');
  const frontMatter = FRONT_MATTER.exec(source);
  const skip = frontMatter ? frontMatter[0].replace(/\n$/, '').split('\n').length : 0;
  const result: SourceLine[] = [];
  let fence: {marker: string; language: string} | null = null;
  lines.forEach((text, index) => {
    if (index < skip) {
      return;
    }
    if (fence) {
      if (new RegExp(`^[ \\t]*${fence.marker}[ \\t]*$`).test(text)) {
        fence = null;
      } else {
        result.push({number: index + 1, text, code: fence.language});
      }
      return;
    }
    const open = /^[ \t]*(```+|~~~+)(.*)$/.exec(text);
    if (open?.[1]) {
      fence = {marker: open[1], language: (open[2] ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? ''};
      return;
    }
    result.push({number: index + 1, text, code: null});
  });
  return result;
}

/** Lines a reader reads as prose: no imports, tables, JSX component lines, admonition fences or HTML comments. */
function isReadableProse(line: string): boolean {
  return !/^\s*(import|export)\s/.test(line) && !/^\s*\|/.test(line) && !/^\s*<\/?[A-Z][^>]*>\s*$/.test(line) && !/^\s*:::/.test(line);
}

/** Words a reader reads: no imports, JSX component lines, tables, markup or link targets. */
export function proseWords(prose: string): number {
  const text = prose
    .split('\n')
    .filter(isReadableProse)
    .join('\n')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[#>*_`[\]]/g, ' ');
  return text.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
}

function paragraphs(prose: string): string[] {
  return prose
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => !/^(#|\||import |export |<|:::)/.test(block))
    .map((block) => block.replace(/\s+/g, ' ').toLowerCase());
}

export function lintPage(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const problems: Problem[] = [];
  const report = (rule: string, message: string) => problems.push({file: page.file, rule, message});
  const {frontMatter, prose, fences} = parse(page.source);

  // No sidebar_position: sidebars.ts lists the pages in order by hand.
  for (const field of ['title', 'description']) {
    const value = frontMatter[field];
    if (typeof value !== 'string' || value.trim() === '') {
      report('front-matter', `missing "${field}"`);
    }
  }
  if (/^#\s/m.test(prose)) {
    report('no-h1', 'the title comes from front matter; remove the "# " heading');
  }
  const words = proseWords(prose);
  if (words < MIN_WORDS) {
    report('min-words', `${words} words of prose, at least ${MIN_WORDS} required`);
  }
  const h2 = [...prose.matchAll(/^##\s+(.+?)\s*$/gm)].map((heading) => heading[1] ?? '');
  if (h2.length < MIN_H2_SECTIONS) {
    report('min-sections', `${h2.length} "##" sections, at least ${MIN_H2_SECTIONS} required`);
  }
  if (fences.length === 0) {
    report('code-block', 'at least one fenced code block with a language is required');
  }
  fences.forEach((fence, index) => {
    if (!fence.language) {
      report('code-language', `fenced code block #${index + 1} has no language tag`);
    }
  });
  if (MERMAID_REQUIRED.includes(page.file) && !fences.some((fence) => fence.language === 'mermaid')) {
    report('mermaid', 'this page must contain a mermaid diagram');
  }
  if (!/\]\((\.{1,2}\/|\/docs\/)[^)]+\)/.test(prose)) {
    report('related-links', 'link at least one related page');
  }
  const required = page.file.includes('/services/') ? SERVICE_SECTIONS : page.file.includes('/shared-libraries/') ? LIBRARY_SECTIONS : [];
  const missing = required.filter((section) => !h2.includes(section));
  if (missing.length > 0) {
    report('structure', `missing "##" sections: ${missing.join(', ')}`);
  }
  return [
    ...problems,
    ...checkMakeTargets(page, facts),
    ...checkAddresses(page, facts),
    ...checkPermissions(page, facts),
    ...checkOwners(page, facts),
    ...checkComponents(page, facts),
    ...checkHomes(page, facts),
  ];
}

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

/** Words of a prose block, lower case, with code, markup and link targets left out. */
function shingleWords(block: string): string[] {
  const text = block
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .toLowerCase();
  return text.match(/[a-z0-9]+(?:['’._:/-][a-z0-9]+)*/g) ?? [];
}

/** Prose blocks of a page (paragraphs, list items, headings), without code blocks, tables, imports or JSX lines. */
function proseBlocks(source: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) {
      blocks.push(current.join(' '));
      current = [];
    }
  };
  for (const line of sourceLines(source)) {
    if (line.code !== null || !isReadableProse(line.text) || line.text.trim() === '') {
      flush();
      continue;
    }
    if (/^\s*(#{1,6}\s|[-*+]\s|\d+\.\s)/.test(line.text)) {
      flush();
    }
    current.push(line.text);
  }
  flush();
  return blocks;
}

/** The distinct SHINGLE_WORDS-word shingles of a page's prose. */
export function shingles(source: string): Set<string> {
  const result = new Set<string>();
  for (const block of proseBlocks(source)) {
    const words = shingleWords(block);
    for (let index = 0; index + SHINGLE_WORDS <= words.length; index += 1) {
      result.add(words.slice(index, index + SHINGLE_WORDS).join(' '));
    }
  }
  return result;
}

export interface RepeatedProse {
  /** Distinct shingles that occur on two or more pages. */
  count: number;
  /** Per page, how many of its shingles occur on another page too. */
  byPage: Map<string, number>;
}

/** (e) Prose repeated across pages, as word shingles shared by two or more pages. */
export function repeatedProse(pages: Page[]): RepeatedProse {
  const pagesOf = new Map<string, Set<string>>();
  for (const page of pages) {
    for (const shingle of shingles(page.source)) {
      const seen = pagesOf.get(shingle) ?? new Set<string>();
      seen.add(page.file);
      pagesOf.set(shingle, seen);
    }
  }
  let count = 0;
  const byPage = new Map<string, number>();
  for (const files of pagesOf.values()) {
    if (files.size < 2) {
      continue;
    }
    count += 1;
    for (const file of files) {
      byPage.set(file, (byPage.get(file) ?? 0) + 1);
    }
  }
  return {count, byPage};
}

/** The largest number of repeated shingles allowed. */
export function repetitionLimit(baseline = REPEATED_SHINGLES_BASELINE, budget = REPEATED_PROSE_BUDGET): number {
  return Math.floor(baseline * budget);
}

export function checkRepetitionBudget(
  repeated: RepeatedProse,
  baseline = REPEATED_SHINGLES_BASELINE,
  budget = REPEATED_PROSE_BUDGET,
): Problem[] {
  const limit = repetitionLimit(baseline, budget);
  if (repeated.count <= limit) {
    return [];
  }
  const worst = [...repeated.byPage.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([file, count]) => `${file} ${count}`)
    .join(', ');
  return [
    {
      file: 'internal-developers',
      rule: 'repeated-prose',
      message: `${repeated.count} ${SHINGLE_WORDS}-word shingles of prose occur on two or more pages, at most ${limit} allowed (${Math.round(budget * 100)} % of the baseline ${baseline}); most shared: ${worst}. Link to the canonical page instead of retelling it.`,
    },
  ];
}

/** Paragraphs (of MIN_DUPLICATE_WORDS words or more) that appear on two pages. */
export function findSharedParagraphs(pages: Page[]): Problem[] {
  const seen = new Map<string, string>();
  const problems: Problem[] = [];
  for (const page of pages) {
    for (const paragraph of new Set(paragraphs(parse(page.source).prose))) {
      if (paragraph.split(' ').length < MIN_DUPLICATE_WORDS) {
        continue;
      }
      const first = seen.get(paragraph);
      if (first && first !== page.file) {
        problems.push({
          file: page.file,
          rule: 'shared-paragraph',
          message: `paragraph also in docs/${first}: "${paragraph.slice(0, 80)}…"`,
        });
      } else {
        seen.set(paragraph, page.file);
      }
    }
  }
  return problems;
}

/** The rules of every page, and the paragraphs shared between pages. */
export function lintPages(pages: Page[], facts: PlatformFacts = PLATFORM): Problem[] {
  return [...pages.flatMap((page) => lintPage(page, facts)), ...findSharedParagraphs(pages)];
}

export interface LintResult {
  problems: Problem[];
  repeated: RepeatedProse;
}

/** Everything `npm run lint:docs` checks: the pages, the data files and the repetition budget. */
export function lintAll(pages: Page[], docIds: string[], facts: PlatformFacts = PLATFORM): LintResult {
  const repeated = repeatedProse(pages);
  return {
    problems: [...lintPages(pages, facts), ...checkSidebar(docIds, facts), ...checkCallers(facts), ...checkRepetitionBudget(repeated)],
    repeated,
  };
}

/** Where a problem is, relative to the repository root, e.g. `docs/internal-developers/x.md:12`. */
export function location(problem: Problem): string {
  const file = path.posix.normalize(`docs/${problem.file}`);
  return problem.line ? `${file}:${problem.line}` : file;
}

function listDocs(dir: string): string[] {
  return filesUnder(dir)
    .filter(({relative}) => /\.mdx?$/.test(relative))
    .map(({full}) => full);
}

/** The pages under docs/ at a git revision (for measuring the repetition baseline). */
function pagesAt(revision: string, root: string): Page[] {
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], {encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  return git('ls-tree', '-r', '--name-only', revision, 'docs/')
    .split('\n')
    .filter((file) => /\.mdx?$/.test(file))
    .map((file) => ({file: file.slice('docs/'.length), source: git('show', `${revision}:${file}`)}));
}

function main(): void {
  const root = path.resolve(__dirname, '..');
  const docsDir = path.join(root, 'docs');
  const args = process.argv.slice(2);
  const at = args.indexOf('--shingles-at');
  if (at >= 0) {
    const revision = args[at + 1] ?? 'HEAD';
    const pages = pagesAt(revision, root);
    console.log(`lint-docs: ${pages.length} pages at ${revision}, repeated prose: ${repeatedProse(pages).count} shingles`);
    return;
  }
  const toDocsPath = (file: string) => path.relative(docsDir, path.resolve(file)).split(path.sep).join('/');
  const pages = listDocs(docsDir).map((file) => ({file: toDocsPath(file), source: readFileSync(file, 'utf8')}));
  const only = new Set(args.map((file) => path.relative(root, path.resolve(file)).split(path.sep).join('/')));
  // Shared paragraphs and repeated prose are always measured on every page, even for a subset.
  const {problems: all, repeated} = lintAll(pages, sidebarDocIds(sidebars));
  const problems = all.filter((problem) => only.size === 0 || only.has(location({...problem, line: undefined})));
  for (const problem of problems) {
    console.error(`${location(problem)}: ${problem.rule}: ${problem.message}`);
  }
  const limit = repetitionLimit();
  console.log(
    `lint-docs: ${pages.length} pages checked, ${problems.length} problem(s); repeated prose: ${repeated.count} ${SHINGLE_WORDS}-word shingles on 2+ pages ` +
      `(${Math.round((repeated.count / REPEATED_SHINGLES_BASELINE) * 100)} % of the baseline ${REPEATED_SHINGLES_BASELINE}, budget ${limit})`,
  );
  process.exitCode = problems.length > 0 ? 1 : 0;
}

/*
 * Facts with one home (issue 31). Each rule below catches one class of
 * contradiction a program can see, and names the page that holds the fact.
 */

const FILTERS_PAGE = 'internal-developers/shared-libraries/filters.md';
const GATEWAY_PAGE = 'internal-developers/services/api-gateway.md';
const MAKE_REFERENCE_PAGE = 'internal-developers/development/make-commands-reference.md';

/** Words that describe an unavailable or slow dependency. */
const UNAVAILABLE = /\b(down|unreachable|unavailable|not running|stopped|outages?|time[sd]? ?out|timeouts?|slow)\b/i;

/** Parts of a line that state one thing: split at sentence and clause punctuation and table cells. */
function clauses(text: string): string[] {
  return text.split(/[.;:,](?:\s|$)|\|/).filter((part) => part.trim() !== '');
}

/** The lines of a page, prose and code alike, with their numbers. */
function allLines(page: Page): SourceLine[] {
  return sourceLines(page.source);
}

/**
 * One rule for a down or slow upstream (filters.md#upstream-failures): 503
 * `UPSTREAM_UNAVAILABLE`. A clause that pairs 502 or 504 with an unavailable
 * dependency, mentions 504 at all, or pairs either upstream code with the
 * other status breaks it. The home page states the rule, so it is exempt.
 */
export function checkUpstreamStatus(page: Page): Problem[] {
  if (page.file === FILTERS_PAGE) {
    return [];
  }
  const problems: Problem[] = [];
  const report = (line: SourceLine, message: string) =>
    problems.push({
      file: page.file,
      line: line.number,
      rule: 'upstream-status',
      message: `${message}; see docs/${FILTERS_PAGE}#upstream-failures`,
    });
  for (const line of allLines(page)) {
    // 504 anywhere, and 502 with an unavailable dependency in one sentence unless the sentence also names 503 (which tells the two apart).
    for (const sentence of line.text.split(/[.;|](?:\s|$)|\|/)) {
      if (/(?<![\d.])504(?![\d])/.test(sentence)) {
        report(line, 'no service answers 504: a timeout is an unavailable dependency (503 UPSTREAM_UNAVAILABLE)');
      } else if (/\b502\b/.test(sentence) && UNAVAILABLE.test(sentence) && !/\b503\b/.test(sentence)) {
        report(line, 'an unavailable or slow dependency is 503 UPSTREAM_UNAVAILABLE, not 502');
      }
    }
    // Each upstream code with its own status: in a JSON line, its "status"; elsewhere clause by clause.
    const jsonCode = /"code"\s*:\s*"(UPSTREAM_UNAVAILABLE|UPSTREAM_ERROR)"/.exec(line.text)?.[1];
    const jsonStatus = /"status"\s*:\s*(\d{3})/.exec(line.text)?.[1];
    if (jsonCode && jsonStatus) {
      const expected = jsonCode === 'UPSTREAM_UNAVAILABLE' ? '503' : '502';
      if (jsonStatus !== expected) {
        report(line, `${jsonCode} goes with ${expected}`);
      }
      continue;
    }
    // Each upstream code with its own status, clause by clause.
    for (const clause of clauses(line.text)) {
      if (/UPSTREAM_UNAVAILABLE/.test(clause) && /\b50[0-24-9]\b/.test(clause)) {
        report(line, 'UPSTREAM_UNAVAILABLE goes with 503');
      } else if (/UPSTREAM_ERROR/.test(clause) && /\b50[013-9]\b/.test(clause)) {
        report(line, 'UPSTREAM_ERROR goes with 502');
      }
    }
  }
  return problems;
}

/**
 * One validation-error shape (filters.md): `VALIDATION_FAILED` only with 400,
 * and `errors[]` items carry a JSON `pointer`, never a `path`.
 */
export function checkValidationErrors(page: Page): Problem[] {
  const problems: Problem[] = [];
  const report = (line: SourceLine, message: string) =>
    problems.push({
      file: page.file,
      line: line.number,
      rule: 'validation-error',
      message: `${message}; see docs/${FILTERS_PAGE}#problemdetailsfilter`,
    });
  for (const line of allLines(page)) {
    const {text} = line;
    if (/"errors"\s*:\s*\[[^\]]*"path"\s*:/.test(text) || /errors\[\]\.path\b/.test(text)) {
      report(line, 'validation errors name the field with "pointer" (a JSON pointer such as "#/name"), not "path"');
    }
    if (/"code"\s*:\s*"VALIDATION_FAILED"/.test(text)) {
      const status = /"status"\s*:\s*(\d{3})/.exec(text)?.[1];
      if (status && status !== '400') {
        report(line, `VALIDATION_FAILED goes with 400, not ${status}`);
      }
      continue;
    }
    for (const clause of clauses(text)) {
      const statuses = (clause.match(/\b[45]\d\d\b/g) ?? []).filter((status) => status !== '400');
      if (/VALIDATION_FAILED/.test(clause) && statuses.length > 0) {
        report(line, `VALIDATION_FAILED goes with 400, not ${statuses.join(', ')}`);
      }
    }
  }
  return problems;
}

/**
 * Compose names containers `acme-backend-<service>-<n>` (the project is the
 * repository, acme-backend) and sets no restart policy: a crashed service
 * is `Exited (1)`, never `Restarting`.
 */
export function checkContainerNames(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const names = new Set([...facts.services.map((service) => service.id), ...facts.infrastructure.map((container) => container.name)]);
  for (const example of EXAMPLE_SERVICES) {
    names.add(example.id);
  }
  const problems: Problem[] = [];
  for (const line of allLines(page)) {
    for (const match of line.text.matchAll(/\bacme-([a-z0-9]+(?:-[a-z0-9]+)*?)-(\d+)\b/g)) {
      const name = match[1] ?? '';
      if (names.has(name)) {
        problems.push({
          file: page.file,
          line: line.number,
          rule: 'container-name',
          message: `${match[0]}: Compose containers are named acme-backend-${name}-${match[2]}`,
        });
      }
    }
    if (/\bacme-[a-z0-9-]+-\d+\b/.test(line.text) && /\bRestarting\b/.test(line.text)) {
      problems.push({
        file: page.file,
        line: line.number,
        rule: 'container-name',
        message: 'Compose sets no restart policy: a crashed container shows Exited (1), not Restarting',
      });
    }
  }
  return problems;
}

/**
 * A variable is set in the file platform.ts gives it: shared variables in the
 * root `.env` (PORT and DATABASE_URL, `perService`, in each service's own),
 * a service's own variables in `apps/<service-id>/.env`. A line that puts a
 * variable in another service's `.env`, or a shared one in a service's, says
 * something else.
 */
export function checkEnvHomes(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const shared = new Map(facts.sharedEnv.map((variable) => [variable.name, variable]));
  const owners = new Map<string, Set<string>>();
  for (const service of facts.services) {
    for (const variable of service.env) {
      const set = owners.get(variable.name) ?? new Set<string>();
      set.add(service.id);
      owners.set(variable.name, set);
    }
  }
  const problems: Problem[] = [];
  for (const line of allLines(page)) {
    if (line.code !== null && !['', 'text', 'bash', 'sh', 'shell', 'env', 'dotenv'].includes(line.code)) {
      continue;
    }
    const files = [...line.text.matchAll(/apps\/([a-z0-9<>-]+)\/\.env(?:\.example)?\b/g)].map((match) => match[1] ?? '');
    if (files.length === 0) {
      continue;
    }
    const variables = [...line.text.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)].map((match) => match[0]);
    for (const name of new Set(variables)) {
      const sharedVariable = shared.get(name);
      const problem = (message: string) => problems.push({file: page.file, line: line.number, rule: 'env-home', message});
      if (sharedVariable && !sharedVariable.perService) {
        problem(
          `${name} is shared: it is set in the root .env, not in apps/<service-id>/.env (docs/internal-developers/getting-started/introduction.md#shared-environment-variables)`,
        );
      } else if (!sharedVariable && owners.has(name) && files.length === 1) {
        const file = files[0] ?? '';
        if (!file.startsWith('<') && !owners.get(name)?.has(file)) {
          problem(
            `${name} is not a variable of ${file} in src/data/platform.ts (it belongs to ${[...(owners.get(name) ?? [])].join(', ')})`,
          );
        }
      }
    }
  }
  return problems;
}

/**
 * AWS account ids come from the accounts table (AWS_ACCOUNTS): every 12-digit
 * id on a page is one of them, ECR images live in the shared account, and a
 * line naming one environment (`acme/<env>/`, `acme-<env>`) uses its id.
 */
export function checkAwsAccounts(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  const accounts = facts.awsAccounts ?? AWS_ACCOUNTS;
  const byId = new Map(accounts.map((account) => [account.id, account.name]));
  const byName = new Map(accounts.map((account) => [account.name, account.id]));
  const problems: Problem[] = [];
  for (const line of allLines(page)) {
    // Account ids stand between colons in ARNs, or before .dkr.ecr in image names; timestamps such as 20261123101500 are longer.
    for (const match of line.text.matchAll(/(?<![\d])(\d{12})(?![\d])/g)) {
      const id = match[1] ?? '';
      const account = byId.get(id);
      const problem = (message: string) => problems.push({file: page.file, line: line.number, rule: 'aws-account', message});
      if (!account) {
        problem(`${id} is not an account of the accounts table (AWS_ACCOUNTS in src/data/platform.ts)`);
        continue;
      }
      if (line.text.includes(`${id}.dkr.ecr`) && account !== 'shared') {
        problem(`${id} is the ${account} account: images are in the ECR repositories of the shared account (${byName.get('shared')})`);
        continue;
      }
      const environments = new Set(
        [...line.text.matchAll(/\bacme[/-](shared|dev|staging|production)\b/g)]
          .map((named) => named[1] ?? '')
          .filter((name) => byName.has(name)),
      );
      if (environments.size === 1 && !line.text.includes('.dkr.ecr')) {
        const [environment] = [...environments];
        if (environment && environment !== account) {
          problem(`${id} is the ${account} account, but the line is about ${environment} (${byName.get(environment)})`);
        }
      }
    }
  }
  return problems;
}

/** The public routes are listed once, in the gateway's request lifecycle (ADR-0001). */
export function checkPublicRoutes(page: Page): Problem[] {
  if (page.file === GATEWAY_PAGE) {
    return [];
  }
  const problems: Problem[] = [];
  for (const line of allLines(page).filter((candidate) => candidate.code === null)) {
    const routes = ['/health', '/auth/login', '/auth/callback', '/auth/refresh'].filter((route) => line.text.includes(`${route}\``));
    if (routes.length >= 3 && /\b(only|public|without (an? )?(access |user )?token)\b/i.test(line.text)) {
      problems.push({
        file: page.file,
        line: line.number,
        rule: 'public-routes',
        message: `lists the public routes (${routes.join(', ')}); link to docs/${GATEWAY_PAGE}#request-lifecycle, their one list`,
      });
    }
  }
  return problems;
}

/** The channel that adds people to WorkOS organisations, the staff one included (introduction's access checklist). */
export const WORKOS_MEMBERSHIP_CHANNEL = '#team-identity';

/** Who adds you to the staff organisation: one channel. */
export function checkStaffOrganisation(page: Page): Problem[] {
  const problems: Problem[] = [];
  for (const line of allLines(page).filter((candidate) => candidate.code === null)) {
    if (!/staff organi[sz]ation/i.test(line.text)) {
      continue;
    }
    for (const match of line.text.matchAll(/#team-[a-z]+/g)) {
      if (match[0] !== WORKOS_MEMBERSHIP_CHANNEL) {
        problems.push({
          file: page.file,
          line: line.number,
          rule: 'staff-organisation',
          message: `${match[0]} next to the staff organisation: ${WORKOS_MEMBERSHIP_CHANNEL} adds people to it (see the access checklist of the introduction)`,
        });
      }
    }
  }
  return problems;
}

/**
 * Deployment facts a walkthrough must not contradict: the CI matrix is derived
 * from apps/* (nobody adds a service to it), only the Terraform workflow
 * applies shared, staging and production, and ECS gets one `secrets` entry
 * per variable (`valueFrom = "<arn>:<KEY>::"`), never a bare secret ARN.
 */
export function checkDeploymentFacts(page: Page): Problem[] {
  const problems: Problem[] = [];
  const report = (line: SourceLine, rule: string, message: string) => problems.push({file: page.file, line: line.number, rule, message});
  for (const line of allLines(page)) {
    const {text} = line;
    for (const clause of text.split(/[.;](?:\s|$)/)) {
      if (
        /\bmatrix\b/i.test(clause) &&
        /\b(add|adds|adding|list|lists|listing|edit|include)\b/i.test(clause) &&
        !/\bderived\b|\bno workflow\b/i.test(clause)
      ) {
        report(
          line,
          'ci-matrix',
          'the CI matrix is derived from the folders in apps/; nobody adds a service to it (docs/internal-developers/development/makefile-commands.md)',
        );
      }
    }
    const apply = /make tf-apply ENV=(shared|staging|production)\b/.exec(text);
    if (apply && !/\b(never|not)\b/i.test(text)) {
      report(
        line,
        'tf-apply',
        `make tf-apply ENV=${apply[1]}: only the Terraform workflow applies shared, staging and production (docs/internal-developers/deployment/releases-and-infrastructure.md#apply-terraform-beyond-dev)`,
      );
    }
    if (/\bsecret_arns\b/.test(text)) {
      report(
        line,
        'ecs-secrets',
        'secret_arns: the ecs-service module takes secrets, one entry per variable (docs/internal-developers/deployment/deployment-guide.md#secrets)',
      );
    }
    for (const match of text.matchAll(/valueFrom\s*=\s*"([^"]*)"/g)) {
      const value = match[1] ?? '';
      if (!/:(?:[A-Z][A-Z0-9_]*|\$\{key\})::$/.test(value)) {
        report(
          line,
          'ecs-secrets',
          `valueFrom "${value}" must end in :<KEY>:: (one variable per secrets entry; docs/internal-developers/deployment/deployment-guide.md#secrets)`,
        );
      }
    }
  }
  return problems;
}

/** Where the logs are is said once (make-commands-reference.md#where-the-logs-are); other pages link there. */
export function checkLogsNote(page: Page): Problem[] {
  if (page.file === MAKE_REFERENCE_PAGE) {
    return [];
  }
  const problems: Problem[] = [];
  for (const line of allLines(page).filter((candidate) => candidate.code === null)) {
    const {text} = line;
    if (
      /make dev/.test(text) &&
      (/\b(logs?|output)\b[^.]{0,40}\bterminal\b/i.test(text) || /\b(logs?|output)\b[^.]{0,60}where `make dev` runs/i.test(text)) &&
      !text.includes('#where-the-logs-are')
    ) {
      problems.push({
        file: page.file,
        line: line.number,
        rule: 'logs-note',
        message: `says where the logs of make dev go; link to docs/${MAKE_REFERENCE_PAGE}#where-the-logs-are instead`,
      });
    }
  }
  return problems;
}

/** Every one-home rule of issue 31. */
export function checkHomes(page: Page, facts: PlatformFacts = PLATFORM): Problem[] {
  return [
    ...checkUpstreamStatus(page),
    ...checkValidationErrors(page),
    ...checkContainerNames(page, facts),
    ...checkEnvHomes(page, facts),
    ...checkAwsAccounts(page, facts),
    ...checkPublicRoutes(page),
    ...checkStaffOrganisation(page),
    ...checkDeploymentFacts(page),
    ...checkLogsNote(page),
  ];
}

if (require.main === module) {
  main();
}
