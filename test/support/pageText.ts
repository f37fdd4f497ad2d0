/** Text of a page's source, for tests that look for it in what a reader receives. */
import path from 'node:path';
import {markdownBody} from '../../plugins/support/frontMatter';

const ROOT = path.resolve(__dirname, '../..');

/** A plain sentence from the page's source (relative to the repository), which only its members' version contains. */
export function bodySentence(source: string): string {
  const text = markdownBody(path.join(ROOT, source));
  const sentence = text.split('\n').find((line) => /^[A-Z][A-Za-z ,]{60,}/.test(line) && !line.includes('`') && !line.includes('['));
  if (!sentence) {
    throw new Error(`no plain sentence found in ${source}`);
  }
  return (/^[A-Za-z ,]{60,}/.exec(sentence) ?? [''])[0].trim();
}
