/**
 * Front matter as Docusaurus reads it: the synchronous core of its
 * DEFAULT_PARSE_FRONT_MATTER (the same parser, so every tool reads exactly
 * what the build reads; synchronous so docusaurus.config.ts can stay a plain
 * object). @docusaurus/utils is pinned to the site's Docusaurus version.
 */
import {readFileSync} from 'node:fs';
import {parseFileContentFrontMatter} from '@docusaurus/utils/lib/markdownUtils';

export function parseFrontMatter(source: string): {frontMatter: Record<string, unknown>; content: string} {
  return parseFileContentFrontMatter(source);
}

/** The `title` a Markdown file's front matter gives, or '' without one. */
export function frontMatterTitle(file: string): string {
  const {title} = parseFrontMatter(readFileSync(file, 'utf8')).frontMatter;
  return typeof title === 'string' ? title : '';
}
