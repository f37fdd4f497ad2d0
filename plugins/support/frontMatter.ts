/**
 * Front matter as Docusaurus reads it: the synchronous core of its
 * DEFAULT_PARSE_FRONT_MATTER (the same parser, gray-matter inside, so every
 * tool reads exactly what the build reads; synchronous so
 * docusaurus.config.ts can stay a plain object). @docusaurus/utils is pinned
 * to the site's Docusaurus version. The repository's one front-matter parser:
 * the access manifest, the leak check, the documentation linter and the tests
 * read front matter (or strip it) through this module, never by a pattern.
 *
 * Lives in plugins/support/ because the access plugin needs it and plugins
 * may not import tooling (scripts/): scripts and tests import it from here,
 * the allowed direction (test/node/import-directions.test.ts).
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

/** A Markdown file's text after its front matter (trimmed, as Docusaurus reads it). */
export function markdownBody(file: string): string {
  return parseFrontMatter(readFileSync(file, 'utf8')).content;
}
