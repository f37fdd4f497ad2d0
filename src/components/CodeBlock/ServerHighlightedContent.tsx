/**
 * A code block's highlighted lines: the server's HTML, kept as it is when the
 * page hydrates, or highlighted in the browser when the block is rendered
 * there (after a client-side navigation).
 *
 * Highlighting is the largest piece of main-thread work on a page with code:
 * evaluating Prism and its languages (about 240 ms at 4× CPU throttling) and
 * tokenising every block again only to produce the HTML the server already
 * sent. The colours come from a stylesheet (plugins/code-blocks/theme.ts), so the
 * server's HTML is right in both colour modes and never needs a re-render.
 * The copy and wrap buttons are React as before; they read the code from the
 * block's context and the `<pre>` through the wrap hook's ref.
 *
 * Blocks the theme mounts again right after hydration (Tabs remount their
 * content once the browser takes over) reuse the HTML their hydrated
 * predecessor held, kept in `renderedBlocks`.
 */
import {Suspense, useLayoutEffect, useRef, useState, type ComponentProps, type ReactNode, type RefObject} from 'react';
import ErrorBoundary from '@docusaurus/ErrorBoundary';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useCodeBlockContext, type CodeBlockMetadata} from '@docusaurus/theme-common/internal';
import type HighlightedContentType from '@theme-original/CodeBlock/Content';
import HighlightedContent from './LazyHighlightedContent';
import {attachCodeBlock} from './useCodeWordWrap';
import styles from './styles.module.css';

type Props = ComponentProps<typeof HighlightedContentType>;

/** Highlighted HTML the page already holds, by what it depends on. Only ever filled from this page's own DOM. */
const renderedBlocks = new Map<string, string>();

/** Everything the highlighted lines depend on: the same key means the same HTML. */
function blockKey(metadata: CodeBlockMetadata): string {
  return JSON.stringify([metadata.language, metadata.code, metadata.lineClassNames, metadata.lineNumbersStart ?? null]);
}

/** React leaves an element's server HTML alone when it hydrates one with an unchanged `__html`. */
const KEEP_SERVER_HTML = {__html: ''};

const plainClassName = (metadata: Pick<CodeBlockMetadata, 'language'>) =>
  `prism-code language-${metadata.language ?? 'text'} ${styles.plain}`;

/** PlainLines as DOM, for the moment before React renders the block itself. */
function plainLinesElement(metadata: PlainText): HTMLPreElement {
  const pre = document.createElement('pre');
  pre.className = plainClassName(metadata);
  pre.tabIndex = 0;
  pre.appendChild(document.createElement('code')).textContent = metadata.code;
  return pre;
}

/** What a block shows for the moment the highlighter's chunk is still on its way. */
function PlainLines(): ReactNode {
  const {
    metadata,
    wordWrap: {codeBlockRef},
  } = useCodeBlockContext();
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- scrollable region, as in the stock block
    <pre ref={codeBlockRef} className={plainClassName(metadata)} tabIndex={0}>
      <code>{metadata.code}</code>
    </pre>
  );
}

/**
 * Points the wrap button's ref (which measures and toggles the `<pre>`) at
 * the block's HTML, and remembers that HTML under `rememberAs`. False when
 * the element holds no block.
 */
function adoptRenderedHtml(
  element: HTMLDivElement | null,
  codeBlockRef: RefObject<HTMLPreElement | null>,
  rememberAs: string | null,
): boolean {
  const pre = element?.querySelector('pre') ?? null;
  if (!element || !pre) {
    return false;
  }
  if (rememberAs !== null && !renderedBlocks.has(rememberAs)) {
    renderedBlocks.set(rememberAs, element.innerHTML);
  }
  attachCodeBlock(codeBlockRef, pre);
  return true;
}

/** Where a block's lines come from, decided when it mounts, for the lines it had then. */
type Source =
  | {kind: 'server'; key: string; plain: PlainText}
  | {kind: 'rendered'; key: string; plain: PlainText; html: {__html: string}}
  | {kind: 'highlight'};

type PlainText = Pick<CodeBlockMetadata, 'code' | 'language'>;

export default function ServerHighlightedContent(props: Props): ReactNode {
  const isBrowser = useIsBrowser();
  const {metadata, wordWrap} = useCodeBlockContext();
  const key = blockKey(metadata);
  // Decided once, when the block mounts: during hydration (the browser has
  // not taken over yet) the server's HTML is in the element.
  const [decided, setSource] = useState<Source>(() => {
    const plain = {code: metadata.code, language: metadata.language};
    if (!ExecutionEnvironment.canUseDOM) {
      return {kind: 'highlight'};
    }
    if (!isBrowser) {
      return {kind: 'server', key, plain};
    }
    const html = renderedBlocks.get(key);
    return html === undefined ? {kind: 'highlight'} : {kind: 'rendered', key, plain, html: {__html: html}};
  });
  // HTML kept for other lines never shows: a block whose code changed is highlighted.
  const source: Source = decided.kind !== 'highlight' && decided.key !== key ? {kind: 'highlight'} : decided;
  const element = useRef<HTMLDivElement>(null);

  const {codeBlockRef} = wordWrap;
  useLayoutEffect(() => {
    if (source.kind === 'highlight') {
      return;
    }
    if (adoptRenderedHtml(element.current, codeBlockRef, source.kind === 'server' ? source.key : null)) {
      return () => attachCodeBlock(codeBlockRef, null);
    }
    // React rendered this block in the browser instead of hydrating it: no
    // server HTML (`npm start` renders in the browser only, and React does
    // after a hydration error above the block). Show its plain lines now,
    // before the theme's effects measure the <pre>, and highlight it.
    if (element.current) {
      element.current.replaceChildren(plainLinesElement(source.plain));
      attachCodeBlock(codeBlockRef, element.current.querySelector('pre'));
    }
    setSource({kind: 'highlight'});
    // Once per source: the block re-renders when its wrap state changes, and
    // the HTML to remember is the server's, not a wrapped one.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `source` is derived from `decided` and `key`
  }, [decided, key, codeBlockRef]);

  switch (source.kind) {
    case 'server':
      return <div ref={element} className={styles.content} dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />;
    case 'rendered':
      return <div ref={element} className={styles.content} dangerouslySetInnerHTML={source.html} />;
    case 'highlight':
      return (
        <div ref={element} className={styles.content}>
          {ExecutionEnvironment.canUseDOM ? (
            // Without its chunk (offline, a deploy in between), a block stays plain instead of taking the page down.
            <ErrorBoundary fallback={() => <PlainLines />}>
              <Suspense fallback={<PlainLines />}>
                <HighlightedContent {...props} />
              </Suspense>
            </ErrorBoundary>
          ) : (
            // The server bundle has the module itself (no suspending) and no
            // boundary: React streams large pages' boundaries out of order,
            // through inline scripts the CSP would block.
            <HighlightedContent {...props} />
          )}
        </div>
      );
  }
}
