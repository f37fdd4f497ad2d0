/**
 * Swizzled (ejected, 10 lines): theme-classic's DocSidebar renders the
 * desktop sidebar on the server and, once the browser reports a narrow
 * window, unmounts it and mounts the mobile menu's copy instead: a
 * synchronous re-render right after hydration on every phone. Here the
 * desktop sidebar stays (its container is `display: none` below 997 px, so
 * it costs no layout) and the mobile copy renders from the mobile menu's
 * first opening (src/theme/DocSidebar/Mobile).
 */
import type {ReactNode} from 'react';
import type {Props} from '@theme/DocSidebar';
import DocSidebarDesktop from '@theme/DocSidebar/Desktop';
import DocSidebarMobile from '@theme/DocSidebar/Mobile';

export default function DocSidebar(props: Props): ReactNode {
  return (
    <>
      <DocSidebarDesktop {...props} />
      <DocSidebarMobile {...props} />
    </>
  );
}
