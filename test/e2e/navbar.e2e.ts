/**
 * The navbar at every width from a small phone to a desktop, signed out and
 * signed in: no control covers another (the element under each control's
 * centre is that control), each is at least 24×24 px, the brand keeps its
 * full title, and "Sign in" (or the user menu) stays in the navbar: as an
 * icon named "Sign in" (or the avatar) below the desktop breakpoint.
 */
import type {Locator, Page} from 'playwright-core';
import {browserSuite} from './support/suite';

jest.setTimeout(120_000);

const WIDTHS = [320, 360, 390, 768, 1000, 1280];
const MIN_TARGET = 24;

const suite = browserSuite();

interface HitTest {
  label: string;
  width: number;
  height: number;
  /** The element under the centre is the control itself, or inside it. */
  onTop: boolean;
}

async function hitTest(control: Locator): Promise<HitTest> {
  return control.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const label = (element.getAttribute('aria-label') ?? element.textContent ?? element.tagName).trim().slice(0, 40);
    return {label, width: box.width, height: box.height, onTop: under !== null && (under === element || element.contains(under))};
  });
}

/** Every visible link, button and field of the navbar bar itself (not its sidebar). */
async function navbarControls(page: Page): Promise<Locator[]> {
  const all = await page.locator('nav.navbar .navbar__inner').locator('a[href], button, input').all();
  const visible: Locator[] = [];
  for (const control of all) {
    if (await control.isVisible()) {
      visible.push(control);
    }
  }
  return visible;
}

async function expectUsable(control: Locator, where: string): Promise<void> {
  const {label, width, height, onTop} = await hitTest(control);
  // Compared as one object so a failure names the width, the control and what is wrong.
  expect({where, label, onTop, bigEnough: width >= MIN_TARGET && height >= MIN_TARGET}).toEqual({
    where,
    label,
    onTop: true,
    bigEnough: true,
  });
}

async function checkWidth(page: Page, width: number, signedIn: boolean): Promise<void> {
  await page.setViewportSize({width, height: 800});
  await page.reload({waitUntil: 'networkidle'});
  const where = `${width} px, ${signedIn ? 'signed in' : 'signed out'}`;

  const controls = await navbarControls(page);
  expect(controls.length).toBeGreaterThanOrEqual(3);
  for (const control of controls) {
    await expectUsable(control, where);
  }
  // No two controls share any pixel (a box can cover part of another and still miss its centre).
  const boxes = await Promise.all(
    controls.map(async (control) => ({label: (await hitTest(control)).label, box: await control.boundingBox()})),
  );
  const overlaps = boxes.flatMap((a, i) =>
    boxes
      .slice(i + 1)
      .filter(
        (b) =>
          a.box &&
          b.box &&
          a.box.x < b.box.x + b.box.width - 0.5 &&
          b.box.x < a.box.x + a.box.width - 0.5 &&
          a.box.y < b.box.y + b.box.height - 0.5 &&
          b.box.y < a.box.y + a.box.height - 0.5,
      )
      .map((b) => `${a.label} / ${b.label}`),
  );
  expect({where, overlaps}).toEqual({where, overlaps: []});

  // The brand: logo and the whole title, never cut to "Devel…".
  const title = page.locator('nav.navbar .navbar__inner .navbar__title');
  await expect(title.isVisible()).resolves.toBe(true);
  const clipped = await title.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
  expect({where, clipped}).toEqual({where, clipped: false});
  await expect(page.locator('nav.navbar .navbar__inner .navbar__logo').isVisible()).resolves.toBe(true);

  // Sign-in (an icon below the desktop breakpoint, named "Sign in") or the user menu: in the navbar at every width.
  const account = page.locator('nav.navbar .navbar__inner').getByRole('button', {name: signedIn ? /Devon Developer/ : 'Sign in'});
  await expectUsable(account, where);
}

describe('the navbar from 320 px to desktop', () => {
  it('signed out: nothing covers anything, the brand is whole, and Sign in is reachable', async () => {
    const page = await suite.open('/docs/');
    for (const width of WIDTHS) {
      await checkWidth(page, width, false);
    }
  });

  it('signed in: the same, with the user menu instead of Sign in', async () => {
    const page = await suite.open('/docs/');
    await suite.signIn(page, /Devon Developer/);
    await suite.userMenu(page, /Devon Developer/).waitFor();
    for (const width of WIDTHS) {
      await checkWidth(page, width, true);
    }
  });
});
