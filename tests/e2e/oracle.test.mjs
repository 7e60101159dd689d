// Browser tests of the oracle in the page (issue 21, item 3): the readout
// names the oracle its quality, coverage and excess come from and offers
// the other one; switching judges the step on screen again without loading
// the scene afresh; the link records the choice; the exact values hold both
// oracles' numbers as `contactlab run --json` prints them; and a scene file
// without an oracle of its own shows a quality (the geometric oracle's).
// Run by `cargo xtask test` or by hand:
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/oracle.test.mjs
// Screenshots go to tests/e2e/output/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { BASE_URL, READY_TIMEOUT_MS, SCENES_DIR, assertMatchesCli, browserForThisFile, cliRun, collectProblems, readout, screenshot, waitReady } from './harness.mjs';
import { axeViolations, describeResults } from './axe.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));

const browser = await browserForThisFile();

/**
 * Opens the page at `hash`, counting the requests the page sends its
 * simulation worker by type (`window.workerRequests`), so a test can tell
 * whether the scene was loaded again.
 * @param {string} hash
 */
async function openPage(hash) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(() => {
    const counts = {};
    /** @type {any} */ (window).workerRequests = counts;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message && typeof message.type === 'string') counts[message.type] = (counts[message.type] ?? 0) + 1;
      return post.call(this, message, ...rest);
    };
  });
  const page = await context.newPage();
  const problems = collectProblems(page);
  await page.goto(new URL(hash, BASE_URL).href);
  return { page, context, problems };
}

/** @param {import('playwright-core').Page} page @returns {Promise<Record<string, number>>} */
function workerRequests(page) {
  return page.evaluate(() => ({ .../** @type {any} */ (window).workerRequests }));
}

/**
 * The readout's oracle name and offer (null where missing or hidden), the
 * exact `oracle` value, and the headline's and legend's texts.
 * @param {import('playwright-core').Page} page
 */
function oracleShown(page) {
  return page.evaluate(() => {
    const text = (selector) => document.querySelector(selector)?.textContent?.trim() ?? null;
    const button = /** @type {HTMLElement | null} */ (document.getElementById('oracle-switch'));
    return {
      name: text('#human-oracle'),
      offer: button && !button.hidden ? text('#oracle-switch') : null,
      exact: text('[data-readout="oracle"]'),
      headline: text('#headline') ?? '',
      legend: text('#legend') ?? '',
    };
  });
}

/** @param {import('playwright-core').Page} page */
function hash(page) {
  return page.evaluate(() => window.location.hash);
}

