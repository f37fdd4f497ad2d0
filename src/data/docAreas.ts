/** The six documentation areas, as shown on the home page. */
export interface DocArea {
  title: string;
  description: string;
  to: string;
}

const DOCS = '/docs/internal-developers';

export const DOC_AREAS: DocArea[] = [
  {
    title: 'Getting Started',
    description: 'Clone the monorepo, run the whole stack and send your first request.',
    to: `${DOCS}/getting-started/introduction`,
  },
  {
    title: 'Architecture',
    description: 'How the build, the Docker stack and the Prisma databases fit together.',
    to: `${DOCS}/architecture/build-architecture`,
  },
  {
    title: 'Development',
    description: 'Guidelines, make commands, adding a service or an API integration, feature flags, queues and observability.',
    to: `${DOCS}/development/development-guidelines`,
  },
  {
    title: 'Services',
    description: 'The API gateway and the eight services behind it: routes, data, configuration.',
    to: `${DOCS}/services/api-gateway`,
  },
  {
    title: 'Shared Libraries',
    description: 'Guards, pipes, filters, validators and the other @acme packages.',
    to: `${DOCS}/shared-libraries/constants`,
  },
  {
    title: 'Deployment',
    description: 'From merge to production, and the Terraform that describes it.',
    to: `${DOCS}/deployment/deployment-guide`,
  },
];
