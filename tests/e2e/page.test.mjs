// Browser tests of the playground page, run by `cargo xtask test` (which
// serves www/ and sets CONTACTLAB_URL and CHROMIUM) or by hand:
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/
// Chromium is Debian's; playwright-core never downloads a browser. The
// helpers and the page's <body> markers are described in harness.mjs.
// Screenshots a test takes for a person go to tests/e2e/output/ (ignored by
// git); the tracked ones in docs/screenshots/ are made by
// `cargo xtask screenshots`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  BASE_URL,
  READY_TIMEOUT_MS,
  SCENES_DIR,
  assertMatchesCli,
  bannerText,
  canvasStats,
  cliRun,
  browserForThisFile,
  openPage as open,
  readout,
  recordRunStates,
  runLog,
  screenshot,
  stableReadout,
  waitReady,
} from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));

const browser = await browserForThisFile();

/** @param {string} [hash] */
function openPage(hash = '') {
  return open(browser, hash);
}

/** The step the shown scene is measured at, from its facts line. */
async function measureStep(page) {
  const facts = await page.locator('#scene-facts').textContent();
  const match = facts.match(/measured at step (\d+)/);
  assert.ok(match, `no measure step in "${facts}"`);
  return Number(match[1]);
}

/**
 * Waits for a replay that an action started to run and finish, and returns
 * what the page went through.
 * @param {import('playwright-core').Page} page
 * @param {{scene?: string, method?: string, step?: number}} expected
 */
async function waitReplayed(page, expected) {
  await page.waitForFunction(() => /** @type {any} */ (window).runLog.some((entry) => entry.run === 'replaying'), null, { timeout: READY_TIMEOUT_MS });
  await waitReady(page, expected);
  const log = await runLog(page);
  const first = log.findIndex((entry) => entry.run === 'replaying');
  assert.ok(first >= 0, 'the page never said it was replaying');
  assert.equal(log.at(-1).run, 'idle');
  return log;
}

