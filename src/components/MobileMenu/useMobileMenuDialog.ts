import {useEffect, useRef} from 'react';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';

/** The stock menu's elements (theme-classic Navbar/MobileSidebar), by their stable class names. */
const PANEL = '.navbar-sidebar';
const TOGGLE = '.navbar__toggle';
const CLOSE = '.navbar-sidebar__close';
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** The panel's elements a keyboard can reach now (not inside an `inert` sub-panel, not hidden). */
function reachable(panel: Element): HTMLElement[] {
  return Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.closest('[inert]') && element.getClientRects().length > 0,
  );
}

/**
 * The open mobile menu behaves as a modal dialog for the keyboard, which the
 * stock menu does not: focus moves into it when it opens, Tab and Shift+Tab
 * stay inside it (the page behind is covered), and Escape closes it and puts
 * focus back on the menu button. Closing it with its close button also
 * returns focus to the menu button; following a link leaves focus to
 * Docusaurus, which moves it to the top of the new page.
 */
export function useMobileMenuDialog(): void {
  const {shown, toggle} = useNavbarMobileSidebar();
  const toggleRef = useRef(toggle);
  useEffect(() => {
    toggleRef.current = toggle;
  }, [toggle]);

  useEffect(() => {
    if (!shown) {
      return;
    }
    const panel = document.querySelector(PANEL);
    if (!panel) {
      return;
    }
    // Once closing, focus may leave the panel (for the menu button).
    let closing = false;
    const focusMenuButton = () => {
      closing = true;
      document.querySelector<HTMLElement>(TOGGLE)?.focus();
    };
    // After the commit that showed the panel (it is visible from then on).
    const frame = requestAnimationFrame(() => (panel.querySelector<HTMLElement>(CLOSE) ?? reachable(panel)[0])?.focus());

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        toggleRef.current();
        focusMenuButton();
      }
    };
    // Focus that leaves the panel (Tab past its last element, Shift+Tab
    // before its first) wraps around to its other end.
    const onFocusIn = (event: FocusEvent) => {
      if (closing || !(event.target instanceof Node) || panel.contains(event.target)) {
        return;
      }
      const elements = reachable(panel);
      const cameFromFirst = event.relatedTarget instanceof Node && event.relatedTarget === elements[0];
      (cameFromFirst ? elements[elements.length - 1] : elements[0])?.focus();
    };
    // The close button closes the menu: focus goes back to the menu button.
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest(CLOSE)) {
        focusMenuButton();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    panel.addEventListener('click', onClick as EventListener);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
      panel.removeEventListener('click', onClick as EventListener);
    };
  }, [shown]);
}
