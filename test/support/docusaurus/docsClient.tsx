/** Test double for '@docusaurus/plugin-content-docs/client': the current doc's front matter and permalink, set per test. */
let frontMatter: Record<string, unknown> = {};
let permalink = '/docs/some/page';

export function setDocFrontMatter(value: Record<string, unknown>): void {
  frontMatter = value;
}

export function setDocPermalink(value: string): void {
  permalink = value;
}

export function useDoc(): {frontMatter: Record<string, unknown>; metadata: {permalink: string}} {
  return {frontMatter, metadata: {permalink}};
}
