import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {brotliCompressSync, gzipSync} from 'node:zlib';
import {
  distinctivePhrases,
  findLeaks,
  moduleTexts,
  normaliseText,
  proseSegments,
  runLeakCheck,
  searchableFiles,
  type PagePhrases,
} from '../../scripts/leak-check';

const SECRET_PAGE = `---
title: Rotation Runbook
description: Frontmatter words quietly describe the vault rotation schedule for auditors.
access: signed-in
---

import {Callout} from '@site/src/components/Callout';
export const owner = 'platform team keeps the keys in the basement vault';

# Rotation Runbook

The primary vault cluster lives in the Frankfurt region and replicates every night to a cold standby in Dublin. Operators rotate the master signing keys on the first Monday of each quarter, after the change board approves the window.

<Callout tone="warning" body="jsx property text about the emergency bunker door codes and more" />

## Break-glass access

If the on-call engineer's laptop is lost, the incident commander revokes its device certificate from the admin console before anything else. The [audit trail](./audit.md) records who opened the **sealed envelope**, and the \`vault-cli\` session is recorded end to end.

| Region | Role of the cluster in the rotation plan |
| --- | --- |
| Frankfurt | primary cluster that signs every production token today |

\`\`\`bash
# fenced shell commands mention the hidden rotation script and its many flags
vault operator rekey -init -key-shares=5 -key-threshold=3
\`\`\`

Recovery drills happen twice a year and must finish within four hours, measured from the first page to the moment traffic is served from Dublin again.
`;

/** The phrase each fixture leaks, as distinctivePhrases cuts it from SECRET_PAGE. */
const FIRST = 'the primary vault cluster lives in the frankfurt';
const DRILLS = 'recovery drills happen twice a year and must';

let tmp: string;
const write = (file: string, content: string | Buffer) => {
  const full = path.join(tmp, file);
  mkdirSync(path.dirname(full), {recursive: true});
  writeFileSync(full, content);
  return full;
};

/** The manifest of the fixtures: docs/secret.md needs the admin role (its own chunk: secret.js), docs/welcome.md is public. */
function writeManifest() {
  write(
    'build/access-manifest.json',
    JSON.stringify({
      version: 1,
      baseUrl: '/',
      pages: [
        {
          route: '/docs/secret',
          source: 'docs/secret.md',
          title: 'Rotation Runbook',
          rule: {kind: 'roles', roles: ['admin'], permissions: []},
          files: ['assets/js/secret.js', 'docs/secret.md', 'docs/secret/index.html'],
        },
        {route: '/docs/', source: 'docs/welcome.md', title: 'Welcome', rule: {kind: 'public'}, files: []},
      ],
      files: {
        'assets/js/secret.js': [{kind: 'roles', roles: ['admin'], permissions: []}],
        'docs/secret.md': [{kind: 'roles', roles: ['admin'], permissions: []}],
        'docs/secret/index.html': [{kind: 'roles', roles: ['admin'], permissions: []}],
      },
    }),
  );
  writeAgentDocs();
}

const WELCOME_MARKDOWN = '# Welcome\n\nWelcome to the portal.\n';
const llmsIndex = (routes: string[]) => `# Portal\n\n> Docs\n\n## Docs\n\n${routes.map((route) => `- [Page](${route}.md)`).join('\n')}\n`;

/**
 * The docs for coding agents as plugins/agent-docs writes them: each page's
 * Markdown in both builds (the public build's secret page is its stub), and
 * llms.txt/llms-full.txt per reader set: the public and members roots list
 * the public page only (the secret page needs a role), a variant folder also
 * the secret page.
 */
