/**
 * Swizzled (ejected, 10 lines): theme-classic's DocSidebar renders the
 * desktop sidebar on the server and, once the browser reports a narrow
 * window, unmounts it and mounts the mobile menu's copy instead: a
 * synchronous re-render right after hydration on every phone. Here the
 * desktop sidebar stays (its container is `display: none` below 997 px, so
 * it costs no layout), and the mobile menu's filler is always mounted: it
 * renders nothing, it hands the menu its content, which the menu renders
 * from its first opening (src/theme/Navbar/MobileSidebar).
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
