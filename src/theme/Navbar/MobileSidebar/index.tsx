import type {ReactNode} from 'react';
import MobileSidebar from '@theme-original/Navbar/MobileSidebar';
import {useMobileMenuOpened} from '@site/src/components/MobileMenu/useMobileMenuOpened';
import {useMobileMenuDialog} from '@site/src/components/MobileMenu/useMobileMenuDialog';

/**
 * Wrapped swizzle: the stock mobile menu, rendered from its first opening, and
 * a modal dialog for the keyboard while open (see the hooks for why).
 */
export default function MobileSidebarWrapper(): ReactNode {
  const opened = useMobileMenuOpened();
  useMobileMenuDialog();
  return opened ? <MobileSidebar /> : null;
}
