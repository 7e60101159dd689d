// Browser tests of the page without WebGL2 (issue 29, "Numbers without
// WebGL2"): a browser that gives the page no WebGL (Firefox ESR on a
// software-only GL, a school laptop without a GPU driver, WebGL turned off)
// still gets every number, plot, Compare, link, export and lesson; the
// view's place says why it is empty and what to do, and View PNG and Present
// say why they are off.
//
// Two ways to take WebGL away:
// - an init script that makes `HTMLCanvasElement.prototype.getContext`
//   return null for 'webgl2', 'webgl' and 'experimental-webgl' — what a
//   browser that refuses a context does, and independent of the Chromium
//   build and its GPU flags (headless Chromium with --disable-gpu still
//   offers WebGL2 through SwiftShader), so it is the main test;
// - Chromium's own `--disable-webgl` switch (the browser setting), in a
//   shorter second test, to be sure the page sees what a real browser says.
//
// Run by hand: CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/no-webgl.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { BASE_URL, READY_TIMEOUT_MS, ROOT, assertMatchesCli, browserForThisFile, cliRun, collectProblems, readout, screenshot, waitReady } from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));
const VIEWPORT = { width: 1400, height: 900 };

const browser = await browserForThisFile();

/** Runs in the page before its scripts: no canvas gives a WebGL context. */
function refuseWebgl() {
  const getContext = HTMLCanvasElement.prototype.getContext;
  /** @this {HTMLCanvasElement} */
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    if (kind === 'webgl2' || kind === 'webgl' || kind === 'experimental-webgl') return null;
    return getContext.call(this, kind, ...rest);
  };
  // Neither driver reads the system clipboard: record what the page writes there.
  /** @type {any} */ (window).copied = [];
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text) => /** @type {any} */ (window).copied.push(text) } });
}

/**
 * Opens the page at `hash` in a fresh context of `on` whose canvases give no WebGL.
 * @param {import('playwright-core').Browser} on
 * @param {string} hash
 */
async function openWithoutWebgl(on, hash) {
  const context = await on.newContext({ viewport: VIEWPORT, acceptDownloads: true });
  await context.addInitScript(refuseWebgl);
  const page = await context.newPage();
  const problems = collectProblems(page);
  await page.goto(new URL(hash, BASE_URL).href);
  return { page, context, problems };
}

/** The explanation in the view's place, the Present and View PNG buttons as the accessibility tree has them. */
async function assertViewOffExplained(page) {
  const note = page.locator('#no-webgl');
  assert.ok(await note.isVisible(), 'the view\'s place does not say why it is empty');
  const text = (await note.textContent()).replace(/\s+/g, ' ');
  assert.match(text, /WebGL2/, text);
  assert.match(text, /every number/i, `the note should say what still works: ${text}`);
  assert.match(text, /hardware acceleration|graphics driver|another browser/i, `the note should say what to do: ${text}`);
  assert.equal(await page.locator('#view').isVisible(), false, 'an empty canvas is still shown (and focusable)');
  for (const id of ['present', 'export-png']) {
    const button = page.locator(`#${id}`);
    assert.ok(await button.isDisabled(), `#${id} is not disabled`);
    const snapshot = await button.ariaSnapshot();
    assert.match(snapshot, /disabled/, `#${id}: ${snapshot}`);
    // The reason is the button's accessible description, from visible text.
    const description = await button.evaluate((element) => {
      const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      return ids.map((ref) => {
        const target = document.getElementById(ref);
        return target && target.checkVisibility() ? target.textContent : '';
      }).join(' ');
    });
    assert.match(description, /WebGL2/, `#${id} has no visible reason as its description ("${description}")`);
  }
}

/** axe with the WCAG 2.2 AA tags, from the local copy. */
async function axeViolations(page) {
  await page.addScriptTag({ path: `${ROOT}node_modules/axe-core/axe.min.js` });
  const result = await page.evaluate(() => /** @type {any} */ (window).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Whether a 2D canvas has more than one colour. */
function plotDrawn(page, id) {
  return page.evaluate((id) => {
    const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById(id));
    if (!canvas || canvas.width === 0 || canvas.height === 0) return false;
    const { data } = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d')).getImageData(0, 0, canvas.width, canvas.height);
    for (let i = 4; i < data.length; i += 4) {
      if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2] || data[i + 3] !== data[3]) return true;
    }
    return false;
  }, id);
}