function writeAgentDocs({variantDir}: {variantDir?: string} = {}) {
  const secret = '# Rotation Runbook\n\nThe primary vault cluster.\n';
  write('build/public/docs/index.md', WELCOME_MARKDOWN);
  write('build/members/docs/index.md', WELCOME_MARKDOWN);
  write('build/public/docs/secret.md', '# Rotation Runbook\n\nSign in to read this page.\n');
  write('build/members/docs/secret.md', secret);
  for (const dir of ['build/public', 'build/members']) {
    write(`${dir}/llms.txt`, llmsIndex(['/docs/index']));
    write(`${dir}/llms-full.txt`, `# Portal\n\n${WELCOME_MARKDOWN}`);
  }
  if (variantDir) {
    write(`build/members/${variantDir}/llms.txt`, llmsIndex(['/docs/index', '/docs/secret']));
    write(`build/members/${variantDir}/llms-full.txt`, `# Portal\n\n${WELCOME_MARKDOWN}\n${secret}`);
  }
}

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'leak-check-'));
});

afterEach(() => {
  rmSync(tmp, {recursive: true, force: true});
});

describe('distinctivePhrases', () => {
  const phrases = distinctivePhrases(SECRET_PAGE, {source: 'docs/secret.md'});

  it('cuts lowercase phrases of eight plain words from the prose runs, in page order', () => {
    expect(phrases).toEqual([
      FIRST,
      'region and replicates every night to a cold',
      'standby in dublin. operators rotate the master signing',
      'keys on the first monday of each quarter,',
      // "engineer's" has an apostrophe: the run starts after it.
      'laptop is lost, the incident commander revokes its',
      'device certificate from the admin console before anything',
      DRILLS,
      'finish within four hours, measured from the first',
      'page to the moment traffic is served from',
    ]);
  });

  it('keeps at most maxPhrases, spread over the page', () => {
    expect(distinctivePhrases(SECRET_PAGE, {maxPhrases: 3})).toEqual([
      FIRST,
      'laptop is lost, the incident commander revokes its',
      'page to the moment traffic is served from',
    ]);
  });

  it('never uses front matter, imports/exports, JSX, headings, tables or code', () => {
    const text = phrases.join(' | ');
    for (const word of [
      'frontmatter',
      'basement',
      'bunker',
      'break-glass',
      'rotation runbook',
      'signs every production token',
      'fenced',
      'rekey',
    ]) {
      expect(text).not.toContain(word);
    }
  });

  it('does not span quotes, links, emphasis or inline code (they split the text in the compiled page)', () => {
    const text = phrases.join(' | ');
    expect(text).not.toMatch(/engineer|audit trail|sealed envelope|vault-cli/);
    expect(proseSegments(SECRET_PAGE)).toEqual(
      expect.arrayContaining(['audit trail', 'sealed envelope', 'session is recorded end to end.']),
    );
  });

  it('throws, naming the page, when a restricted page has almost no prose', () => {
    const stub = `---\ntitle: Secrets\n---\n\n## Table\n\n| a | b |\n| - | - |\n\n\`\`\`bash\nmake secrets-with-a-long-command and many words in it too\n\`\`\`\n\nSee the [vault](./vault.md) page for the details.\n`;
    expect(() => distinctivePhrases(stub, {source: 'docs/secrets.md'})).toThrow(/docs\/secrets\.md: only 0 distinctive phrase/);
  });

  it('leaves out excluded phrases (e.g. shared with a public page)', () => {
    expect(distinctivePhrases(SECRET_PAGE, {exclude: (phrase) => phrase === FIRST})).not.toContain(FIRST);
  });
});

describe('normaliseText', () => {
  it('decodes entities, undoes JS/JSON escapes, strips tags, collapses whitespace and lowercases', () => {
    expect(normaliseText('<p>It&#x27;s &quot;A&quot;&nbsp;&amp;\n <b>B</b></p>')).toBe(` it's "a" & b `);
    expect(normaliseText('"It\\u0027s \\"A\\"\\nB\\/C \\x41"')).toBe(`"it's "a" b/c a"`);
    // JSON inside a JS string: escaped twice.
    expect(normaliseText('JSON.parse(\'{\\"t\\":\\"A\\\\nB\\"}\')')).toBe('json.parse(\'{"t":"a b"}\')');
  });
});

