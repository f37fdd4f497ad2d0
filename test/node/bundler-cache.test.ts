/**
 * Each audience's bundler cache is kept apart (plugins/access/plugin.ts,
 * keyPersistentCache): the key goes into the version of every cache the
 * bundler keeps on disk, in the shapes Docusaurus hands the bundler today
 * (Rspack 1's `experiments.cache`) and those an upgrade may bring (Rspack
 * 2's and webpack's `cache`); a disk cache in a shape it does not know stops
 * the build rather than being shared between the audiences.
 */
import {keyPersistentCache} from '../../plugins/access/plugin';

const MODULES = ['/site/plugins/access/plugin.ts'];

function configAsDocusaurusMakesIt() {
  return {
    cache: true,
    experiments: {
      cache: {type: 'persistent', version: 'client-production-en-3.10.2-abc', buildDependencies: ['/site/docusaurus.config.ts']},
    },
  };
}

test('the public and the members builds get caches of different versions, whichever the bundler keeps on disk', () => {
  const publicConfig = configAsDocusaurusMakesIt();
  const membersConfig = configAsDocusaurusMakesIt();
  keyPersistentCache(publicConfig, 'public-access-1', MODULES);
  keyPersistentCache(membersConfig, 'members-access-1', MODULES);
  expect(publicConfig.experiments.cache.version).not.toBe(membersConfig.experiments.cache.version);
  expect(publicConfig.experiments.cache.version).toContain('client-production-en-3.10.2-abc');
  expect(publicConfig.experiments.cache.buildDependencies).toEqual(['/site/docusaurus.config.ts', ...MODULES]);
});

test('a change to which pages are restricted gives another version', () => {
  const before = configAsDocusaurusMakesIt();
  const after = configAsDocusaurusMakesIt();
  keyPersistentCache(before, 'public-access-1', MODULES);
  keyPersistentCache(after, 'public-access-2', MODULES);
  expect(before.experiments.cache.version).not.toBe(after.experiments.cache.version);
});

test.each([
  [
    'Rspack 2 (top-level persistent cache)',
    {cache: {type: 'persistent', version: 'v'} as {type: string; version: string; buildDependencies?: unknown}},
  ],
  [
    'webpack (filesystem cache)',
    {cache: {type: 'filesystem', version: 'v', buildDependencies: {config: ['/site/docusaurus.config.ts']} as unknown}},
  ],
])('%s is keyed too', (_shape, config) => {
  keyPersistentCache(config, 'public-access-1', MODULES);
  expect(config.cache.version).toBe('v-public-access-1');
  expect(JSON.stringify(config.cache.buildDependencies)).toContain(MODULES[0] as string);
});

test('a memory cache, or none, needs no key (each audience builds in a process of its own)', () => {
  for (const config of [{cache: true}, {cache: {type: 'memory'}}, {}]) {
    const before = JSON.stringify(config);
    keyPersistentCache(config, 'public-access-1', MODULES);
    expect(JSON.stringify(config)).toBe(before);
  }
});

test('a cache in a shape it does not know stops the build, naming it', () => {
  expect(() => keyPersistentCache({cache: {type: 'remote', url: 'https://cache.example'}}, 'public-access-1', MODULES)).toThrow(
    /cannot key per audience \(\{"type":"remote"/,
  );
});