test('without WebGL2 every number, plot, Compare, link, export and lesson still works', { timeout: 600_000 }, async () => {
  const hash = '#scene=pillar&method=opposing&step=3&view=wireframe&cam=0.7,0.4,3,0,0.5,0';
  const { page, context, problems } = await openWithoutWebgl(browser, hash);
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    // The scene picker fills from the core's catalogue.
    const scenes = await page.$$eval('#scene-picker option', (options) => options.map((o) => o.value).filter((v) => v !== ''));
    assert.ok(scenes.includes('pillar') && scenes.length >= 10, `scene picker: ${scenes.join(', ')}`);
    assert.equal(await page.locator('#scene-picker').isDisabled(), false);
    // The readout is the CLI's.
    assertMatchesCli(await readout(page), await cliRun(['pillar', '--method', 'opposing', '--steps', '3']));
    await assertViewOffExplained(page);
    // The plots are 2D canvases: drawn.
    await page.waitForFunction(() => document.getElementById('plot-sorted')?.width > 0);
    for (const id of ['plot-sorted', 'plot-count']) assert.ok(await plotDrawn(page, id), `${id} is blank`);
    // The view told in words and the keyboard's contact list.
    assert.match(await page.locator('#view-words-summary').textContent(), /contact/i);
    assert.ok((await page.locator('#contact-browser').count()) === 1, 'no contact list');
    assert.ok(await page.locator('#contact-browser').isVisible(), 'the contact list is hidden');
    await screenshot(page, `${OUTPUT_DIR}no-webgl.png`);

    // Copy link keeps the link's view keys as given, though no view shows them.
    await page.click('#copy-link');
    const [link] = await page.waitForFunction(() => /** @type {any} */ (window).copied.length > 0 && /** @type {any} */ (window).copied).then((h) => h.jsonValue());
    const params = new URLSearchParams(new URL(link).hash.slice(1));
    assert.equal(params.get('scene'), 'pillar', link);
    assert.equal(params.get('step'), '3', link);
    assert.equal(params.get('cam'), '0.7,0.4,3,0,0.5,0', link);
    assert.equal(params.get('view'), 'wireframe', link);

    // Contacts CSV downloads.
    const count = Number((await readout(page)).count);
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const csv = (await readFile(await csvDownload.path(), 'utf8')).trim().split('\n');
    assert.equal(csv.length, count + 1);

    // Step and Play.
    await page.click('#step-once');
    await waitReady(page, { scene: 'pillar', step: 4 });
    await page.click('#play');
    await page.waitForFunction(() => Number(document.body.dataset.step) >= 6, null, { timeout: READY_TIMEOUT_MS });
    await page.click('#play');
    await waitReady(page);
    const step = Number(await page.evaluate(() => document.body.dataset.step));
    assert.equal((await readout(page)).step, String(step));

    // Compare fills its table.
    await page.fill('#compare-steps', '2');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 300_000 });
    const rows = await page.locator('#compare-table tbody tr').count();
    assert.ok(rows >= 5, `compare shows ${rows} rows`);
    assert.equal(await page.locator('#compare-table .error-cell').count(), 0, 'a method failed in compare');

    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], violations.join('\n'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('without WebGL2 a lesson opens and steps', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openWithoutWebgl(browser, '#lesson=cliff-edge');
  try {
    await page.waitForSelector('#lesson-panel', { state: 'visible', timeout: READY_TIMEOUT_MS });
    await page.waitForFunction(() => document.getElementById('lesson-panel').dataset.step === '1', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page);
    assert.ok((await page.locator('#lesson-title').textContent()).trim() !== '');
    assert.ok(Number((await readout(page)).count) >= 0);
    await page.click('#lesson-next');
    await page.waitForFunction(() => document.getElementById('lesson-panel').dataset.step === '2', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page);
    assert.ok(await page.locator('#no-webgl').isVisible(), 'the view\'s place does not say why it is empty in a lesson');
    await screenshot(page, `${OUTPUT_DIR}no-webgl-lesson.png`);
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], violations.join('\n'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('with Chromium\'s --disable-webgl the page shows the numbers and says why the view is off', { timeout: 300_000 }, async () => {
  const noWebgl = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-webgl', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await noWebgl.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    const problems = collectProblems(page);
    await page.goto(new URL('#scene=pillar&method=opposing&step=3', BASE_URL).href);
    assert.equal(await page.evaluate(() => document.createElement('canvas').getContext('webgl2')), null, 'the switch left WebGL2 on');
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    assertMatchesCli(await readout(page), await cliRun(['pillar', '--method', 'opposing', '--steps', '3']));
    await assertViewOffExplained(page);
    // On a small phone the note scrolls in the view's place (and can be reached to scroll it).
    await page.setViewportSize({ width: 320, height: 480 });
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], violations.join('\n'));
    assert.deepEqual(problems, []);
  } finally {
    await noWebgl.close();
  }
});
