// Browser tests of the page in a lecture hall and on a phone (issue 20,
// items 6–8): the camera frames the contacts and the legend never covers
// them, in presentation mode and out of it; Space presses a focused button;
// a "Skip to the view" link; and on a phone glyphs one can see, touch
// targets one can hit and Compare within reach. The page's
// `window.contactlabView.onScreen()` says where the last drawn frame put
// each contact (projected with the page's own camera). Run by
// `cargo xtask test` with the other browser tests; helpers in harness.mjs.
// Screenshots for a person go to target/trust-class/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, ROOT, browserForThisFile, openPage as open, screenshot, waitReady } from './harness.mjs';

const SHOTS = `${ROOT}target/trust-class/`;
const PROJECTOR = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

const browser = await browserForThisFile();

/** A phone: narrow, touch, three device pixels per CSS pixel. */
async function openPhone(hash) {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(new URL(hash, BASE_URL).href);
  return { page, context, problems };
}

/** Enters presentation mode with the toolbar's button and waits for the redrawn frame. */
async function present(page) {
  await page.click('#present');
  await page.waitForFunction(() => document.documentElement.classList.contains('presenting'));
  await settle(page);
}

/** Waits for the page to be idle and two more animation frames (a re-framed camera is drawn). */
async function settle(page, expected = {}) {
  await waitReady(page, expected);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await waitReady(page, expected);
}

/** The page's own account of where the last frame drew the contacts. */
async function onScreen(page) {
  const shown = await page.evaluate(() => /** @type {any} */ (window).contactlabView?.onScreen() ?? null);
  assert.ok(shown, 'the page exposes no window.contactlabView.onScreen()');
  return shown;
}

/** @returns {Promise<DOMRect>} */
function boxOf(page, selector) {
  return page.evaluate((selector) => document.querySelector(selector).getBoundingClientRect().toJSON(), selector);
}

/** The boxes of the overlays drawn over the view: the legend, the toolbar's buttons and the headline. */
function overlayBoxes(page) {
  return page.evaluate(() =>
    ['#legend', '.view-tools button', '#headline']
      .flatMap((selector) => [...document.querySelectorAll(selector)])
      .map((element) => ({ name: element.id || element.textContent.trim(), ...element.getBoundingClientRect().toJSON() }))
      .filter((box) => box.width > 0 && box.height > 0),
  );
}

const inside = (point, box, margin = 0) =>
  point.x >= box.left - margin && point.x <= box.right + margin && point.y >= box.top - margin && point.y <= box.bottom + margin;
const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Asserts that every contact is drawn inside the view and clear of the
 * legend, the toolbar and the headline; with `visible`, that no body hides it.
 */
async function assertContactsClear(page, name, { visible = false, corners = false } = {}) {
  const shown = await onScreen(page);
  const canvas = await boxOf(page, '#view');
  const overlays = await overlayBoxes(page);
  assert.ok(shown.contacts.length > 0, `${name}: no contacts drawn`);
  const radius = shown.glyph.diameter / 2;
  shown.contacts.forEach((contact, i) => {
    const at = `${name}: contact ${i} of ${shown.contacts.length} at (${contact.x.toFixed(0)}, ${contact.y.toFixed(0)})`;
    assert.ok(inside(contact, canvas, -radius), `${at} is outside the view ${JSON.stringify(canvas)}`);
    for (const box of overlays) assert.ok(!inside(contact, box, radius), `${at} is under "${box.name}" ${JSON.stringify(box)}`);
    if (visible) assert.ok(!contact.hidden, `${at} is hidden behind a body`);
  });
  if (corners) {
    // The scene's box, base and capital, is all in view.
    for (const corner of shown.corners) assert.ok(inside(corner, canvas, 1), `${name}: the scene's corner (${corner.x.toFixed(0)}, ${corner.y.toFixed(0)}) is cut off`);
  }
}

