import {createHash} from 'node:crypto';
import {contentSecurityPolicy, inlineScriptHashes} from '../../scripts/security-headers';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('content security policy', () => {
  it('hashes each distinct inline script once, and skips external scripts and data blocks', () => {
    const pages = [
      '<script>setTheme()</script><script src=/assets/js/main.js defer></script><script type=application/ld+json>{"a":1}</script>',
      '<script data-rh=true>setTheme()</script><script>banner()</script>',
    ];
    expect(inlineScriptHashes(pages)).toEqual([sha('setTheme()'), sha('banner()')].sort());
  });

  it('allows scripts only from the site and the listed hashes, and connections only to the site and the provider', () => {
    const csp = contentSecurityPolicy(["'sha256-abc'"], 'https://auth.example.com');
    // 'wasm-unsafe-eval' lets search compile its WebAssembly, and nothing else: no eval, no inline scripts.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval' 'sha256-abc'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("connect-src 'self' https://auth.example.com");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
