/**
 * `npm run bench:mcp [-- <pages>]` (default 1,000): the MCP endpoint's
 * `search_docs` (server/mcp/), through the official SDK's client over HTTP,
 * on a generated build of <pages> doc pages (Markdown of about 600 words in
 * four sections, drawn from the handbook's words at their frequencies; half
 * of the pages signed-in). Reports the first call (which
 * builds the member's index), then p50/p95 of BENCH_QUERIES searches of one
 * or two words as a member, and the gate's RSS after the members' index is
 * built; then, on the index alone, the same searches, and the live heap the
 * members' reader set and then the public one add (with
 * `NODE_OPTIONS=--expose-gc`). Not part of `npm test`: speed targets live in
 * bench/README.md.
 */
import {randomBytes} from 'node:crypto';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {exportJWK, generateKeyPair, SignJWT} from 'jose';
import {LLMS_INDEX_FILE, MCP_PATH, markdownPathFor} from '../src/auth/access/agentDocs';
import type {AccessManifest} from '../plugins/access/manifest';
import {FILE_INDEX_FILE, type FileIndex} from '../server/buildFiles';
import {loadSite} from '../server/decide';
import {createFileBodies} from '../server/fileBodies';
import {createGate} from '../server/gate';
import {createReaderFiles} from '../server/mcp/readerFiles';
import {createReaderSearch} from '../server/mcp/searchIndex';
import {createKeyStore} from '../server/keys';
import {writeFileIndex} from './build-index';
import {filesUnder} from '../plugins/support/files';

const PAGES = Number(process.argv[2] ?? 1000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const ISSUER = 'https://auth.example.test/user_management/client_bench';
/** The handbook's words, with repeats: drawing from it gives generated pages and queries the handbook's word frequencies. */
const VOCABULARY = filesUnder(path.resolve(__dirname, '..', 'docs'))
  .filter(({relative}) => relative.endsWith('.md') || relative.endsWith('.mdx'))
  .flatMap(
    ({full}) =>
      readFileSync(full, 'utf8')
        .toLowerCase()
        .match(/[a-z]{3,}/g) ?? [],
  );

/** A deterministic pseudo-random sequence, so every run indexes the same text. */
function randomSequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), {recursive: true});
  writeFileSync(file, content);
}

async function generateBuild(dir: string): Promise<void> {
  const random = randomSequence(42);
  const word = () => VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string;
  const sentence = () => {
    const words = Array.from({length: 8 + Math.floor(random() * 12)}, word);
    return `${words.join(' ').replace(/^./, (letter) => letter.toUpperCase())}.`;
  };
  for (const audience of ['public', 'members']) {
    write(path.join(dir, audience, 'index.html'), '<h1>Home</h1>');
    write(path.join(dir, audience, '404.html'), '<h1>Not found</h1>');
    write(path.join(dir, audience, '_headers.json'), JSON.stringify({'X-Content-Type-Options': 'nosniff'}));
  }
  const pages = [];
  const links: Record<'public' | 'members', string[]> = {public: [], members: []};
  const files: Record<string, {kind: 'signed-in'}[]> = {};
  for (let index = 0; index < PAGES; index += 1) {
    const route = `/docs/generated/page-${index}`;
    const markdown = [`# Page ${index}: ${word()} ${word()}`, '', sentence(), ''];
    for (let section = 0; section < 4; section += 1) {
      markdown.push(`## ${word()} ${word()}`, '', Array.from({length: 7}, sentence).join(' '), '');
    }
    const signedIn = index % 2 === 1;
    const name = markdownPathFor(route).slice(1);
    const html = `docs/generated/page-${index}/index.html`;
    const link = `- [Page ${index}](${markdownPathFor(route)}): generated page ${index}`;
    links.members.push(link);
    if (signedIn) {
      write(path.join(dir, 'members', name), markdown.join('\n'));
      write(path.join(dir, 'members', html), `<h1>Page ${index}</h1>`);
      write(path.join(dir, 'public', name), `# Page ${index}\n\nSign in to read this page.\n`);
      write(path.join(dir, 'public', html), '<h1>Sign in to read this page.</h1>');
      files[name] = [{kind: 'signed-in'}];
      files[html] = [{kind: 'signed-in'}];
      pages.push({route, source: `${route}.md`, title: `Page ${index}`, rule: {kind: 'signed-in'}, files: [html, name]});
    } else {
      write(path.join(dir, 'public', name), markdown.join('\n'));
      write(path.join(dir, 'public', html), `<h1>Page ${index}</h1>`);
      links.public.push(link);
      pages.push({route, source: `${route}.md`, title: `Page ${index}`, rule: {kind: 'public'}, files: []});
    }
  }
  for (const audience of ['public', 'members'] as const) {
    write(path.join(dir, audience, LLMS_INDEX_FILE), ['# Bench', '', '> Generated', '', '## Docs', '', ...links[audience], ''].join('\n'));
  }
  write(path.join(dir, 'access-manifest.json'), JSON.stringify({version: 1, baseUrl: '/', pages, files, searchIndexes: []}));
  await writeFileIndex(dir);
}

