/**
 * The MCP search's shared index (server/mcp/searchIndex.ts) on readers made
 * of plain maps: each file is read and held once, whatever the number of
 * reader sets that list it, and a reader's results and their order come from
 * their own set only.
 */
import type {Principal} from '../../src/auth/access/rules';
import type {ReaderFile, ReaderFileKey, ReaderFiles} from '../../server/mcp/readerFiles';
import {createReaderSearch} from '../../server/mcp/searchIndex';

const ADMIN: Principal = {roles: ['admin'], permissions: []};

/** Public pages for everyone; the admin also gets `/docs/secret.md`. */
function readerFiles(pages: Record<string, string>, secret: string) {
  const reads: string[] = [];
  const setOf = (principal: Principal | null): Record<string, string> => ({
    ...pages,
    ...(principal?.roles.includes('admin') ? {'/docs/secret.md': secret} : {}),
  });
  const files: ReaderFiles = {
    async locate(urlPath, principal): Promise<ReaderFileKey> {
      return urlPath in setOf(principal) ? {kind: 'file', key: urlPath} : {kind: 'not-found'};
    },
    async read(urlPath, principal): Promise<ReaderFile> {
      reads.push(urlPath);
      const text = setOf(principal)[urlPath];
      return text === undefined ? {kind: 'not-found'} : {kind: 'text', path: urlPath, text};
    },
    async llmsIndex(principal) {
      const links = Object.keys(setOf(principal)).map((url) => `- [${url.slice(6, -3)}](${url}): page ${url}`);
      return {kind: 'text', path: '/llms.txt', text: ['# Docs', '', '## Docs', '', ...links, ''].join('\n')};
    },
  };
  return {files, reads};
}

const PAGES = {
  '/docs/alpha.md': '# Alpha\n\nThe ferret and the otter.\n\n## Otters\n\nOtter otter otter lives by the river.\n',
  '/docs/beta.md': '# Beta\n\nThe ferret ferret ferret runs.\n',
  '/docs/gamma.md': '# Gamma\n\nNothing here but words.\n',
  '/docs/one.md': '# One\n\nA weasel, one more weasel.\n',
  '/docs/two.md': '# Two\n\nA badger, one more word.\n',
};

it('reads and holds each file once, whatever the number of reader sets that list it', async () => {
  const {files, reads} = readerFiles(PAGES, '# Secret\n\nThe otter console.\n');
  const search = createReaderSearch(files);
  await search.search('public', null, 'ferret', 5);
  expect(search.documentCount()).toBe(Object.keys(PAGES).length);
  reads.length = 0;
  await search.search('admin', ADMIN, 'console', 5);
  // Only the page the public set lacks is read to index it (then once more for its snippet).
  expect(reads.filter((url) => url !== '/docs/secret.md')).toEqual([]);
  expect(search.documentCount()).toBe(Object.keys(PAGES).length + 1);
});

it('ranks each reader’s results with their own set’s statistics: a restricted page never moves a public result', async () => {
  // The secret page's words make "otter" and "weasel" more common in the admin's set, so worth less there.
  const secret = `# Secret\n\n${'otter '.repeat(50)} weasel\n`;
  const alone = createReaderSearch(readerFiles(PAGES, secret).files);
  const shared = createReaderSearch(readerFiles(PAGES, secret).files);
  await shared.search('admin', ADMIN, 'otter', 5);
  // Alone, "weasel" and "badger" are each in one public page: the page with two weasels ranks first.
  expect((await alone.search('public', null, 'weasel badger', 5)).map((result) => result.url)).toEqual(['/docs/one', '/docs/two']);
  for (const query of ['weasel badger', 'ferret otter', 'otter', 'ferret', 'river ferret']) {
    const expected = await alone.search('public', null, query, 5);
    expect(await shared.search('public', null, query, 5)).toEqual(expected);
    expect(expected.map((result) => result.url)).not.toContain('/docs/secret');
  }
  expect((await shared.search('admin', ADMIN, 'otter', 5)).map((result) => result.url)).toContain('/docs/secret');
});

it('cuts the snippet from the page’s section where the query’s words are, and names it', async () => {
  const search = createReaderSearch(readerFiles(PAGES, '').files);
  const [first] = await search.search('public', null, 'river', 1);
  expect(first).toMatchObject({title: 'alpha', url: '/docs/alpha', markdownUrl: '/docs/alpha.md', section: 'Otters'});
  expect(first?.snippet).toBe('Otter otter otter lives by the river.');
});

it('cuts the snippet from prose, not from a code block, when the query’s words are in both', async () => {
  const page = [
    '# Delta',
    '',
    '```mermaid',
    'flowchart LR',
    '  gateway --> queue',
    '```',
    '',
    'The gateway puts each job on the queue.',
    '',
  ].join('\n');
  const search = createReaderSearch(readerFiles({'/docs/delta.md': page}, '').files);
  const [first] = await search.search('public', null, 'gateway queue', 1);
  expect(first?.snippet).toBe('The gateway puts each job on the queue.');
  // Words found only in code still get a snippet, from the code.
  const [onlyInCode] = await search.search('public', null, 'flowchart', 1);
  expect(onlyInCode?.snippet).toContain('flowchart LR');
});
