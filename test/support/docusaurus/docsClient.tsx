/** Test double for '@docusaurus/plugin-content-docs/client': the current doc's front matter, set per test. */
let frontMatter: Record<string, unknown> = {};

export function setDocFrontMatter(value: Record<string, unknown>): void {
  frontMatter = value;
}

export function useDoc(): {frontMatter: Record<string, unknown>} {
  return {frontMatter};
}
