import {ACCESS_PLUGIN_NAME, type AccessGlobalData} from '../../../src/auth/access/audience';

// Test double: the global data the site's plugins publish (the public build's).
const pluginData: Record<string, unknown> = {[ACCESS_PLUGIN_NAME]: {audience: 'public'} satisfies AccessGlobalData};

export function usePluginData(name: string): unknown {
  return pluginData[name];
}

export default function useGlobalData(): Record<string, unknown> {
  return pluginData;
}
