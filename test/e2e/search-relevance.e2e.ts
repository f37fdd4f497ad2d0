/**
 * Search results a new developer can rely on: 24 queries of the kinds they
 * type (ports, environment variables, error messages and codes, service
 * names, make targets, library names), each with the page that is the home
 * of that fact. Each page must be among the first three results, searched as
 * the search box searches (the site's own Pagefind bundle, through the gate,
 * signed out: public pages only).
 */
import {browserSuite} from './support/suite';

jest.setTimeout(90_000);

const DOCS = '/docs/internal-developers';

/** Query → the page that should answer it, or the pages that are homes of the same fact. */
const TABLE: [string, string | string[]][] = [
  // A port is shared data (src/data/platform.ts) with two homes: the service's summary and the introduction's
  // table of services and ports. "file" is on most pages, so for this query the table outranks the summary;
  // either answers it.
  ['file service port', [`${DOCS}/services/file-service`, `${DOCS}/getting-started/introduction`]],
  ['3004', `${DOCS}/services/file-service`],
  ['DATABASE_URL', `${DOCS}/architecture/docker-setup`],
  ['INTERNAL_SERVICE_TOKEN', `${DOCS}/shared-libraries/guards`],
  ['WORKOS_CLIENT_ID', `${DOCS}/services/auth-service`],
  ['GATEWAY_CORS_ORIGINS', `${DOCS}/services/api-gateway`],
  ['S3_BUCKET', `${DOCS}/services/file-service`],
  ['LLM_API_KEY', `${DOCS}/services/kira-service`],
  ['NoSuchBucket', `${DOCS}/services/file-service`],
  ['P1001', `${DOCS}/shared-libraries/migrations`],
  // constants only names the code; filters says when a client gets it (the gateway's rule).
  ['UPSTREAM_UNAVAILABLE', `${DOCS}/shared-libraries/filters`],
  ['VALIDATION_FAILED', `${DOCS}/shared-libraries/pipes`],
  ['401 Unauthorized', `${DOCS}/shared-libraries/guards`],
  ['cleverscreen', `${DOCS}/services/cleverscreen-service`],
  ['vera transcription', `${DOCS}/services/vera-service`],
  ['tenant plan quota', `${DOCS}/services/tenant-service`],
  ['make db-migrate', `${DOCS}/development/make-commands-reference`],
  ['make new-service', `${DOCS}/development/adding-new-service`],
  ['make tf-plan', `${DOCS}/development/make-commands-reference`],
  ['retry failed job', `${DOCS}/development/operating-queues`],
  ['feature flag', `${DOCS}/development/feature-flags`],
  ['PermissionsGuard', `${DOCS}/shared-libraries/guards`],
  ['ZodValidationPipe', `${DOCS}/shared-libraries/pipes`],
  ['BigInt', `${DOCS}/shared-libraries/middleware`],
];

const suite = browserSuite();

it('finds the home of each fact among the first three results', async () => {
  const page = await suite.open('/docs/');
  // Sent as source text: the test's compiler would turn the browser's import() into require().
  const script = `(async ({queries, bundle}) => {
    // The same script and options the search box uses (src/components/search/pagefind.ts).
    const pagefind = await import(bundle);
    await pagefind.options({baseUrl: '/', excerptLength: 24});
    await pagefind.init();
    const answers = {};
    for (const query of queries) {
      const {results} = await pagefind.search(query);
      answers[query] = await Promise.all(results.slice(0, 3).map(async (result) => (await result.data()).url.replace(/\\/$/, '')));
    }
    return answers;
  })(${JSON.stringify({queries: TABLE.map(([query]) => query), bundle: `${suite.stack.siteUrl}/pagefind/pagefind.js`})})`;
  const topThree = (await page.evaluate(script)) as Record<string, string[]>;
  const misses = TABLE.filter(([query, expected]) => [expected].flat().every((home) => !(topThree[query] ?? []).includes(home))).map(
    ([query, expected]) => `${query}: expected ${[expected].flat().join(' or ')}, got ${(topThree[query] ?? []).join(', ') || 'nothing'}`,
  );
  expect(misses).toEqual([]);
});
