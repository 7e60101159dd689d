// Browser tests of the view on a touch screen (issue 29, item 3): on a
// tablet-sized page with touch, real touch input (Chromium's
// `Input.dispatchTouchEvent` over CDP, which the page sees as Pointer Events
// of type "touch") drives the camera the way three.js's orbit controls and
// every map do. One finger rotates; a pinch zooms about the point between the
// fingers (the point under their midpoint stays under it); two fingers
// dragged together pan (a pinch while moving is both); a double tap focuses
// a body, as a double click does; a tap on a contact shows its details (the
// hover tooltip) and a tap on empty space hides them; the hint under the
// controls names these gestures. The camera is read from the link's `cam=`
// (yaw, pitch, distance, target x y z) and where things are drawn from
// `window.contactlabView.onScreen()`. The last test guards the mouse's
// drag, shift-drag and wheel, which touch must leave as they were.
// Screenshots for a person go to target/touch/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, ROOT, browserForThisFile, collectProblems, waitReady } from './harness.mjs';

const SHOTS = `${ROOT}target/touch/`;
/** A tablet held sideways. */
const TABLET = { width: 1024, height: 768 };
/** The Pillar at step 3, seen as the page frames it on the tablet (written into the link so every test starts from the same camera). */
const LINK = '#scene=pillar&method=opposing&step=3&cam=0.55,0.3,9.6785,-0.18421,1.5515,0.15165';
const READY = { scene: 'pillar', step: 3 };

const browser = await browserForThisFile();

/**
 * Opens the link on a touch tablet; `touch` sends touch points (page CSS px) over CDP.
 * @param {{hasTouch?: boolean}} [options]
 */
async function openTablet({ hasTouch = true } = {}) {
  const context = await browser.newContext({ viewport: TABLET, hasTouch, isMobile: hasTouch });
  const page = await context.newPage();
  const problems = collectProblems(page);
  await page.goto(new URL(LINK, BASE_URL).href);
  await waitReady(page, READY);
  const client = await context.newCDPSession(page);
  /**
   * @param {'touchStart' | 'touchMove' | 'touchEnd'} type
   * @param {Array<[number, number]>} points one per finger, in finger order (its id)
   */
  const touch = (type, points = []) => client.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
  return { page, context, problems, touch };
}

/**
 * Puts fingers down at `from`, moves them in steps to `to` and lifts them.
 * @param {(type: any, points?: Array<[number, number]>) => Promise<any>} touch
 * @param {Array<[number, number]>} from
 * @param {Array<[number, number]>} to
 */
async function gesture(touch, from, to, steps = 10) {
  await touch('touchStart', from);
  for (let s = 1; s <= steps; s++) {
    const t = s / steps;
    await touch('touchMove', from.map(([x, y], i) => [x + (to[i][0] - x) * t, y + (to[i][1] - y) * t]));
  }
  await touch('touchEnd');
}

/** @param {(type: any, points?: Array<[number, number]>) => Promise<any>} touch @param {number} x @param {number} y */
async function tap(touch, x, y) {
  await touch('touchStart', [[x, y]]);
  await touch('touchEnd');
}

/**
 * The camera the link names.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{yaw: number, pitch: number, distance: number, target: number[]}>}
 */
