import {useEffect} from 'react';

/** Marks the document while someone is signed in: CSS then drops the sidebar locks of pages that only need sign-in. */
export function useSignedInMarker(signedIn: boolean): void {
  useEffect(() => {
    document.documentElement.toggleAttribute('data-portal-signed-in', signedIn);
  }, [signedIn]);
}
