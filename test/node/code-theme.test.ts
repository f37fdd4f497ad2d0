/**
 * The code colours' stylesheet (plugins/code-blocks/theme.ts) gives every
 * token the colour prism-react-renderer would have given it inline, in both
 * colour modes, and Docusaurus's theme object carries none.
 */
import type {PrismTheme} from 'prism-react-renderer';
import {CODE_THEMES, stylesheetPrismTheme} from '../../plugins/code-blocks/theme';

/** What prism-react-renderer styles a token with (its themeToDict merge), or undefined. */
function inlineStyle(theme: PrismTheme, type: string, language: string): Record<string, unknown> | undefined {
  let style: Record<string, unknown> | undefined;
  for (const entry of theme.styles) {
    if (entry.types.includes(type) && (!entry.languages || entry.languages.includes(language as never))) {
      style = {...style, ...(entry.style as Record<string, unknown>)};
    }
  }
  return style;
}

/** The declarations the stylesheet applies to `.token.<type>` in `<pre class="prism-code language-…">` in one mode, in cascade order. */
function sheetStyle(css: string, mode: string, type: string, language: string): Record<string, string> | undefined {
  let style: Record<string, string> | undefined;
  for (const rule of css.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    const selectors = (rule[1] ?? '').split(',').map((selector) => selector.trim());
    const applies = selectors.some(
      (selector) =>
        selector === `[data-theme='${mode}'] .prism-code .token.${type}` ||
        selector === `[data-theme='${mode}'] .prism-code.language-${language} .token.${type}`,
    );
    if (!applies) {
      continue;
    }
    // Language rules are more specific: they win over general ones whatever their order.
    const specific = selectors.some((selector) => selector.includes('.language-'));
    for (const declaration of (rule[2] ?? '').split(';')) {
      const [property, value] = declaration.split(':').map((part) => part.trim());
      if (property && value) {
        const key = property.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
        if (specific || !style?.[`${key}!`]) {
          style = {...style, [key]: value, ...(specific ? {[`${key}!`]: 'language'} : {})};
        }
      }
    }
  }
  return style && Object.fromEntries(Object.entries(style).filter(([key]) => !key.endsWith('!')));
}

const {light, dark} = CODE_THEMES;
const {theme, css} = stylesheetPrismTheme(light, dark);

const types = [...new Set([...light.styles, ...dark.styles].flatMap((entry) => entry.types))];
const languages = ['bash', 'ts', 'markup'];

describe('stylesheet Prism theme', () => {
  it('leaves no token style to Docusaurus, and gives the block its plain colours through variables', () => {
    expect(theme.styles).toEqual([]);
    expect(theme.plain).toEqual({color: 'var(--portal-code-color)', backgroundColor: 'var(--portal-code-background)'});
    expect(css).toContain(
      `[data-theme='light'] {\n  --portal-code-color: ${light.plain.color};\n  --portal-code-background: ${light.plain.backgroundColor};`,
    );
    expect(css).toContain(
      `[data-theme='dark'] {\n  --portal-code-color: ${dark.plain.color};\n  --portal-code-background: ${dark.plain.backgroundColor};`,
    );
  });

  it.each(
    (['light', 'dark'] as const).flatMap((mode) => types.flatMap((type) => languages.map((language) => [mode, type, language] as const))),
  )('%s mode colours a %s token in %s as the inline theme would', (mode, type, language) => {
    const original = inlineStyle(mode === 'light' ? light : dark, type, language);
    const expected = original && Object.fromEntries(Object.entries(original).map(([key, value]) => [key, String(value)]));
    expect(sheetStyle(css, mode, type, language)).toEqual(expected);
  });

  it('refuses a type or language name that would change the stylesheet', () => {
    const hostile = {plain: {}, styles: [{types: ['x} body{display:none'], style: {color: 'red'}}]} as PrismTheme;
    expect(() => stylesheetPrismTheme(hostile, dark)).toThrow(/not a token type/);
  });
});