/** Whether heapUsed() collects garbage first (node --expose-gc): without it the heap figures mean little. */
const heapMeasured = typeof global.gc === 'function';

/** The live heap: collected first, twice (a second pass frees what the first's finalisers released). */
function heapUsed(): number {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage().heapUsed;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-mcp-'));
  try {
    await generateBuild(dir);
    const keys = await generateKeyPair('RS256');
    const jwks = {keys: [{...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256'}]};
    const gate = await createGate({
      buildDir: dir,
      jwks: createKeyStore({url: new URL('https://auth.example.test/jwks'), fetchJwks: async () => Response.json(jwks)}),
      issuers: [ISSUER],
      clientId: 'client_bench',
      organizationId: null,
      sessionSecrets: [randomBytes(32)],
      mcpRateLimit: {max: 1_000_000, timeWindowMs: 60_000},
    });
    const origin = await gate.listen({port: 0, host: '127.0.0.1'});
    const token = await new SignJWT({sid: 'session_bench', sub: 'user_bench', role: 'member'})
      .setProtectedHeader({alg: 'RS256', kid: 'k1'})
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(keys.privateKey);
    const client = new Client({name: 'bench-mcp', version: '1.0.0'});
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/${MCP_PATH}`), {requestInit: {headers: {Authorization: `Bearer ${token}`}}}),
    );
    const rssBefore = process.memoryUsage().rss;
    let started = performance.now();
    await client.callTool({name: 'search_docs', arguments: {query: 'gateway'}});
    const firstMs = performance.now() - started;
    global.gc?.();
    const rssAfter = process.memoryUsage().rss;
    const random = randomSequence(7);
    const word = () => VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string;
    const timings: number[] = [];
    for (let index = 0; index < QUERIES; index += 1) {
      const query = index % 2 === 0 ? word() : `${word()} ${word()}`;
      started = performance.now();
      await client.callTool({name: 'search_docs', arguments: {query, limit: 5}});
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    await client.close();
    await gate.close();
    // The index alone, in this process: what the endpoint adds on top is HTTP, JSON-RPC and a server per request.
    const read = (name: string) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as unknown;
    const site = await loadSite(dir, read('access-manifest.json') as AccessManifest, read(FILE_INDEX_FILE) as FileIndex);
    const heapBefore = heapUsed();
    const search = createReaderSearch(createReaderFiles(site, createFileBodies({cacheBytes: 0})));
    const member = {roles: ['member'], permissions: []};
    await search.search('members', member, 'gateway', 5);
    const heapMembers = heapUsed();
    // A second reader set (signed out: the public half of the pages).
    await search.search('public', null, 'gateway', 5);
    const heapBoth = heapUsed();
    const indexTimings: number[] = [];
    for (let index = 0; index < QUERIES; index += 1) {
      const query = index % 2 === 0 ? word() : `${word()} ${word()}`;
      started = performance.now();
      await search.search('members', member, query, 5);
      indexTimings.push(performance.now() - started);
    }
    indexTimings.sort((a, b) => a - b);
    const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
    const heap = (bytes: number) => (heapMeasured ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : 'n/a (run with --expose-gc)');
    console.log(
      `| Pages | First call (builds the member's index) | search_docs p50 / p95 (SDK client, HTTP) | the index alone p50 / p95 | RSS before → after the index | Heap: the members' set | Heap: + the public set |`,
    );
    console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
    console.log(
      `| ${PAGES.toLocaleString('en')} | ${firstMs.toFixed(0)} ms | ${percentile(timings, 50).toFixed(1)} / ${percentile(timings, 95).toFixed(1)} ms | ${percentile(indexTimings, 50).toFixed(1)} / ${percentile(indexTimings, 95).toFixed(1)} ms | ${mib(rssBefore)} → ${mib(rssAfter)} | ${heap(heapMembers - heapBefore)} | ${heap(heapBoth - heapMembers)} |`,
    );
    // Keeps the index alive until the heap is measured.
    void search.cachedKeys();
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