describe('findLeaks', () => {
  const pages: PagePhrases[] = [{source: 'docs/secret.md', phrases: distinctivePhrases(SECRET_PAGE)}];

  it('finds a phrase in HTML (tags, entities, line breaks) and in JS and JSON strings (escapes), naming each file', () => {
    const html = write(
      'public/docs/secret/index.html',
      `<html><body><article><p>The on-call engineer&#x27;s view: The primary   vault\n cluster lives&nbsp;in the <!-- -->Frankfurt region.</p></article></body></html>`,
    );
    const js = write(
      'public/assets/js/7b39201d.1a2b3c4d.js',
      `(0,r.jsx)(n.p,{children:"It\\u0027s simple. Recovery drills happen\\ntwice a year and must finish within four hours, \\"measured\\""}),a<b?"x":c>d`,
    );
    const index = write('public/search-index.json', JSON.stringify([{documents: [{t: 'x', c: `Quote "q" then ${DRILLS}\nfinish`}]}]));
    write('public/assets/img/logo.png', `binary image that happens to contain ${FIRST}`);

    const leaks = findLeaks({pages, dir: path.join(tmp, 'public')});
    expect(leaks).toEqual(
      expect.arrayContaining([
        {file: html, source: 'docs/secret.md', phrase: FIRST},
        {file: js, source: 'docs/secret.md', phrase: DRILLS},
        {file: index, source: 'docs/secret.md', phrase: DRILLS},
      ]),
    );
    expect(leaks.map((leak) => path.basename(leak.file)).sort()).toEqual(['7b39201d.1a2b3c4d.js', 'index.html', 'search-index.json']);
  });

  it('searches precompressed copies and files without an extension, but not binary images', () => {
    const gz = write('public/docs/secret/index.html.gz', gzipSync(`<p>${DRILLS} finish</p>`));
    const headers = write('public/_headers', `# ${FIRST}`);
    write('public/img/photo.webp', FIRST);
    expect(searchableFiles(path.join(tmp, 'public'))).toEqual([headers, gz]);
    expect(findLeaks({pages, dir: path.join(tmp, 'public')}).map((leak) => leak.file)).toEqual([headers, gz]);
  });

  it('reports nothing for a clean build (title, stub text and other pages only)', () => {
    write('clean/docs/secret/index.html', '<h1>Rotation Runbook</h1><p>Sign in to read this page.</p>');
    write('clean/assets/js/main.js', 'const t="Sign in to read this page";if(a<b){console.log("the primary vault")}');
    write('clean/sitemap.xml', '<urlset><url><loc>https://example.com/docs/secret</loc></url></urlset>');
    write('clean/search-index.json', JSON.stringify([{documents: [{t: 'Rotation Runbook', u: '/docs/secret'}]}]));
    expect(findLeaks({pages, dir: path.join(tmp, 'clean')})).toEqual([]);
  });
});

