/**
 * "Copy page" and "View as Markdown" (src/components/CopyPage, issue 30): the
 * button fetches the page's Markdown at click time and copies it, says so to
 * screen readers, and never fails silently; the doc wrapper
 * (src/theme/MDXContent) puts them and the Markdown's alternate link on doc
 * pages only.
 */
import {act, fireEvent, render, screen, waitFor} from '@testing-library/react';
import {http, HttpResponse} from 'msw';
import {setupServer} from 'msw/node';
import CopyPage, {STATUS_RESET_MS} from '../../src/components/CopyPage';
import MDXContentWrapper from '../../src/theme/MDXContent';
import {setDocPermalink} from '../support/docusaurus/docsClient';

let routePluginName = 'docusaurus-plugin-content-docs';
jest.mock('@docusaurus/useRouteContext', () => ({__esModule: true, default: () => ({plugin: {name: routePluginName, id: 'default'}})}), {
  virtual: true,
});
jest.mock(
  '@theme-original/MDXContent',
  () => ({__esModule: true, default: ({children}: {children?: unknown}) => <div data-testid="mdx">{children as never}</div>}),
  {virtual: true},
);

const PAGE_MARKDOWN = '# API Gateway\n\nThe gateway listens on port `3000`.\n';
const MARKDOWN_URL = '/docs/services/api-gateway.md';

const server = setupServer(
  http.get(`http://localhost${MARKDOWN_URL}`, () =>
    HttpResponse.text(PAGE_MARKDOWN, {headers: {'content-type': 'text/markdown; charset=utf-8'}}),
  ),
);
beforeAll(() => server.listen({onUnhandledRequest: 'error'}));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

type ClipboardDouble = {writeText?: jest.Mock; write?: jest.Mock};

function setClipboard(clipboard: ClipboardDouble | undefined): void {
  Object.defineProperty(navigator, 'clipboard', {value: clipboard, configurable: true});
}

afterEach(() => {
  setClipboard(undefined);
  delete (globalThis as {ClipboardItem?: unknown}).ClipboardItem;
  jest.useRealTimers();
});

const copyButton = () => screen.getByRole('button', {name: 'Copy page as Markdown'});

/** Waits until the status region (the live region screen readers announce) says `text`. */
async function statusSays(text: string | RegExp): Promise<void> {
  await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(text));
}

