// Browser tests of the page in a lecture hall and under hostile input
// (issue 9): the view first on a phone and at 200 % zoom, a desktop page
// that never scrolls, keyboard shortcuts and keyboard orbit, presentation
// mode, colours that survive deuteranopia, the divergence guard, a readout a
// student can read, the paper's presets, and the small defects found (notice
// strip, #bench hash change, run-to-step default, absurd cam=). Run by
// `cargo xtask test` with the other browser tests; helpers in harness.mjs.
// Screenshots for a person go to target/lecture/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  BASE_URL,
  READY_TIMEOUT_MS,
  ROOT,
  SCENES_DIR,
  bannerText,
  canvasStats,
  browserForThisFile,
  openPage as open,
  readout,
  screenshot,
  waitReady,
} from './harness.mjs';

const SHOTS = `${ROOT}target/lecture/`;

const browser = await browserForThisFile();

/** @param {string} [hash] @param {{width: number, height: number}} [viewport] */
function openPage(hash = '', viewport = { width: 1280, height: 800 }) {
  return open(browser, hash, viewport);
}

/** The step the shown scene is measured at, from its facts line. */
async function measureStep(page) {
  const facts = await page.locator('#scene-facts').textContent();
  const match = facts.match(/measured at step (\d+)/);
  assert.ok(match, `no measure step in "${facts}"`);
  return Number(match[1]);
}

/** @returns {Promise<string>} */
function hashOf(page) {
  return page.evaluate(() => window.location.hash);
}

/** Where an element is on the screen, in CSS pixels. */
function boxOf(page, selector) {
  return page.evaluate((selector) => document.querySelector(selector).getBoundingClientRect().toJSON(), selector);
}

test('on a phone and at 200 % zoom the view and the headline come first', { timeout: 180_000 }, async () => {
  // 200 % zoom of a 1280×800 window is a 640×400 CSS-pixel viewport.
  for (const [name, viewport, scale] of [['phone', { width: 390, height: 844 }, 3], ['zoom-200', { width: 640, height: 400 }, 2]]) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: scale });
    const page = await context.newPage();
    try {
      await page.goto(new URL('#scene=pillar', BASE_URL).href);
      await waitReady(page, { scene: 'pillar', step: 3 });
      const canvas = await boxOf(page, '#view');
      assert.ok(canvas.top >= 0 && canvas.top < viewport.height / 4, `${name}: the view starts ${canvas.top} px down`);
      assert.ok(canvas.height >= viewport.height / 2, `${name}: the view is only ${canvas.height} px tall`);
      const headline = await boxOf(page, '#headline');
      assert.ok(headline.bottom <= viewport.height && headline.top >= 0, `${name}: the headline is at ${headline.top}…${headline.bottom}`);
      assert.match(await page.locator('#headline').textContent(), /Step 3 .* \d+ of \d+ normals right/);
      // The controls are below the view.
      assert.ok((await boxOf(page, '#scene-picker')).top >= canvas.bottom, `${name}: a control is above the view's bottom`);
      await screenshot(page, `${SHOTS}${name}.png`);
    } finally {
      await context.close();
    }
  }
});