test("the Wall's readout names its oracle, switches to the geometric one without loading the scene again, and the link keeps it", { timeout: 900_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=wall&step=1');
  try {
    await waitReady(page, { scene: 'wall', step: 1 });
    const method = await page.evaluate(() => document.body.dataset.method);
    let shown = await oracleShown(page);
    assert.equal(shown.name, "scene's oracle: wall");
    assert.equal(shown.offer, 'use the geometric oracle');
    assert.equal(shown.exact, 'scene');
    assert.match(shown.headline, /scene's oracle: wall/);
    assert.match(shown.legend, /judged by the scene's oracle/);
    assert.doesNotMatch(await hash(page), /oracle=/);
    const sceneNumbers = await readout(page);
    await screenshot(page, `${OUTPUT_DIR}oracle-scene.png`, '#readout');

    const before = await workerRequests(page);
    await page.click('#oracle-switch');
    await page.waitForFunction(() => document.querySelector('[data-readout="oracle"]')?.textContent === 'geometric', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: 'wall', step: 1 });
    shown = await oracleShown(page);
    assert.equal(shown.name, 'geometric oracle');
    assert.equal(shown.offer, "use the scene's oracle (wall)");
    assert.match(shown.headline, /geometric oracle/);
    assert.match(shown.legend, /judged by the geometric oracle/);
    assert.match(await hash(page), /[#&]oracle=geometric(&|$)/);
    assert.match(await hash(page), /[#&]step=1(&|$)/);
    // Judged again where it stands: no load, no step, the same step.
    const after = await workerRequests(page);
    assert.equal(after.load ?? 0, before.load ?? 0, `the scene was loaded again: ${JSON.stringify({ before, after })}`);
    assert.equal(after.step ?? 0, before.step ?? 0, `the run was stepped again: ${JSON.stringify({ before, after })}`);
    const geometricNumbers = await readout(page);
    // Both oracles' own numbers are the same whichever is the headline.
    for (const key of Object.keys(sceneNumbers).filter((k) => k.startsWith('scene_') || k.startsWith('geo_'))) {
      assert.equal(geometricNumbers[key], sceneNumbers[key], key);
    }
    assert.equal(geometricNumbers.quality, geometricNumbers.geo_quality);
    assert.equal(sceneNumbers.quality, sceneNumbers.scene_quality);
    await screenshot(page, `${OUTPUT_DIR}oracle-geometric.png`, '#readout');

    // The step counter goes on from there, judged by the geometric oracle.
    await page.click('#step-once');
    await waitReady(page, { scene: 'wall', step: 2 });
    assert.equal((await oracleShown(page)).name, 'geometric oracle');
    assert.equal((await workerRequests(page)).load ?? 0, before.load ?? 0);

    // And a play goes on through a switch back to the scene's oracle.
    await page.click('#play');
    await page.waitForFunction(() => Number(document.body.dataset.step) >= 3, null, { timeout: READY_TIMEOUT_MS });
    await page.click('#oracle-switch');
    await page.waitForFunction(() => document.querySelector('[data-readout="oracle"]')?.textContent === 'scene', null, { timeout: READY_TIMEOUT_MS });
    const switchedAt = Number(await page.evaluate(() => document.body.dataset.step));
    await page.waitForFunction((from) => Number(document.body.dataset.step) >= from + 1, switchedAt, { timeout: READY_TIMEOUT_MS });
    assert.equal(await page.evaluate(() => document.body.dataset.run), 'playing');
    await page.click('#play');
    await waitReady(page, { scene: 'wall' });
    assert.equal((await workerRequests(page)).load ?? 0, before.load ?? 0, 'a switch while playing loaded the scene again');
    assert.doesNotMatch(await hash(page), /oracle=/);
    assert.deepEqual(problems, []);

    // Opening the geometric link restores the choice.
    await page.goto('about:blank');
    await page.goto(new URL(`#scene=wall&method=${method}&step=1&oracle=geometric`, BASE_URL).href);
    await waitReady(page, { scene: 'wall', step: 1 });
    shown = await oracleShown(page);
    assert.equal(shown.name, 'geometric oracle');
    assert.equal(shown.exact, 'geometric');
    const opened = await readout(page);
    for (const key of ['count', 'correct', 'quality', 'coverage', 'area_coverage', 'excess', 'geo_quality', 'scene_quality']) assert.equal(opened[key], geometricNumbers[key], key);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the exact values hold both oracles' numbers as the CLI prints them, for either headline", { timeout: 900_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=wall&step=1');
  try {
    await waitReady(page, { scene: 'wall', step: 1 });
    const method = await page.evaluate(() => document.body.dataset.method);
    const scene = await cliRun(['wall', '--method', method, '--steps', '1']);
    const geometric = await cliRun(['wall', '--method', method, '--steps', '1', '--oracle', 'geometric']);
    assert.equal(scene.oracle, 'scene');
    assert.equal(geometric.oracle, 'geometric');
    assertMatchesCli(await readout(page), scene);
    // Switched in the page (judged again, not replayed) and as the link names it.
    await page.click('#oracle-switch');
    await page.waitForFunction(() => document.querySelector('[data-readout="oracle"]')?.textContent === 'geometric', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: 'wall', step: 1 });
    assertMatchesCli(await readout(page), geometric);
    for (const key of ['scene_quality', 'geo_quality', 'geo_right', 'geo_wrong']) assert.notEqual(await page.locator(`[data-readout="${key}"]`).textContent(), '', key);
    await page.reload();
    await waitReady(page, { scene: 'wall', step: 1 });
    assertMatchesCli(await readout(page), geometric);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a scene file without an oracle, opened in the page, shows the geometric quality the CLI gives', { timeout: 900_000 }, async () => {
  // The sliding spike with its oracle taken out, as a user's file.
  const scene = JSON.parse(await readFile(`${SCENES_DIR}sliding-spike.json`, 'utf8'));
  delete scene.oracle;
  scene.id = 'my-spike';
  scene.title = 'My spike without an oracle';
  const text = JSON.stringify(scene, null, 2);
  await mkdir(OUTPUT_DIR, { recursive: true });
  const path = `${OUTPUT_DIR}no-oracle.json`;
  await writeFile(path, text);

  const { page, context, problems } = await openPage('#scene=spikes');
  try {
    await waitReady(page, { scene: 'spikes' });
    await page.setInputFiles('#file-input', { name: 'no-oracle.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => document.body.dataset.scene === '__file__', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: '__file__' });
    const step = Number(await page.evaluate(() => document.body.dataset.step));
    const method = await page.evaluate(() => document.body.dataset.method);
    const shown = await oracleShown(page);
    assert.equal(shown.name, 'geometric oracle');
    assert.equal(shown.offer, null, 'nothing to offer without a scene oracle');
    const quality = (await page.locator('#human-quality').textContent()) ?? '';
    assert.match(quality, /^\d+ of \d+ normals? right \(\d+\.\d %\)/, quality);
    assert.doesNotMatch(await page.locator('#readout').textContent(), /no oracle/i);
    assert.doesNotMatch(shown.legend, /no oracle/i);
    // An opened file takes the default settings (the default solver), not the link's.
    const solver = await page.inputValue('#solver-choice');
    const cli = await cliRun([path, '--method', method, '--steps', String(step), '--solver', solver]);
    assert.equal(typeof cli.quality, 'number', 'the CLI gives the file a quality');
    assertMatchesCli(await readout(page), cli);
    await screenshot(page, `${OUTPUT_DIR}oracle-file.png`, '#readout');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations with the oracle switch on screen, in both states', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=spikes&step=1');
  try {
    await waitReady(page, { scene: 'spikes', step: 1 });
    for (const state of ["the scene's oracle", 'the geometric oracle']) {
      assert.ok(await page.locator('#oracle-switch').isVisible(), `no switch with ${state}`);
      const { violations } = await axeViolations(page);
      assert.equal(violations.length, 0, `axe found violations with ${state}:\n${describeResults(violations)}`);
      if (state === "the scene's oracle") {
        await page.click('#oracle-switch');
        await page.waitForFunction(() => document.querySelector('[data-readout="oracle"]')?.textContent === 'geometric', null, { timeout: READY_TIMEOUT_MS });
        await waitReady(page, { scene: 'spikes', step: 1 });
      }
    }
    // The switch's help entry opens.
    await page.click('button[data-help="measure:oracle"]');
    await page.waitForSelector('#help-dialog', { state: 'visible' });
    assert.match(await page.locator('#help-dialog .help-entry.current').textContent(), /geometric oracle/);
    const { violations } = await axeViolations(page);
    assert.equal(violations.length, 0, `axe found violations with the oracle's help open:\n${describeResults(violations)}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