describe('runLeakCheck (npm run leak-check)', () => {
  const PUBLIC_PAGE = `---\ntitle: Welcome\n---\n\nWelcome to the portal. Operators rotate the master signing keys on the first Monday of each quarter, after the change board approves the window.\n`;

  function fixture({
    publicLeak,
    membersHaveContent = true,
    membersSharedLeak = false,
  }: {
    publicLeak: boolean;
    membersHaveContent?: boolean;
    membersSharedLeak?: boolean;
  }) {
    write('docs/secret.md', SECRET_PAGE);
    write('docs/welcome.md', PUBLIC_PAGE);
    writeManifest();
    const stub = '<h1>Rotation Runbook</h1><p>Sign in to read this page.</p>';
    const welcome =
      '<p>Welcome to the portal. Operators rotate the master signing keys on the first Monday of each quarter, after the change board approves the window.</p>';
    write('build/public/docs/index.html', welcome);
    write('build/public/docs/secret/index.html', publicLeak ? `${stub}<p>${FIRST} region</p>` : stub);
    write('build/members/docs/index.html', welcome);
    write(
      'build/members/docs/secret/index.html',
      membersHaveContent ? `<h1>Rotation Runbook</h1><p>${FIRST} region</p>` : '<h1>Rotation Runbook</h1>',
    );
    write(
      'build/members/assets/js/version-data.js',
      membersSharedLeak ? `description:"${FIRST} region"` : 'description:"Restricted page."',
    );
    write(
      'build/members/assets/js/secret.js',
      membersHaveContent ? `children:"${SECRET_PAGE.replace(/\n/g, '\\n').replace(/"/g, '\\"')}"` : 'children:"Rotation Runbook"',
    );
  }

  it('exits 1 and prints each leak with the file relative to the repo and the source page', () => {
    fixture({publicLeak: true});
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.lines).toContain(`LEAK build/public/docs/secret/index.html: "${FIRST}" from docs/secret.md`);
    expect(result.leaks).toHaveLength(1);
  });

  it('passes a clean public build and prints a one-line summary', () => {
    fixture({publicLeak: false});
    const result = runLeakCheck({root: tmp});
    expect(result).toMatchObject({exitCode: 0, leaks: [], blindPages: []});
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(
      /^leak check: 1 restricted pages, 0 restricted data modules shown by them, \d+ phrases, \d+ files in build\/public, 0 leaks, 0 in files shared by all members \(every page found in build\/members\)$/,
    );
  });

  it('exits 1 when a role-restricted page shows up in a members file other than its own HTML and chunks', () => {
    fixture({publicLeak: false, membersSharedLeak: true});
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.lines).toContain(
      `LEAK build/members/assets/js/version-data.js: "${FIRST}" from docs/secret.md (every member downloads this file; the page needs a role)`,
    );
    expect(result.leaks.map((leak) => path.relative(tmp, leak.file))).toEqual([
      path.join('build', 'members', 'assets', 'js', 'version-data.js'),
    ]);
  });

  it("allows a role page's phrases in the search bundle the gate gives only to that role, and in no other, gzip inside or not", () => {
    fixture({publicLeak: false});
    const manifestFile = path.join(tmp, 'build', 'access-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {searchIndexes?: {dir: string; routes: string[]}[]};
    manifest.searchIndexes = [{dir: '_portal/search/admin', routes: ['/docs/secret']}];
    write('build/access-manifest.json', JSON.stringify(manifest));
    writeAgentDocs({variantDir: '_portal/search/admin'});
    // A search fragment is gzip inside, whatever its name.
    write('build/members/_portal/search/admin/pagefind/fragment/en_1.pf_fragment', gzipSync(JSON.stringify({content: `${FIRST} region`})));
    expect(runLeakCheck({root: tmp})).toMatchObject({exitCode: 0, leaks: []});

    write('build/members/pagefind/fragment/en_2.pf_fragment', gzipSync(JSON.stringify({content: `${FIRST} region`})));
    const leaked = runLeakCheck({root: tmp});
    expect(leaked.exitCode).toBe(1);
    expect(leaked.leaks.map((leak) => path.relative(tmp, leak.file))).toEqual([
      path.join('build', 'members', 'pagefind', 'fragment', 'en_2.pf_fragment'),
    ]);
  });

  it("checks precompressed siblings: each is its file decompressed, the public build has none of a restricted file, and a role file's count as it", () => {
    fixture({publicLeak: false});
    const stub = readFileSync(path.join(tmp, 'build', 'public', 'docs', 'secret', 'index.html'));
    const membersPage = readFileSync(path.join(tmp, 'build', 'members', 'docs', 'secret', 'index.html'));
    const membersChunk = readFileSync(path.join(tmp, 'build', 'members', 'assets', 'js', 'secret.js'));
    // As the build writes them: clean.
    write('build/public/docs/secret/index.html.gz', gzipSync(stub));
    write('build/public/docs/secret/index.html.br', brotliCompressSync(stub));
    write('build/members/docs/secret/index.html.br', brotliCompressSync(membersPage));
    write('build/members/assets/js/secret.js.gz', gzipSync(membersChunk));
    expect(runLeakCheck({root: tmp})).toMatchObject({exitCode: 0, leaks: []});

    // The public stub's sibling made from the members page.
    write('build/public/docs/secret/index.html.br', brotliCompressSync(membersPage));
    const swapped = runLeakCheck({root: tmp});
    expect(swapped.exitCode).toBe(1);
    expect(swapped.lines).toContain(`LEAK build/public/docs/secret/index.html.br: "${FIRST}" from docs/secret.md`);
    expect(swapped.lines).toContain(
      'LEAK build/public/docs/secret/index.html.br: not docs/secret/index.html once decompressed (the gate and nginx send it as docs/secret/index.html)',
    );
    write('build/public/docs/secret/index.html.br', brotliCompressSync(stub));

    // A restricted chunk's sibling in the public build, even one the phrases miss.
    write('build/public/assets/js/secret.js.gz', gzipSync('children:"Rotation Runbook"'));
    const orphan = runLeakCheck({root: tmp});
    expect(orphan.exitCode).toBe(1);
    expect(orphan.lines).toContain(
      'LEAK build/public/assets/js/secret.js.gz: a compressed copy of assets/js/secret.js, which the access manifest restricts and this build lacks',
    );
  });

  it('exits 1 when a restricted page imports a stylesheet only restricted pages use (merged into the one every member downloads)', () => {
    fixture({publicLeak: false});
    write('src/components/Shared/index.tsx', "import styles from './styles.module.css';\nexport default () => styles.box;\n");
    write('src/components/Shared/styles.module.css', '.box{color:red}');
    write('src/theme/Root.tsx', "import Shared from '@site/src/components/Shared';\nexport default Shared;\n");
    // Styles the site's own code uses are public already.
    write('docs/secret.md', `import Shared from '@site/src/components/Shared';\n\n${SECRET_PAGE}`);
    expect(runLeakCheck({root: tmp}).exitCode).toBe(0);
    write('docs/_Runbook.tsx', "import './_runbook.css';\nexport default function Runbook() { return null; }\n");
    write('docs/_runbook.css', '.runbook::after{content:"pager key"}');
    write('docs/secret.md', `import Runbook from './_Runbook';\n\n${SECRET_PAGE}`);
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.lines.join('\n')).toContain('LEAK docs/secret.md: imports docs/_runbook.css, which only restricted pages use');
  });

  it('exits 1 when a restricted page links to a file under static/, which every reader gets', () => {
    fixture({publicLeak: false});
    write('static/files/break-glass.txt', 'the pager key');
    write('docs/secret.md', `${SECRET_PAGE}\nDownload the [runbook](pathname:///files/break-glass.txt).\n`);
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.lines.join('\n')).toContain('LEAK docs/secret.md: links to static/files/break-glass.txt');
    // A public page may link to it.
    write('docs/secret.md', SECRET_PAGE);
    write('docs/welcome.md', `${PUBLIC_PAGE}\nSee <a href="/files/break-glass.txt">the file</a>.\n`);
    expect(runLeakCheck({root: tmp}).exitCode).toBe(0);
  });

  it('ignores phrases that a public page contains too', () => {
    expect(distinctivePhrases(SECRET_PAGE)).toContain('keys on the first monday of each quarter,');
    fixture({publicLeak: false});
    // welcome.md shares a sentence with the secret page; finding it in the public build is not a leak.
    expect(runLeakCheck({root: tmp}).leaks).toEqual([]);
  });

  it('exits 1 when the members build does not contain the page: the check would be blind', () => {
    fixture({publicLeak: false, membersHaveContent: false});
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.blindPages).toEqual(['docs/secret.md']);
    expect(result.lines.join('\n')).toMatch(/BLIND docs\/secret\.md: .*cannot see this page/);
  });

  it('exits 2 naming `npm run build` when there is no manifest, and when a restricted page has no prose', () => {
    const missing = runLeakCheck({root: tmp});
    expect(missing.exitCode).toBe(2);
    expect(missing.lines[0]).toMatch(/build\/access-manifest\.json not found; run `npm run build`/);

    fixture({publicLeak: false});
    write('docs/secret.md', '---\ntitle: Rotation Runbook\n---\n\n## Nothing here yet\n');
    const empty = runLeakCheck({root: tmp});
    expect(empty.exitCode).toBe(2);
    expect(empty.lines[0]).toMatch(/docs\/secret\.md: only 0 distinctive phrase/);
  });
});