test('the default page draws the Pillar with Opposing without errors', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage();
  try {
    // A link without a step opens at the scene's measure step (3 for the
    // Pillar), so a visitor sees contacts and numbers at once, and the link
    // then says so.
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    assert.match(await page.evaluate(() => window.location.hash), /(^|&|#)step=3(&|$)/);
    const stats = await canvasStats(page);
    assert.ok(stats.width > 300 && stats.height > 300, `canvas too small: ${stats.width}×${stats.height}`);
    assert.ok(stats.distinctColours > 50, `canvas looks blank: ${stats.distinctColours} distinct colours`);
    assert.ok(stats.centreDiffering > 0.2, `the centre of the view is mostly background (${(stats.centreDiffering * 100).toFixed(1)}% differs)`);
    assert.equal(await page.locator('#scene-title').textContent(), 'Pillar');
    assert.equal(await page.locator('#method-picker').inputValue(), 'opposing');
    assert.ok(Number(await page.evaluate(() => document.body.dataset.firstFrameMs)) > 0, 'no first-frame time');
    assert.match(await page.locator('#shown-caption').textContent(), /Pillar · Opposing, step 3/);
    await screenshot(page, `${OUTPUT_DIR}pillar.png`);

    // Play runs until paused; the readout and the link follow.
    await page.click('#play');
    await page.waitForFunction(() => Number(document.body.dataset.step) >= 5, null, { timeout: READY_TIMEOUT_MS });
    await page.click('#play');
    await waitReady(page);
    const step = Number(await page.evaluate(() => document.body.dataset.step));
    assert.equal((await readout(page)).step, String(step));
    assert.match(await page.evaluate(() => window.location.hash), new RegExp(`step=${step}(&|$)`));

    // The view toggles change the legend; the camera lands in the link.
    await page.check('#feature-colours');
    assert.match(await page.locator('#legend').textContent(), /\(F,F\)/);
    await page.check('#only-wrong');
    assert.match(await page.locator('#legend').textContent(), /of \d+ contacts shown/);
    await waitReady(page);
    assert.match(await page.evaluate(() => window.location.hash), /wrong=1&features=1/);
    await page.dblclick('#view');
    await waitReady(page);
    assert.match(await page.evaluate(() => window.location.hash), /cam=[-\d.e]+(,[-\d.e]+){5}/);

    // Help opens at the current method, with the core's text.
    // The help is loaded when first used, so the dialog opens a moment after the click.
    await page.click('button[data-help="method"]');
    await page.waitForSelector('#help-dialog', { state: 'visible' });
    assert.match(await page.locator('#help-dialog .help-entry.current').textContent(), /Opposing/);
    await page.click('#help-dialog .help-close button');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a link to the Pillar at step 3 shows every number the CLI prints', { timeout: 900_000 }, async () => {
  const cli = await cliRun(['pillar', '--method', 'opposing', '--steps', '3']);
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    assertMatchesCli(await readout(page), cli);

    // Hovering a correct contact shows its details.
    const stats = await canvasStats(page);
    assert.ok(stats.right, 'no blue (right) contact drawn');
    const box = await page.locator('#view').boundingBox();
    let tooltip = null;
    for (const [dx, dy] of [[0, 0], [2, 0], [-2, 0], [0, 2], [0, -2], [3, 3]]) {
      await page.mouse.move(box.x + stats.right.x + dx, box.y + stats.right.y + dy);
      if (await page.locator('#tooltip').isVisible()) {
        tooltip = await page.locator('#tooltip').textContent();
        break;
      }
    }
    assert.ok(tooltip, 'no tooltip when hovering a contact');
    assert.match(tooltip, /q/);
    assert.match(tooltip, /right normal/);
    await page.mouse.move(box.x + 5, box.y + 5);

    await page.fill('#explode', '0.35');
    await waitReady(page);
    assert.match(await page.evaluate(() => window.location.hash), /explode=0.35/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('picking another method replays to the same step and shows that method\'s numbers, never the old ones', { timeout: 900_000 }, async () => {
  const volume = await cliRun(['pillar', '--method', 'volume-sat', '--steps', '3']);
  const surface = await cliRun(['pillar', '--method', 'surface-sat', '--steps', '3']);
  assert.notEqual(volume.count, surface.count, 'the two methods must differ for this test to mean anything');
  const { page, context, problems } = await openPage('#scene=pillar&method=volume-sat');
  try {
    await waitReady(page, { scene: 'pillar', method: 'volume-sat', step: 3 });
    // Checked in full at the end, so that the replay is checked whatever this says.
    const volumeShown = await readout(page);
    assert.equal(volumeShown.count, String(volume.count));
    await recordRunStates(page);
    await page.selectOption('#method-picker', 'surface-sat');
    const log = await waitReplayed(page, { scene: 'pillar', method: 'surface-sat', step: 3 });
    assertMatchesCli(await readout(page), surface);
    // Whenever the page said it showed Surface-SAT, the numbers were Surface-SAT's.
    for (const entry of log) {
      if (entry.method === 'surface-sat') assert.equal(entry.count, String(surface.count), `shown as Surface-SAT with ${entry.count} contacts`);
      else assert.equal(entry.count, String(volume.count), `shown as ${entry.method} with ${entry.count} contacts`);
      assert.notEqual(entry.count, '', 'the readout went blank');
    }
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /[#&]method=surface-sat(&|$)/);
    assert.match(hash, /[#&]step=3(&|$)/);
    assert.match(await page.locator('#shown-caption').textContent(), /Surface-SAT, step 3/);
    assert.deepEqual(problems, []);
    assertMatchesCli(volumeShown, volume);
  } finally {
    await context.close();
  }
});

test('the printed / paper\'s code switch picks a method\'s @paper-code variant, as a link does, with the CLI\'s numbers', { timeout: 900_000 }, async () => {
  const code = await cliRun(['sliding-spike', '--method', 'opposing@paper-code', '--steps', '1']);
  const printed = await cliRun(['sliding-spike', '--method', 'opposing', '--steps', '1']);
  assert.notEqual(code.quality, printed.quality, 'the two variants must differ for this test to mean anything');
  const { page, context, problems } = await openPage('#scene=sliding-spike&method=opposing@paper-code&step=1');
  try {
    await waitReady(page, { scene: 'sliding-spike', method: 'opposing@paper-code', step: 1 });
    assert.equal(await page.locator('#method-picker').inputValue(), 'opposing');
    assert.equal(await page.locator('#method-variant').inputValue(), 'paper-code');
    assertMatchesCli(await readout(page), code);
    await page.selectOption('#method-variant', 'printed');
    await waitReady(page, { scene: 'sliding-spike', method: 'opposing', step: 1 });
    assertMatchesCli(await readout(page), printed);
    assert.match(await page.evaluate(() => window.location.hash), /[#&]method=opposing(&|$)/);
    await page.selectOption('#method-variant', 'paper-code');
    await waitReady(page, { scene: 'sliding-spike', method: 'opposing@paper-code', step: 1 });
    assertMatchesCli(await readout(page), code);
    // A method without a variant leaves the switch off.
    await page.selectOption('#method-picker', 'region-analysis');
    await waitReady(page, { scene: 'sliding-spike', method: 'region-analysis', step: 1 });
    assert.equal(await page.locator('#method-variant').isDisabled(), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a perturbation change replays to the same step and shows what the CLI prints for it', { timeout: 900_000 }, async () => {
  const cli = await cliRun(['pillar', '--method', 'opposing', '--perturb', '0.01', '--steps', '3']);
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    const before = await stableReadout(page);
    await recordRunStates(page);
    await page.fill('#perturb-range', '0.01');
    await waitReplayed(page, { scene: 'pillar', method: 'opposing', step: 3 });
    const shown = await readout(page);
    assert.notDeepEqual(shown, before);
    assertMatchesCli(shown, cli);
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /[#&]perturb=0\.01(&|$)/);
    assert.match(hash, /[#&]step=3(&|$)/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('cancelling a replay stays at the step reached, and the link says that step', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=wall&method=opposing&step=12');
  try {
    await waitReady(page, { scene: 'wall', method: 'opposing', step: 12 });
    await page.selectOption('#method-picker', 'volume-sat');
    await page.waitForFunction(() => Number(/** @type {HTMLProgressElement} */ (document.getElementById('replay-progress')).value) >= 2, null, { timeout: READY_TIMEOUT_MS });
    // Meanwhile the old frame stays, labelled as such, and the link names the new method.
    assert.equal(await page.evaluate(() => document.body.dataset.run), 'replaying');
    assert.equal(await page.evaluate(() => document.body.dataset.method), 'opposing');
    assert.match(await page.locator('#shown-caption').textContent(), /Still showing Wall · Opposing, step 12/);
    // The link names the solver it runs: the printed one, as it named none.
    assert.match(await page.evaluate(() => window.location.hash), /method=volume-sat&solver=printed&step=12/);
    await page.click('#replay-cancel');
    await waitReady(page, { scene: 'wall', method: 'volume-sat' });
    const step = Number(await page.evaluate(() => document.body.dataset.step));
    assert.ok(step >= 2 && step < 12, `cancelled at step ${step}`);
    assert.equal((await readout(page)).step, String(step));
    assert.match(await page.evaluate(() => window.location.hash), new RegExp(`method=volume-sat&solver=printed&step=${step}(&|$)`));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every setting changes the hash and the readout, and the link reproduces the readout bit for bit', { timeout: 900_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=closest-points&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'closest-points', step: 3 });
    let before = await stableReadout(page);
    // [control name (its URL key), new value, use the typed field instead of the slider]
    const moves = [
      // First, while Closest points gets 90 % right at 1°.
      ['tol', '0.1', true],
      ['perturb', '0.01', false],
      ['dt', '0.005', true],
      // A logarithmic slider: typed, for an exact value.
      ['iters', '200', true],
      ['mu', '0.2', false],
      ['eps', '0.02', true],
      ['refine', '1', false],
    ];
    for (const [key, value, typed] of moves) {
      if (typed) {
        await page.fill(`#${key}-value`, value);
        await page.press(`#${key}-value`, 'Tab');
      } else {
        await page.fill(`#${key}-range`, value);
      }
      // Every change replays to the step the page was at.
      await waitReady(page, { step: 3 });
      const hash = await page.evaluate(() => window.location.hash);
      assert.match(hash, new RegExp(`[#&]${key}=${value.replace('.', '\\.')}(&|$)`), `${key}: hash ${hash}`);
      const after = await stableReadout(page);
      assert.notDeepEqual(after, before, `${key}: the readout did not change`);
      before = after;
    }
    const link = await page.evaluate(() => window.location.href);
    // The same link in a fresh page, twice: the same text in every value.
    for (let load = 0; load < 2; load++) {
      const fresh = await openPage(new URL(link).hash);
      try {
        await waitReady(fresh.page, { scene: 'pillar', step: 3 });
        assert.deepEqual(await stableReadout(fresh.page), before, `load ${load + 1} of the link shows different numbers`);
        assert.equal(await fresh.page.locator('#refine-value').inputValue(), '1');
        assert.deepEqual(fresh.problems, []);
      } finally {
        await fresh.context.close();
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a typed value out of range gives the core\'s wording and changes nothing', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=sliding-spike&method=opposing&step=1');
  try {
    await waitReady(page, { scene: 'sliding-spike', step: 1 });
    const hash = await page.evaluate(() => window.location.hash);
    await page.fill('#dt-value', '2');
    await page.press('#dt-value', 'Tab');
    await page.waitForFunction(() => !document.getElementById('notice').hidden);
    assert.match(await bannerText(page, 'notice'), /dt|time step/i);
    await waitReady(page, { step: 1 });
    assert.equal(await page.evaluate(() => window.location.hash), hash);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every scene with every method runs 10 steps without an error', { timeout: 1_800_000 }, async () => {
  const { page, context, problems } = await openPage();
  try {
    await waitReady(page, { scene: 'pillar' });
    const scenes = await page.$$eval('#scene-picker option', (options) => options.map((option) => option.value));
    // The picker lists what the core has compiled in; it must be exactly
    // the scene files in scenes/.
    const files = (await readdir(SCENES_DIR)).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    assert.deepEqual([...scenes].sort(), [...files].sort(), 'picker options differ from scenes/*.json');
    // The engines, which follow the methods, run every scene in physics-engines.test.mjs.
    const methods = await page.$$eval('#method-picker option:not([data-kind="engine"])', (options) => options.map((option) => option.value));
    assert.ok(methods.length >= 9, `expected the 8 methods and the reference: ${methods}`);
    assert.equal(methods.at(-1), 'reference', 'the reference comes last, as the registry lists it');
    for (const scene of scenes) {
      await page.selectOption('#scene-picker', scene);
      // Picking a scene runs it to its measure step.
      await page.waitForFunction((scene) => document.body.dataset.scene === scene, scene, { timeout: READY_TIMEOUT_MS });
      await waitReady(page, { scene });
      const measure = await measureStep(page);
      assert.equal(await page.evaluate(() => document.body.dataset.step), String(measure), `${scene} did not open at its measure step`);
      assert.match(await page.evaluate(() => window.location.hash), new RegExp(`scene=${scene}(&|$)`));
      const stats = await canvasStats(page);
      assert.ok(stats.distinctColours > 20, `${scene}: canvas looks blank (${stats.distinctColours} colours)`);
      for (const method of methods) {
        // A method change replays to the step the page is at: the measure
        // step for the first method, then 10.
        const stepBefore = Number(await page.evaluate(() => document.body.dataset.step));
        await page.selectOption('#method-picker', method);
        await waitReady(page, { scene, method, step: stepBefore });
        if (stepBefore !== 10) {
          await page.fill('#run-to-step', '10');
          await page.click('#run-to');
          await waitReady(page, { scene, method, step: 10 });
        }
        assert.equal((await readout(page)).step, '10', `${scene} × ${method}`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a malformed link gives a notice naming what was wrong and falls back to defaults', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=no-such-scene&method=nope&perturb=abc&step=-2&cam=1,2&bogus=1');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 0 });
    const notice = await bannerText(page, 'notice');
    assert.ok(notice, 'no notice shown');
    for (const name of ['no-such-scene', 'nope', 'perturb', 'step', 'cam', 'bogus']) assert.match(notice, new RegExp(name), `the notice does not name ${name}`);
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /scene=pillar/);
    assert.doesNotMatch(hash, /abc|nope|bogus/);
    assert.equal(await page.locator('#scene-picker').inputValue(), 'pillar');
    // The page still works.
    await page.click('#step-once');
    await waitReady(page, { step: 1 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a scene file opens, travels in the link, and a broken one leaves the page working', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=spikes&step=0');
  try {
    await waitReady(page, { scene: 'spikes', step: 0 });
    // A broken file dropped on the page: the core names the problem; the
    // Spikes stay.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['{"format": "contactlab-scene/1", "bodies": ['], 'broken.json', { type: 'application/json' }));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => !document.getElementById('error-banner').hidden);
    assert.match(await bannerText(page, 'error-banner'), /broken\.json/);
    await page.click('#error-banner .dismiss');
    await waitReady(page, { scene: 'spikes', step: 0 });
    assert.equal(await page.locator('#scene-picker').inputValue(), 'spikes');
    assert.equal(await page.locator('#scene-title').textContent(), 'Spikes');
    assert.match(await page.evaluate(() => window.location.hash), /[#&]scene=spikes(&|$)/);
    await page.click('#step-once');
    await waitReady(page, { scene: 'spikes', step: 1 });

    // A good file: the sliding spike under another name. A new file opens
    // at its measure step, as a picked scene does.
    const text = (await readFile(`${SCENES_DIR}sliding-spike.json`, 'utf8')).replace('"Sliding spike"', '"My sliding spike"').replace('"sliding-spike"', '"my-spike"');
    await page.setInputFiles('#file-input', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => document.body.dataset.scene === '__file__', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: '__file__' });
    assert.equal(await page.locator('#scene-title').textContent(), 'My sliding spike');
    assert.equal(await page.evaluate(() => document.body.dataset.step), String(await measureStep(page)));
    await page.fill('#run-to-step', '5');
    await page.click('#run-to');
    await waitReady(page, { scene: '__file__', step: 5 });
    const shown = await stableReadout(page);
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /[#&]file=[A-Za-z0-9_-]+/);
    assert.doesNotMatch(hash, /[#&]scene=/);
    await page.reload();
    await waitReady(page, { scene: '__file__', step: 5 });
    assert.equal(await page.locator('#scene-title').textContent(), 'My sliding spike');
    assert.deepEqual(await stableReadout(page), shown);

    // A cut-off link names the file parameter. (Via about:blank, so that it
    // is a fresh load and not a hash change of the page already open.)
    await page.goto('about:blank');
    await page.goto(new URL(`#file=${hash.match(/file=([^&]+)/)[1].slice(0, 40)}&method=opposing`, BASE_URL).href);
    await waitReady(page, { scene: 'pillar' });
    assert.match(await bannerText(page, 'notice'), /file/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('compare fills a sortable table with one row per method', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=sliding-spike&method=opposing');
  try {
    await waitReady(page, { scene: 'sliding-spike' });
    // Compare runs the engines only when asked (physics-engines.test.mjs).
    const methods = await page.$$eval('#method-picker option:not([data-kind="engine"])', (options) => options.map((option) => option.value));
    assert.equal(await page.locator('#compare-steps').inputValue(), String(await measureStep(page)), 'compare should default to the scene\'s measure step');
    await page.fill('#compare-steps', '3');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
    const rows = await page.$$eval('#compare-table tbody tr', (trs) => trs.map((tr) => tr.dataset.method));
    assert.deepEqual([...rows].sort(), [...methods].sort());
    assert.equal(await page.locator('#compare-table .error-cell').count(), 0, 'a method failed in compare');
    // Sorting by count puts the column in order.
    await page.click('#compare-table thead button[data-column="1"]');
    const counts = await page.$$eval('#compare-table tbody tr td:nth-of-type(1)', (tds) => tds.map((td) => Number(td.textContent)));
    const sorted = [...counts].sort((a, b) => (counts[0] >= counts[counts.length - 1] ? b - a : a - b));
    assert.deepEqual(counts, sorted);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#compare-csv')]);
    const csv = await readFile(await download.path(), 'utf8');
    assert.equal(csv.trim().split('\n').length, methods.length + 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Cancel stops Compare\'s workers at once, the view stays usable, and the next comparison gives every row', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing');
  try {
    await waitReady(page, { scene: 'pillar' });
    const methods = await page.$$eval('#method-picker option:not([data-kind="engine"])', (options) => options.map((option) => option.value));
    // Far more steps than a test could wait for: only a cancel that stops the running method ends it.
    await page.fill('#compare-steps', '100000');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'running');
    await page.waitForTimeout(1000);
    const cancelledAt = Date.now();
    await page.click('#compare-cancel');
    await page.waitForFunction(() => document.body.dataset.compare === 'cancelled', null, { timeout: 10_000 });
    assert.ok(Date.now() - cancelledAt < 10_000, 'the cancel took effect within 10 s');
    assert.match(await page.locator('#compare-status').textContent(), /^Cancelled after \d+ of \d+ methods\.$/);
    // The page's own worker ran no row: it still steps the view.
    await page.click('#step-once');
    await waitReady(page, { scene: 'pillar', step: 4 });
    await page.fill('#compare-steps', '1');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
    const rows = await page.$$eval('#compare-table tbody tr', (trs) => trs.map((tr) => tr.dataset.method));
    assert.deepEqual([...rows].sort(), [...methods].sort());
    assert.equal(await page.locator('#compare-table .error-cell').count(), 0, 'a method failed in compare');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the page starts the lean core and fetches the full one only for parry, whose readout and compare row are the CLI\'s', { timeout: 900_000 }, async () => {
  const cli = await cliRun(['pillar', '--method', 'parry', '--steps', '3']);
  /** @param {string[]} requests */
  const fullModule = (requests) => requests.filter((url) => new URL(url).pathname.includes('/pkg/full/'));
  const { page, context, problems, requests } = await openPage('#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    assert.ok(
      requests.some((url) => new URL(url).pathname.endsWith('/pkg/contactlab_bg.wasm')),
      `the lean module was not fetched (or the worker's requests are not seen): ${requests.join(', ')}`,
    );
    assert.deepEqual(fullModule(requests), [], 'the default page fetched the full module');

    // Compare from the lean core: the parry row runs in the full one, on
    // the same scene and settings.
    assert.equal(await page.locator('#compare-steps').inputValue(), '3');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 600_000 });
    assert.equal(await page.locator('#compare-table .error-cell').count(), 0, 'a method failed in compare');
    const parryCount = await page.locator('#compare-table tbody tr[data-method="parry"] td:nth-of-type(1)').textContent();
    assert.equal(parryCount, String(cli.count), 'the parry row\'s contact count');
    const parryQuality = await page.locator('#compare-table tbody tr[data-method="parry"] td:nth-of-type(2)').textContent();
    assert.equal(parryQuality, cli.quality.toFixed(1), 'the parry row\'s quality');
    const fetched = fullModule(requests);
    assert.ok(fetched.some((url) => url.endsWith('/pkg/full/contactlab.js')), `full module script not fetched: ${fetched}`);
    assert.ok(fetched.some((url) => url.endsWith('/pkg/full/contactlab_bg.wasm')), `full module wasm not fetched: ${fetched}`);

    // Picking parry replays in the page's worker's full core. Compare's rows
    // ran in a pool worker of its own (www/compare-pool.js), which fetched
    // the full module for the parry row; the page's worker fetches it once.
    await page.selectOption('#method-picker', 'parry');
    await waitReady(page, { scene: 'pillar', method: 'parry', step: 3 });
    assertMatchesCli(await readout(page), cli);
    const picked = fullModule(requests);
    assert.ok(picked.length <= 2 * fetched.length, `the full module was fetched more than once per worker: ${picked}`);
    // And back, and to parry again: the lean core's numbers, then the full
    // core's, without fetching it again.
    await page.selectOption('#method-picker', 'opposing');
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    await page.selectOption('#method-picker', 'parry');
    await waitReady(page, { scene: 'pillar', method: 'parry', step: 3 });
    assert.deepEqual(fullModule(requests), picked, 'the full module was fetched again');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }

  // A link to parry starts with the full core.
  const linked = await openPage('#scene=pillar&method=parry&step=3');
  try {
    await waitReady(linked.page, { scene: 'pillar', method: 'parry', step: 3 });
    assertMatchesCli(await readout(linked.page), cli);
    assert.ok(fullModule(linked.requests).length > 0, 'the link to parry did not fetch the full module');
    assert.deepEqual(linked.problems, []);
  } finally {
    await linked.context.close();
  }
});

test('when the full core cannot be fetched, choosing parry says what failed, keeps the method shown, and the next choice tries again', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=sliding-spike&method=opposing&step=1');
  try {
    await waitReady(page, { scene: 'sliding-spike', method: 'opposing', step: 1 });
    const fullWasm = /\/pkg\/full\/contactlab_bg\.wasm$/;
    await page.route(fullWasm, (route) => route.abort());
    await page.selectOption('#method-picker', 'parry');
    await page.waitForFunction(() => !document.getElementById('error-banner').hidden, null, { timeout: READY_TIMEOUT_MS });
    assert.match(await bannerText(page, 'error-banner'), /parry method needs the full simulation core.*pkg\/full\/contactlab_bg\.wasm/);
    assert.equal(await page.evaluate(() => document.body.dataset.method), 'opposing');
    // Only the aborted fetch is a problem.
    assert.ok(problems.length > 0 && problems.every((problem) => /full\/contactlab_bg\.wasm|Failed to fetch/.test(problem)), problems.join('\n'));
    problems.length = 0;

    await page.unroute(fullWasm);
    await page.click('#error-banner .dismiss');
    await page.selectOption('#method-picker', 'parry');
    await waitReady(page, { scene: 'sliding-spike', method: 'parry', step: 1 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the contacts export as CSV and JSON', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=spike-in-hole&method=opposing&step=2');
  try {
    await waitReady(page, { scene: 'spike-in-hole', step: 2 });
    const count = Number((await readout(page)).count);
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const csv = (await readFile(await csvDownload.path(), 'utf8')).trim().split('\n');
    assert.equal(csv.length, count + 1);
    assert.match(csv[0], /^a,b,px,py,pz,nx,ny,nz,depth,features,q,correct$/);
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
    const json = JSON.parse(await readFile(await jsonDownload.path(), 'utf8'));
    assert.equal(json.contacts.length, count);
    assert.equal(json.step, 2);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the wall, the arch and the spike in the hole show their contacts', { timeout: 600_000 }, async () => {
  const views = [
    ['wall', '#scene=wall&method=opposing&step=3&explode=0.25'],
    ['arch', '#scene=arch&method=opposing&step=3&explode=0.3'],
    ['spike-in-hole', '#scene=spike-in-hole&method=opposing&step=5&explode=0.3&cam=0.55,0.75,3.6,0,0.5,0'],
  ];
  for (const [scene, hash] of views) {
    const { page, context, problems } = await openPage(hash);
    try {
      await waitReady(page, { scene, step: Number(hash.match(/step=(\d+)/)[1]) });
      assert.ok(Number((await readout(page)).count) > 0, `${scene}: no contacts`);
      const stats = await canvasStats(page);
      assert.ok(stats.distinctColours > 20, `${scene}: canvas looks blank (${stats.distinctColours} colours)`);
      await screenshot(page, `${OUTPUT_DIR}${scene}.png`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('#bench mode writes per-step timings', { timeout: 120_000 }, async () => {
  // parry runs in the full wasm module, the others in the lean one.
  for (const method of ['opposing', 'parry']) {
    const { page, context, problems } = await openPage(`#bench&scene=sliding-spike&method=${method}&steps=4&iters=100`);
    try {
      await page.waitForSelector('#bench-result[data-done="true"]', { timeout: READY_TIMEOUT_MS });
      const result = JSON.parse(await page.locator('#bench-result').textContent());
      assert.equal(result.error, undefined, `${method}: ${result.error}`);
      assert.equal(result.scene, 'sliding-spike');
      assert.equal(result.method, method);
      assert.equal(result.steps, 4);
      for (const key of ['ms_broad', 'ms_method', 'ms_solver']) {
        assert.equal(result[key].length, 4, `${method} ${key}`);
        assert.ok(result[key].every(Number.isFinite), `${method} ${key}`);
      }
      assert.ok(result.first_frame_ms > 0);
      assert.equal(await bannerText(page, 'notice'), null, 'bench parameters gave a notice');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('the page starts on TetGen meshes and the Mesh picker replays on cones as the CLI prints them', { timeout: 900_000 }, async () => {
  // A link without mesher= means the scene's own meshes (TetGen for the
  // built-in scenes), as for the CLI without --mesher.
  const tetgen = await cliRun(['pillar', '--method', 'consistent-vertex', '--steps', '3']);
  const cones = await cliRun(['pillar', '--method', 'consistent-vertex', '--mesher', 'cones', '--steps', '3']);
  const { page, context, problems } = await openPage('#scene=pillar&method=consistent-vertex');
  try {
    await waitReady(page, { scene: 'pillar', method: 'consistent-vertex', step: 3 });
    const before = await stableReadout(page);
    assertMatchesCli(before, tetgen);
    await recordRunStates(page);
    await page.selectOption('#mesher-choice', 'cones');
    await waitReplayed(page, { scene: 'pillar', method: 'consistent-vertex', step: 3 });
    const shown = await readout(page);
    assert.notEqual(shown.count, before.count, 'cone meshes give other contacts than TetGen');
    assertMatchesCli(shown, cones);
    assert.match(await page.evaluate(() => window.location.hash), /[#&]mesher=cones(&|$)/);
    // Back to the scene's own choice: TetGen again, and the link drops the key.
    await page.selectOption('#mesher-choice', '');
    await waitReplayed(page, { scene: 'pillar', method: 'consistent-vertex', step: 3 });
    assertMatchesCli(await readout(page), tetgen);
    assert.doesNotMatch(await page.evaluate(() => window.location.hash), /mesher=/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the paper-fine meshes load on demand and give what the CLI prints; a shape without a TetGen mesh says it fell back to cones', { timeout: 900_000 }, async () => {
  const cli = await cliRun(['pillar', '--method', 'opposing', '--mesher', 'paper-fine', '--steps', '3']);
  const parry = await cliRun(['pillar', '--method', 'parry', '--mesher', 'paper-fine', '--steps', '3']);
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing&mesher=paper-fine');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    assertMatchesCli(await stableReadout(page), cli);
    // The fetched meshes served every body: no fallback notice.
    assert.equal(await page.evaluate(() => document.getElementById('notice').hidden), true);
    // parry runs in the full wasm module, which has its own registry of
    // meshes: they are registered there too.
    await page.selectOption('#method-picker', 'parry');
    await waitReady(page, { scene: 'pillar', method: 'parry', step: 3 });
    assertMatchesCli(await stableReadout(page), parry);
    assert.equal(await page.evaluate(() => document.getElementById('notice').hidden), true);

    // A user's box with a size no built-in body has: cones, with a notice.
    const scene = JSON.stringify({
      format: 'contactlab-scene/1',
      id: 'odd-box',
      bodies: [
        { name: 'ground', fixed: true, shape: { type: 'box', size: [4, 1, 4] }, position: [0, -0.5, 0] },
        { name: 'odd', shape: { type: 'box', size: [1.3, 0.7, 0.9] }, position: [0, 0.35, 0] },
      ],
    });
    await page.setInputFiles('#file-input', { name: 'odd.json', mimeType: 'application/json', buffer: Buffer.from(scene) });
    await page.waitForFunction(() => document.body.dataset.scene === '__file__', null, { timeout: 120_000 });
    await page.waitForFunction(() => !document.getElementById('notice').hidden, null, { timeout: 120_000 });
    const notice = await bannerText(page, 'notice');
    assert.match(notice, /odd/);
    assert.match(notice, /cones/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
