/**
 * The docs for coding agents' converter (plugins/agent-docs/markdown.ts) on
 * small pieces of HTML shaped like this site's rendered pages, and the llms
 * files (plugins/agent-docs/llms.ts). The build's own pages are compared with
 * their Markdown in test/build/agent-docs.test.ts.
 */
import {articleMarkdown, mermaidDiagrams, pageMarkdown} from '../../plugins/agent-docs/markdown';
import {llmsFiles, sidebarSections} from '../../plugins/agent-docs/llms';

/** An article as the docs theme renders one: breadcrumbs, the mobile table of contents, the title, the text. */
const article = (body: string) =>
  `<html><body><nav>site</nav><article><nav class="theme-doc-breadcrumbs"><a href="/">Home</a></nav>` +
  `<div class="theme-doc-toc-mobile"><button type=button>On this page</button></div>` +
  `<div class="theme-doc-markdown markdown"><header><h1>Page</h1></header>${body}</div></article><footer>foot</footer></body></html>`;

/** A code block as src/components/CodeBlock renders it: one `.token-line` per line, tokens in spans. */
const codeBlock = (language: string, lines: string[]) =>
  `<div class="language-${language} codeBlockContainer_Ckt0 theme-code-block" style=--prism-color:red><div class=codeBlockContent_QJqH>` +
  `<pre tabindex=0 class="prism-code language-${language}"><code class=codeBlockLines_e6Vv>${lines
    .map(
      (line) =>
        `<div class=token-line style=color:red>${line
          .split(' ')
          .map((word, index) => `<span class="token ${index === 0 ? 'keyword' : 'plain'}">${index === 0 ? '' : ' '}${word}</span>`)
          .join('')}<br/></div>`,
    )
    .join('')}</code></pre><button type=button aria-label="Copy code">Copy</button></div></div>`;

describe('articleMarkdown', () => {
  it('keeps a code block as a fence with its language and its exact text, without the copy button', () => {
    const markdown = articleMarkdown(
      article(`<p>Run:</p>${codeBlock('bash', ['make up &amp;&amp; echo "*ok*"', '', 'docker  compose ps'])}`),
    );
    expect(markdown).toBe('Run:\n\n```bash\nmake up && echo "*ok*"\n\ndocker  compose ps\n```');
  });

  it('makes the fence longer than any run of backticks in the code', () => {
    expect(articleMarkdown(article(codeBlock('md', ['```ts', 'x', '```'])))).toBe('````md\n```ts\nx\n```\n````');
  });

  it('writes every tab panel, hidden ones too, each after its label', () => {
    const tabs =
      `<div class="theme-tabs-container tabs-container"><ul role=tablist class=tabs><li role=tab aria-selected=true>macOS</li>` +
      `<li role=tab aria-selected=false>Linux</li></ul><div class=margin-top--md><div role=tabpanel><p>Use brew.</p></div>` +
      `<div role=tabpanel hidden><p>Use apt.</p>${codeBlock('bash', ['apt-get install jq'])}</div></div></div>`;
    expect(articleMarkdown(article(tabs))).toBe('**macOS**\n\nUse brew.\n\n**Linux**\n\nUse apt.\n\n```bash\napt-get install jq\n```');
  });

  it('makes an admonition a blockquote that starts with its label, without the icon', () => {
    const admonition =
      `<div class="theme-admonition theme-admonition-warning admonition_xJq3 alert alert--warning"><div class=admonitionHeading_Gvgb>` +
      `<span class=admonitionIcon_Rf37><svg viewBox="0 0 16 16"><path d="M0 0"/></svg></span>warning</div>` +
      `<div class=admonitionContent_BuS1><p>Never commit <code>.env</code>.</p><p>Rotate keys.</p></div></div>`;
    expect(articleMarkdown(article(admonition))).toBe('> **Warning**\n>\n> Never commit `.env`.\n>\n> Rotate keys.');
  });

  it('drops heading hash links and screen-reader-only text, keeps links, images and tables', () => {
    const body =
      `<h2 class=anchor id=ports>Ports<a href=#ports class=hash-link aria-label="Direct link to Ports">\u200b</a></h2>` +
      `<p>See <a href=/portal/docs/a>the gateway</a><span class=visuallyHidden_x>(opens in a new tab)</span>.</p>` +
      `<p><img src=/portal/img/a.png alt="The flow"></p>` +
      `<div class=portal-table-scroll role=region><table><thead><tr><th>Service<th>Port<tbody><tr><td>Gateway<td><code>8080</code></table></div>`;
    expect(articleMarkdown(article(body))).toBe(
      '## Ports\n\nSee [the gateway](/portal/docs/a).\n\n![The flow](/portal/img/a.png)\n\n| Service | Port |\n| --- | --- |\n| Gateway | `8080` |',
    );
  });

  it('writes a details element as its summary in bold, then its body', () => {
    expect(articleMarkdown(article('<details><summary>Why?</summary><p>Because.</p></details>'))).toBe('**Why?**\n\nBecause.');
  });
});

describe('pageMarkdown', () => {
  it('starts with the title and the description, then the text (not the page header)', () => {
    expect(pageMarkdown({title: 'Page', description: 'What it is.', html: article('<p>Text.</p>')})).toBe(
      '# Page\n\n> What it is.\n\nText.\n',
    );
  });
});

