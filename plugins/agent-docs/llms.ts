/**
 * Reader sets → `llms.txt` and `llms-full.txt` (llmstxt.org): the site's
 * title, its summary, then one `## section` per sidebar category in sidebar
 * order listing each page of the set as `- [Title](<.md URL>): description`;
 * the full file is every listed page's Markdown, in the same order.
 *
 * A page outside the set is left out of both, and a section left empty is
 * left out: a reader's files list exactly the pages they may read.
 */
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import {markdownPathFor} from '../../src/auth/access/agentDocs';

type SidebarItem = LoadedContent['loadedVersions'][number]['sidebars'][string][number];

/** What the llms files say of a page. */
export interface ListedPage {
  route: string;
  title: string;
  description?: string;
  /** The page's Markdown file (./markdown.ts), already written. */
  markdown: string;
}

export interface Section {
  title: string;
  /** Routes, in sidebar order. */
  routes: string[];
}

/** Sections for pages in no sidebar category (top-level sidebar docs, docs in no sidebar). */
const TOP_LEVEL_SECTION = 'Docs';
const UNLISTED_SECTION = 'Other pages';

/**
 * The sidebars' categories as sections, in sidebar order: a top-level
 * category is a section, and everything under it (sub-categories too) is
 * listed in it, the category's own linked doc first. Docs in no category
 * come in a "Docs" section, docs in no sidebar at all in "Other pages".
 */
export function sidebarSections(
  sidebars: LoadedContent['loadedVersions'][number]['sidebars'],
  permalinkOfDoc: Map<string, string>,
): Section[] {
  const sections: Section[] = [];
  const topLevel: Section = {title: TOP_LEVEL_SECTION, routes: []};
  const seen = new Set<string>();

  function docRoutes(items: SidebarItem[]): string[] {
    return items.flatMap((item) => {
      if (item.type === 'doc' || item.type === 'ref') {
        return [permalinkOfDoc.get(item.id) ?? []].flat();
      }
      if (item.type === 'category') {
        const linked = item.link?.type === 'doc' ? [permalinkOfDoc.get(item.link.id) ?? []].flat() : [];
        return [...linked, ...docRoutes(item.items)];
      }
      return [];
    });
  }

  for (const sidebar of Object.values(sidebars)) {
    for (const item of sidebar) {
      if (item.type === 'category') {
        sections.push({title: item.label, routes: docRoutes([item])});
      } else {
        topLevel.routes.push(...docRoutes([item]));
      }
    }
  }
  const all = [topLevel, ...sections].map((section) => ({
    ...section,
    // A doc in two places is listed once, where it first appears.
    routes: section.routes.filter((route) => !seen.has(route) && seen.add(route)),
  }));
  const unlisted = [...permalinkOfDoc.values()].filter((route) => !seen.has(route));
  return [...all, {title: UNLISTED_SECTION, routes: unlisted}].filter((section) => section.routes.length > 0);
}

/** The index and the full file for one reader set (`routes`): only its pages, in sidebar order. */
export function llmsFiles({
  siteTitle,
  summary,
  sections,
  pages,
  routes,
}: {
  siteTitle: string;
  summary: string;
  sections: Section[];
  pages: Map<string, ListedPage>;
  routes: readonly string[];
}): {index: string; full: string} {
  const readable = new Set(routes);
  const head = `# ${siteTitle}\n\n> ${summary}\n`;
  const listed = sections
    .map((section) => ({
      title: section.title,
      pages: section.routes.filter((route) => readable.has(route)).map((route) => pageOf(pages, route)),
    }))
    .filter((section) => section.pages.length > 0);
  const index = [
    head,
    ...listed.map(
      (section) =>
        `## ${section.title}\n\n${section.pages
          .map((page) => `- [${page.title}](${markdownPathFor(page.route)})${page.description ? `: ${page.description}` : ''}`)
          .join('\n')}\n`,
    ),
  ].join('\n');
  const full = [head, ...listed.flatMap((section) => section.pages.map((page) => page.markdown))].join('\n');
  return {index, full};
}

function pageOf(pages: Map<string, ListedPage>, route: string): ListedPage {
  const page = pages.get(route);
  if (!page) {
    throw new Error(`agent-docs: ${route} is in a reader set but no Markdown was written for it`);
  }
  return page;
}
