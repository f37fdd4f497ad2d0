/**
 * Access rules (src/auth/access/rules.ts), the manifest scan
 * (plugins/access/manifest.ts) and the Markdown hooks that withhold pages
 * from the public build (plugins/access/plugin.ts).
 */
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {DEFAULT_PARSE_FRONT_MATTER} from '@docusaurus/utils';
import {canRead, missingAccess, parseAccessRule} from '../../src/auth/access/rules';
import {readAudience, scanAccessRules} from '../../plugins/access/manifest';
import {accessMarkdownHooks, RESTRICTED_PAGE_BODY, ROLE_RESTRICTED_DESCRIPTION} from '../../plugins/access/plugin';

const developer = {roles: ['member'], permissions: ['docs:read']};
const admin = {roles: ['admin', 'member'], permissions: ['docs:read', 'services:deploy']};

describe('access rules', () => {
  it('reads the three forms and defaults to public', () => {
    expect(parseAccessRule(undefined, 'x.md')).toEqual({kind: 'public'});
    expect(parseAccessRule('public', 'x.md')).toEqual({kind: 'public'});
    expect(parseAccessRule('signed-in', 'x.md')).toEqual({kind: 'signed-in'});
    expect(parseAccessRule({roles: ['admin'], permissions: 'services:deploy'}, 'x.md')).toEqual({
      kind: 'roles',
      roles: ['admin'],
      permissions: ['services:deploy'],
    });
  });

  it.each([['signedin'], [{role: ['admin']}], [{roles: []}], [{roles: [1]}], [['admin']], [true]])(
    'stops the build on %p, naming the file',
    (value) => {
      expect(() => parseAccessRule(value, 'docs/x.md')).toThrow(/^docs\/x\.md: /);
    },
  );

  it('lets anyone read public pages, members read signed-in pages, and needs any listed role and every listed permission', () => {
    expect(canRead({kind: 'public'}, null)).toBe(true);
    expect(canRead({kind: 'signed-in'}, null)).toBe(false);
    expect(canRead({kind: 'signed-in'}, developer)).toBe(true);
    expect(canRead({kind: 'roles', roles: ['admin', 'owner'], permissions: []}, developer)).toBe(false);
    expect(canRead({kind: 'roles', roles: ['admin', 'owner'], permissions: []}, admin)).toBe(true);
    expect(canRead({kind: 'roles', roles: [], permissions: ['docs:read', 'services:deploy']}, developer)).toBe(false);
    expect(canRead({kind: 'roles', roles: ['admin'], permissions: ['services:deploy']}, admin)).toBe(true);
  });

  it('says what is missing', () => {
    expect(missingAccess({kind: 'signed-in'}, null)).toBe('Sign in to read this page.');
    expect(missingAccess({kind: 'roles', roles: ['admin'], permissions: []}, developer)).toBe('You need the admin role to read this page.');
    expect(missingAccess({kind: 'roles', roles: [], permissions: ['services:deploy']}, developer)).toBe(
      'You need the permission services:deploy to read this page.',
    );
    expect(missingAccess({kind: 'roles', roles: ['admin'], permissions: []}, admin)).toBeNull();
  });

  it('reads the audience, public unless told otherwise', () => {
    expect(readAudience({})).toBe('public');
    expect(readAudience({PORTAL_AUDIENCE: 'members'})).toBe('members');
    expect(() => readAudience({PORTAL_AUDIENCE: 'everyone'})).toThrow(/PORTAL_AUDIENCE/);
  });
});

