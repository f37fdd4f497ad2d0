/**
 * Docs for coding agents (issue 30), written after each audience build:
 *
 * - every doc page's Markdown next to its HTML, at
 *   `markdownFileFor(route)` (src/auth/access/agentDocs.ts), converted from
 *   the page's built article (./markdown.ts). In the public build a
 *   restricted page is its withheld placeholder, so its Markdown is the
 *   title and "sign in / you need …", never its text. The members build
 *   writes every page too: its public pages' Markdown is what its
 *   `llms-full.txt` concatenates, and a public page can render differently
 *   for members (a list of pages with their descriptions); the gate serves
 *   the public build's copy whenever the bytes are the same (server/decide.ts).
 *   A page whose article renders alike in both builds is converted once:
 *   the members build reuses the public build's Markdown (./reuse.ts);
 * - `llms.txt` and `llms-full.txt` (./llms.ts) for each reader set: the
 *   same sets as the search bundles (plugins/search: the build's root for
 *   its least-privileged reader, one folder per role variant in the members
 *   build), so a reader's search and their llms files hold the same pages.
 *
 * The access manifest lists each restricted page's Markdown with the page's
 * files by name (plugins/access/placement.ts), without waiting for this
 * plugin (Docusaurus runs the plugins' postBuild concurrently);
 * scripts/build.ts then stops the build if a file the manifest lists is
 * missing.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import {isRestricted} from '../../src/auth/access/rules';
import {LLMS_FULL_FILE, LLMS_INDEX_FILE, markdownFileFor, withheldMarkdownFileFor} from '../../src/auth/access/agentDocs';
import type {AccessPage, Audience} from '../access/manifest';
import {ROLE_RESTRICTED_DESCRIPTION} from '../access/plugin';
import type {SearchIndexVariant} from '../access/searchIndexes';
import {htmlOf, searchBundles} from '../search';
import {llmsFiles, sidebarSections, type ListedPage, type Section} from './llms';
import {articleOfBytes, mermaidDiagrams, pageMarkdown, withheldPageMarkdown} from './markdown';
import {conversionKey, readConversions, routesDigest, writeConversions, type Conversions} from './reuse';

export const AGENT_DOCS_PLUGIN_NAME = 'portal-agent-docs';

interface DocPage {
  route: string;
  /** The doc's source file, absolute. */
  source: string;
  title: string;
  /** Shown in the llms index (Docusaurus's: front matter, else the first paragraph). */
  description: string;
  /** Only a description the page sets itself starts its Markdown (else it would repeat the first paragraph). */
  ownDescription?: string;
}

function writeFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), {recursive: true});
  writeFileSync(file, text);
}

export function agentDocsPlugin({
  pages,
  audience,
  variants,
  reuseFile,
}: {
  pages: AccessPage[];
  audience: Audience;
  variants: SearchIndexVariant[];
  /** Where the public build leaves its conversions for the members build of the same run (./reuse.ts); none: every page is converted. */
  reuseFile?: string;
}) {
  return function agentDocs(context: LoadContext): Plugin {
    const {baseUrl, title: siteTitle, tagline} = context.siteConfig;
    let docs: DocPage[] = [];
    let sections: Section[] = [];
    return {
      name: AGENT_DOCS_PLUGIN_NAME,
      // The docs and the sidebars as the docs plugin loaded them, for the
      // titles, descriptions and sidebar order (no second reading of sidebars.ts).
      async allContentLoaded({allContent}) {
        const loaded = allContent['docusaurus-plugin-content-docs']?.default as LoadedContent | undefined;
        if (!loaded) {
          throw new Error('agent-docs: the docs plugin loaded no content');
        }
        const permalinkOfDoc = new Map<string, string>();
        docs = loaded.loadedVersions.flatMap((version) =>
          version.docs.map((doc) => {
            permalinkOfDoc.set(doc.id, doc.permalink);
            // A role page's description in the members build is the access plugin's stand-in, not the page's.
            const own = doc.frontMatter.description === ROLE_RESTRICTED_DESCRIPTION ? undefined : doc.frontMatter.description;
            return {
              route: doc.permalink,
              source: path.join(context.siteDir, doc.source.replace(/^@site\//, '')),
              title: doc.title,
              description: doc.description,
              ownDescription: own,
            };
          }),
        );
        sections = loaded.loadedVersions.flatMap((version) => sidebarSections(version.sidebars, permalinkOfDoc));
      },
      async postBuild({outDir}) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const listed = new Map<string, ListedPage>();
        const ruleOf = new Map(pages.map((page) => [page.route, page.rule]));
        const docRoutes = new Set(docs.map((doc) => doc.route));
        const docRoutesDigest = routesDigest(docRoutes);
        // The members build reuses what the public build converted; the public build keeps its own for it.
        const reused: Conversions = reuseFile && audience === 'members' ? readConversions(reuseFile) : new Map();
        const keptForMembers: Conversions = new Map();
        const keepForMembers = reuseFile !== undefined && audience === 'public';
        let reusedPages = 0;
        for (const doc of docs) {
          // The article is all the Markdown is made from (an article is its own page to pageMarkdown).
          const article = articleOfBytes(readFileSync(path.join(outDir, htmlOf(outDir, baseUrl, doc.route))));
          // A withheld page's source is never read: its Markdown is its placeholder's.
          const rule = ruleOf.get(doc.route);
          const shownInFull = audience === 'members' || (rule !== undefined && !isRestricted(rule));
          const diagrams = shownInFull ? mermaidDiagrams(readFileSync(doc.source, 'utf8')) : [];
          const key = conversionKey({
            route: doc.route,
            title: doc.title,
            description: doc.ownDescription,
            articleHtml: article,
            diagrams,
            docRoutesDigest,
          });
          let markdown = reused.get(key);
          if (markdown === undefined) {
            markdown = pageMarkdown({title: doc.title, description: doc.ownDescription, html: article, diagrams, docRoutes});
          } else {
            reusedPages++;
          }
          if (keepForMembers) {
            keptForMembers.set(key, markdown);
          }
          writeFile(path.join(outDir, markdownFileFor(doc.route, baseUrl)), markdown);
          // What a member without a role page's role gets for its Markdown (server/decide.ts).
          const withheld = audience === 'members' && rule?.kind === 'roles' ? withheldPageMarkdown({title: doc.title, rule}) : null;
          if (withheld !== null) {
            writeFile(path.join(outDir, withheldMarkdownFileFor(markdownFileFor(doc.route, baseUrl))), withheld);
          }
          listed.set(doc.route, {route: doc.route, title: doc.title, description: doc.description, markdown});
        }
        if (keepForMembers) {
          writeConversions(reuseFile, keptForMembers);
        }
        const readerSets = searchBundles(pages, audience, variants);
        for (const {dir, routes} of readerSets) {
          const {index, full} = llmsFiles({siteTitle, summary: tagline, sections, pages: listed, routes});
          writeFile(path.join(outDir, dir, LLMS_INDEX_FILE), index);
          writeFile(path.join(outDir, dir, LLMS_FULL_FILE), full);
        }
        // The operator's figure: what these outputs add to the build (bench/README.md). CPU time
        // too: other plugins' postBuild (the search indexing) runs at the same time.
        const cpu = process.cpuUsage(cpuBefore);
        console.log(
          `[agent-docs] ${audience}: ${docs.length} pages as Markdown (${reusedPages} reused from the public build), ` +
            `${readerSets.length} llms.txt pair(s) in ` +
            `${((performance.now() - started) / 1000).toFixed(2)} s (${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU)`,
        );
      },
    };
  };
}
