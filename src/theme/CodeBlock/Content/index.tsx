// Wrapped swizzle: the stock highlighted lines, kept from the server's HTML
// when the page hydrates (src/components/CodeBlock says why).
export {default} from '@site/src/components/CodeBlock/ServerHighlightedContent';
