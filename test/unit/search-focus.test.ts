/**
 * The search box does not pull keyboard focus back once its index has loaded
 * (src/clientModules/searchFocus.ts): focus the reader did not ask for goes
 * back where they went; focus they ask for (a key, a click, a tap) stays.
 */
import {guardSearchFocus, INDEX_LOAD_WINDOW_MS} from '../../src/clientModules/searchFocus';

// As on the server: the module does not install its own guard; each test installs one with a clock it drives.
jest.mock('@docusaurus/ExecutionEnvironment', () => ({__esModule: true, default: {canUseDOM: false}}));

let clock = 0;
let remove: () => void;
let search: HTMLInputElement;
let signIn: HTMLButtonElement;

/** What the plugin does once its index has loaded: focus the box it remembers being focused. */
const pluginRefocuses = () => search.focus();
const press = (type: 'keydown' | 'pointerdown') =>
  document.dispatchEvent(type === 'keydown' ? new KeyboardEvent('keydown', {key: 'k', ctrlKey: true}) : new Event('pointerdown'));

beforeEach(() => {
  clock = 0;
  document.body.innerHTML = '<input class="navbar__search-input" aria-label="Search"><button>Sign in</button>';
  search = document.querySelector('input') as HTMLInputElement;
  signIn = document.querySelector('button') as HTMLButtonElement;
  remove = guardSearchFocus(document, () => clock);
});

afterEach(() => remove());

/** The reader tabs into the search box (its index starts loading), then on to Sign in. */
function tabThroughSearch() {
  press('keydown');
  search.focus();
  press('keydown');
  signIn.focus();
  expect(document.activeElement).toBe(signIn);
}

describe('search box focus while its index loads', () => {
  it('hands focus back to where the reader went when the box takes it unasked', () => {
    tabThroughSearch();
    clock += 1500;
    pluginRefocuses();
    expect(document.activeElement).toBe(signIn);
  });

  it('leaves alone a focus loss to nowhere, which is what moving the box in the page does', () => {
    press('pointerdown');
    search.focus();
    // The plugin's suggestions wrap the box once the index has loaded: it loses focus, then gets it back.
    const wrapper = document.createElement('span');
    search.replaceWith(wrapper);
    wrapper.appendChild(search);
    pluginRefocuses();
    expect(document.activeElement).toBe(search);
  });

  it('lets the reader come back with a key, a click or a tap', () => {
    for (const type of ['keydown', 'pointerdown'] as const) {
      tabThroughSearch();
      press(type);
      search.focus();
      expect([type, document.activeElement]).toEqual([type, search]);
    }
  });

  it('steps aside once, and after the window an index takes to load', () => {
    tabThroughSearch();
    pluginRefocuses();
    expect(document.activeElement).toBe(signIn);
    // Handed back once: focus that comes again without a press is no longer the plugin's doing.
    pluginRefocuses();
    expect(document.activeElement).toBe(search);

    tabThroughSearch();
    clock += INDEX_LOAD_WINDOW_MS + 1;
    pluginRefocuses();
    expect(document.activeElement).toBe(search);
  });

  it('does nothing once removed', () => {
    remove();
    tabThroughSearch();
    pluginRefocuses();
    expect(document.activeElement).toBe(search);
    remove = () => undefined;
  });
});