describe('llms files', () => {
  const sidebars = {
    main: [
      {type: 'doc' as const, id: 'intro'},
      {
        type: 'category' as const,
        label: 'Services',
        collapsed: false,
        collapsible: true,
        link: {type: 'doc' as const, id: 'services'},
        items: [
          {type: 'doc' as const, id: 'gateway'},
          {type: 'category' as const, label: 'Admin', collapsed: false, collapsible: true, items: [{type: 'doc' as const, id: 'admin'}]},
        ],
      },
    ],
  };
  const permalinks = new Map([
    ['intro', '/p/docs/intro'],
    ['services', '/p/docs/services'],
    ['gateway', '/p/docs/gateway'],
    ['admin', '/p/docs/admin'],
    ['home', '/p/docs/'],
  ]);
  const sections = sidebarSections(sidebars, permalinks);
  const pages = new Map(
    [...permalinks.values()].map((route) => [route, {route, title: `T ${route}`, description: `D ${route}`, markdown: `# T ${route}\n`}]),
  );

  it('has one section per top-level category in sidebar order, and sections for docs outside categories and sidebars', () => {
    expect(sections).toEqual([
      {title: 'Docs', routes: ['/p/docs/intro']},
      {title: 'Services', routes: ['/p/docs/services', '/p/docs/gateway', '/p/docs/admin']},
      {title: 'Other pages', routes: ['/p/docs/']},
    ]);
  });

  it("lists exactly the reader's pages with their Markdown URL and description, and concatenates their Markdown", () => {
    const {index, full} = llmsFiles({siteTitle: 'Portal', summary: 'Docs.', sections, pages, routes: ['/p/docs/gateway', '/p/docs/']});
    expect(index).toBe(
      '# Portal\n\n> Docs.\n\n## Services\n\n- [T /p/docs/gateway](/p/docs/gateway.md): D /p/docs/gateway\n\n' +
        '## Other pages\n\n- [T /p/docs/](/p/docs/index.md): D /p/docs/\n',
    );
    expect(full).toBe('# Portal\n\n> Docs.\n\n# T /p/docs/gateway\n\n# T /p/docs/\n');
  });
});

describe('Mermaid diagrams (drawn in the browser, absent from the HTML)', () => {
  const source = 'Intro.\n\n```mermaid\ngraph TD\n  A-->B\n```\n\nMiddle.\n\n```mermaid\nsequenceDiagram\n  A->>B: hi & <bye>\n```\n';

  it('reads each diagram of the page source, in order', () => {
    expect(mermaidDiagrams(source)).toEqual(['graph TD\n  A-->B', 'sequenceDiagram\n  A->>B: hi & <bye>']);
  });

  it('puts each diagram where the page left its empty place, in order', () => {
    const html = article('<p>Intro.</p>\n<!-- -->\n<p>Middle.</p>\n<!-- -->\n<p>End.</p>');
    expect(articleMarkdown(html, mermaidDiagrams(source))).toBe(
      'Intro.\n\n```mermaid\ngraph TD\n  A-->B\n```\n\nMiddle.\n\n```mermaid\nsequenceDiagram\n  A->>B: hi & <bye>\n```\n\nEnd.',
    );
  });

  it('puts them last, under "Diagrams", when the empty places do not match the diagrams one for one', () => {
    const html = article('<p>Intro.</p>\n<!-- -->\n<p>Middle.</p>');
    expect(articleMarkdown(html, mermaidDiagrams(source))).toBe(
      'Intro.\n\nMiddle.\n\n## Diagrams\n\n```mermaid\ngraph TD\n  A-->B\n```\n\n```mermaid\nsequenceDiagram\n  A->>B: hi & <bye>\n```',
    );
  });
});

describe('links and definition lists', () => {
  const docRoutes = new Set(['/portal/docs/', '/portal/docs/services/file-service']);

  it('points links to the site’s doc pages to their Markdown, anchors kept, and leaves every other link as it is', () => {
    const body =
      `<p><a href=/portal/docs/services/file-service>files</a>, <a href="/portal/docs/services/file-service#ports">its ports</a>, ` +
      `<a href=/portal/docs/#on-call>on-call</a>, <a href=https://example.com/docs/x>elsewhere</a>, ` +
      `<a href=/portal/img/a.png>an image</a>, <a href=#local>here</a>, <a href=/portal/docs/unknown>not a doc</a>.</p>`;
    expect(articleMarkdown(article(body), [], docRoutes)).toBe(
      '[files](/portal/docs/services/file-service.md), [its ports](/portal/docs/services/file-service.md#ports), ' +
        '[on-call](/portal/docs/index.md#on-call), [elsewhere](https://example.com/docs/x), [an image](/portal/img/a.png), ' +
        '[here](#local), [not a doc](/portal/docs/unknown).',
    );
  });

  it('writes a definition list as one list item per term: `- **term**: definition`', () => {
    const facts =
      `<dl class=facts_HSsq><dt>File Service<!-- --> port<dd><code>3004</code><dt>Gateway prefix<dd><code>/files</code>` +
      `<dt>Called by<dd><span><a href=/portal/docs/services/file-service>File Service</a></span><span>, <a href=/x>X</a></span></dl>`;
    expect(articleMarkdown(article(`<p>Facts:</p>${facts}<p>After.</p>`), [], docRoutes)).toBe(
      'Facts:\n\n- **File Service port**: `3004`\n- **Gateway prefix**: `/files`\n' +
        '- **Called by**: [File Service](/portal/docs/services/file-service.md), [X](/x)\n\nAfter.',
    );
  });
});
