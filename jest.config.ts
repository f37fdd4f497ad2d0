import type {Config} from 'jest';

/**
 * Three projects:
 * - unit: React components and auth adapters in jsdom (jest-fixed-jsdom keeps
 *   Node's fetch/streams so MSW can intercept requests);
 * - node: config, sidebars, the local provider and server rendering, in Node;
 * - build: checks on the production `build/` folder, run after `docusaurus build`;
 * - e2e: Chromium against `build/` served locally, with the local sign-in provider.
 */
const tsJest: Config['transform'] = {
  '^.+\\.tsx?$': ['ts-jest', {tsconfig: '<rootDir>/test/tsconfig.json'}],
  // Docusaurus's client modules ship as ES modules with JSX; the takeover test
  // loads the real browser context and useIsBrowser from there.
  '[\\\\/]node_modules[\\\\/]@docusaurus[\\\\/]core[\\\\/]lib[\\\\/]client[\\\\/].+\\.js$': [
    'ts-jest',
    {tsconfig: '<rootDir>/test/tsconfig.json'},
  ],
};

/** Everything under node_modules runs as shipped, except Docusaurus's client modules (above). */
const transformIgnorePatterns = ['[\\\\/]node_modules[\\\\/](?!@docusaurus[\\\\/]core[\\\\/]lib[\\\\/]client[\\\\/])'];

// Docusaurus resolves these aliases through its bundler; in jest we point them
// at the real files (`@site`) or at small test doubles (`@docusaurus/*`). The
// browser-context double (true wherever there is a window) is for components
// that read useIsBrowser; test/unit/browser-takeover.test.tsx replaces both
// with Docusaurus's real modules, since the takeover re-provides that internal.
const moduleNameMapper: Record<string, string> = {
  '^@site/(.*)$': '<rootDir>/$1',
  '\\.module\\.css$': '<rootDir>/test/support/styleMock.ts',
  '\\.css$': '<rootDir>/test/support/styleMock.ts',
  '^@docusaurus/(Link|Head|ExecutionEnvironment|useDocusaurusContext|useGlobalData|useIsBrowser|router)$':
    '<rootDir>/test/support/docusaurus/$1.tsx',
  '^@docusaurus/plugin-content-docs/client$': '<rootDir>/test/support/docusaurus/docsClient.tsx',
  '^@docusaurus/core/lib/client/browserContext$': '<rootDir>/test/support/docusaurus/browserContext.tsx',
};

const config: Config = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: '<rootDir>/test/support/navigation-environment.js',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)', '<rootDir>/test/integration/**/*.test.ts?(x)'],
      setupFilesAfterEnv: ['<rootDir>/test/support/setupJsdom.ts'],
      transform: tsJest,
      transformIgnorePatterns,
      moduleNameMapper,
    },
    {
      displayName: 'node',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/node/**/*.test.ts?(x)'],
      transform: tsJest,
      moduleNameMapper,
    },
    {
      // Browser tests in Debian's Chromium against the production build.
      displayName: 'e2e',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
      transform: tsJest,
      moduleNameMapper,
    },
    {
      displayName: 'build',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/build/**/*.test.ts'],
      transform: tsJest,
      moduleNameMapper,
    },
  ] as Config['projects'],
};

export default config;
