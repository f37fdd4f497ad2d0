import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';
import AuthNavbarItem from '@site/src/auth/components/AuthNavbarItem';

// Wrapped swizzle: the stock item types plus ours. Navbar item types outside
// the stock set must start with "custom-" to pass config validation.
export default {
  ...ComponentTypes,
  'custom-auth': AuthNavbarItem,
};
