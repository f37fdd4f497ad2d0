/**
 * Passes a restricted page's source through unchanged and marks its module
 * as never cached. The two audience builds share the bundler's persistent
 * cache, which keys compiled modules by file content; a restricted page is
 * the one module whose compiled form depends on the audience instead
 * (plugins/access/plugin.ts withholds it from the public build), so it is
 * compiled afresh in every build.
 */
module.exports = function uncacheableLoader(source, sourceMap) {
  this.cacheable(false);
  this.callback(null, source, sourceMap);
};