test('at 1280×800 the page does not scroll and scrolling the left panel never moves the view', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar');
  try {
    await waitReady(page, { scene: 'pillar' });
    const before = await boxOf(page, '#view');
    const sizes = await page.evaluate(() => ({ page: document.scrollingElement.scrollHeight, window: window.innerHeight, panel: document.querySelector('.controls').scrollHeight, panelView: document.querySelector('.controls').clientHeight }));
    assert.ok(sizes.page <= sizes.window, `the page scrolls: ${sizes.page} px in a ${sizes.window} px window`);
    assert.ok(sizes.panel > sizes.panelView, 'the left panel has nothing to scroll, so this test shows nothing');
    // Scroll the panel to its end the way a visitor does (wheel), and by keyboard focus.
    await page.mouse.move(100, 400);
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 400);
    await page.locator('#open-help').focus();
    await page.waitForFunction(() => {
      const panel = document.querySelector('.controls');
      return panel.scrollTop + panel.clientHeight >= panel.scrollHeight - 2;
    });
    const after = await boxOf(page, '#view');
    assert.deepEqual(after, before, 'the view moved when the left panel scrolled');
    assert.equal(await page.evaluate(() => window.scrollY + document.scrollingElement.scrollTop), 0, 'the page scrolled');
    // A segmented view control, focused by keyboard at the panel's end, moves nothing either.
    await page.locator('#view-wireframe').focus();
    assert.deepEqual(await boxOf(page, '#view'), before);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('keyboard: Space, →, R, ? anywhere; arrows, + and − on the focused view; not while typing', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=sliding-spike&method=opposing&step=2');
  try {
    await waitReady(page, { scene: 'sliding-spike', step: 2 });
    await page.keyboard.press('ArrowRight');
    await waitReady(page, { step: 3 });
    await page.keyboard.press('r');
    await waitReady(page, { step: 0 });
    await page.keyboard.press(' ');
    await page.waitForFunction(() => Number(document.body.dataset.step) >= 3, null, { timeout: READY_TIMEOUT_MS });
    await page.keyboard.press(' ');
    await waitReady(page);
    const paused = await page.evaluate(() => document.body.dataset.step);
    // Space after a mouse click on a button still plays (the button does not also act).
    await page.click('#step-once');
    await waitReady(page, { step: Number(paused) + 1 });
    await page.keyboard.press(' ');
    await page.waitForFunction((from) => Number(document.body.dataset.step) > from + 2, Number(paused) + 1, { timeout: READY_TIMEOUT_MS });
    await page.keyboard.press(' ');
    await waitReady(page);

    // Typing in a field is typing: R and → do nothing there.
    const step = await page.evaluate(() => document.body.dataset.step);
    await page.locator('#run-to-step').focus();
    await page.keyboard.press('r');
    await page.keyboard.press('ArrowRight');
    await waitReady(page);
    assert.equal(await page.evaluate(() => document.body.dataset.step), step);

    await page.locator('#view').focus();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'view', 'the canvas cannot take the focus');
    await page.keyboard.press('ArrowLeft');
    await waitReady(page);
    const turned = (await hashOf(page)).match(/cam=([^&]+)/)?.[1].split(',').map(Number);
    assert.ok(turned, 'turning the view by keyboard did not reach the link');
    assert.equal(await page.evaluate(() => document.body.dataset.step), step, '→ on the view turned it, it must not step');
    await page.keyboard.press('+');
    await waitReady(page);
    const zoomed = (await hashOf(page)).match(/cam=([^&]+)/)[1].split(',').map(Number);
    assert.ok(zoomed[2] < turned[2], `+ did not zoom in: distance ${turned[2]} → ${zoomed[2]}`);
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    await waitReady(page);
    assert.ok((await hashOf(page)).match(/cam=([^&]+)/)[1].split(',').map(Number)[2] > zoomed[2], '− did not zoom out');
    await page.click('#reset-view');
    await waitReady(page);
    assert.doesNotMatch(await hashOf(page), /cam=/, 'reset view kept the camera in the link');

    await page.keyboard.press('?');
    assert.ok(await page.locator('#keys-dialog').isVisible(), '? did not open the list of keys');
    await page.keyboard.press('Escape');
    assert.ok(!(await page.locator('#keys-dialog').isVisible()));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('presentation mode: F hides the controls, enlarges text and glyphs; F again leaves it', { timeout: 120_000 }, async () => {
  // The Spike on wedge has right and wrong contacts at step 1.
  const { page, context, problems } = await openPage('#scene=spike-wedge&method=opposing&step=1');
  try {
    await waitReady(page, { scene: 'spike-wedge', step: 1 });
    const font = () => page.evaluate(() => parseFloat(getComputedStyle(document.getElementById('headline')).fontSize));
    const normalFont = await font();
    const blue = async () => (await canvasStats(page)).right;
    const countBlue = () =>
      page.evaluate(() => {
        const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
        const copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = canvas.height;
        const context = copy.getContext('2d');
        context.drawImage(canvas, 0, 0);
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i + 2] > 110 && data[i + 2] > data[i] * 2.5 && data[i + 2] > data[i + 1] * 1.4) count++;
        return count / (canvas.width * canvas.height);
      });
    assert.ok(await blue(), 'no right contact drawn');
    const normalShare = await countBlue();
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.documentElement.classList.contains('presenting'));
    await waitReady(page);
    assert.ok(!(await page.locator('.controls').isVisible()), 'the controls stay in presentation mode');
    assert.ok((await font()) >= normalFont * 1.3, `the headline grew from ${normalFont} px only to ${await font()} px`);
    const presentingShare = await countBlue();
    assert.ok(presentingShare > normalShare * 1.5, `the contact glyphs did not grow: ${normalShare} → ${presentingShare} of the view`);
    await screenshot(page, `${SHOTS}presentation.png`);
    await page.keyboard.press('f');
    await page.waitForFunction(() => !document.documentElement.classList.contains('presenting'));
    assert.ok(await page.locator('.controls').isVisible());
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('right and wrong contacts stay apart under simulated deuteranopia', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing&step=3&explode=0.35');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    const box = await boxOf(page, '#view');
    const clip = { x: box.x, y: box.y, width: box.width, height: box.height };
    const normal = await page.screenshot({ clip });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'deuteranopia' });
    const deuteranopia = await page.screenshot({ clip });
    await page.screenshot({ path: `${SHOTS}deuteranopia.png` });
    await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'none' });

    // Classify pixels in the normal rendering (blue: right; saturated
    // orange: wrong), then compare the two classes' mean colours in the
    // simulated one.
    const result = await page.evaluate(
      async ([a, b]) => {
        const pixels = async (base64) => {
          const image = new Image();
          image.src = `data:image/png;base64,${base64}`;
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.width;
          canvas.height = image.height;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0);
          return context.getImageData(0, 0, image.width, image.height).data;
        };
        const plain = await pixels(a);
        const simulated = await pixels(b);
        const sums = { right: [0, 0, 0, 0], wrong: [0, 0, 0, 0] };
        const plainSums = { right: [0, 0, 0, 0], wrong: [0, 0, 0, 0] };
        for (let i = 0; i < plain.length; i += 4) {
          const [r, g, bl] = [plain[i], plain[i + 1], plain[i + 2]];
          let kind = null;
          if (bl > 110 && bl > r * 2.5 && bl > g * 1.4) kind = 'right';
          else if (r > 150 && g < r * 0.75 && bl < r * 0.35) kind = 'wrong';
          if (!kind) continue;
          for (let k = 0; k < 3; k++) {
            sums[kind][k] += simulated[i + k];
            plainSums[kind][k] += plain[i + k];
          }
          sums[kind][3]++;
          plainSums[kind][3]++;
        }
        const mean = (s) => s.slice(0, 3).map((v) => v / Math.max(1, s[3]));
        return {
          counts: [sums.right[3], sums.wrong[3]],
          right: mean(sums.right),
          wrong: mean(sums.wrong),
          plainWrong: mean(plainSums.wrong),
        };
      },
      [normal.toString('base64'), deuteranopia.toString('base64')],
    );
    const distance = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    assert.ok(result.counts[0] >= 20 && result.counts[1] >= 20, `too few contact pixels to judge: ${result.counts}`);
    // The emulation must have changed the picture, or this test proves nothing.
    assert.ok(distance(result.wrong, result.plainWrong) > 15, `the simulated deuteranopia changed nothing: ${result.wrong} vs ${result.plainWrong}`);
    // Tried once: the old green and red came out 66 apart here (both olive),
    // blue and orange 225 (blue and yellow-brown).
    const apart = distance(result.right, result.wrong);
    assert.ok(apart > 100, `right ${result.right.map(Math.round)} and wrong ${result.wrong.map(Math.round)} are only ${apart.toFixed(0)} apart under deuteranopia`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a run that blows up stops, says why, and the restore button brings back the scene\'s settings', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&dt=0.1&iters=1&mu=0&step=0');
  try {
    await waitReady(page, { scene: 'pillar', step: 0 });
    assert.ok(await page.locator('#diverged').isHidden());
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.body.dataset.run === 'diverged', null, { timeout: 60_000 });
    const message = await page.locator('#diverged .message').textContent();
    assert.ok(await page.locator('#diverged').isVisible(), 'the divergence message is not on screen');
    assert.match(message, /blew up at step \d+/);
    const step = Number(await page.evaluate(() => document.body.dataset.step));
    assert.match(await hashOf(page), new RegExp(`step=${step}(&|$)`));
    assert.ok(await page.locator('#play').isDisabled(), 'Play still offered on a run the core stopped');
    // Space and → do nothing more; the page stays where the core stopped.
    await page.keyboard.press(' ');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.body.dataset.run), 'diverged');
    assert.equal(Number(await page.evaluate(() => document.body.dataset.step)), step);
    await page.click('#restore-settings');
    await waitReady(page, { scene: 'pillar', step });
    assert.ok(await page.locator('#diverged').isHidden());
    const hash = await hashOf(page);
    assert.doesNotMatch(hash, /[#&](dt|iters)=/, `the scene's settings were not restored: ${hash}`);
    // μ = 0 goes back to the scene's friction too (the field shows it as a placeholder).
    assert.doesNotMatch(hash, /[#&]mu=/);
    assert.equal(await page.locator('#iters-value').inputValue(), '1000');
    assert.equal(await page.locator('#dt-value').inputValue(), '');
    assert.equal(await page.locator('#mu-value').inputValue(), '');
    // The empty fields show the scene's own values, which the core sends.
    assert.equal(await page.locator('#dt-value').getAttribute('placeholder'), '0.01');
    assert.equal(await page.locator('#mu-value').getAttribute('placeholder'), '0.5');
    assert.equal(await bannerText(page, 'error-banner'), null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the readout says how many normals are right, within which angle, and why coverage is missing', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    const exact = await readout(page);
    const quality = await page.locator('#human-quality').textContent();
    const match = quality.match(/^(\d+) of (\d+) normals right \((\d+\.\d) %\)/);
    assert.ok(match, `quality reads "${quality}"`);
    assert.equal(match[2], exact.count);
    assert.equal(match[3], Number(exact.quality).toFixed(1));
    assert.equal((100 * Number(match[1])) / Number(match[2]), Number(exact.quality));
    assert.match(quality, /within 1° of a true normal/);
    assert.match(await page.locator('#human-coverage').textContent(), /not defined for the Pillar/);
    assert.match(await page.locator('#legend').textContent(), /q = cos\(angle to a true normal\)/);

    // The time is the sum of the steps taken, also after time step changes
    // (each replays from step 0).
    for (const dt of ['0.03', '0.1', '0.005']) {
      await page.fill('#dt-value', dt);
      await page.locator('#dt-value').press('Enter');
      await waitReady(page, { step: 3 });
      const time = Number((await readout(page)).time);
      assert.ok(Math.abs(time - 3 * Number(dt)) < 1e-12, `dt ${dt}: time ${time} after 3 steps`);
      assert.match(await page.locator('#human-time').textContent(), new RegExp(`sum of 3 steps of ${dt} s`));
    }
    // …and the time step can go back to the scene's own value.
    await page.click('#dt-scene-value');
    await waitReady(page, { step: 3 });
    assert.doesNotMatch(await hashOf(page), /[#&]dt=/);
    assert.equal(await page.locator('#dt-value').inputValue(), '');
    assert.ok(await page.locator('#dt-scene-value').isHidden());
    await page.fill('#mu-value', '0.3');
    await page.locator('#mu-value').press('Enter');
    await waitReady(page, { step: 3 });
    assert.match(await hashOf(page), /[#&]mu=0.3/);
    await page.click('#mu-scene-value');
    await waitReady(page, { step: 3 });
    assert.doesNotMatch(await hashOf(page), /[#&]mu=/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a preset sets scene, settings and step, and the compare table shows the paper beside ours', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    // The Pillar's compare table has no all-"—" coverage column, and says why.
    await page.fill('#compare-steps', '1');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
    const pillarHeads = await page.$$eval('#compare-table thead th', (ths) => ths.map((th) => th.textContent));
    assert.ok(!pillarHeads.some((head) => /Coverage/.test(head)), `columns: ${pillarHeads}`);
    const columnCount = pillarHeads.length;
    for (let column = 2; column <= columnCount; column++) {
      const cells = await page.$$eval(`#compare-table tbody tr > :nth-child(${column})`, (cells) => cells.map((cell) => cell.textContent.trim()));
      assert.ok(cells.some((cell) => cell !== '—' && cell !== ''), `column ${pillarHeads[column - 1]} is blank for every method`);
    }
    assert.match(await page.locator('#compare-notes').textContent(), /No coverage column/);

    const option = await page.$eval('#preset-picker', (picker) => [...picker.options].find((o) => o.value.startsWith('table-8-sliding-spike') || o.value === 'table-8-sliding-spike')?.value ?? null);
    assert.ok(option, 'no preset for table 8, Sliding spike');
    await page.selectOption('#preset-picker', option);
    await waitReady(page, { scene: 'sliding-spike', step: 1 });
    assert.equal(await page.locator('#compare-steps').inputValue(), '1');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
    const heads = await page.$$eval('#compare-table thead th', (ths) => ths.map((th) => th.textContent));
    assert.ok(heads.some((head) => /^paper /.test(head)), `no paper columns: ${heads}`);
    assert.ok((await page.locator('#compare-table td.paper').count()) > 0);
    assert.match(await page.locator('#compare-notes').textContent(), /Paper columns: Erleben 2018, table 8/);

    // Another angle tolerance is not the paper's setting: its numbers go.
    await page.fill('#tol-value', '5');
    await page.locator('#tol-value').press('Enter');
    await waitReady(page, { scene: 'sliding-spike', step: 1 });
    assert.equal(await page.locator('#compare-table td.paper').count(), 0, 'the paper columns stayed for other settings');
    assert.equal(await page.locator('#preset-picker').inputValue(), '');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the notice strip stays bounded and wraps long keys', { timeout: 120_000 }, async () => {
  const duplicates = Array.from({ length: 200 }, () => 'view=solid').join('&');
  const { page, context, problems } = await openPage(`#scene=spike-in-hole&${duplicates}&${'k'.repeat(3000)}=1`);
  try {
    await waitReady(page, { scene: 'spike-in-hole' });
    assert.ok(await bannerText(page, 'notice'), 'no notice for a malformed link');
    const strip = await boxOf(page, '#notice');
    const stage = await boxOf(page, '#stage');
    assert.ok(strip.height <= stage.height / 2, `the notice is ${strip.height} px tall in a ${stage.height} px view`);
    assert.ok(strip.right <= stage.right + 1 && strip.left >= stage.left, 'the notice overflows the view sideways');
    const overflow = await page.$eval('#notice .message', (message) => message.scrollWidth - message.clientWidth);
    assert.ok(overflow <= 1, `the 3000-character key overflows the notice by ${overflow} px`);
    const close = await boxOf(page, '#notice .dismiss');
    assert.ok(close.top >= strip.top && close.bottom <= strip.bottom && close.bottom <= 800, 'the close button is out of reach');
    await page.click('#notice .dismiss');
    assert.equal(await bannerText(page, 'notice'), null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('after a #bench hash change the page benchmarks afresh, and the link follows the page again afterwards', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=sliding-spike&method=opposing&step=1');
  try {
    await waitReady(page, { scene: 'sliding-spike', step: 1 });
    await page.evaluate(() => {
      window.location.hash = '#bench&scene=sliding-spike&method=opposing&steps=2';
    });
    await page.waitForSelector('#bench-result[data-done="true"]', { timeout: READY_TIMEOUT_MS });
    assert.ok(JSON.parse(await page.locator('#bench-result').textContent()).ms_method.length === 2);
    await page.evaluate(() => {
      window.location.hash = '#scene=spike-in-hole&method=opposing&step=1';
    });
    await waitReady(page, { scene: 'spike-in-hole', step: 1 });
    assert.equal(await page.locator('#bench-result').count(), 0, 'the benchmark\'s JSON stayed in the readout');
    await page.click('#step-once');
    await waitReady(page, { scene: 'spike-in-hole', step: 2 });
    assert.match(await hashOf(page), /[#&]step=2(&|$)/, 'the address bar does not follow the page after a benchmark');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('"run to step" starts at the measure step, and a visitor\'s file opens at its own measure step', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=sliding-spike&method=opposing');
  try {
    await waitReady(page, { scene: 'sliding-spike' });
    assert.equal(await page.locator('#run-to-step').inputValue(), String(await measureStep(page)));
    await page.selectOption('#scene-picker', 'pillar');
    await waitReady(page, { scene: 'pillar', step: 3 });
    assert.equal(await page.locator('#run-to-step').inputValue(), '3');

    const text = (await readFile(`${SCENES_DIR}sliding-spike.json`, 'utf8')).replace(/"measure_step": \d+/, '"measure_step": 2').replace('"Sliding spike"', '"Measured at two"');
    await page.setInputFiles('#file-input', { name: 'two.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => document.body.dataset.scene === '__file__', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: '__file__', step: 2 });
    assert.equal(await page.locator('#run-to-step').inputValue(), '2');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an absurd cam= is refused with a notice and the view shows the scene', { timeout: 120_000 }, async () => {
  for (const cam of ['1e308,0.3,3,0,0,0', '0.5,0.3,3,90000,0,0']) {
    const { page, context, problems } = await openPage(`#scene=pillar&step=1&cam=${cam}`);
    try {
      await waitReady(page, { scene: 'pillar', step: 1 });
      assert.match((await bannerText(page, 'notice')) ?? '', /cam/, `no notice for cam=${cam}`);
      const stats = await canvasStats(page);
      assert.ok(stats.centreDiffering > 0.2, `cam=${cam}: the view is blank (${(stats.centreDiffering * 100).toFixed(1)} % of its centre differs)`);
      assert.doesNotMatch(await hashOf(page), /cam=/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