describe('access manifest and the public build', () => {
  let siteDir: string;
  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(path.join(siteDir, file)), {recursive: true});
    writeFileSync(path.join(siteDir, file), content);
  };

  beforeAll(() => {
    siteDir = mkdtempSync(path.join(os.tmpdir(), 'portal-access-'));
    write('docs/README.md', '---\nslug: /\n---\n\n# Home\n\nWelcome.\n');
    write('docs/ops/_category_.json', JSON.stringify({customProps: {access: 'signed-in'}}));
    write(
      'docs/ops/runbook.md',
      '---\ntitle: Runbook\ndescription: Where the pager key lives.\nsidebar_position: 2\n---\n\nThe pager key lives in the red binder.\n',
    );
    write('docs/ops/open.md', '---\naccess: public\n---\n\n# Open Ops\n\nAnyone may read this.\n');
    write('docs/ops/admin.md', '---\naccess:\n  roles: [admin]\n---\n\n# Admin Tasks\n\nSuspend a tenant from the console.\n');
  });

  afterAll(() => rmSync(siteDir, {recursive: true, force: true}));

  it('gives every doc its route, title and rule; folder defaults apply unless the page says otherwise', () => {
    const pages = scanAccessRules({siteDir, baseUrl: '/portal/'});
    expect(pages).toEqual([
      {route: '/portal/docs/', source: 'docs/README.md', title: 'Home', rule: {kind: 'public'}},
      {
        route: '/portal/docs/ops/admin',
        source: 'docs/ops/admin.md',
        title: 'Admin Tasks',
        rule: {kind: 'roles', roles: ['admin'], permissions: []},
      },
      {route: '/portal/docs/ops/open', source: 'docs/ops/open.md', title: 'Open Ops', rule: {kind: 'public'}},
      {route: '/portal/docs/ops/runbook', source: 'docs/ops/runbook.md', title: 'Runbook', rule: {kind: 'signed-in'}},
    ]);
  });

  it.each([
    ['_category_.yml', 'customProps:\n  access: signed-in\n'],
    ['_category_.yaml', 'label: Runbooks\ncustomProps:\n  access:\n    roles: [admin]\n'],
  ])('reads a folder default from %s', (name, content) => {
    write(`docs/yaml-${name}/${name}`, content);
    write(`docs/yaml-${name}/page.md`, '# Page\n\nText.\n');
    const page = scanAccessRules({siteDir}).find((candidate) => candidate.source === `docs/yaml-${name}/page.md`);
    expect(page?.rule).toEqual(parseAccessRule(name.endsWith('.yml') ? 'signed-in' : {roles: ['admin']}, name));
    rmSync(path.join(siteDir, `docs/yaml-${name}`), {recursive: true});
  });

  it('stops the build on a folder with two category files, naming both', () => {
    write('docs/twice/_category_.json', JSON.stringify({customProps: {access: 'signed-in'}}));
    write('docs/twice/_category_.yml', 'label: Twice\n');
    write('docs/twice/page.md', '# Page\n\nText.\n');
    expect(() => scanAccessRules({siteDir})).toThrow(/docs\/twice\/_category_\.json and docs\/twice\/_category_\.yml/);
    rmSync(path.join(siteDir, 'docs/twice'), {recursive: true});
  });

  it('stops the build when the docs are versioned, whose copies it does not read', () => {
    write('versions.json', '["1.0"]');
    expect(() => scanAccessRules({siteDir})).toThrow(/versions\.json: versioned docs are not covered by the access model/);
    rmSync(path.join(siteDir, 'versions.json'));
  });

  it('stops the build on invalid YAML in a category file, naming it', () => {
    write('docs/broken/_category_.yml', 'customProps: [unclosed\n');
    write('docs/broken/page.md', '# Page\n\nText.\n');
    expect(() => scanAccessRules({siteDir})).toThrow(/docs\/broken\/_category_\.yml: not valid YAML/);
    rmSync(path.join(siteDir, 'docs/broken'), {recursive: true});
  });

  it.each([['src/pages/members.md'], ['src/pages/nested/members.mdx'], ['docs/ops/_partial.mdx'], ['blog/post.md']])(
    'stops the build on access: in %s, which only docs pages read',
    (file) => {
      write(file, '---\ntitle: Members\naccess: signed-in\n---\n\nFor members.\n');
      expect(() => scanAccessRules({siteDir})).toThrow(
        new RegExp(`${file.replace(/[./]/g, '\\$&')} sets it and would be published to everyone`),
      );
      rmSync(path.join(siteDir, file));
    },
  );

  const parse = async (audience: 'public' | 'members', file: string) => {
    const hooks = accessMarkdownHooks(siteDir, scanAccessRules({siteDir}), audience);
    const filePath = path.join(siteDir, file);
    const {readFileSync} = await import('node:fs');
    const fileContent = readFileSync(filePath, 'utf8');
    return {
      parsed: await hooks.parseFrontMatter({filePath, fileContent, defaultParseFrontMatter: DEFAULT_PARSE_FRONT_MATTER}),
      compiled: hooks.preprocessor({filePath, fileContent}),
    };
  };

  it('public build: a restricted page keeps its title and place, loses its body and description, and is marked for the lock', async () => {
    const {parsed, compiled} = await parse('public', 'docs/ops/runbook.md');
    expect(compiled).toBe(RESTRICTED_PAGE_BODY);
    expect(parsed.content).toBe(RESTRICTED_PAGE_BODY);
    expect(JSON.stringify(parsed)).not.toContain('pager key');
    expect(parsed.frontMatter).toMatchObject({
      title: 'Runbook',
      sidebar_position: 2,
      portal_access: {kind: 'signed-in'},
      description: 'Sign in to read this page.',
    });
    expect(parsed.frontMatter.sidebar_class_name).toBe('portal-restricted portal-restricted--signed-in');
  });

  it('members build: the page as written, with the lock class; public pages are untouched in both', async () => {
    const {parsed, compiled} = await parse('members', 'docs/ops/runbook.md');
    expect(compiled).toContain('The pager key lives in the red binder.');
    expect(parsed.content).toContain('The pager key lives in the red binder.');
    expect(parsed.frontMatter.sidebar_class_name).toBe('portal-restricted portal-restricted--signed-in');
    const open = await parse('public', 'docs/ops/open.md');
    expect(open.compiled).toContain('Anyone may read this.');
    expect(open.parsed.frontMatter.sidebar_class_name).toBeUndefined();
  });

  it('members build: a page that needs a role keeps its body but gets a neutral description (the version data every member loads carries it)', async () => {
    const {parsed} = await parse('members', 'docs/ops/admin.md');
    expect(parsed.content).toContain('Suspend a tenant from the console.');
    expect(parsed.frontMatter.description).toBe(ROLE_RESTRICTED_DESCRIPTION);
    // A page any member may read keeps its own description.
    expect((await parse('members', 'docs/ops/runbook.md')).parsed.frontMatter.description).toBe('Where the pager key lives.');
  });
});
