import {lintPage, lintPages, MIN_WORDS, type Page} from '../../scripts/lint-docs';

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

describe('documentation lint', () => {
  it('accepts a page that follows every rule', () => {
    expect(lintPage(page('internal-developers/development/x.md', goodBody('a')))).toEqual([]);
  });

  it('names the file and rule for each broken rule', () => {
    const problems = lintPage(page('internal-developers/development/x.md', `# Heading\n\nshort text\n\n\`\`\`\nno language\n\`\`\``, 'title: Only a title'));
    expect(problems.map((problem) => problem.rule).sort()).toEqual(
      ['code-language', 'front-matter', 'front-matter', 'min-sections', 'min-words', 'no-h1', 'related-links'].sort(),
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
});
