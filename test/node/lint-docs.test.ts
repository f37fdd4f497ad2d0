import {
  checkAwsAccounts,
  checkContainerNames,
  checkDeploymentFacts,
  checkEnvHomes,
  checkHomes,
  checkLogsNote,
  checkPublicRoutes,
  checkStaffOrganisation,
  checkUpstreamStatus,
  checkValidationErrors,
} from '../../scripts/lint-docs/homes';
import {lintAll, lintPage, lintPages, location} from '../../scripts/lint-docs';
import {sourceLines, type Page} from '../../scripts/lint-docs/pages';
import {
  checkAddresses,
  checkCallers,
  checkComponents,
  checkMakeTargets,
  checkOwners,
  checkPermissions,
  checkSidebar,
  PLATFORM,
  sidebarDocIds,
  type PlatformFacts,
} from '../../scripts/lint-docs/platformFacts';
import {
  checkRepetitionBudget,
  repeatedProse,
  REPEATED_SHINGLES_BASELINE,
  repetitionLimit,
  shingles,
} from '../../scripts/lint-docs/repetition';
import {MIN_WORDS} from '../../scripts/lint-docs/structure';
import sidebars from '../../sidebars';

const words = (count: number, seed: string) => Array.from({length: count}, (_, index) => `${seed}${index}`).join(' ');

function page(file: string, body: string, frontMatter = 'title: A page\ndescription: What it is.\nsidebar_position: 1'): Page {
  return {file, source: `---\n${frontMatter}\n---\n\n${body}\n`};
}

const goodBody = (seed: string) => `${words(MIN_WORDS, seed)}

## One

See [the gateway](../services/api-gateway.md).

## Two

\`\`\`bash
make up
\`\`\`

## Three

Text.`;

/** A small platform for the data checks: a gateway routing to two services, one library, a few targets. */
const facts: PlatformFacts = {
  services: [
    {
      id: 'api-gateway',
      owner: 'platform',
      name: 'API Gateway',
      port: 8080,
      gatewayPrefix: '/',
      dependsOn: ['file-service', 'kira-service'],
      env: [],
    },
    {id: 'file-service', owner: 'content', name: 'File Service', port: 3004, gatewayPrefix: '/files', dependsOn: [], env: []},
    {
      id: 'kira-service',
      owner: 'ai',
      name: 'Kira Service',
      port: 3007,
      gatewayPrefix: '/kira',
      dependsOn: ['file-service'],
      env: [
        {name: 'FILE_SERVICE_URL', localDefault: 'http://localhost:3004'},
        {name: 'WEB_ORIGIN', localDefault: 'http://localhost:3000'},
      ],
    },
  ],
  infrastructure: [
    {name: 'postgres', port: 5432},
    {name: 'redis', port: 6379},
  ],
  sharedEnv: [],
  libraries: [{id: 'guards'}],
  makeTargets: [{name: 'up'}, {name: 'dev'}, {name: 'logs'}, {name: 'db-migrate'}],
  permissions: [{name: 'files:read'}, {name: 'kira:chat'}],
};

const doc = (body: string, file = 'internal-developers/development/x.md'): Page => page(file, body);
const rules = (problems: {rule: string}[]) => problems.map((problem) => problem.rule);

