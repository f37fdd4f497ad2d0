import type {ReactNode} from 'react';

// Test double: renders head children in place so tests can inspect them.
export default function Head({children}: {children?: ReactNode}): ReactNode {
  return <div data-testid="head">{children}</div>;
}
