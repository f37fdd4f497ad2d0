/**
 * Which build a page belongs to, as one typed channel from the build to the
 * browser: the access plugin (plugins/access/plugin.ts) publishes it as its
 * global data, and src/theme/Root.tsx reads it with usePluginData. No
 * imports: the plugin runs in Node, Root in the browser.
 */

export type Audience = 'public' | 'members';

/** The access plugin's name, under which its global data is published. */
export const ACCESS_PLUGIN_NAME = 'portal-access';

/** The access plugin's global data. */
export interface AccessGlobalData {
  audience: Audience;
}