describe('documentation lint', () => {
  it('accepts a page that follows every rule', () => {
    expect(lintPage(page('internal-developers/development/x.md', goodBody('a')))).toEqual([]);
  });

  it('names the file and rule for each broken rule', () => {
    const problems = lintPage(
      page('internal-developers/development/x.md', `# Heading\n\nshort text\n\n\`\`\`\nno language\n\`\`\``, 'title: Only a title'),
    );
    expect(problems.map((problem) => problem.rule).sort()).toEqual(
      ['code-language', 'front-matter', 'min-sections', 'min-words', 'no-h1', 'related-links'].sort(),
    );
    expect(problems.every((problem) => problem.file === 'internal-developers/development/x.md')).toBe(true);
  });

  it('requires a mermaid diagram on the architecture pages and the service structure on service pages', () => {
    const rules = lintPage(page('internal-developers/services/api-gateway.md', goodBody('b'))).map((problem) => problem.rule);
    expect(rules).toEqual(expect.arrayContaining(['mermaid', 'structure']));
  });

  it('reports a paragraph copied between two pages', () => {
    const shared = 'This paragraph about the gateway and its rate limits appears on two different pages of the handbook.';
    const problems = lintPages([
      page('internal-developers/development/a.md', `${goodBody('c')}\n\n${shared}`),
      page('internal-developers/development/b.md', `${goodBody('d')}\n\n${shared}`),
    ]);
    expect(problems).toEqual([expect.objectContaining({file: 'internal-developers/development/b.md', rule: 'shared-paragraph'})]);
  });

  it('numbers source lines after the front matter and marks code blocks with their language', () => {
    const lines = sourceLines(page('x.md', 'Prose.\n\n```bash\nmake up\n```\n\nMore.').source);
    expect(lines.find((line) => line.text === 'make up')).toEqual({number: 10, text: 'make up', code: 'bash'});
    expect(lines.find((line) => line.text === 'More.')).toEqual({number: 13, text: 'More.', code: null});
    expect(lines.some((line) => line.text.startsWith('```') || line.text.startsWith('title'))).toBe(false);
  });

  it('prints the location relative to the repository, with the line when there is one', () => {
    expect(location({file: 'internal-developers/x.md', line: 4, rule: 'r', message: 'm'})).toBe('docs/internal-developers/x.md:4');
    expect(location({file: '../src/data/platform.ts', rule: 'r', message: 'm'})).toBe('src/data/platform.ts');
  });
});

describe('make targets (a)', () => {
  it('reports a target that is not in MAKE_TARGETS, in shell blocks, inline code and CI YAML, with its line', () => {
    const body = [
      'Run `make start` first.', // line 7: the body starts after five lines of front matter and a blank line
      '',
      '```bash',
      'make up && make migrate SERVICE=file-service',
      '```',
      '',
      '```yaml',
      '      - run: make deploy',
      '```',
    ].join('\n');
    const problems = checkMakeTargets(doc(body), facts);
    expect(problems.map((problem) => [problem.line, problem.message])).toEqual([
      [7, expect.stringContaining('"make start"')],
      [10, expect.stringContaining('"make migrate"')],
      [14, expect.stringContaining('"make deploy"')],
    ]);
    expect(rules(problems).every((rule) => rule === 'make-target')).toBe(true);
  });

  it('reports a SERVICE= value that is not a service id', () => {
    const problems = checkMakeTargets(doc('```bash\nmake logs SERVICE=files-service\n```'), facts);
    expect(problems).toEqual([expect.objectContaining({rule: 'make-target', message: expect.stringContaining('SERVICE=files-service')})]);
  });

  it('accepts known targets with variables and options, placeholders, prose "make" and targets defined on the page', () => {
    const body = [
      'Make sure Docker runs, then `make up`; to make the build faster, use `make -j4 dev SERVICE=kira-service`.',
      'Any target works: `make <target>`.',
      '',
      '```bash',
      'make up             # make sure this comes first',
      'SERVICE=file-service make dev',
      'make db-migrate SERVICE=kira-service && make logs SERVICE=<service-id>',
      '```',
      '',
      '```makefile',
      'openapi: ## Export the OpenAPI documents',
      '\t$(MAKE) up',
      '```',
      '',
      '```bash',
      'make openapi',
      '```',
      '',
      '```text',
      'make: *** No rule to make target `deploy`.',
      '```',
    ].join('\n');
    expect(checkMakeTargets(doc(body), facts)).toEqual([]);
  });
});