async function linkCamera(page) {
  const hash = await page.evaluate(() => window.location.hash);
  const found = /[#&]cam=([^&]*)/.exec(hash);
  assert.ok(found, `the link names no camera: ${hash}`);
  const [yaw, pitch, distance, ...target] = found[1].split(',').map(Number);
  return { yaw, pitch, distance, target };
}

/**
 * Waits until the gesture's last camera is drawn and in the link. A drag
 * writes the link on a timer at most four times a second (wiring/link.js),
 * which the page's ready mark does not wait for: give it that long first.
 * @param {import('playwright-core').Page} page
 */
async function settle(page) {
  await page.waitForTimeout(600);
  await waitReady(page, READY);
}

/** @param {number[]} a @param {number[]} b */
const apart = (a, b) => Math.hypot(...a.map((v, i) => v - b[i]));

/** @param {import('playwright-core').Page} page */
async function canvasBox(page) {
  const box = await page.locator('#view').boundingBox();
  assert.ok(box, 'no view');
  return { ...box, cx: box.x + box.width / 2, cy: box.y + box.height / 2 };
}

/** @param {import('playwright-core').Page} page */
const onScreen = (page) => page.evaluate(() => /** @type {any} */ (window).contactlabView.onScreen());

test('one finger dragged across the view rotates the camera and neither zooms nor pans', { timeout: 300_000 }, async () => {
  const { page, context, problems, touch } = await openTablet();
  try {
    const before = await linkCamera(page);
    const { cx, cy } = await canvasBox(page);
    await gesture(touch, [[cx - 60, cy]], [[cx + 60, cy + 40]]);
    await settle(page);
    const now = await linkCamera(page);
    assert.notEqual(now.yaw, before.yaw, 'the yaw did not change');
    assert.notEqual(now.pitch, before.pitch, 'the pitch did not change');
    assert.equal(now.distance, before.distance, 'a one-finger drag zoomed');
    assert.deepEqual(now.target, before.target, 'a one-finger drag panned');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a pinch zooms in about the pinch centre: the point under the fingers stays under them, yaw and pitch stay', { timeout: 300_000 }, async () => {
  const { page, context, problems, touch } = await openTablet();
  try {
    const before = await linkCamera(page);
    const box = await canvasBox(page);
    // Pinch over the contact drawn farthest from the view's centre (inside
    // the view), so zooming about the centre instead would throw it far away.
    const drawn = (await onScreen(page)).contacts
      .map((c, index) => ({ ...c, index }))
      .filter((c) => !c.hidden && c.x > box.x + 80 && c.x < box.x + box.width - 80 && c.y > box.y + 60 && c.y < box.y + box.height - 60);
    assert.ok(drawn.length > 0, 'no contact drawn inside the view');
    const mark = drawn.reduce((best, c) => (apart([c.x, c.y], [box.cx, box.cy]) > apart([best.x, best.y], [box.cx, box.cy]) ? c : best));
    const fromCentre = apart([mark.x, mark.y], [box.cx, box.cy]);
    assert.ok(fromCentre > 100, `the contact is only ${fromCentre.toFixed(0)} px from the centre`);
    // Fingers 60 px apart spread to 120 px: twice as close.
    await gesture(touch, [[mark.x - 30, mark.y], [mark.x + 30, mark.y]], [[mark.x - 60, mark.y], [mark.x + 60, mark.y]]);
    await settle(page);
    const now = await linkCamera(page);
    assert.equal(now.yaw, before.yaw, 'a pinch rotated the camera (yaw)');
    assert.equal(now.pitch, before.pitch, 'a pinch tilted the camera (pitch)');
    assert.ok(now.distance < before.distance * 0.6 && now.distance > before.distance * 0.4, `a pinch out to twice the spread should halve the distance: ${before.distance} → ${now.distance}`);
    assert.ok(apart(now.target, before.target) > 0.05, 'the target did not move towards the pinch centre');
    const after = (await onScreen(page)).contacts[mark.index];
    const moved = apart([after.x, after.y], [mark.x, mark.y]);
    // Zoomed about the view's centre it would have moved some `fromCentre`
    // px (twice as far out); about the pinch centre it stays near it (only
    // its depth off the target's plane shows).
    assert.ok(moved < fromCentre * 0.25, `the contact under the pinch moved ${moved.toFixed(1)} px (${fromCentre.toFixed(0)} px from the centre)`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('two fingers dragged together pan: the scene follows them, and the camera neither turns nor zooms', { timeout: 300_000 }, async () => {
  const { page, context, problems, touch } = await openTablet();
  try {
    const before = await linkCamera(page);
    const { cx, cy } = await canvasBox(page);
    const drawnBefore = (await onScreen(page)).contacts;
    const [dx, dy] = [80, 50];
    await gesture(touch, [[cx - 50, cy], [cx + 50, cy]], [[cx - 50 + dx, cy + dy], [cx + 50 + dx, cy + dy]]);
    await settle(page);
    const now = await linkCamera(page);
    assert.equal(now.yaw, before.yaw, 'a two-finger drag rotated the camera (yaw)');
    assert.equal(now.pitch, before.pitch, 'a two-finger drag tilted the camera (pitch)');
    assert.ok(Math.abs(now.distance - before.distance) <= before.distance * 1e-4, `a two-finger drag zoomed: ${before.distance} → ${now.distance}`);
    assert.ok(apart(now.target, before.target) > 0.1, 'a two-finger drag did not pan');
    // The contacts moved with the fingers: exactly on the target's plane,
    // within a few px off it (the Pillar's contacts lie near its axis; the
    // corners of its wide plinth are too far in front and behind to say).
    const drawnAfter = (await onScreen(page)).contacts;
    const shift = drawnAfter.map((c, i) => [c.x - drawnBefore[i].x, c.y - drawnBefore[i].y]);
    for (const [sx, sy] of shift) assert.ok(Math.abs(sx - dx) < dx * 0.15 && Math.abs(sy - dy) < dy * 0.15, `a contact moved by (${sx.toFixed(0)}, ${sy.toFixed(0)}), the fingers by (${dx}, ${dy})`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a pinch while the fingers move is both: it zooms about the moving midpoint and pans with it', { timeout: 300_000 }, async () => {
  const { page, context, problems, touch } = await openTablet();
  try {
    const before = await linkCamera(page);
    const { cx, cy } = await canvasBox(page);
    // The contact nearest the fingers' first midpoint should end under their last one.
    const contacts = (await onScreen(page)).contacts;
    const start = { x: cx, y: cy - 60 };
    const index = contacts.reduce((best, c, i) => (apart([c.x, c.y], [start.x, start.y]) < apart([contacts[best].x, contacts[best].y], [start.x, start.y]) ? i : best), 0);
    const mark = contacts[index];
    const [dx, dy] = [70, 40];
    // Spread 80 → 120 px (1.5 times as close) while the midpoint moves by (dx, dy).
    await gesture(touch, [[mark.x - 40, mark.y], [mark.x + 40, mark.y]], [[mark.x - 60 + dx, mark.y + dy], [mark.x + 60 + dx, mark.y + dy]]);
    await settle(page);
    const now = await linkCamera(page);
    assert.equal(now.yaw, before.yaw, 'a pinch and pan rotated the camera (yaw)');
    assert.equal(now.pitch, before.pitch, 'a pinch and pan tilted the camera (pitch)');
    assert.ok(Math.abs(now.distance / before.distance - 2 / 3) < 0.03, `a spread from 80 to 120 px should come 1.5 times as close: ${before.distance} → ${now.distance}`);
    const after = (await onScreen(page)).contacts[index];
    const off = apart([after.x, after.y], [mark.x + dx, mark.y + dy]);
    assert.ok(off < 15, `the contact under the fingers ended ${off.toFixed(1)} px from their midpoint`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a double tap on a body focuses it, as a double click does', { timeout: 300_000 }, async () => {
  // Where a double click on the shaft puts the camera (a mouse, no touch).
  const mouse = await openTablet({ hasTouch: false });
  let clicked;
  let at;
  try {
    const box = await canvasBox(mouse.page);
    // The shaft: between the capital's and the plinth's contacts.
    const contacts = (await onScreen(mouse.page)).contacts;
    const xs = contacts.map((c) => c.x).sort((a, b) => a - b);
    const ys = contacts.map((c) => c.y).sort((a, b) => a - b);
    at = { x: xs[Math.floor(xs.length / 2)], y: (ys[0] + ys[ys.length - 1]) / 2 };
    assert.ok(at.y > box.y && at.y < box.y + box.height);
    await mouse.page.mouse.dblclick(at.x, at.y);
    await waitReady(mouse.page, READY);
    clicked = await linkCamera(mouse.page);
    assert.deepEqual(mouse.problems, []);
  } finally {
    await mouse.context.close();
  }

  const { page, context, problems, touch } = await openTablet();
  try {
    const before = await linkCamera(page);
    assert.ok(apart(clicked.target, before.target) > 0.1, 'the double click did not move the target: no body there?');
    await tap(touch, at.x, at.y);
    await page.waitForTimeout(80);
    await tap(touch, at.x, at.y);
    await settle(page);
    const now = await linkCamera(page);
    assert.deepEqual(now.target, clicked.target, 'the double tap did not focus the body the double click focuses');
    assert.equal(now.distance, clicked.distance);
    assert.equal(now.yaw, before.yaw);
    assert.equal(now.pitch, before.pitch);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a tap on a contact shows its details, a tap on empty space hides them', { timeout: 300_000 }, async () => {
  const { page, context, problems, touch } = await openTablet();
  try {
    const box = await canvasBox(page);
    const before = await linkCamera(page);
    const drawn = (await onScreen(page)).contacts.filter((c) => !c.hidden && c.x > box.x && c.x < box.x + box.width && c.y > box.y + 60 && c.y < box.y + box.height);
    assert.ok(drawn.length > 0, 'no contact drawn in the view');
    const tooltip = page.locator('#tooltip');
    let shown = null;
    // The nearest glyph wins; try a few drawn contacts in case another's arrow is nearer.
    for (const c of drawn.slice(0, 6)) {
      await tap(touch, c.x, c.y);
      await page.waitForTimeout(100);
      if (await tooltip.isVisible()) {
        shown = c;
        break;
      }
    }
    assert.ok(shown, 'a tap on a contact showed no details');
    const text = await tooltip.textContent();
    assert.match(text, /→/, `the details name no bodies: ${text}`);
    assert.match(text, /q/);
    assert.match(text, /(right|wrong) normal/);
    assert.match(text, /depth/);
    // The tooltip stays up after the finger lifts (a mouse's pointerleave hides it; a finger's must not).
    await page.waitForTimeout(300);
    assert.ok(await tooltip.isVisible(), 'the details vanished after the tap');
    assert.deepEqual((await linkCamera(page)).target, before.target, 'a tap moved the camera');
    await page.screenshot({ path: `${SHOTS}tablet-tap-contact.png` });

    // Empty space: the view's lower left corner, far from every contact.
    const empty = { x: box.x + 40, y: box.y + box.height - 90 };
    const all = (await onScreen(page)).contacts;
    assert.ok(all.every((c) => apart([c.x, c.y], [empty.x, empty.y]) > 60), 'a contact is drawn near the empty spot');
    await tap(touch, empty.x, empty.y);
    await page.waitForTimeout(100);
    assert.ok(!(await tooltip.isVisible()), 'a tap on empty space did not hide the details');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('on a touch screen the hint under the controls names the touch gestures', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openTablet();
  try {
    const hint = (await page.locator('footer.hint').innerText()).replace(/\s+/g, ' ');
    assert.match(hint, /pinch/i, `the hint names no pinch: ${hint}`);
    assert.match(hint, /two fingers/i, `the hint names no two-finger pan: ${hint}`);
    assert.match(hint, /double.tap/i, `the hint names no double tap: ${hint}`);
    assert.doesNotMatch(hint, /wheel/i, `a touch screen has no wheel: ${hint}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a mouse still drags to rotate, shift-drags to pan and zooms with the wheel about the view centre', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openTablet({ hasTouch: false });
  try {
    const { cx, cy } = await canvasBox(page);
    let before = await linkCamera(page);
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 80, cy + 30, { steps: 8 });
    await page.mouse.up();
    await settle(page);
    let now = await linkCamera(page);
    assert.ok(now.yaw !== before.yaw && now.pitch !== before.pitch, 'a mouse drag did not rotate');
    assert.equal(now.distance, before.distance);
    assert.deepEqual(now.target, before.target);

    before = now;
    await page.keyboard.down('Shift');
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 60, cy + 40, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await settle(page);
    now = await linkCamera(page);
    assert.equal(now.yaw, before.yaw);
    assert.equal(now.pitch, before.pitch);
    assert.equal(now.distance, before.distance);
    assert.ok(apart(now.target, before.target) > 0.1, 'a shift-drag did not pan');

    before = now;
    await page.mouse.move(cx + 150, cy - 100);
    await page.mouse.wheel(0, -200);
    await settle(page);
    now = await linkCamera(page);
    assert.ok(now.distance < before.distance, 'the wheel did not zoom in');
    assert.deepEqual(now.target, before.target, 'the wheel zooms about the view centre, as before');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
