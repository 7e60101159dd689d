// Browser tests of the playground page, run by `cargo xtask test` (which
// serves www/ and sets CONTACTLAB_URL and CHROMIUM) or by hand:
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/
// Chromium is Debian's; playwright-core never downloads a browser.
//
// The page marks its state on <body>: data-ready="true" while nothing is
// pending and the frame is drawn, data-scene, data-method and data-step for
// what is shown. The readout's exact values are elements with a
// data-readout attribute named like the CLI's JSON keys.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const BASE_URL = process.env.CONTACTLAB_URL || 'http://127.0.0.1:8000/';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));
const SCREENSHOT_DIR = `${ROOT}docs/screenshots/`;
const SCENES_DIR = `${ROOT}scenes/`;
// Starting the wasm core, loading the largest scene and running a few of
// its steps in software GL on a small machine.
const READY_TIMEOUT_MS = 90_000;
/** Readout keys that are timings: they differ from run to run. */
const TIMING_KEYS = ['ms_broad', 'ms_method', 'ms_solver'];

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
async function openPage(hash = '', viewport = { width: 1400, height: 900 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A reload cancels what the page was still fetching; that is no fault.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(new URL(hash, BASE_URL).href);
  return { page, context, problems };
}

/**
 * Waits until the page is idle with the given scene, method and step shown,
 * failing early (with the banner's text) if the error banner appears.
 * @param {import('playwright-core').Page} page
 * @param {{scene?: string, method?: string, step?: number}} expected
 */
async function waitReady(page, expected = {}) {
  await page.waitForFunction(
    ({ scene, method, step }) => {
      const body = document.body.dataset;
      if (!document.getElementById('error-banner').hidden) return true;
      return (
        body.ready === 'true' &&
        (scene === undefined || body.scene === scene) &&
        (method === undefined || body.method === method) &&
        (step === undefined || body.step === String(step))
      );
    },
    expected,
    { timeout: READY_TIMEOUT_MS },
  );
  await assertNoErrorBanner(page);
}

async function assertNoErrorBanner(page) {
  assert.equal(await bannerText(page, 'error-banner'), null, 'error banner shown');
}

/** The text of a banner strip, or null when it is hidden. */
async function bannerText(page, id) {
  return page.evaluate((id) => {
    const element = document.getElementById(id);
    return element.hidden ? null : element.querySelector('.message').textContent.trim();
  }, id);
}

/** Every data-readout element's text, by key. */
async function readout(page) {
  return page.$$eval('[data-readout]', (elements) => Object.fromEntries(elements.map((e) => [e.dataset.readout, e.textContent])));
}

/** The readout without the timings, which differ from run to run. */
async function stableReadout(page) {
  const values = await readout(page);
  for (const key of TIMING_KEYS) delete values[key];
  return values;
}

/** Runs from step 0 to `step` with the page's controls. */
async function resetAndRunTo(page, step) {
  await page.click('#reset');
  await waitReady(page, { step: 0 });
  await page.fill('#run-to-step', String(step));
  await page.click('#run-to');
  await waitReady(page, { step });
}

/**
 * The last JSON line of `contactlab run <args> --json`, from the release
 * build cargo keeps up to date (so it matches the sources the wasm was built
 * from).
 */
async function cliRun(args) {
  const run = promisify(execFile);
  const { stdout } = await run('cargo', ['run', '--quiet', '--release', '--bin', 'contactlab', '--', 'run', ...args, '--json'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 900_000,
  });
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/**
 * Reads the canvas back (the context keeps its drawing buffer) and
 * summarises it: distinct colours, how much of the central tenth differs
 * from the background, and the position of a strongly green pixel (a
 * correct contact), if any.
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
    let green = null;
    for (let i = 0; i < data.length; i += 4) {
      colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      if (!green && data[i + 1] > 120 && data[i + 1] > data[i] * 2.2 && data[i + 1] > data[i + 2] * 1.6) {
        const pixel = i / 4;
        green = { x: pixel % width, y: Math.floor(pixel / width) };
      }
    }
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
    const ratio = canvas.clientWidth / width;
    return {
      width,
      height,
      distinctColours: colours.size,
      centreDiffering: differing / total,
      green: green && { x: green.x * ratio, y: green.y * ratio },
    };
  });
}

/** Saves a screenshot of the whole page for a person to look at. */
async function screenshot(page, path) {
  await mkdir(path.replace(/[^/]+$/, ''), { recursive: true });
  // Controls used by the test may have scrolled the panels; show their tops.
  await page.evaluate(() => {
    /** @type {HTMLElement} */ (document.activeElement)?.blur();
    for (const panel of document.querySelectorAll('.panel')) panel.scrollTop = 0;
  });
  await page.screenshot({ path });
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
    await screenshot(page, `${OUTPUT_DIR}pillar.png`);

    // Play runs until paused; the readout follows.
    await page.click('#play');
    await page.waitForFunction(() => Number(document.body.dataset.step) >= 2, null, { timeout: READY_TIMEOUT_MS });
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
    assert.match(await page.evaluate(() => window.location.hash), /wrong=1&features=1/);
    await page.dblclick('#view');
    await waitReady(page);
    assert.match(await page.evaluate(() => window.location.hash), /cam=[-\d.e]+(,[-\d.e]+){5}/);

    // Help opens at the current method.
    await page.click('button[data-help="method"]');
    assert.ok(await page.locator('#help-dialog').isVisible());
    assert.match(await page.locator('#help-dialog .help-entry.current').textContent(), /Opposing/);
    await page.click('#help-dialog .help-close button');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a link to the Pillar at step 3 shows the numbers the CLI prints', { timeout: 900_000 }, async (t) => {
  const cli = await cliRun(['pillar', '--method', 'opposing', '--steps', '3']);
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    const shown = await readout(page);
    for (const key of ['step', 'count', 'quality', 'excess']) {
      assert.equal(shown[key], String(cli[key]), `${key}: page ${shown[key]}, CLI ${cli[key]}`);
    }
    // The rest should agree too; a difference in the last digits is a
    // wasm/native floating-point difference worth knowing about.
    const differing = Object.keys(cli).filter((key) => !TIMING_KEYS.includes(key) && shown[key] !== String(cli[key]));
    if (differing.length > 0) t.diagnostic(`page and CLI differ in ${differing.map((k) => `${k} (${shown[k]} vs ${cli[k]})`).join(', ')}`);

    // Hovering a correct contact shows its details.
    const stats = await canvasStats(page);
    assert.ok(stats.green, 'no green (correct) contact drawn');
    const box = await page.locator('#view').boundingBox();
    let tooltip = null;
    for (const [dx, dy] of [[0, 0], [2, 0], [-2, 0], [0, 2], [0, -2], [3, 3]]) {
      await page.mouse.move(box.x + stats.green.x + dx, box.y + stats.green.y + dy);
      if (await page.locator('#tooltip').isVisible()) {
        tooltip = await page.locator('#tooltip').textContent();
        break;
      }
    }
    assert.ok(tooltip, 'no tooltip when hovering a contact');
    assert.match(tooltip, /q/);
    assert.match(tooltip, /correct/);
    await page.mouse.move(box.x + 5, box.y + 5);

    await page.fill('#explode', '0.35');
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    assert.match(await page.evaluate(() => window.location.hash), /explode=0.35/);
    await screenshot(page, `${SCREENSHOT_DIR}pillar-opposing-step3.png`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every slider changes the hash and the readout, and the link reproduces the readout', { timeout: 600_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=closest-points&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'closest-points', step: 3 });
    let before = await stableReadout(page);
    // [slider id, hash key, new value, use the typed field instead of the slider]
    const moves = [
      // First, while Closest points gets 90 % right at 1°.
      ['tolerance', 'tol', '0.1', true],
      ['perturb', 'perturb', '0.01', false],
      ['dt', 'dt', '0.005', true],
      ['iterations', 'iters', '200', false],
      ['friction', 'mu', '0.2', false],
      ['epsilon', 'eps', '0.02', true],
      ['refine', 'refine', '1', false],
    ];
    for (const [id, key, value, typed] of moves) {
      if (typed) {
        await page.fill(`#${id}-value`, value);
        await page.press(`#${id}-value`, 'Tab');
      } else {
        await page.fill(`#${id}-range`, value);
      }
      await waitReady(page);
      const hash = await page.evaluate(() => window.location.hash);
      assert.match(hash, new RegExp(`[#&]${key}=${value.replace('.', '\\.')}(&|$)`), `${id}: hash ${hash}`);
      await resetAndRunTo(page, 3);
      const after = await stableReadout(page);
      assert.notDeepEqual(after, before, `${id}: the readout did not change`);
      before = after;
    }
    await page.reload();
    await waitReady(page, { scene: 'pillar', step: 3 });
    assert.deepEqual(await stableReadout(page), before, 'the reloaded link shows different numbers');
    assert.equal(await page.locator('#refine-value').inputValue(), '1');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every scene with every method runs 10 steps without an error', { timeout: 1_200_000 }, async () => {
  const { page, context, problems } = await openPage();
  try {
    await waitReady(page, { scene: 'pillar' });
    const scenes = await page.$$eval('#scene-picker option', (options) => options.map((option) => option.value));
    // The picker lists what the core has compiled in; it must be exactly
    // the scene files in scenes/.
    const files = (await readdir(SCENES_DIR)).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    assert.deepEqual([...scenes].sort(), [...files].sort(), 'picker options differ from scenes/*.json');
    const methods = await page.$$eval('#method-picker option', (options) => options.map((option) => option.value));
    assert.equal(methods.length, 9, `expected the 8 methods and the reference: ${methods}`);
    for (const scene of scenes) {
      await page.selectOption('#scene-picker', scene);
      // Picking a scene runs it to its measure step (from its scene file).
      const measureStep = JSON.parse(await readFile(`${SCENES_DIR}${scene}.json`, 'utf8')).settings?.measure_step ?? 3;
      await waitReady(page, { scene, step: measureStep });
      assert.match(await page.evaluate(() => window.location.hash), new RegExp(`scene=${scene}(&|$)`));
      const stats = await canvasStats(page);
      assert.ok(stats.distinctColours > 20, `${scene}: canvas looks blank (${stats.distinctColours} colours)`);
      for (const method of methods) {
        await page.selectOption('#method-picker', method);
        await waitReady(page, { scene, method });
        await resetAndRunTo(page, 10);
        const shown = await readout(page);
        assert.equal(shown.step, '10', `${scene} × ${method}`);
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
    for (const name of ['no-such-scene', 'method', 'perturb', 'step', 'cam', 'bogus']) assert.match(notice, new RegExp(name), `the notice does not name ${name}`);
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /scene=pillar/);
    assert.match(hash, /perturb=0(&|$)/);
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
    assert.match(await bannerText(page, 'error-banner'), /scene file/);
    await page.click('#error-banner .dismiss');
    assert.equal(await page.locator('#scene-picker').inputValue(), 'spikes');
    assert.equal(await page.locator('#scene-title').textContent(), 'Spikes');
    await page.click('#step-once');
    await waitReady(page, { scene: 'spikes', step: 1 });

    // A good file: the sliding spike under another name.
    const text = (await readFile(`${SCENES_DIR}sliding-spike.json`, 'utf8')).replace('"Sliding spike"', '"My sliding spike"').replace('"sliding-spike"', '"my-spike"');
    await page.setInputFiles('#file-input', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await waitReady(page, { scene: '__file__', step: 0 });
    assert.equal(await page.locator('#scene-title').textContent(), 'My sliding spike');
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
    const methods = await page.$$eval('#method-picker option', (options) => options.map((option) => option.value));
    assert.equal(await page.locator('#compare-steps').inputValue(), '1', 'compare should default to the scene\'s measure step');
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

test('screenshots of the wall, the arch and the spike in the hole show their contacts', { timeout: 600_000 }, async () => {
  const shots = [
    ['wall', '#scene=wall&method=opposing&step=3&explode=0.25'],
    ['arch', '#scene=arch&method=opposing&step=3&explode=0.3'],
    ['spike-in-hole', '#scene=spike-in-hole&method=opposing&step=5&explode=0.3&cam=0.55,0.75,3.6,0,0.5,0'],
  ];
  for (const [scene, hash] of shots) {
    const { page, context, problems } = await openPage(hash);
    try {
      await waitReady(page, { scene, step: Number(hash.match(/step=(\d+)/)[1]) });
      assert.ok(Number((await readout(page)).count) > 0, `${scene}: no contacts`);
      await screenshot(page, `${SCREENSHOT_DIR}${scene}.png`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('#bench mode writes per-step timings', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage('#bench&scene=sliding-spike&method=opposing&steps=4&iters=100');
  try {
    await page.waitForSelector('#bench-result[data-done="true"]', { timeout: READY_TIMEOUT_MS });
    const result = JSON.parse(await page.locator('#bench-result').textContent());
    assert.equal(result.scene, 'sliding-spike');
    assert.equal(result.method, 'opposing');
    assert.equal(result.steps, 4);
    for (const key of TIMING_KEYS) {
      assert.equal(result[key].length, 4, key);
      assert.ok(result[key].every(Number.isFinite), key);
    }
    assert.ok(result.first_frame_ms > 0);
    assert.equal(await bannerText(page, 'notice'), null, 'bench parameters gave a notice');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
