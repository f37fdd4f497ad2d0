import type {AnchorHTMLAttributes, ReactNode} from 'react';

// Test double: a plain anchor, like @docusaurus/Link renders for internal links.
export default function Link({to, href, ...rest}: AnchorHTMLAttributes<HTMLAnchorElement> & {to?: string}): ReactNode {
  return <a href={to ?? href} {...rest} />;
}
