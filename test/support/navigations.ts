/**
 * Cross-document navigations the page asked for (`location.assign`, a
 * reload as `reload <url>`), recorded by test/support/navigation-environment.js
 * because jsdom cannot leave the document.
 */
export function navigations(): string[] {
  return (window as unknown as {__navigations: string[]}).__navigations;
}
