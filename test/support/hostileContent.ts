/**
 * The hostile-content fixture of the access model: content an author can add
 * that a restricted page brings with it, written into a throwaway copy of
 * the site (never committed as pages). Each piece carries a marker, a word
 * that appears nowhere else, so a test can look for it in every answer.
 *
 * - an admin-only page (`access: {roles: [admin]}`) with an image over the
 *   bundler's inline limit, a linked attachment, a component that loads a
 *   module lazily (`import()`), and a tag no other page has;
 * - a folder whose default comes from `_category_.yml`, with one page;
 * - (separately) `access:` on a page under src/pages, which must stop the build.
 */
import {deflateSync} from 'node:zlib';
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';

export const MARKERS = {
  /** In the admin page's prose. */
  adminProse: 'zqadminprosemarker',
  /** In the module the admin page loads lazily. */
  lazyModule: 'zqlazymodulemarker',
  /** In the attachment the admin page links to. */
  attachment: 'zqattachmentmarker',
  /** In the page of the folder marked signed-in by `_category_.yml`. */
  folderPage: 'zqfolderpagemarker',
} as const;

export const ADMIN_PAGE_ROUTE = '/docs/internal-developers/services/ops-runbook';
export const FOLDER_PAGE_ROUTE = '/docs/internal-developers/ops-folder/ops-notes';
export const TAG_ROUTE = '/docs/tags/ops-only-tag';
export const SRC_PAGE = 'src/pages/members-note.md';

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) {
      crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
    }
  }
  return ~crc >>> 0;
}

/** A PNG of noise (it does not compress), well over Docusaurus's 10 kB inline limit. */
export function noisePng(width = 96, height = 96, seed = 7): Buffer {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) >> 16;
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let offset = 0; offset < rows.length; offset++) {
    rows[offset] = offset % (width * 3 + 1) === 0 ? 0 : next() & 0xff;
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, {level: 9})),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function write(siteDir: string, relative: string, content: string | Buffer): void {
  const file = path.join(siteDir, relative);
  mkdirSync(path.dirname(file), {recursive: true});
  writeFileSync(file, content);
}

/** Writes the fixture's docs into a copy of the site; returns the image's bytes (to look for in answers). */
export function writeHostileContent(siteDir: string): {image: Buffer} {
  const services = 'docs/internal-developers/services';
  const image = noisePng();
  write(siteDir, `${services}/ops-diagram.png`, image);
  write(siteDir, `${services}/ops-runbook.txt`, `Rotate the break-glass credentials (${MARKERS.attachment}) after every incident.\n`);
  write(siteDir, `${services}/_opsSecret.ts`, `export const OPS_SECRET = 'The recovery passphrase hint is ${MARKERS.lazyModule}.';\n`);
  write(
    siteDir,
    `${services}/_OpsLazy.tsx`,
    `import React, {lazy, Suspense} from 'react';

const Secret = lazy(() => import('./_opsSecret').then((module) => ({default: () => <p>{module.OPS_SECRET}</p>})));

export default function OpsLazy(): React.ReactElement {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <Secret />
    </Suspense>
  );
}
`,
  );
  write(
    siteDir,
    `${services}/ops-runbook.mdx`,
    `---
title: Ops Runbook
access: {roles: [admin]}
tags: [ops-only-tag]
---

import OpsLazy from './_OpsLazy';

The operations runbook explains how the on-call engineer restores service after a regional outage (${MARKERS.adminProse}).
Every step below assumes the on-call engineer holds the admin role and a hardware key for the production account.

![Failover diagram](./ops-diagram.png)

Download the [break-glass runbook](./ops-runbook.txt) before you start, and keep it open while you work.

<OpsLazy />
`,
  );
  write(
    siteDir,
    'docs/internal-developers/ops-folder/_category_.yml',
    `label: Operations notes
customProps:
  access: signed-in
`,
  );
  write(
    siteDir,
    'docs/internal-developers/ops-folder/ops-notes.md',
    `---
title: Ops Notes
---

These notes record what the platform team learned from each game day and how the alerts were tuned afterwards (${MARKERS.folderPage}).
Members read them before their first on-call shift, together with the runbooks linked from the services pages.
`,
  );
  return {image};
}

/** A page outside docs/ that asks for access control, which only docs pages get: the build must refuse it. */
export function writeSrcPageWithAccess(siteDir: string): void {
  write(siteDir, SRC_PAGE, `---\ntitle: Members note\naccess: signed-in\n---\n\nA note for members only.\n`);
}