describe('ports, hostnames and service base URLs (b)', () => {
  it('reports a localhost port that no service or container uses, and a hostname with the wrong port', () => {
    const body = [
      'The file service answers on <http://localhost:3044/health>.',
      '',
      '```bash',
      'psql postgresql://acme:acme@postgres:5433/file',
      'redis-cli -u redis://redis:6379',
      '```',
    ].join('\n');
    const problems = checkAddresses(doc(body), facts);
    expect(problems.map((problem) => [problem.rule, problem.line, problem.message])).toEqual([
      ['port', 7, expect.stringContaining('localhost:3044')],
      ['port', 10, 'postgres:5433: postgres listens on 5432 in src/data/platform.ts'],
    ]);
  });

  it('reports a service base URL hard-coded in a code block, naming the variable to read', () => {
    const body = [
      '```ts',
      "const url = process.env.FILE_SERVICE_URL ?? 'http://file-service:3004';",
      "await fetch('http://kira-service/internal/x');",
      '```',
    ].join('\n');
    const problems = checkAddresses(doc(body), facts);
    expect(problems.map((problem) => [problem.rule, problem.message])).toEqual([
      ['service-url', 'http://file-service:3004 is hard-coded; read the base URL from configuration (FILE_SERVICE_URL)'],
      ['service-url', 'http://kira-service is hard-coded; read the base URL from configuration (KIRA_SERVICE_URL)'],
    ]);
  });

  it('accepts known ports, local defaults, the configuration variables themselves and URLs in prose', () => {
    const body = [
      'Call <http://localhost:8080/health>, open MinIO on `localhost:9001`, the web app on localhost:3000 and the debugger on 127.0.0.1:9229.',
      'Inside Docker the file service is `http://file-service:3004`.',
      '',
      '```ts',
      "const files = this.config.get('FILE_SERVICE_URL');",
      '```',
      '',
      '```bash',
      'FILE_SERVICE_URL=http://localhost:3004 make dev SERVICE=kira-service',
      'export FILE_SERVICE_URL="http://file-service:3004"',
      '```',
      '',
      '```yaml',
      '      FILE_SERVICE_URL: http://file-service:3004',
      '      DATABASE_URL: postgresql://acme:acme@postgres:5432/kira',
      '```',
    ].join('\n');
    expect(checkAddresses(doc(body), facts)).toEqual([]);
  });

  it('allows the example service of the new-service walkthrough on that page only', () => {
    const body = 'The new service answers on `localhost:3009`.\n\n```yaml\ntarget: http://insights-service:3009\n```';
    expect(checkAddresses(doc(body, 'internal-developers/development/adding-new-service.md'), facts)).toEqual([]);
    expect(rules(checkAddresses(doc(body, 'internal-developers/development/other.md'), facts))).toEqual(['port']);
    const hardCoded = "```ts\n{prefix: '/insights', target: 'http://insights-service:3009'}\n```";
    expect(rules(checkAddresses(doc(hardCoded, 'internal-developers/development/adding-new-service.md'), facts))).toEqual(['service-url']);
  });
});

describe('permission names', () => {
  it('reports an unknown permission of a known resource in code and in inline code', () => {
    const body = "Needs `files:write`.\n\n```ts\n@Permissions('files:read', 'kira:talk')\n```";
    const problems = checkPermissions(doc(body), facts);
    expect(problems.map((problem) => [problem.line, problem.message])).toEqual([
      [7, expect.stringContaining('"files:write"')],
      [10, expect.stringContaining('"kira:talk"')],
    ]);
  });

  it('accepts known permissions and strings of other resources', () => {
    const body =
      "Needs `files:read` and `kira:chat`; images like `redis:alpine` are not permissions.\n\n```ts\n@Permissions('files:read')\nconst key = 'tenant:settings';\n```";
    expect(checkPermissions(doc(body), facts)).toEqual([]);
  });
});

