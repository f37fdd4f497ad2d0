/**
 * Swizzled (ejected): theme-classic's DocSidebar renders the desktop sidebar
 * on the server and, once the browser reports a narrow window, unmounts it
 * and mounts the mobile menu's copy instead: a synchronous re-render right
 * after hydration on every phone. Here the desktop sidebar stays (its
 * container is `display: none` below 997 px, so it costs no layout), and the
 * docs content of the mobile menu is handed to the menu on load, as the
 * stock DocSidebar/Mobile does; the menu renders it from its first opening
 * (src/theme/Navbar/MobileSidebar).
 *
 * The hand-over passes the menu's props as one object (`{docs}`). Docusaurus's
 * NavbarSecondaryMenuFiller sorts its props' keys with `localeCompare`, and
 * the page's first `localeCompare` sets up the browser's collation data: a
 * task of 40 to 90 ms at 4× CPU throttling in every load (the long doc's
 * mobile TBT fell from 253 to 180 ms without it, medians of 8 runs). With
 * one key there is nothing to compare. Handing it over on the menu's first opening instead showed the
 * main menu for two frames, then slid to the docs.
 */
import {useMemo, type ReactNode} from 'react';
import {NavbarSecondaryMenuFiller, ThemeClassNames} from '@docusaurus/theme-common';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';
import type {Props} from '@theme/DocSidebar';
import DocSidebarDesktop from '@theme/DocSidebar/Desktop';
import DocSidebarItems from '@theme/DocSidebarItems';

interface MobileMenuProps {
  docs: Pick<Props, 'sidebar' | 'path'>;
}

/** The mobile menu's docs panel, as theme-classic's DocSidebar/Mobile renders it. */
function DocsMobileMenu({docs: {sidebar, path}}: MobileMenuProps): ReactNode {
  const mobileSidebar = useNavbarMobileSidebar();
  return (
    <ul className={`${ThemeClassNames.docs.docSidebarMenu} menu__list`}>
      <DocSidebarItems
        items={sidebar}
        activePath={path}
        onItemClick={(item) => {
          // Following a link closes the menu; a category without a page of its own only expands.
          if (item.type === 'link' || (item.type === 'category' && item.href)) {
            mobileSidebar.toggle();
          }
        }}
        level={1}
      />
    </ul>
  );
}

export default function DocSidebar(props: Props): ReactNode {
  const {sidebar, path} = props;
  const menuProps = useMemo<MobileMenuProps>(() => ({docs: {sidebar, path}}), [sidebar, path]);
  return (
    <>
      <DocSidebarDesktop {...props} />
      <NavbarSecondaryMenuFiller component={DocsMobileMenu} props={menuProps} />
    </>
  );
}
