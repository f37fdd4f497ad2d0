/**
 * The pages the rules read, and how they are read: the Markdown files under
 * docs/ (on disk, or at a git revision for the repetition baseline), their
 * front matter as Docusaurus reads it (plugins/support/frontMatter.ts, the
 * repository's one front-matter parser), and their lines marked as prose or
 * code so that each rule looks only where its fact is written.
 */
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {filesUnder} from '../../plugins/support/files';
import {parseFrontMatter} from '../../plugins/support/frontMatter';

export interface Problem {
  /** Path relative to docs/, with forward slashes (`../src/data/platform.ts` for the data files). */
  file: string;
  rule: string;
  message: string;
  /** 1-based line in the file, when the problem is on one line. */
  line?: number;
}

export interface Page {
  /** Path relative to docs/, with forward slashes. */
  file: string;
  source: string;
}

/** Every Markdown page under `docsDir`, named relative to it. */
export function readPages(docsDir: string): Page[] {
  return filesUnder(docsDir)
    .filter(({relative}) => /\.mdx?$/.test(relative))
    .map(({full, relative}) => ({file: relative, source: readFileSync(full, 'utf8')}));
}

/** The pages under docs/ at a git revision (for measuring the repetition baseline). */
export function pagesAt(revision: string, root: string): Page[] {
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], {encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  return git('ls-tree', '-r', '--name-only', revision, 'docs/')
    .split('\n')
    .filter((file) => /\.mdx?$/.test(file))
    .map((file) => ({file: file.slice('docs/'.length), source: git('show', `${revision}:${file}`)}));
}

interface Body {
  frontMatter: Record<string, unknown>;
  /** The source from the first line of the body on. */
  text: string;
  /** 1-based line of the source where `text` starts. */
  firstLine: number;
}

/**
 * The front matter and the body of a page. The parser hands back the body
 * trimmed; the body starts on the line where that trimmed body starts (so
 * line numbers and the first line's indentation stay the source's).
 */
function splitBody(source: string): Body {
  const {frontMatter, content} = parseFrontMatter(source);
  if (content === '') {
    return {frontMatter, text: '', firstLine: source.split('\n').length};
  }
  // Only whitespace follows the trimmed body in the source.
  const contentStart = source.trimEnd().length - content.length;
  const lineStart = source.lastIndexOf('\n', contentStart - 1) + 1;
  return {frontMatter, text: source.slice(lineStart), firstLine: source.slice(0, lineStart).split('\n').length};
}

export interface ParsedPage {
  frontMatter: Record<string, unknown>;
  /** Body without fenced code blocks. */
  prose: string;
  fences: {language: string}[];
}

export function parsePage(source: string): ParsedPage {
  const {frontMatter, text} = splitBody(source);
  const fences: ParsedPage['fences'] = [];
  const prose = text.replace(/^[ \t]*(```+|~~~+)([^\n]*)\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, (_all, _fence: string, info: string) => {
    fences.push({language: info.trim().split(/\s+/)[0] ?? ''});
    return '\n';
  });
  return {frontMatter, prose, fences};
}

export interface SourceLine {
  /** 1-based line number in the file. */
  number: number;
  text: string;
  /** Language of the fenced code block the line is in ('' without a tag), or null for prose. */
  code: string | null;
}

/** The lines of the body, each marked as prose or as code of a language (fence lines left out). */
export function sourceLines(source: string): SourceLine[] {
  const {text: body, firstLine} = splitBody(source);
  const result: SourceLine[] = [];
  let fence: {marker: string; language: string} | null = null;
  body.split('\n').forEach((text, index) => {
    const number = firstLine + index;
    if (fence) {
      if (new RegExp(`^[ \\t]*${fence.marker}[ \\t]*$`).test(text)) {
        fence = null;
      } else {
        result.push({number, text, code: fence.language});
      }
      return;
    }
    const open = /^[ \t]*(```+|~~~+)(.*)$/.exec(text);
    if (open?.[1]) {
      fence = {marker: open[1], language: (open[2] ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? ''};
      return;
    }
    result.push({number, text, code: null});
  });
  return result;
}

/** Lines a reader reads as prose: no imports, tables, JSX component lines, admonition fences or HTML comments. */
export function isReadableProse(line: string): boolean {
  return !/^\s*(import|export)\s/.test(line) && !/^\s*\|/.test(line) && !/^\s*<\/?[A-Z][^>]*>\s*$/.test(line) && !/^\s*:::/.test(line);
}
