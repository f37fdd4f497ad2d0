/**
 * Docusaurus's `routesChunkNames.json` (in the generated files) keys each
 * route's chunks by its path plus a short hash: "/docs/x-a3c". One reading
 * of that key, as Docusaurus's own prefetching reads it, for every plugin
 * that needs a route's chunks.
 */
export function routePathOfChunkKey(key: string): string {
  return key.replace(/-[^-]+$/, '');
}