describe('owning teams', () => {
  it('reports a team that owns nothing and a service listed under the wrong team', () => {
    const body =
      '| `#team-content` | [File Service](../services/file-service.md), [Kira](../services/kira-service.md) |\n\nAsk `#team-data`.';
    const problems = checkOwners(doc(body), facts);
    expect(problems.map((problem) => [problem.rule, problem.line, problem.message])).toEqual([
      ['owner', 7, 'kira-service is owned by #team-ai in src/data/platform.ts, not #team-content'],
      ['owner', 9, expect.stringContaining('#team-data owns no service')],
    ]);
  });

  it('accepts teams with their own services, lines naming two teams, and placeholders', () => {
    const body = [
      '- `#team-ai`: <Service id="kira-service" /> and the language-model provider.',
      'Ask `#team-content` about [files](../services/file-service.md) or `#team-platform` about the [gateway](../services/api-gateway.md).',
      'Join `#team-<your team>`.',
      'An example message in `#team-platform`: `docs/internal-developers/services/kira-service.md:12: make-target: …`.',
    ].join('\n');
    expect(checkOwners(doc(body), facts)).toEqual([]);
  });
});

describe('fact components', () => {
  it('reports a single-home table rendered elsewhere and a summary box on the wrong page', () => {
    const body = '<PortsTable />\n\n<ServiceSummary id="kira-service" />';
    expect(
      checkComponents(doc(body, 'internal-developers/services/vera-service.md'), facts).map((problem) => [problem.rule, problem.line]),
    ).toEqual([
      ['single-home', 7],
      ['summary-id', 9],
    ]);
  });

  it('reports a component that names an id platform.ts does not have', () => {
    const body = 'Port <Port service="kira" /> of <Service id="file-service" />.\n\n<LibrarySummary id="logging" />';
    expect(
      checkComponents(doc(body, 'internal-developers/shared-libraries/logging.md'), facts).map((problem) => [
        problem.rule,
        problem.message,
      ]),
    ).toEqual([
      ['component-id', '<Port> names "kira", which is not in src/data/platform.ts (the build would fail)'],
      ['component-id', expect.stringContaining('<LibrarySummary> names "logging"')],
    ]);
  });

  it('accepts the tables on their home pages, summaries on their own pages and tags quoted in inline code', () => {
    expect(checkComponents(doc('<PortsTable />\n\n<EnvVarTable shared />', 'internal-developers/getting-started/introduction.md'))).toEqual(
      [],
    );
    expect(
      checkComponents(
        doc(
          '<ServiceSummary id="kira-service" />\n\n<EnvVarTable service="kira-service" />',
          'internal-developers/services/kira-service.md',
        ),
      ),
    ).toEqual([]);
    expect(
      checkComponents(
        doc(
          '<LibrarySummary id="guards" />\n\nThe `<PortsTable />` lives in the introduction.',
          'internal-developers/shared-libraries/guards.md',
        ),
      ),
    ).toEqual([]);
  });
});

describe('sidebar and platform data (c)', () => {
  const ids = [
    'internal-developers/services/api-gateway',
    'internal-developers/services/file-service',
    'internal-developers/services/kira-service',
    'internal-developers/shared-libraries/guards',
  ];

  it('accepts a sidebar with exactly the services and libraries of platform.ts', () => {
    expect(checkSidebar([...ids, 'internal-developers/getting-started/introduction'], facts)).toEqual([]);
  });

  it('reports a service without a sidebar page and a sidebar page that platform.ts does not know', () => {
    const problems = checkSidebar(
      [...ids.filter((id) => !id.endsWith('kira-service')), 'internal-developers/shared-libraries/logging'],
      facts,
    );
    expect(problems).toEqual([
      expect.objectContaining({file: '../sidebars.ts', rule: 'sidebar', message: expect.stringContaining('"kira-service"')}),
      expect.objectContaining({
        file: '../src/data/platform.ts',
        rule: 'sidebar',
        message: expect.stringContaining('shared-libraries/logging'),
      }),
    ]);
  });

  it('reads doc ids from the real sidebar, and the real sidebar agrees with platform.ts', () => {
    const real = sidebarDocIds(sidebars);
    expect(real).toContain('internal-developers/services/api-gateway');
    expect(real).toContain('internal-developers/shared-libraries/guards');
    expect(checkSidebar(real, PLATFORM)).toEqual([]);
  });
});

