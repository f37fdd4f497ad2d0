// Test double for Docusaurus's context behind useIsBrowser (its module is
// shipped as JSX for the site bundler): true wherever there is a window.
import {createContext} from 'react';

export const Context = createContext(typeof window !== 'undefined');
