import type {ComponentProps, ReactNode} from 'react';
import {PageMetadata} from '@docusaurus/theme-common';
import {translate} from '@docusaurus/Translate';
import NotFoundContent from '@theme-original/NotFound/Content';

/**
 * Wrapped swizzle: the not-found content names its page "Page Not Found"
 * wherever it renders. The docs plugin renders it alone for an unknown path
 * under /docs/ (theme-classic DocRoot, to avoid a second layout), without the
 * title the not-found page sets, so the tab lost it once the scripts ran.
 */
export default function NotFoundContentWrapper(props: ComponentProps<typeof NotFoundContent>): ReactNode {
  return (
    <>
      <PageMetadata title={translate({id: 'theme.NotFound.title', message: 'Page Not Found'})} />
      <NotFoundContent {...props} />
    </>
  );
}
