import type {ReactNode} from 'react';
import BaseUrlIssueBanner from '@site/src/components/BaseUrlIssueBanner';

/**
 * Root wraps the whole app once, above the layout, and survives navigation.
 * (Swizzled by wrapping: there is no stock Root to eject.)
 */
export default function Root({children}: {children: ReactNode}): ReactNode {
  return (
    <>
      <BaseUrlIssueBanner />
      {children}
    </>
  );
}
