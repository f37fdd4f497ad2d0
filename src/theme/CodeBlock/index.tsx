/**
 * Swizzled (ejected, 15 lines): theme-classic's CodeBlock renders every block
 * a second time once the browser takes over (`key={String(isBrowser)}`), to
 * swap the server's light-theme inline colours for dark ones. The colours are
 * from a stylesheet here (plugins/code-blocks/theme.ts), so the server's HTML is
 * already right and the second render, and its highlighting, go.
 */
import {Children, isValidElement, type ComponentProps, type ReactNode} from 'react';
import type OriginalCodeBlock from '@theme-original/CodeBlock';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';

type Props = ComponentProps<typeof OriginalCodeBlock>;

/** As the stock block: plain strings are joined so the code can be copied; anything else renders as it is. */
function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (Children.toArray(children).some((child) => isValidElement(child))) {
    return children;
  }
  return Array.isArray(children) ? children.join('') : children;
}

export default function CodeBlock({children: rawChildren, ...props}: Props): ReactNode {
  const children = maybeStringifyChildren(rawChildren);
  return typeof children === 'string' ? (
    <StringContent {...props}>{children}</StringContent>
  ) : (
    <ElementContent {...props}>{children}</ElementContent>
  );
}
