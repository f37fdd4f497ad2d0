/**
 * The stock highlighted code (Prism), in its own chunk: the browser loads it
 * only to render a code block itself, after a client-side navigation. Pages
 * opened directly keep the server's highlighting (ServerHighlightedContent).
 *
 * theme-classic registers the extra Prism languages from a client module in
 * the first bundle; plugins/code-blocks takes that module out, so it runs here,
 * once, before the first highlight.
 */
import {Prism} from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';
import HighlightedContent from '@theme-original/CodeBlock/Content';

prismIncludeLanguages(Prism);

export default HighlightedContent;