describe('facts only a restricted page shows (src/data/restricted/)', () => {
  const SECRET_FACTS = `import type {EnvVar} from '../platform';
export const VAULT_ENV: EnvVar[] = [{name: 'VAULT_UNSEAL_QUORUM', description: 'How many officers must turn their keys.', localDefault: '3'}];
`;
  const TEXT = 'how many officers must turn their keys.';
  const importLine = "import {VAULT_ENV} from '@site/src/data/restricted/vault';\n";

  function fixture({publicText = false, sharedMembersText = false}: {publicText?: boolean; sharedMembersText?: boolean} = {}) {
    write('src/data/restricted/vault.ts', SECRET_FACTS);
    write('docs/secret.md', SECRET_PAGE.replace('import {Callout}', `${importLine}import {Callout}`));
    write('docs/welcome.md', '---\ntitle: Welcome\n---\n\nWelcome to the portal, where every reader finds the public guides.\n');
    writeManifest();
    write('build/public/docs/index.html', '<p>Welcome to the portal.</p>');
    write('build/public/assets/js/common.js', publicText ? `description:"How many officers must turn their keys."` : 'description:"x"');
    write(
      'build/members/docs/secret/index.html',
      `<h1>Rotation Runbook</h1><p>${FIRST} region</p><td>How many officers must turn their keys.</td>`,
    );
    write('build/members/assets/js/secret.js', `children:"${FIRST}",description:"How many officers must turn their keys."`);
    write(
      'build/members/assets/js/common.js',
      sharedMembersText ? `description:"How many officers must turn their keys."` : 'description:"x"',
    );
  }

  it('reads the texts of a module without running it, leaving out import paths', () => {
    expect(moduleTexts('vault.ts', SECRET_FACTS)).toEqual(['VAULT_UNSEAL_QUORUM', 'How many officers must turn their keys.', '3']);
  });

  it('finds the texts in the public build, named by module and page', () => {
    fixture({publicText: true});
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.lines).toContain(
      `LEAK build/public/assets/js/common.js: "${TEXT}" from src/data/restricted/vault.ts (shown by docs/secret.md)`,
    );
  });

  it("allows them in the page's own HTML and chunk only, for a page that needs a role", () => {
    fixture();
    const clean = runLeakCheck({root: tmp});
    expect(clean).toMatchObject({exitCode: 0, leaks: [], blindPages: []});
    expect(clean.lines[0]).toMatch(/1 restricted pages, 1 restricted data modules shown by them/);

    fixture({sharedMembersText: true});
    const shared = runLeakCheck({root: tmp});
    expect(shared.exitCode).toBe(1);
    expect(shared.leaks.map((leak) => path.relative(tmp, leak.file))).toEqual([path.join('build', 'members', 'assets', 'js', 'common.js')]);
  });

  it('is blind, and says so, when the members build does not show the texts', () => {
    fixture();
    write('build/members/docs/secret/index.html', `<h1>Rotation Runbook</h1><p>${FIRST} region</p>`);
    write('build/members/assets/js/secret.js', `children:"${FIRST}"`);
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.blindPages).toEqual(['src/data/restricted/vault.ts (shown by docs/secret.md)']);
  });

  it('stops (exit 2) when a public page or shared code imports the module', () => {
    fixture();
    write(
      'docs/welcome.md',
      `---\ntitle: Welcome\n---\n\n${importLine}\nWelcome to the portal, where every reader finds the public guides.\n`,
    );
    const fromPublicPage = runLeakCheck({root: tmp});
    expect(fromPublicPage.exitCode).toBe(2);
    expect(fromPublicPage.lines[0]).toMatch(/src\/data\/restricted\/vault\.ts is imported by the public page docs\/welcome\.md/);

    fixture();
    write('src/components/VaultTable.tsx', `import {VAULT_ENV} from '../data/restricted/vault';\nexport const rows = VAULT_ENV;\n`);
    const fromSharedCode = runLeakCheck({root: tmp});
    expect(fromSharedCode.exitCode).toBe(2);
    expect(fromSharedCode.lines[0]).toMatch(/imported by src\/components\/VaultTable\.tsx/);
  });
});

