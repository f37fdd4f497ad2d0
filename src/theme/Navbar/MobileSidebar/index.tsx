import type {ReactNode} from 'react';
import MobileSidebar from '@theme-original/Navbar/MobileSidebar';
import {useMobileMenuOpened} from '@site/src/components/MobileMenu/useMobileMenuOpened';

/** Wrapped swizzle: the stock mobile menu, rendered from its first opening (see the hook for why). */
export default function MobileSidebarWrapper(): ReactNode {
  return useMobileMenuOpened() ? <MobileSidebar /> : null;
}
