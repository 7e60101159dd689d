// Browser tests of the playground page, run by `cargo xtask test` (which
// serves www/ and sets CONTACTLAB_URL and CHROMIUM) or by hand:
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/
// Chromium is Debian's; playwright-core never downloads a browser.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const BASE_URL = process.env.CONTACTLAB_URL || 'http://127.0.0.1:8000/';
const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));
const SCENES_DIR = fileURLToPath(new URL('../../scenes/', import.meta.url));
// Starting the wasm core and loading the largest scene in software GL.
const SCENE_TIMEOUT_MS = 30_000;

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

after(async () => {
  await browser?.close();
});

/**
 * Opens the page at `hash` in a fresh context and collects every console
 * error and uncaught exception (from the page and its worker).
 */
async function openPage(hash = '') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(new URL(hash, BASE_URL).href);
  return { page, context, problems };
}

/**
 * Waits until `sceneId`'s first frame is drawn, failing early (with the
 * banner's text) if the error banner appears instead.
 */
async function waitForScene(page, sceneId) {
  await page.waitForFunction(
    (id) =>
      (document.body.dataset.ready === 'true' && document.body.dataset.scene === id) ||
      !document.getElementById('error-banner').hidden,
    sceneId,
    { timeout: SCENE_TIMEOUT_MS },
  );
  await assertNoErrorBanner(page);
  assert.equal(await page.evaluate(() => document.body.dataset.scene), sceneId);
}

async function assertNoErrorBanner(page) {
  const banner = await page.evaluate(() => {
    const element = document.getElementById('error-banner');
    return element.hidden ? null : element.textContent.trim();
  });
  assert.equal(banner, null, `error banner shown: ${banner}`);
}

/**
 * Reads the canvas back (the context keeps its drawing buffer) and
 * summarises it: distinct colours, and how much of the central tenth
 * differs from the background colour in the top-left corner.
 */
async function canvasStats(page) {
  return page.evaluate(() => {
    const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
    const { width, height } = canvas;
    const copy = document.createElement('canvas');
    copy.width = width;
    copy.height = height;
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const { data } = context.getImageData(0, 0, width, height);
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    const background = [data[0], data[1], data[2]];
    let differing = 0;
    let total = 0;
    for (let y = Math.floor(height * 0.45); y < Math.ceil(height * 0.55); y++) {
      for (let x = Math.floor(width * 0.45); x < Math.ceil(width * 0.55); x++) {
        const i = (y * width + x) * 4;
        const distance = Math.abs(data[i] - background[0]) + Math.abs(data[i + 1] - background[1]) + Math.abs(data[i + 2] - background[2]);
        if (distance > 24) differing++;
        total++;
      }
    }
    return { width, height, distinctColours: colours.size, centreDiffering: differing / total, background };
  });
}

test('the default page draws the Pillar without errors', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await openPage();
  try {
    await waitForScene(page, 'pillar');
    const stats = await canvasStats(page);
    assert.ok(stats.width > 300 && stats.height > 300, `canvas too small: ${stats.width}×${stats.height}`);
    assert.ok(stats.distinctColours > 50, `canvas looks blank: ${stats.distinctColours} distinct colours`);
    assert.ok(
      stats.centreDiffering > 0.2,
      `the centre of the view is mostly background (${(stats.centreDiffering * 100).toFixed(1)}% differs)`,
    );
    assert.equal(await page.locator('#scene-title').textContent(), 'Pillar');
    await mkdir(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: `${OUTPUT_DIR}pillar.png` });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every built-in scene loads and draws', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage();
  try {
    await waitForScene(page, 'pillar');
    const ids = await page.$$eval('#scene-picker option', (options) => options.map((option) => option.value));
    // The picker lists what the core has compiled in; it must be exactly
    // the scene files in scenes/.
    const files = (await readdir(SCENES_DIR)).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    assert.deepEqual([...ids].sort(), [...files].sort(), 'picker options differ from scenes/*.json');
    for (const id of ids) {
      await page.selectOption('#scene-picker', id);
      await waitForScene(page, id);
      assert.match(await page.evaluate(() => window.location.hash), new RegExp(`scene=${id}(&|$)`));
      const stats = await canvasStats(page);
      assert.ok(stats.distinctColours > 20, `${id}: canvas looks blank (${stats.distinctColours} colours)`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an unknown scene in the link shows a notice and falls back to the Pillar', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=no-such-scene');
  try {
    await waitForScene(page, 'pillar');
    const notice = page.locator('#notice');
    assert.ok(await notice.isVisible(), 'no notice shown');
    assert.match(await notice.textContent(), /no-such-scene/);
    assert.match(await page.evaluate(() => window.location.hash), /scene=pillar/);
    assert.equal(await page.locator('#scene-picker').inputValue(), 'pillar');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
