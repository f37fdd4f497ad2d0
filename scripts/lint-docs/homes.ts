/**
 * Facts with one home (issue 31): each rule catches one class of
 * contradiction a program can see between a page and the page that holds
 * the fact, and names that page. One status rule for upstream failures, one
 * validation-error shape, Compose container names, each variable's .env
 * file, AWS account ids, the public-route list, who adds you to the staff
 * organisation, the CI matrix, who applies Terraform beyond dev, one ECS
 * secrets entry per variable, and where the logs are.
 */
import {AWS_ACCOUNTS} from '../../src/data/platform';
import {sourceLines, type Page, type Problem, type SourceLine} from './pages';
import {EXAMPLE_SERVICES, PLATFORM, type PlatformFacts} from './platformFacts';

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
