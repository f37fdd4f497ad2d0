/**
 * Generated handbook pages for scale measurements (never committed): N docs
 * under `docs/generated/` of a site copy, 20 per folder, each with prose
 * taken from the real handbook, h2/h3 sections, a code block and a table;
 * 10 % signed-in and 2 % admin-only, as a large internal handbook might be.
 *
 *   ts-node scripts/generate-pages.ts <count> <siteDir>
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {filesUnder} from './support/files';
import {parseFrontMatter} from './support/frontMatter';

const PER_FOLDER = 20;

/** Paragraphs of plain prose from the real handbook. */
function realParagraphs(siteDir: string): string[] {
  return filesUnder(path.join(siteDir, 'docs'))
    .filter(({relative}) => relative.endsWith('.md') && !relative.startsWith('generated/'))
    .flatMap(({full}) => parseFrontMatter(readFileSync(full, 'utf8')).content.split(/\n\s*\n/))
    .map((block) => block.trim())
    .filter((block) => /^[A-Z][^\n]{120,}$/.test(block) && !/[<{}`|[\]]/.test(block));
}

export function generatePages(count: number, siteDir: string): void {
  const paragraphs = realParagraphs(siteDir);
  if (paragraphs.length < 10) {
    throw new Error('generate-pages: too little prose in docs/ to generate from');
  }
  const pick = (index: number, offset: number) => paragraphs[(index * 7 + offset * 13) % paragraphs.length] as string;
  for (let index = 0; index < count; index++) {
    const folder = `generated/area-${String(Math.floor(index / PER_FOLDER)).padStart(3, '0')}`;
    const access = index % 50 === 7 ? 'access: {roles: [admin]}\n' : index % 10 === 3 ? 'access: signed-in\n' : '';
    const body = `---
title: Generated page ${index}
${access}---

${pick(index, 0)}

## Overview of part ${index}

${pick(index, 1)}

### Details ${index}

${pick(index, 2)}

\`\`\`bash
make dev SERVICE=generated-${index}
\`\`\`

| Setting | Value |
| --- | --- |
| GENERATED_${index}_PORT | ${4000 + (index % 1000)} |
| GENERATED_${index}_MODE | standard |

## Operations for part ${index}

${pick(index, 3)}
`;
    const file = path.join(siteDir, 'docs', folder, `page-${index}.md`);
    mkdirSync(path.dirname(file), {recursive: true});
    writeFileSync(file, body);
  }
}

if (require.main === module) {
  const [countArg, siteDir] = process.argv.slice(2);
  const count = Number(countArg);
  if (!Number.isInteger(count) || count <= 0 || !siteDir) {
    console.error('usage: ts-node scripts/generate-pages.ts <count> <siteDir>');
    process.exit(2);
  }
  generatePages(count, siteDir);
  console.log(`generate-pages: ${count} pages in ${path.join(siteDir, 'docs', 'generated')}`);
}
