/**
 * The two steps behind "Copy page": fetch the page's Markdown as the reader
 * may read it, and put it on the clipboard. Kept apart from the component so
 * each failure has one name the component can word for the reader.
 */

/** The page's Markdown could not be had: the network failed, or the server did not answer with Markdown. */
export class MarkdownUnavailableError extends Error {
  constructor(
    message: string,
    /** The HTTP status, when there was an answer. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'MarkdownUnavailableError';
  }
}

/**
 * The Markdown at `markdownUrl`, fetched at click time from the same origin
 * with the reader's cookies: through the gate a member gets the full text of a
 * page restricted to members, a withheld reader the placeholder, so the text
 * is never built into the page. `no-cache` revalidates, so a reader who has
 * just signed in does not get the copy cached while signed out.
 */
export async function fetchMarkdown(markdownUrl: string): Promise<string> {
  let response: Response;
  try {
    // Resolved against the page, so it is this origin whatever fetch implementation runs it.
    response = await fetch(new URL(markdownUrl, window.location.href), {
      credentials: 'same-origin',
      cache: 'no-cache',
      headers: {Accept: 'text/markdown, text/plain'},
    });
  } catch {
    throw new MarkdownUnavailableError('network');
  }
  if (!response.ok) {
    throw new MarkdownUnavailableError(`HTTP ${response.status}`, response.status);
  }
  // A server that answers an unknown path with an HTML page (a not-found
  // page, or an app shell) must not put HTML on the reader's clipboard.
  if ((response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/html')) {
    throw new MarkdownUnavailableError('HTML instead of Markdown', response.status);
  }
  return response.text();
}

/** The clipboard refused the text, or there is no clipboard API here; the text itself was fetched. */
export class ClipboardRefusedError extends Error {
  constructor(readonly markdown: string) {
    super('clipboard refused');
    this.name = 'ClipboardRefusedError';
  }
}

/**
 * Fetches the Markdown and writes it to the clipboard. Where the browser has
 * `ClipboardItem`, the write starts at once with the fetch as a promise of its
 * content, so it runs within the click's user activation (Safari drops the
 * activation across an `await`); otherwise, or when that write fails, it falls
 * back to `writeText` once the text is there.
 *
 * Rejects with MarkdownUnavailableError when the fetch fails, with
 * ClipboardRefusedError (holding the text) when only the clipboard did.
 */
export async function copyMarkdown(markdownUrl: string): Promise<void> {
  const markdown = fetchMarkdown(markdownUrl);
  // Handled below in every branch; this keeps an early rejection from being reported as unhandled.
  markdown.catch(() => undefined);
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (clipboard && typeof clipboard.write === 'function' && typeof ClipboardItem === 'function') {
    try {
      const blob = markdown.then((text) => new Blob([text], {type: 'text/plain'}));
      await clipboard.write([new ClipboardItem({'text/plain': blob})]);
      return;
    } catch {
      // Fetch failure or refusal: told apart below, where the text is awaited.
    }
  }
  const text = await markdown;
  if (!clipboard || typeof clipboard.writeText !== 'function') {
    throw new ClipboardRefusedError(text);
  }
  try {
    await clipboard.writeText(text);
  } catch {
    throw new ClipboardRefusedError(text);
  }
}
