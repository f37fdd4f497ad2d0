import type {ComponentProps, ReactNode} from 'react';
import DocSidebarMobile from '@theme-original/DocSidebar/Mobile';
import {useMobileMenuOpened} from '@site/src/components/MobileMenu/useMobileMenuOpened';

type Props = ComponentProps<typeof DocSidebarMobile>;

/**
 * Wrapped swizzle: the docs sidebar's copy for the mobile menu, rendered from
 * the menu's first opening (see the hook for why).
 */
export default function DocSidebarMobileWrapper(props: Props): ReactNode {
  return useMobileMenuOpened() ? <DocSidebarMobile {...props} /> : null;
}
