import type {ReactNode} from 'react';
import MDXComponents from '@theme-original/MDXComponents';

// The reference has no sign-in, but renders the same docs: the portal's
// personalisation tags show what a signed-out reader sees, nothing more.
const nothing = (): ReactNode => null;
const children = ({children: content}: {children?: ReactNode}): ReactNode => content;

export default {
  ...MDXComponents,
  SignedIn: nothing,
  SignedOut: children,
  IfRole: nothing,
  UserField: nothing,
};
