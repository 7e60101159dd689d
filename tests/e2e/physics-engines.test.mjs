// The engines people ship, live in the page (issue 23,
// docs/design/engines.md), in headless Chromium: a link with
// `method=<engine>` shows exactly the numbers `contactlab run` prints for
// that engine (the same adapter and package, run in Node); the engine's
// own run (`engine=own`) opens from its link with the switch beside the
// picker; the default page fetches no engine; an engine whose package the
// site lacks says how to get it and leaves the page working. Run by
// `cargo xtask test` or by hand (see harness.mjs):
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/physics-engines.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ROOT, assertMatchesCli, bannerText, browserForThisFile, cliRun, openPage, readout, screenshot, waitReady } from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));
const browser = await browserForThisFile();

/** The engines of the registry, as `contactlab methods --json` lists them. */
async function registryEngines() {
  const { stdout } = await promisify(execFile)('cargo', ['run', '--quiet', '--release', '--bin', 'contactlab', '--', 'methods', '--json'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout).filter((/** @type {any} */ m) => m.kind === 'engine');
}

const ENGINES = await registryEngines();

/** Whether a request is for an engine: its adapter or its package. */
const isEngineRequest = (/** @type {string} */ url) => /\/engines\/|\/pkg\/engines\//.test(new URL(url).pathname);

test('the registry has the five engines', () => {
  assert.deepEqual(ENGINES.map((/** @type {any} */ e) => e.id).sort(), ['bullet', 'jolt', 'mujoco', 'physx', 'rapier']);
});

test('the default page fetches no engine, and lists the engines in a group of their own', { timeout: 120_000 }, async () => {
  const { page, context, problems, requests } = await openPage(browser);
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    const engineRequests = requests.filter(isEngineRequest);
    assert.deepEqual(engineRequests, [], 'the default page fetched engine files');
    const group = await page.$$eval('#method-picker option[data-kind="engine"]', (options) => options.map((o) => /** @type {HTMLOptionElement} */ (o).value));
    assert.deepEqual(group, ENGINES.map((/** @type {any} */ e) => e.id));
    assert.equal(await page.locator('#engine-mode').isHidden(), true, 'the engine switch shows for a method');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const engine of ENGINES) {
  test(`a link with method=${engine.id} shows the numbers contactlab run prints for ${engine.name}`, { timeout: 300_000 }, async () => {
    const cli = await cliRun(['pillar', '--method', engine.id, '--steps', '3']);
    const { page, context, problems, requests } = await openPage(browser, `#scene=pillar&method=${engine.id}&step=3`);
    try {
      await waitReady(page, { scene: 'pillar', method: engine.id, step: 3 });
      assertMatchesCli(await readout(page), cli);
      assert.ok(requests.some((url) => url.includes(`/pkg/engines/${engine.package}/`)), `no request for ${engine.package}`);
      assert.equal(await page.locator('#engine-mode').isVisible(), true);
      assert.equal(await page.locator('#engine-mode').inputValue(), 'ours');
      if (engine.id === 'jolt') await screenshot(page, `${OUTPUT_DIR}engine-jolt.png`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test("an engine's own run opens from its link, measured at its own poses from step 0", { timeout: 300_000 }, async () => {
  const cli = await cliRun(['pillar', '--method', 'mujoco', '--engine', 'own', '--steps', '3']);
  const { page, context, problems } = await openPage(browser, '#scene=pillar&method=mujoco&engine=own&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'mujoco', step: 3 });
    assert.equal(await page.locator('#engine-mode').inputValue(), 'own');
    // The engine's own run has no solve of ours: the CLI's record leaves
    // kinetic energy, iterations and residual out, and the rest agrees.
    assert.equal(cli.kinetic_energy, undefined);
    assert.ok(cli.count > 0, 'MuJoCo found no contacts at step 3 of its own run');
    assertMatchesCli(await readout(page), cli);
    assert.match(await page.evaluate(() => window.location.hash), /engine=own/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
  // Its step 0 is the engine's contacts at the initial pose, measured.
  const { stdout } = await promisify(execFile)('cargo', ['run', '--quiet', '--release', '--bin', 'contactlab', '--', 'run', 'pillar', '--method', 'mujoco', '--engine', 'own', '--steps', '1', '--json'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const start = JSON.parse(stdout.split('\n')[0]);
  assert.equal(start.step, 0);
  const fresh = await openPage(browser, '#scene=pillar&method=mujoco&engine=own&step=0');
  try {
    await waitReady(fresh.page, { scene: 'pillar', method: 'mujoco', step: 0 });
    assertMatchesCli(await readout(fresh.page), start);
    assert.deepEqual(fresh.problems, []);
  } finally {
    await fresh.context.close();
  }
});

test('an engine whose package the site lacks says how to get it, and the page keeps working', { timeout: 120_000 }, async () => {
  const { page, context } = await openPage(browser);
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    await page.route('**/pkg/engines/jolt-physics/**', (route) => route.fulfill({ status: 404, body: 'not here' }));
    await page.selectOption('#method-picker', 'jolt');
    await page.waitForFunction(() => !(/** @type {HTMLElement} */ (document.getElementById('error-banner')).hidden), null, { timeout: 60_000 });
    assert.match(await bannerText(page, 'error-banner'), /npm package jolt-physics@1\.1\.0/);
    // The run shown before stays, and the page goes on with a method.
    const state = await page.evaluate(() => ({ ...document.body.dataset }));
    assert.equal(state.method, 'opposing', 'the page left the run it showed');
    await page.click('#error-banner .dismiss');
    await page.selectOption('#method-picker', 'growth');
    await waitReady(page, { scene: 'pillar', method: 'growth' });
  } finally {
    await context.close();
  }
});

test('Compare runs the engines only when asked, then gives each a row with numbers', { timeout: 600_000 }, async () => {
  const { page, context, problems, requests } = await openPage(browser, '#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    const rowNames = () => page.$$eval('#compare-table tbody tr', (rows) => rows.map((tr) => /** @type {HTMLElement} */ (tr.children[0]).textContent ?? ''));
    await page.fill('#compare-steps', '1');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 300_000 });
    const without = await rowNames();
    assert.ok(ENGINES.every((/** @type {any} */ e) => !without.includes(e.name)), `engine rows without asking: ${without}`);
    assert.deepEqual(requests.filter(isEngineRequest), [], 'Compare fetched engines without being asked');
    await page.check('#compare-engines');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 300_000 });
    const rows = await page.$$eval('#compare-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
    for (const engine of ENGINES) {
      const row = rows.find((cells) => cells[0] === engine.name);
      assert.ok(row, `no Compare row for ${engine.name}`);
      assert.match(row[1], /^\d+$/, `${engine.name}'s row: ${row}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('each engine shows its contacts on every scene, with the full readout', { timeout: 1_800_000 }, async () => {
  const { page, context, problems } = await openPage(browser, '#scene=pillar&method=opposing');
  try {
    await waitReady(page, { scene: 'pillar' });
    const scenes = await page.$$eval('#scene-picker option', (options) => options.map((option) => /** @type {HTMLOptionElement} */ (option).value));
    const keys = Object.keys(await readout(page));
    for (const engine of ENGINES) {
      await page.selectOption('#method-picker', engine.id);
      await waitReady(page, { method: engine.id });
      for (const scene of scenes) {
        await page.selectOption('#scene-picker', scene);
        await page.waitForFunction((scene) => document.body.dataset.scene === scene, scene, { timeout: 90_000 });
        await waitReady(page, { scene, method: engine.id });
        const shown = await readout(page);
        assert.deepEqual(Object.keys(shown), keys, `${engine.id} on ${scene}: the readout lost or gained a value`);
        assert.match(shown.count, /^\d+$/, `${engine.id} on ${scene}: count "${shown.count}"`);
        assert.notEqual(await page.evaluate(() => document.body.dataset.step), '0', `${engine.id} on ${scene} did not step`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/**
 * The engines' rows of docs/results.md's "Pillar at simulation step 3
 * (table 7)" (its first, TetGen-mesh occurrence), by engine label.
 * @returns {Promise<Map<string, string[]>>}
 */
async function table7Rows() {
  const text = await readFile(`${ROOT}docs/results.md`, 'utf8');
  const start = text.indexOf('### Pillar at simulation step 3 (table 7)\n');
  assert.ok(start >= 0, 'docs/results.md has no table 7');
  const section = text.slice(start, text.indexOf('\n### ', start + 10));
  const rows = new Map();
  for (const line of section.split('\n').filter((l) => l.startsWith('| '))) {
    const cells = line.slice(2, -2).split(' | ');
    rows.set(cells[0], cells.slice(1));
  }
  return rows;
}

test("a link with each engine at table 7's settings shows that engine's row of docs/results.md", { timeout: 600_000 }, async () => {
  const rows = await table7Rows();
  /** The readout's number as the table writes it: `digits` decimals, or — when there is none. */
  const cell = (/** @type {string} */ text, /** @type {number} */ digits) => (text === 'null' || text === '' ? '—' : Number(text).toFixed(digits));
  for (const engine of ENGINES) {
    const row = rows.get(engine.label);
    assert.ok(row, `docs/results.md's table 7 has no row "${engine.label}"`);
    // The paper's lengths, as the tables (and the page's table-7 preset) use them.
    const { page, context, problems } = await openPage(browser, `#scene=pillar&method=${engine.id}&env=0.01&eps=0.01&step=3`);
    try {
      await waitReady(page, { scene: 'pillar', method: engine.id, step: 3 });
      const shown = await readout(page);
      const page7 = [cell(shown.quality, 1), shown.count, cell(shown.excess, 1), cell(shown.geo_quality, 1), cell(shown.geo_coverage, 1), cell(shown.geo_excess, 1)];
      assert.deepEqual(page7, row.slice(0, 6), `${engine.name}: the page shows ${page7}, docs/results.md ${row.slice(0, 6)}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
