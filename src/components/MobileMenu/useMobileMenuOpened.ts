import {useState} from 'react';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';

/**
 * True from the first time the reader opens the mobile menu.
 *
 * Docusaurus renders the closed mobile menu, with a second copy of the docs
 * sidebar, as soon as it learns after hydration that the window is narrow:
 * one synchronous render that nobody sees, measured at about 170 ms of main
 * thread at 4× CPU throttling on the long doc page (bench/README.md, Front-end performance).
 * The wrapper in src/theme/Navbar/MobileSidebar renders it on the first open
 * instead, and keeps it from then on. (The docs sidebar's filler, which only
 * hands the menu its content, stays mounted, so the first opening shows the
 * docs sidebar straight away, as every later one does.)
 */
export function useMobileMenuOpened(): boolean {
  const {shown} = useNavbarMobileSidebar();
  const [opened, setOpened] = useState(shown);
  if (shown && !opened) {
    // Set during render (React's documented pattern for state derived from
    // a change) so the menu appears in the same commit as the toggle.
    setOpened(true);
  }
  return opened || shown;
}
