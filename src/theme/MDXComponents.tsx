import MDXComponents from '@theme-original/MDXComponents';
import ScrollableTable from '@site/src/components/ScrollableTable';

// Wrapped swizzle: stock MDX components, with Markdown tables rendered in a
// focusable scroll region so wide tables stay usable from the keyboard.
export default {
  ...MDXComponents,
  table: ScrollableTable,
};
