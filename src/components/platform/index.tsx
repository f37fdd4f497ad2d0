/**
 * MDX components that render facts from `src/data/platform.ts`. Documentation
 * pages import these instead of writing ports, variables or targets by hand.
 */
import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {
  ALERTS,
  AWS_ACCESS,
  AWS_ACCOUNTS,
  DASHBOARDS,
  ENVIRONMENTS,
  FEATURE_FLAG_SCHEMA,
  INFRASTRUCTURE,
  METRICS,
  QUEUES,
  QUEUE_RETENTION,
  featureFlagAreas,
  MAKE_TARGETS,
  PERMISSIONS,
  ROLES,
  SERVICES,
  SHARED_ENV,
  libraryById,
  serviceById,
  type EnvVar,
  type ServiceId,
  type SharedLibraryId,
} from '@site/src/data/platform';
import ScrollableTable from '@site/src/components/ScrollableTable';
import styles from './styles.module.css';

const SERVICES_DOCS = '/docs/internal-developers/services';
/** The handbook home (docs/internal-developers/README.md, slug `/`). */
const HANDBOOK_HOME = '/docs/';
/** Home of the variables every service reads. */
const SHARED_ENV_HOME = '/docs/internal-developers/getting-started/introduction#shared-environment-variables';

/** The table shell every fact table shares: column headings, then rows. */
function FactTable({headings, children}: {headings: string[]; children: ReactNode}): ReactNode {
  return (
    <ScrollableTable>
      <thead>
        <tr>
          {headings.map((heading) => (
            <th key={heading} scope="col">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </ScrollableTable>
  );
}

function ServiceLink({id}: {id: ServiceId}): ReactNode {
  return <Link to={`${SERVICES_DOCS}/${id}`}>{serviceById(id).name}</Link>;
}

/** Inline port number of a service, e.g. `<Port service="kira-service" />`. */
export function Port({service}: {service: ServiceId}): ReactNode {
  return <code>{serviceById(service).port}</code>;
}

/** Inline link to a service page with its display name. */
export function Service({id}: {id: ServiceId}): ReactNode {
  return <ServiceLink id={id} />;
}

/** Key facts of one service, shown at the top of its page. */
export function ServiceSummary({id}: {id: ServiceId}): ReactNode {
  const service = serviceById(id);
  const callers = SERVICES.filter((other) => other.dependsOn.includes(id));
  return (
    // The service's facts at a glance are their home: search (Pagefind) weighs them above the page's prose.
    <div className={styles.summary} role="group" aria-label={`${service.name} at a glance`} data-pagefind-weight="5">
      <p className={styles.purpose}>{service.purpose}</p>
      <dl className={styles.facts}>
        {/* Named in full: a search for "<service> port" should land here, the fact's home. */}
        <dt>{service.name} port</dt>
        <dd>
          <code>{service.port}</code>
        </dd>
        <dt>Gateway prefix</dt>
        <dd>
          <code>{service.gatewayPrefix}</code>
        </dd>
        <dt>Owner</dt>
        <dd>
          <code>#team-{service.owner}</code>, which owns its runbooks (<Link to={`${HANDBOOK_HOME}#ownership-and-on-call`}>on-call</Link>)
        </dd>
        <dt>Database</dt>
        <dd>{service.database ? <code>{service.database}</code> : 'none (stateless)'}</dd>
        <dt>Calls</dt>
        <dd>
          <LinkList ids={service.dependsOn} />
        </dd>
        <dt>Called by</dt>
        <dd>
          {callers.length === 0 && service.gatewayPrefix === '/' ? (
            'clients on the internet, through the load balancer'
          ) : (
            <LinkList ids={callers.map((caller) => caller.id)} />
          )}
        </dd>
      </dl>
    </div>
  );
}

function LinkList({ids}: {ids: ServiceId[]}): ReactNode {
  if (ids.length === 0) {
    return 'none';
  }
  return ids.map((id, index) => (
    <span key={id}>
      {index > 0 && ', '}
      <ServiceLink id={id} />
    </span>
  ));
}

/** Every service and infrastructure container with its local port. */
export function PortsTable(): ReactNode {
  return (
    <FactTable headings={['Container', 'Port', 'Gateway prefix', 'Database']}>
      {SERVICES.map((service) => (
        <tr key={service.id}>
          <td>
            <ServiceLink id={service.id} />
          </td>
          <td>
            <code>{service.port}</code>
          </td>
          <td>
            <code>{service.gatewayPrefix}</code>
          </td>
          <td>{service.database ? <code>{service.database}</code> : '—'}</td>
        </tr>
      ))}
      {INFRASTRUCTURE.map((container) => (
        <tr key={container.name}>
          <td>
            {container.name} (<code>{container.image}</code>)
          </td>
          <td>
            <code>{container.port}</code>
          </td>
          <td>—</td>
          <td>—</td>
        </tr>
      ))}
    </FactTable>
  );
}

function LocalDefault({variable}: {variable: EnvVar}): ReactNode {
  if (variable.localDefault) {
    return <code>{variable.localDefault}</code>;
  }
  return <em>{variable.secret ? 'secret, no default' : 'no default, set in .env'}</em>;
}

function EnvRows({vars, withMakeDev}: {vars: EnvVar[]; withMakeDev: boolean}): ReactNode {
  return vars.map((variable) => (
    <tr key={variable.name}>
      <td>
        <code>{variable.name}</code>
        {variable.secret && ' (secret)'}
      </td>
      <td>{variable.required ? 'yes' : 'no'}</td>
      <td>
        <LocalDefault variable={variable} />
      </td>
      {withMakeDev && <td>{variable.makeDevValue ? <code>{variable.makeDevValue}</code> : 'same'}</td>}
      <td>{variable.description}</td>
    </tr>
  ));
}

/**
 * Environment variables: of one service (`service="kira-service"`) or, with
 * `shared`, the ones every service reads. A restricted page passes its
 * service's own variables as `own`, from a module only it imports
 * (src/data/restricted/), so they never reach the scripts every reader loads.
 */
export function EnvVarTable({service, shared, own = []}: {service?: ServiceId; shared?: boolean; own?: readonly EnvVar[]}): ReactNode {
  const vars = shared || !service ? SHARED_ENV : [...own, ...serviceById(service).env];
  const withMakeDev = vars.some((variable) => variable.makeDevValue);
  const headings = withMakeDev
    ? ['Variable', 'Required', 'Local default', 'Under make dev', 'Meaning']
    : ['Variable', 'Required', 'Local default', 'Meaning'];
  const table = (
    <FactTable headings={headings}>
      <EnvRows vars={vars} withMakeDev={withMakeDev} />
    </FactTable>
  );
  if (shared || !service) {
    return table;
  }
  return (
    <>
      {table}
      <p>
        The service also reads the <Link to={SHARED_ENV_HOME}>shared environment variables</Link>.
      </p>
    </>
  );
}

/**
 * The variables `make setup` cannot fill in: required, without a local
 * default. One row per variable with every `.env` file that needs it (the
 * root `.env` for shared ones, `apps/<service-id>/.env` otherwise).
 */
export function VariablesToFill(): ReactNode {
  const files = new Map<string, {variable: EnvVar; files: string[]}>();
  const add = (variable: EnvVar, file: string) => {
    const entry = files.get(variable.name) ?? {variable, files: []};
    entry.files.push(file);
    files.set(variable.name, entry);
  };
  SHARED_ENV.filter((variable) => variable.required && !variable.localDefault).forEach((variable) => add(variable, '.env'));
  for (const service of SERVICES) {
    service.env
      .filter((variable) => variable.required && !variable.localDefault)
      .forEach((variable) => add(variable, `apps/${service.id}/.env`));
  }
  return (
    <FactTable headings={['Variable', 'Set it in', 'Meaning']}>
      {[...files.values()].map(({variable, files: paths}) => (
        <tr key={variable.name}>
          <td>
            <code>{variable.name}</code>
            {variable.secret && ' (secret)'}
          </td>
          <td>
            {paths.map((file, index) => (
              <span key={file}>
                {index > 0 && ', '}
                <code>{file}</code>
              </span>
            ))}
          </td>
          <td>{variable.description}</td>
        </tr>
      ))}
    </FactTable>
  );
}

/** Every Makefile target, in `make help` order. */
export function MakeTargetsTable(): ReactNode {
  return (
    <FactTable headings={['Target', 'Variables', 'What it does']}>
      {MAKE_TARGETS.map((target) => (
        <tr key={target.name}>
          <td>
            <code>make {target.name}</code>
          </td>
          <td>{target.variables ? <code>{target.variables}</code> : '—'}</td>
          <td>{target.description}</td>
        </tr>
      ))}
    </FactTable>
  );
}

/** Package name and summary of one shared library. */
export function LibrarySummary({id}: {id: SharedLibraryId}): ReactNode {
  const library = libraryById(id);
  return (
    <div className={styles.summary} role="group" aria-label={`${library.packageName} at a glance`}>
      <p className={styles.purpose}>{library.summary}</p>
      <dl className={styles.facts}>
        <dt>Package</dt>
        <dd>
          <code>{library.packageName}</code>
        </dd>
        <dt>Source</dt>
        <dd>
          <code>libs/{library.id}</code>
        </dd>
      </dl>
    </div>
  );
}

/** Every role with what it is for, from `ROLES`. */
export function RolesTable(): ReactNode {
  return (
    <FactTable headings={['Role', 'Meaning']}>
      {ROLES.map((role) => (
        <tr key={role.name}>
          <td>
            <code>{role.name}</code>
          </td>
          <td>{role.description}</td>
        </tr>
      ))}
    </FactTable>
  );
}

/** Every permission with the roles that hold it by default, from `PERMISSIONS`. */
export function PermissionsTable(): ReactNode {
  return (
    <FactTable headings={['Permission', 'Allows', 'Granted by default to']}>
      {PERMISSIONS.map((permission) => (
        <tr key={permission.name}>
          <td>
            <code>{permission.name}</code>
          </td>
          <td>{permission.description}</td>
          <td>
            {permission.roles.map((role, index) => (
              <span key={role}>
                {index > 0 && ', '}
                <code>{role}</code>
              </span>
            ))}
          </td>
        </tr>
      ))}
    </FactTable>
  );
}

/** Deployment environments and when each is deployed. */
export function EnvironmentsTable(): ReactNode {
  return (
    <FactTable headings={['Environment', 'API URL', 'Deployed on']}>
      {ENVIRONMENTS.map((environment) => (
        <tr key={environment.name}>
          <td>
            <code>{environment.name}</code>
          </td>
          <td>
            <code>{environment.url}</code>
          </td>
          <td>{environment.deploys}</td>
        </tr>
      ))}
    </FactTable>
  );
}

/** Text from the platform data, with `backticked` spans rendered as inline code. */
function Prose({text}: {text: string}): ReactNode {
  return text
    .split(/(`[^`]+`)/)
    .map((part, index) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1 ? <code key={index}>{part.slice(1, -1)}</code> : part,
    );
}

/** The AWS accounts, their ids, CLI profiles and contents. */
export function AwsAccountsTable(): ReactNode {
  return (
    <FactTable headings={['Account', 'Id', 'CLI profile', 'Holds']}>
      {AWS_ACCOUNTS.map((account) => (
        <tr key={account.name}>
          <td>
            <code>{account.name}</code>
          </td>
          <td>
            <code>{account.id}</code>
          </td>
          <td>
            <code>{account.profile}</code>
          </td>
          <td>{account.holds}</td>
        </tr>
      ))}
    </FactTable>
  );
}

/** Who and what may act in the AWS accounts: permission sets and workflow roles. */
export function AwsAccessTable(): ReactNode {
  return (
    <FactTable headings={['Name', 'Kind', 'Held by', 'May']}>
      {AWS_ACCESS.map((access) => (
        <tr key={access.name}>
          <td>
            <code>{access.name}</code>
          </td>
          <td>{access.kind}</td>
          <td>
            <Prose text={access.holders} />
          </td>
          <td>
            <Prose text={access.rights} />
          </td>
        </tr>
      ))}
    </FactTable>
  );
}

/** Inline CLI profile of an AWS account, e.g. `<AwsProfile account="staging" />`. */
export function AwsProfile({account}: {account: (typeof AWS_ACCOUNTS)[number]['name']}): ReactNode {
  const found = AWS_ACCOUNTS.find((candidate) => candidate.name === account);
  if (!found) {
    throw new Error(`Unknown AWS account "${account}" in src/data/platform.ts`);
  }
  return <code>{found.profile}</code>;
}

/** How a feature flag is named and where it is stored, with the areas a key may start with. */
export function FeatureFlagKeys(): ReactNode {
  const schema = FEATURE_FLAG_SCHEMA;
  return (
    <div className={styles.summary} role="group" aria-label="Feature flag keys at a glance">
      <dl className={styles.facts}>
        <dt>Key</dt>
        <dd>
          <code>{schema.keyPattern}</code>, lower-case kebab case, for example <code>{schema.example}</code>; keys are case-sensitive
        </dd>
        <dt>Areas</dt>
        <dd>
          {featureFlagAreas().map(({area, service}, index) => (
            <span key={area}>
              {index > 0 && ', '}
              <code>{area}</code> (<ServiceLink id={service} />)
            </span>
          ))}
        </dd>
        <dt>Constants</dt>
        <dd>
          <code>FLAGS</code> in <code>{libraryById(schema.keysLibrary).packageName}</code>
        </dd>
        <dt>Reader</dt>
        <dd>
          <code>FeatureFlags</code> and <code>RequireFlag</code> in <code>{libraryById(schema.readerLibrary).packageName}</code>, answers
          cached for {schema.cacheSeconds} s
        </dd>
        <dt>Redis</dt>
        <dd>
          hash <code>{schema.redisKey}</code>: field <code>{schema.fields.default}</code>, and one field{' '}
          <code>{schema.fields.override}</code> per tenant override; values <code>1</code> (on) or <code>0</code> (off)
        </dd>
      </dl>
    </div>
  );
}

function duration(seconds: number): string {
  return seconds % 86400 === 0 ? `${seconds / 86400} day${seconds === 86400 ? '' : 's'}` : `${seconds / 3600} hours`;
}

/** The queues, the service whose tasks run each worker, and its concurrency. */
export function QueuesTable(): ReactNode {
  return (
    <FactTable headings={['Queue', 'Worker runs in', 'Concurrency per task', 'Limited by']}>
      {QUEUES.map((queue) => (
        <tr key={queue.name}>
          <td>
            <code>{queue.name}</code>
          </td>
          <td>
            <ServiceLink id={queue.service} />
          </td>
          <td>{queue.concurrency}</td>
          <td>{queue.limitedBy}</td>
        </tr>
      ))}
    </FactTable>
  );
}

/** How long finished jobs stay in Redis, as a sentence fragment. */
export function QueueRetention(): ReactNode {
  const {completed, failed} = QUEUE_RETENTION;
  return (
    <>
      completed jobs for {duration(completed.ageSeconds)} or the last {completed.count} per queue, whichever is fewer, and failed jobs for{' '}
      {duration(failed.ageSeconds)}
    </>
  );
}

/** The CloudWatch metrics every service has. */
export function MetricsTable(): ReactNode {
  return (
    <FactTable headings={['Metric', 'Namespace (dimensions)', 'Unit', 'Source']}>
      {METRICS.map((metric) => (
        <tr key={metric.name}>
          <td>
            <code>{metric.name}</code>
          </td>
          <td>
            <code>{metric.namespace}</code>
          </td>
          <td>{metric.unit}</td>
          <td>
            <Prose text={metric.source} />
          </td>
        </tr>
      ))}
    </FactTable>
  );
}

/** The CloudWatch dashboards of each environment. */
export function DashboardsTable(): ReactNode {
  return (
    <FactTable headings={['Dashboard', 'Shows']}>
      {DASHBOARDS.map((dashboard) => (
        <tr key={dashboard.name}>
          <td>
            <code>{dashboard.name}</code>
          </td>
          <td>{dashboard.shows}</td>
        </tr>
      ))}
    </FactTable>
  );
}

/** The CloudWatch alarms every service and queue gets. */
export function AlertsTable(): ReactNode {
  return (
    <FactTable headings={['Alarm', 'Fires when', 'In production']}>
      {ALERTS.map((alert) => (
        <tr key={alert.name}>
          <td>
            <code>{alert.name}</code>
          </td>
          <td>
            <Prose text={alert.condition} />
          </td>
          <td>
            <Prose text={alert.production} />
          </td>
        </tr>
      ))}
    </FactTable>
  );
}
