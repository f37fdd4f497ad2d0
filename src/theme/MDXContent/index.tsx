import type {ComponentProps, ReactNode} from 'react';
import Head from '@docusaurus/Head';
import useRouteContext from '@docusaurus/useRouteContext';
import {useDoc} from '@docusaurus/plugin-content-docs/client';
import MDXContent from '@theme-original/MDXContent';
import {markdownPathFor} from '@site/src/auth/access/agentDocs';
import CopyPage from '@site/src/components/CopyPage';

/** The docs plugin's name in the route context (blog posts and MDX pages render MDXContent too). */
const DOCS_PLUGIN_NAME = 'docusaurus-plugin-content-docs';

/** A doc page's Markdown: the alternate link agents look for, and the copy controls at the top of the doc. */
function DocMarkdownActions(): ReactNode {
  const {metadata} = useDoc();
  const markdownUrl = markdownPathFor(metadata.permalink);
  return (
    <>
      <Head>
        <link rel="alternate" type="text/markdown" href={markdownUrl} />
      </Head>
      <CopyPage markdownUrl={markdownUrl} />
    </>
  );
}

/**
 * Wrapped swizzle (MDXContent is safe to wrap): every doc page gets its
 * Markdown's `<link rel="alternate">` and "Copy page" / "View as Markdown"
 * above its content (issue 30). The breadcrumbs and DocItem/Content would be
 * nearer the title but are not safe to swizzle; this sits under a synthetic
 * title and above a title written in the Markdown.
 */
export default function MDXContentWrapper(props: ComponentProps<typeof MDXContent>): ReactNode {
  const {plugin} = useRouteContext();
  return (
    <>
      {plugin.name === DOCS_PLUGIN_NAME && <DocMarkdownActions />}
      <MDXContent {...props} />
    </>
  );
}