describe('"Called by" of routed services (d)', () => {
  it('accepts a gateway that lists every service it routes to', () => {
    expect(checkCallers(facts)).toEqual([]);
  });

  it('reports a routed service whose "Called by" is empty or leaves out the gateway', () => {
    const withoutGateway: PlatformFacts = {
      ...facts,
      services: facts.services.map((service) => (service.id === 'api-gateway' ? {...service, dependsOn: []} : service)),
    };
    const problems = checkCallers(withoutGateway);
    expect(problems.map((problem) => [problem.file, problem.rule, problem.message])).toEqual([
      ['../src/data/platform.ts', 'called-by', expect.stringContaining('leaves the gateway out')],
      ['../src/data/platform.ts', 'called-by', expect.stringMatching(/routes \/kira to kira-service.*"Called by" is empty/)],
    ]);
  });
});

describe('repeated prose budget (e)', () => {
  const sentence = 'the gateway checks the access token against the JWKS before it forwards the request';

  it('builds 8-word shingles from prose only: no code blocks, tables, imports or link targets', () => {
    const source = page(
      'x.md',
      `import {X} from '@site/x';\n\nRead [the guide](../a/very/long/path/to/a/page.md) before you start the work today.\n\n| a | b | c | d | e | f | g | h | i |\n\n\`\`\`bash\none two three four five six seven eight nine\n\`\`\``,
    ).source;
    expect([...shingles(source)]).toEqual(['read the guide before you start the work', 'the guide before you start the work today']);
  });

  it('counts shingles shared by two or more pages, once each, and per page', () => {
    const repeated = repeatedProse([
      doc(sentence, 'a.md'),
      doc(`Also: ${sentence}.`, 'b.md'),
      doc('Nothing in common with the others at all, really, none.', 'c.md'),
    ]);
    expect(repeated.count).toBe(7);
    expect(Object.fromEntries(repeated.byPage)).toEqual({'a.md': 7, 'b.md': 7});
  });

  it('fails above 80 % of the baseline and names the pages that share most', () => {
    expect(repetitionLimit(100, 0.8)).toBe(80);
    const over = checkRepetitionBudget(
      {
        count: 81,
        byPage: new Map([
          ['a.md', 50],
          ['b.md', 31],
        ]),
      },
      100,
      0.8,
    );
    expect(over).toEqual([
      expect.objectContaining({rule: 'repeated-prose', message: expect.stringContaining('most shared: a.md 50, b.md 31')}),
    ]);
    expect(checkRepetitionBudget({count: 80, byPage: new Map()}, 100, 0.8)).toEqual([]);
    // The budget in force (the defaults lintAll uses): the baseline's own amount of repetition fails, its limit passes.
    const atBaseline = {count: REPEATED_SHINGLES_BASELINE, byPage: new Map([['a.md', REPEATED_SHINGLES_BASELINE]])};
    expect(rules(checkRepetitionBudget(atBaseline))).toEqual(['repeated-prose']);
    expect(checkRepetitionBudget({count: repetitionLimit(), byPage: new Map()})).toEqual([]);
  });

  it('runs every check together in lintAll', () => {
    const pages = [
      page('internal-developers/development/a.md', `${goodBody('e')}\n\nIn short: ${sentence}.`),
      page('internal-developers/development/b.md', `${goodBody('f')}\n\nRun \`make deploy\`; ${sentence}.`),
    ];
    const docIds = [
      'internal-developers/services/api-gateway',
      'internal-developers/services/file-service',
      'internal-developers/shared-libraries/guards',
    ];
    const {problems, repeated} = lintAll(pages, docIds, facts);
    expect(rules(problems).sort()).toEqual(['make-target', 'sidebar']);
    expect(repeated.count).toBe(7);
  });
});

