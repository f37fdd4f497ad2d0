import {useContext} from 'react';
import {Context} from './browserContext';

// As the real hook: the value of Docusaurus's browser context.
export default function useIsBrowser(): boolean {
  return useContext(Context);
}
