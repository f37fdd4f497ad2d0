import MDXComponents from '@theme-original/MDXComponents';
import ScrollableTable from '@site/src/components/ScrollableTable';
import {IfAccess, SignedIn, SignedOut, UserField} from '@site/src/auth/components/Personalisation';
import RestrictedPage from '@site/src/auth/access/RestrictedPage';

// Wrapped swizzle: stock MDX components, with Markdown tables rendered in a
// focusable scroll region so wide tables stay usable from the keyboard, and
// the personalisation components (<SignedIn>, <SignedOut>, <IfAccess>,
// <UserField>) available in every doc without an import. RestrictedPage is
// the body the public build gives withheld pages (plugins/access/plugin.ts).
export default {
  ...MDXComponents,
  table: ScrollableTable,
  SignedIn,
  SignedOut,
  IfAccess,
  UserField,
  RestrictedPage,
};
