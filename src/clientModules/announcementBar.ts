/**
 * Makes a new announcement show on the first page load after its id changes.
 *
 * Docusaurus hides a dismissed bar before React starts with an inline script
 * that sets `data-announcement-bar-initially-dismissed` from the stored
 * dismissal alone. When the id changes, React resets the dismissal, but the
 * attribute (and its `display: none` rule) stays for that page load, so the
 * new announcement only appears on the next one. A client module runs before
 * hydration: if the stored id is not the current one, clear the attribute.
 */
import siteConfig from '@generated/docusaurus.config';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

const ID_KEY = 'docusaurus.announcement.id';

function readStoredId(): string | null {
  try {
    return window.localStorage.getItem(ID_KEY);
  } catch {
    return null;
  }
}

if (ExecutionEnvironment.canUseDOM) {
  const announcement = (siteConfig.themeConfig as {announcementBar?: {id: string}}).announcementBar;
  if (announcement && readStoredId() !== announcement.id) {
    document.documentElement.setAttribute('data-announcement-bar-initially-dismissed', 'false');
  }
}
