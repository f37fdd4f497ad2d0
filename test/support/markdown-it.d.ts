// markdown-it 14 (installed with markdownlint-cli2) ships no types: the part of its API the build tests use.
declare module 'markdown-it' {
  interface Token {
    type: string;
    tag: string;
    info: string;
    content: string;
    children: Token[] | null;
  }
  class MarkdownIt {
    constructor(options?: {html?: boolean});
    parse(source: string, env: object): Token[];
  }
  export = MarkdownIt;
}
