/**
 * Static rendering runs in Node, where `window` does not exist: the sign-in
 * layer must render its loading state there without touching the browser.
 */
import {renderToString} from 'react-dom/server';
import Root from '../../src/theme/Root';
import AuthNavbarItem from '../../src/auth/components/AuthNavbarItem';

describe('server rendering', () => {
  it('renders Root with the navbar item and the page content, in its loading state, without window', () => {
    expect(typeof window).toBe('undefined');
    const html = renderToString(
      <Root>
        <nav>
          <AuthNavbarItem />
        </nav>
        <main>
          <h1>API Gateway</h1>
        </main>
      </Root>,
    );
    expect(html).toContain('<h1>API Gateway</h1>');
    expect(html).toContain('Checking your session');
    expect(html).toContain('aria-busy="true"');
  });
});