describe('facts with one home (issue 31)', () => {
  const realPages = () => {
    const {readdirSync, readFileSync, statSync} = jest.requireActual<typeof import('node:fs')>('node:fs');
    const {join, relative} = jest.requireActual<typeof import('node:path')>('node:path');
    const root = join(__dirname, '../../docs');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) {
          walk(full);
        } else if (/\.mdx?$/.test(name)) {
          files.push(full);
        }
      }
    };
    walk(root);
    return files.map((full) => ({file: relative(root, full).split('\\').join('/'), source: readFileSync(full, 'utf8')}));
  };

  it('passes on the real docs', () => {
    expect(realPages().flatMap((real) => checkHomes(real))).toEqual([]);
  });

  it('upstream-status: 502 or 504 for an unavailable upstream, and codes with the wrong status', () => {
    expect(rules(checkUpstreamStatus(doc('If the target is down, its prefix returns 502.')))).toEqual(['upstream-status']);
    expect(rules(checkUpstreamStatus(doc('A slow service answers 504 after 30 s.')))).toEqual(['upstream-status']);
    expect(rules(checkUpstreamStatus(doc('```json\n{"status": 502, "code": "UPSTREAM_UNAVAILABLE"}\n```')))).toEqual(['upstream-status']);
    expect(checkUpstreamStatus(doc('Its outages answer 503 `UPSTREAM_UNAVAILABLE`, a request it rejects 502 `UPSTREAM_ERROR`.'))).toEqual(
      [],
    );
    // The rule's home states it, 504 included.
    expect(checkUpstreamStatus(doc('No service answers `504`.', 'internal-developers/shared-libraries/filters.md'))).toEqual([]);
  });

  it('validation-error: VALIDATION_FAILED only with 400, errors[].pointer, never path', () => {
    expect(rules(checkValidationErrors(doc('```json\n{"status":422,"code":"VALIDATION_FAILED"}\n```')))).toEqual(['validation-error']);
    expect(rules(checkValidationErrors(doc('The route answers 422 `VALIDATION_FAILED`.')))).toEqual(['validation-error']);
    expect(
      rules(checkValidationErrors(doc('```json\n{"status": 400, "errors": [{"path": "sizeBytes", "message": "too big"}]}\n```'))),
    ).toEqual(['validation-error']);
    expect(rules(checkValidationErrors(doc('Each item of `errors[].path` names the field.')))).toEqual(['validation-error']);
    expect(
      checkValidationErrors(
        doc('```json\n{"status": 400, "code": "VALIDATION_FAILED", "errors": [{"pointer": "#/name", "message": "x"}]}\n```'),
      ),
    ).toEqual([]);
  });

  it('container-name: acme-backend-<name>-<n>, and no Restarting', () => {
    expect(rules(checkContainerNames(doc('```text\nacme-file-service-1: Up 2 minutes\n```'), facts))).toEqual(['container-name']);
    expect(rules(checkContainerNames(doc('```text\nacme-backend-file-service-1: Restarting (1) 8 seconds ago\n```'), facts))).toEqual([
      'container-name',
    ]);
    expect(checkContainerNames(doc('```text\nacme-backend-file-service-1: Exited (1) 8 seconds ago\n```'), facts)).toEqual([]);
  });

  it('env-home: a variable in the .env file platform.ts gives it', () => {
    const withEnv: PlatformFacts = {
      ...facts,
      sharedEnv: [{name: 'INTERNAL_SERVICE_TOKEN'}, {name: 'PORT', perService: true}],
      services: facts.services.map((service) =>
        service.id === 'kira-service' ? {...service, env: [...service.env, {name: 'KIRA_MODEL'}]} : service,
      ),
    };
    expect(rules(checkEnvHomes(doc('Set `INTERNAL_SERVICE_TOKEN` in `apps/<service-id>/.env.example`.'), withEnv))).toEqual(['env-home']);
    expect(rules(checkEnvHomes(doc('Set `KIRA_MODEL` in `apps/file-service/.env`.'), withEnv))).toEqual(['env-home']);
    expect(checkEnvHomes(doc('Set `KIRA_MODEL` and `PORT` in `apps/kira-service/.env`.'), withEnv)).toEqual([]);
  });

  it('aws-account: ids from the accounts table, ECR in shared, one environment per line', () => {
    const accounts: PlatformFacts = {
      ...facts,
      awsAccounts: [
        {name: 'shared', id: '444455556666'},
        {name: 'dev', id: '111122223333'},
        {name: 'staging', id: '777788889999'},
      ],
    };
    expect(rules(checkAwsAccounts(doc('```text\n123456789012.dkr.ecr.eu-central-1.amazonaws.com/kira-service\n```'), accounts))).toEqual([
      'aws-account',
    ]);
    expect(rules(checkAwsAccounts(doc('```text\n111122223333.dkr.ecr.eu-central-1.amazonaws.com/kira-service\n```'), accounts))).toEqual([
      'aws-account',
    ]);
    expect(
      rules(
        checkAwsAccounts(
          doc('```json\n"ARN": "arn:aws:secretsmanager:eu-central-1:111122223333:secret:acme/staging/kira-service"\n```'),
          accounts,
        ),
      ),
    ).toEqual(['aws-account']);
    expect(
      checkAwsAccounts(
        doc('```json\n"ARN": "arn:aws:secretsmanager:eu-central-1:777788889999:secret:acme/staging/kira-service"\n```'),
        accounts,
      ),
    ).toEqual([]);
    expect(checkAwsAccounts(doc('The migration 20261123101500_add_chat_title is applied.'), accounts)).toEqual([]);
  });

  it('public-routes: listed only on the gateway page', () => {
    const list = 'Only `/health`, `/auth/login`, `/auth/callback` and `/auth/refresh` pass without an access token.';
    expect(rules(checkPublicRoutes(doc(list, 'internal-developers/README.md')))).toEqual(['public-routes']);
    expect(checkPublicRoutes(doc(list, 'internal-developers/services/api-gateway.md'))).toEqual([]);
  });

  it('staff-organisation: one channel adds you', () => {
    expect(rules(checkStaffOrganisation(doc('Ask in `#team-platform` to be added to the staff organisation.')))).toEqual([
      'staff-organisation',
    ]);
    expect(checkStaffOrganisation(doc('`#team-identity` adds you to the staff organisation.'))).toEqual([]);
  });

  it('ci-matrix, tf-apply, ecs-secrets: the deployment facts', () => {
    expect(rules(checkDeploymentFacts(doc('Add the new id to the CI matrix.')))).toEqual(['ci-matrix']);
    expect(checkDeploymentFacts(doc('The CI matrix is derived from the folders in `apps/`.'))).toEqual([]);
    expect(rules(checkDeploymentFacts(doc('```bash\nmake tf-apply ENV=shared\n```')))).toEqual(['tf-apply']);
    expect(checkDeploymentFacts(doc('Never run `make tf-apply ENV=production` from a laptop.'))).toEqual([]);
    expect(rules(checkDeploymentFacts(doc('```hcl\n  secret_arns = [aws_secretsmanager_secret.x.arn]\n```')))).toEqual(['ecs-secrets']);
    expect(
      rules(
        checkDeploymentFacts(
          doc('```text\n{ name = "DATABASE_URL", valueFrom = "arn:aws:secretsmanager:eu-central-1:1:secret:acme/dev/x-Ab12Cd" }\n```'),
        ),
      ),
    ).toEqual(['ecs-secrets']);
    expect(
      checkDeploymentFacts(
        doc(
          '```text\n{ name = "DATABASE_URL", valueFrom = "arn:aws:secretsmanager:eu-central-1:1:secret:acme/dev/x-Ab12Cd:DATABASE_URL::" }\n```',
        ),
      ),
    ).toEqual([]);
  });

  it('logs-note: where the logs of make dev are is said once', () => {
    expect(rules(checkLogsNote(doc('Under `make dev` the service prints its log in that terminal.')))).toEqual(['logs-note']);
    expect(
      checkLogsNote(
        doc('Under `make dev` ([where its log is](./make-commands-reference.md#where-the-logs-are)) the log is in that terminal.'),
      ),
    ).toEqual([]);
    expect(checkLogsNote(doc('1. Start it with `make dev`. The terminal prints `Debugger listening` before the start-up log.'))).toEqual(
      [],
    );
  });
});
