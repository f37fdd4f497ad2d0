import type {ReactNode} from 'react';

export default function BrowserOnly({children, fallback}: {children: () => ReactNode; fallback?: ReactNode}): ReactNode {
  return typeof window === 'undefined' ? (fallback ?? null) : children();
}