test('Present at 1280×720: the Pillar, base to capital, is in view and no overlay covers a contact', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await open(browser, '#scene=pillar', PROJECTOR);
  try {
    await waitReady(page, { scene: 'pillar' });
    await present(page);
    await assertContactsClear(page, 'Pillar, presenting', { corners: true });
    await screenshot(page, `${SHOTS}present-pillar-1280x720.png`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Spike in hole: the default camera shows every contact, unhidden, out of the legend, also in Present', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await open(browser, '#scene=spike-in-hole');
  try {
    await waitReady(page, { scene: 'spike-in-hole' });
    await settle(page);
    await assertContactsClear(page, 'Spike in hole', { visible: true });
    await screenshot(page, `${SHOTS}spike-in-hole.png`);
    await page.setViewportSize(PROJECTOR);
    await present(page);
    await assertContactsClear(page, 'Spike in hole, presenting', { visible: true, corners: true });
    await screenshot(page, `${SHOTS}present-spike-in-hole-1280x720.png`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('on a phone in Present, "Leave presentation" and the other tools keep clear of the legend and the contacts', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPhone('#scene=pillar');
  try {
    await waitReady(page, { scene: 'pillar' });
    await present(page);
    const legend = await boxOf(page, '#legend');
    const tools = await page.$$eval('.view-tools button', (buttons) => buttons.map((b) => ({ name: b.textContent.trim(), ...b.getBoundingClientRect().toJSON() })));
    for (const tool of tools) assert.ok(!overlap(tool, legend), `"${tool.name}" ${JSON.stringify(tool)} overlaps the legend ${JSON.stringify(legend)}`);
    await assertContactsClear(page, 'Pillar, phone, presenting', { corners: true });
    await screenshot(page, `${SHOTS}phone-present-pillar.png`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Space presses a focused button or box, and plays only elsewhere', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await open(browser, '#scene=pillar', PROJECTOR);
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    // Space on a focused Step button steps once: it must not start Play.
    const spaceOn = async (selector, step) => {
      await page.focus(selector);
      await page.keyboard.press(' ');
      // A step shows "playing" for a moment; Play would still be running a second later.
      await page.waitForTimeout(1500);
      const shown = await page.evaluate(() => ({ run: document.body.dataset.run, step: document.body.dataset.step }));
      assert.deepEqual(shown, { run: 'idle', step: String(step) }, `Space on the focused ${selector}`);
    };
    await spaceOn('#step-once', 4);
    await spaceOn('#view-step', 5);
    await page.focus('#copy-link');
    await page.keyboard.press(' ');
    await page.focus('#only-wrong');
    await page.keyboard.press(' ');
    assert.equal(await page.isChecked('#only-wrong'), true, 'Space did not tick the focused checkbox');
    await page.keyboard.press(' ');
    assert.equal(await page.isChecked('#only-wrong'), false, 'Space did not untick the focused checkbox');
    await page.waitForTimeout(1000);
    await settle(page, { step: 5 });
    // Elsewhere (the page itself, the 3D view) Space still plays and pauses.
    await page.focus('#view');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.body.dataset.run === 'playing');
    await page.keyboard.press(' ');
    await waitReady(page);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('"Skip to the view" is the first Tab stop, shows itself on focus and puts the focus on the 3D view', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await open(browser, '#scene=pillar', PROJECTOR);
  try {
    await waitReady(page, { scene: 'pillar' });
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => {
      const element = /** @type {HTMLElement} */ (document.activeElement);
      const box = element.getBoundingClientRect();
      return { text: element.textContent.trim(), box: box.toJSON(), inView: box.width > 20 && box.height > 10 && box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight };
    });
    assert.match(first.text, /skip to the view/i, `the first Tab stop is "${first.text}"`);
    assert.ok(first.inView, `the focused skip link is not visible: ${JSON.stringify(first.box)}`);
    // Not harness.screenshot: it takes the focus away first.
    await page.screenshot({ path: `${SHOTS}skip-link.png` });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'view', 'Enter on the skip link did not focus the view');
    // Now the arrows turn the view: the link gains a camera.
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.location.hash.includes('cam='));
    assert.equal(await page.evaluate(() => document.body.dataset.run), 'idle');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('on a phone: glyphs of at least 8 px, touch targets of at least 44 × 44 px, and Compare within reach', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPhone('#scene=pillar');
  try {
    await waitReady(page, { scene: 'pillar' });
    await settle(page);
    const { glyph } = await onScreen(page);
    assert.ok(glyph.diameter >= 8, `a contact's ball is ${glyph.diameter.toFixed(1)} CSS px across`);
    assert.ok(glyph.length >= 16, `a contact's arrow is ${glyph.length.toFixed(1)} CSS px long`);
    await screenshot(page, `${SHOTS}phone-pillar.png`);

    // Every control one can see: a box or a radio counts by its label, which takes the tap.
    const { small, checked } = await page.evaluate(() => {
      const found = [];
      let checked = 0;
      const controls = document.querySelectorAll('button, select, input, a[href], summary, textarea, [tabindex="0"]');
      for (const control of controls) {
        const element = /** @type {HTMLElement} */ (control);
        if (element.closest('dialog') || element.closest('[hidden]') || element.getClientRects().length === 0) continue;
        if (getComputedStyle(element).visibility === 'hidden') continue;
        const input = /** @type {HTMLInputElement} */ (element);
        let target = element;
        if (element.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) target = input.labels?.[0] ?? element;
        const box = target.getBoundingClientRect();
        checked++;
        if (box.width < 44 || box.height < 44) {
          found.push(`${element.tagName.toLowerCase()}#${element.id || ''} "${(target.textContent || '').trim().slice(0, 24)}" ${box.width.toFixed(0)}×${box.height.toFixed(0)}`);
        }
      }
      return { small: found, checked };
    });
    assert.ok(checked >= 40, `only ${checked} controls found`);
    assert.deepEqual(small, [], `${small.length} controls are smaller than 44 × 44 CSS px`);

    // Compare is a tap away from the top of the page.
    const jump = await page.evaluate(() => {
      const candidates = [...document.querySelectorAll('a, button')].filter((e) => e.id !== 'compare' && /compare/i.test(e.textContent) && e.getClientRects().length > 0);
      const near = candidates.find((e) => e.getBoundingClientRect().top + scrollY < 2 * innerHeight);
      return near ? (near.id ? `#${near.id}` : null) : null;
    });
    assert.ok(jump, 'no control near the top of the page leads to Compare');
    await page.tap(jump);
    await page.waitForFunction(() => {
      const box = document.getElementById('compare').getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight;
    });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