describe('docs for coding agents (Markdown pages, llms.txt)', () => {
  function fixture() {
    write('docs/secret.md', SECRET_PAGE);
    write('docs/welcome.md', '---\ntitle: Welcome\n---\n\nWelcome to the portal, where every reader finds the public guides.\n');
    writeManifest();
    write('build/public/docs/index.html', '<p>Welcome to the portal.</p>');
    write('build/public/docs/secret/index.html', '<h1>Rotation Runbook</h1><p>Sign in to read this page.</p>');
    write('build/members/docs/secret/index.html', `<h1>Rotation Runbook</h1><p>${FIRST} region</p>`);
  }

  it('passes the files as the build writes them', () => {
    fixture();
    expect(runLeakCheck({root: tmp})).toMatchObject({exitCode: 0, leaks: []});
  });

  it("finds a restricted page's text in the public build's Markdown and llms-full.txt", () => {
    fixture();
    write('build/public/docs/secret.md', `# Rotation Runbook\n\n${FIRST} region\n`);
    write('build/public/llms-full.txt', `# Portal\n\n${WELCOME_MARKDOWN}\n# Rotation Runbook\n\n${FIRST} region\n`);
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual(
      expect.arrayContaining([
        `LEAK build/public/docs/secret.md: "${FIRST}" from docs/secret.md`,
        `LEAK build/public/llms-full.txt: "${FIRST}" from docs/secret.md`,
      ]),
    );
  });

  it('exits 1 when an llms.txt lists a page its reader may not read, or leaves out one they may', () => {
    fixture();
    write('build/public/llms.txt', llmsIndex(['/docs/index', '/docs/secret']));
    write('build/members/llms.txt', llmsIndex([]));
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual(
      expect.arrayContaining([
        'LEAK public/llms.txt lists page(s) its reader may not read: /docs/secret',
        'WRONG members/llms.txt leaves out page(s) its reader may read: /docs/',
      ]),
    );
  });

  it("exits 1 when the members' llms-full.txt holds a role page's Markdown", () => {
    fixture();
    write(
      'build/members/llms-full.txt',
      `# Portal\n\n${WELCOME_MARKDOWN}\n${readFileSync(path.join(tmp, 'build/members/docs/secret.md'), 'utf8')}`,
    );
    expect(runLeakCheck({root: tmp}).lines).toContain(
      'LEAK members/llms-full.txt holds the Markdown of /docs/secret, which its reader may not read',
    );
  });

  it("exits 1 when a restricted page's Markdown is not among its files in the manifest, or a build lacks it", () => {
    fixture();
    const manifestFile = path.join(tmp, 'build', 'access-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {pages: {files: string[]}[]; files: Record<string, unknown>};
    manifest.pages[0]!.files = manifest.pages[0]!.files.filter((file) => file !== 'docs/secret.md');
    delete manifest.files['docs/secret.md'];
    write('build/access-manifest.json', JSON.stringify(manifest));
    rmSync(path.join(tmp, 'build/public/docs/secret.md'));
    const result = runLeakCheck({root: tmp});
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual(
      expect.arrayContaining([
        'MISSING public/docs/secret.md, the Markdown of /docs/secret',
        'LEAK docs/secret.md: the Markdown of the restricted page /docs/secret is not among its files in the access manifest',
      ]),
    );
  });
});