describe('Copy page', () => {
  it('copies the Markdown fetched from the page’s .md, with the reader’s cookies, and announces "Copied"', async () => {
    const requests: Request[] = [];
    server.events.on('request:start', ({request}) => {
      requests.push(request.clone());
    });
    const writeText = jest.fn().mockResolvedValue(undefined);
    setClipboard({writeText});
    render(<CopyPage markdownUrl={MARKDOWN_URL} />);

    fireEvent.click(copyButton());

    await statusSays('Copied');
    expect(writeText).toHaveBeenCalledWith(PAGE_MARKDOWN);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.credentials).toBe('same-origin');
    expect(copyButton()).toBeInTheDocument();
    server.events.removeAllListeners();
  });

  it('writes a ClipboardItem whose text is the fetched Markdown where the browser has ClipboardItem', async () => {
    class ClipboardItemDouble {
      constructor(readonly items: Record<string, Promise<Blob>>) {}
    }
    (globalThis as {ClipboardItem?: unknown}).ClipboardItem = ClipboardItemDouble;
    const written: string[] = [];
    const write = jest.fn(async (items: ClipboardItemDouble[]) => {
      written.push(await (await (items[0] as ClipboardItemDouble).items['text/plain'])!.text());
    });
    const writeText = jest.fn();
    setClipboard({write, writeText});
    render(<CopyPage markdownUrl={MARKDOWN_URL} />);

    fireEvent.click(copyButton());

    await statusSays('Copied');
    expect(written).toEqual([PAGE_MARKDOWN]);
    expect(writeText).not.toHaveBeenCalled();
  });

  it('clears "Copied" after a few seconds', async () => {
    jest.useFakeTimers();
    setClipboard({writeText: jest.fn().mockResolvedValue(undefined)});
    render(<CopyPage markdownUrl={MARKDOWN_URL} />);

    fireEvent.click(copyButton());
    await statusSays('Copied');
    act(() => {
      jest.advanceTimersByTime(STATUS_RESET_MS);
    });

    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it.each([
    ['refuses', {writeText: jest.fn().mockRejectedValue(new DOMException('Write permission denied.', 'NotAllowedError'))}],
    ['is missing', undefined],
  ])(
    'when the clipboard %s, shows the Markdown selected in a box to copy by hand; Escape closes it onto the button',
    async (_, clipboard) => {
      setClipboard(clipboard);
      render(<CopyPage markdownUrl={MARKDOWN_URL} />);
      copyButton().focus();

      fireEvent.click(copyButton());

      const box = await screen.findByRole<HTMLTextAreaElement>('textbox', {name: 'This page as Markdown'});
      expect(box.value).toBe(PAGE_MARKDOWN);
      expect(box).toHaveFocus();
      expect(box.value.slice(box.selectionStart, box.selectionEnd)).toBe(PAGE_MARKDOWN);
      expect(box).toHaveAttribute('readonly');
      expect(screen.getByRole('dialog', {name: 'The clipboard is not available here'})).toHaveAccessibleDescription(
        /press (Ctrl\+C|⌘C) to copy/,
      );

      fireEvent.keyDown(box, {key: 'Escape'});

      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(copyButton()).toHaveFocus();
    },
  );

  it('the fallback’s Close button also returns focus to "Copy page"', async () => {
    setClipboard(undefined);
    render(<CopyPage markdownUrl={MARKDOWN_URL} />);
    fireEvent.click(copyButton());
    await screen.findByRole('dialog');

    fireEvent.click(screen.getByRole('button', {name: 'Close'}));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(copyButton()).toHaveFocus();
  });

  it.each([
    ['a 404', () => new HttpResponse('Not found', {status: 404, headers: {'content-type': 'text/plain'}})],
    ['a 500', () => new HttpResponse('Oops', {status: 500})],
    ['a network error', () => HttpResponse.error()],
    ['an HTML page', () => HttpResponse.html('<!doctype html><title>Page Not Found</title>')],
  ])('on %s, says the Markdown could not be loaded and points to "View as Markdown", copying nothing', async (_, answer) => {
    server.use(http.get(`http://localhost${MARKDOWN_URL}`, answer));
    const writeText = jest.fn().mockResolvedValue(undefined);
    setClipboard({writeText});
    render(<CopyPage markdownUrl={MARKDOWN_URL} />);

    fireEvent.click(copyButton());

    await statusSays(/Could not load this page’s Markdown\. Open it with “View as Markdown”/);
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('link', {name: 'View as Markdown'})).toHaveAttribute('href', MARKDOWN_URL);
  });

  it('a fetch that fails is reported, not copied, where the browser has ClipboardItem too', async () => {
    server.use(http.get(`http://localhost${MARKDOWN_URL}`, () => new HttpResponse(null, {status: 404})));
    (globalThis as {ClipboardItem?: unknown}).ClipboardItem = class {
      constructor(readonly items: Record<string, Promise<Blob>>) {}
    };
    const write = jest.fn(async (items: {items: Record<string, Promise<Blob>>}[]) => {
      await items[0]!.items['text/plain'];
    });
    setClipboard({write, writeText: jest.fn()});
    render(<CopyPage markdownUrl={MARKDOWN_URL} />);

    fireEvent.click(copyButton());

    await statusSays(/Could not load this page’s Markdown/);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('the doc wrapper', () => {
  afterEach(() => {
    routePluginName = 'docusaurus-plugin-content-docs';
  });

  it('gives a doc page the alternate link to its Markdown and the two controls, above the content', () => {
    setDocPermalink('/portal/docs/services/api-gateway');
    render(<MDXContentWrapper>page text</MDXContentWrapper>);

    // React hoists a <link> into the document's head.
    const alternate = document.head.querySelector('link[rel="alternate"][type="text/markdown"]');
    expect(alternate).toHaveAttribute('href', '/portal/docs/services/api-gateway.md');
    expect(screen.getByRole('link', {name: 'View as Markdown'})).toHaveAttribute('href', '/portal/docs/services/api-gateway.md');
    expect(copyButton().compareDocumentPosition(screen.getByTestId('mdx')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a folder’s index page links its index.md', () => {
    setDocPermalink('/docs/');
    render(<MDXContentWrapper>page text</MDXContentWrapper>);
    expect(screen.getByRole('link', {name: 'View as Markdown'})).toHaveAttribute('href', '/docs/index.md');
  });

  it('leaves blog posts and MDX pages as they are', () => {
    routePluginName = 'docusaurus-plugin-content-pages';
    render(<MDXContentWrapper>page text</MDXContentWrapper>);
    expect(screen.getByTestId('mdx')).toHaveTextContent('page text');
    expect(screen.queryByRole('button', {name: 'Copy page as Markdown'})).not.toBeInTheDocument();
    expect(screen.queryByTestId('head')).not.toBeInTheDocument();
  });
});
