// Browser tests of issue 20, items 1-3: the link names what is on screen
// during Play too (and, issue 24, the solver: a link that names none runs
// the printed one), each change is one history entry that Back undoes, the
// Compare table says when it is stale and its exports carry every setting,
// and the table has room for all its columns at 1400 × 900. Run by hand:
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/trust-link.test.mjs
// Screenshots go to tests/e2e/output/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { browserForThisFile, openPage as open, screenshot, waitReady } from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));

const browser = await browserForThisFile();

/** Opens the page with the clipboard recorded in `window.copied` (headless Chromium has no clipboard to read). */
async function openPage(hash, viewport) {
  const opened = await open(browser, 'about:blank', viewport);
  await opened.page.addInitScript(() => {
    /** @type {any} */ (window).copied = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text) => /** @type {any} */ (window).copied.push(text) },
    });
  });
  await opened.page.goto(new URL(hash, process.env.CONTACTLAB_URL || 'http://127.0.0.1:8000/').href);
  return opened;
}

/** @param {string} link @returns {number} the link's step */
function stepOf(link) {
  const match = /[#&]step=(\d+)/.exec(link);
  assert.ok(match, `no step in ${link}`);
  return Number(match[1]);
}

/** The hash without the camera, which follows a drag without making history. */
const withoutCam = (hash) => hash.replace(/&cam=[^&]*/, '');

const hashOf = (page) => page.evaluate(() => window.location.hash);
const shownStep = async (page) => Number(await page.evaluate(() => document.body.dataset.step));

test('during Play the address bar and Copy link name the step on screen, and Play makes one history entry', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    const lengthBefore = await page.evaluate(() => history.length);
    await page.click('#play');
    await page.waitForFunction(() => Number(document.body.dataset.step) >= 25, null, { timeout: 120_000 });
    // The address bar follows within a few frames (it is written at most four times a second).
    await page.waitForTimeout(600);
    const [barStep, screenStep] = [stepOf(await hashOf(page)), await shownStep(page)];
    assert.ok(barStep > 3 && screenStep - barStep <= 40, `while playing, the address bar says step ${barStep}, the screen shows ${screenStep}`);
    const before = await shownStep(page);
    await page.click('#copy-link');
    await page.waitForFunction(() => /** @type {any} */ (window).copied.length > 0);
    const copied = await page.evaluate(() => /** @type {any} */ (window).copied[0]);
    const afterCopy = await shownStep(page);
    assert.ok(stepOf(copied) >= before && stepOf(copied) <= afterCopy, `Copy link during Play gave step ${stepOf(copied)}; the screen showed ${before}…${afterCopy}`);
    await screenshot(page, `${OUTPUT_DIR}trust-link-playing.png`);
    await page.click('#play');
    await waitReady(page, { scene: 'pillar' });
    assert.equal(stepOf(await hashOf(page)), await shownStep(page), 'paused: the link names the step shown');
    assert.equal(await page.evaluate(() => history.length), lengthBefore + 1, 'a run of Play is one history entry');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a link that names no solver runs the printed one, a page opened without a link the default, and the link then names it', { timeout: 300_000 }, async () => {
  // A link of 0.5.0 or older names no solver: it ran the printed one.
  const old = await openPage('#scene=pillar&method=semi-local&step=3');
  try {
    await waitReady(old.page, { scene: 'pillar', method: 'semi-local', step: 3 });
    assert.equal(await old.page.inputValue('#solver-choice'), 'printed');
    assert.match(await old.page.locator('#human-solver').textContent(), /^1000 iterations/, 'the printed solver runs its 1000 sweeps');
    assert.match(await hashOf(old.page), /[#&]solver=printed(&|$)/, 'the address bar now names the solver it runs');
    assert.deepEqual(old.problems, []);
  } finally {
    await old.context.close();
  }
  const fresh = await openPage('');
  try {
    await waitReady(fresh.page, { scene: 'pillar', step: 3 });
    assert.equal(await fresh.page.inputValue('#solver-choice'), 'accelerated');
    assert.match(await hashOf(fresh.page), /[#&]solver=accelerated(&|$)/);
    // Semi-local's right contacts: the accelerated solver converges and stops.
    await fresh.page.selectOption('#method-picker', 'semi-local');
    await waitReady(fresh.page, { scene: 'pillar', method: 'semi-local', step: 3 });
    const iterations = Number(/^(\d+) iterations/.exec(await fresh.page.locator('#human-solver').textContent())?.[1]);
    assert.ok(iterations > 0 && iterations < 1000, `the accelerated solver stops when converged (${iterations} iterations)`);
    assert.deepEqual(fresh.problems, []);
  } finally {
    await fresh.context.close();
  }
});

test('each change is one history entry and Back undoes it without leaving the page', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    await page.evaluate(() => (/** @type {any} */ (window).sameDocument = true));
    const first = withoutCam(await hashOf(page));
    const length = await page.evaluate(() => history.length);

    await page.fill('#perturb-range', '0.01');
    await waitReady(page, { scene: 'pillar', step: 3 });
    const perturbed = withoutCam(await hashOf(page));
    assert.match(perturbed, /[#&]perturb=0\.01(&|$)/);
    await page.click('#step-once');
    await waitReady(page, { scene: 'pillar', step: 4 });
    await page.selectOption('#method-picker', 'semi-local');
    await waitReady(page, { scene: 'pillar', method: 'semi-local', step: 4 });
    assert.equal(await page.evaluate(() => history.length), length + 3, 'three changes, three history entries');

    await page.evaluate(() => history.back());
    await page.waitForFunction((hash) => window.location.hash.startsWith('#') && document.body.dataset.method === 'opposing', null, { timeout: 60_000 });
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 4 });
    await page.evaluate(() => history.back());
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    assert.equal(withoutCam(await hashOf(page)), perturbed, 'Back after a step shows the step before');
    await page.evaluate(() => history.back());
    await page.waitForFunction(() => !/perturb=0\.01/.test(window.location.hash), null, { timeout: 60_000 });
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    assert.equal(withoutCam(await hashOf(page)), first, 'Back after the perturbation shows the page as it was');
    assert.equal(await page.inputValue('#perturb-range'), '0', 'the slider follows Back');
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).sameDocument), true, 'Back left the page');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Compare is marked stale when a setting changes, reruns on request, and its exports carry every setting', { timeout: 600_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    await page.fill('#compare-steps', '1');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
    assert.equal(await page.isVisible('#compare-stale'), false, 'a fresh table is not stale');

    await page.fill('#perturb-range', '0.01');
    await waitReady(page, { scene: 'pillar', step: 3 });
    assert.equal(await page.isVisible('#compare-stale'), true, 'the table says nothing after the perturbation changed');
    assert.match(await page.locator('#compare-stale').textContent(), /stale/i);
    const opacity = await page.$eval('#compare-table', (table) => Number(getComputedStyle(table).opacity));
    assert.ok(opacity < 0.8, `a stale table is dimmed (opacity ${opacity})`);
    await screenshot(page, `${OUTPUT_DIR}trust-link-compare-stale.png`);

    await page.click('#compare-rerun');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
    assert.equal(await page.isVisible('#compare-stale'), false, 'a rerun table is not stale');

    // Every setting the settings panel offers (from the core's registry) is named in the exports, with the version.
    const labels = await page.$$eval('[data-setting] label', (labels) => labels.map((label) => label.textContent.trim()));
    assert.ok(labels.length >= 4, `settings: ${labels}`);
    const version = await page.evaluate(() => document.body.dataset.version);
    await page.click('#compare-copy');
    await page.waitForFunction(() => /** @type {any} */ (window).copied.length > 0);
    const markdown = await page.evaluate(() => /** @type {any} */ (window).copied.at(-1));
    for (const label of [...labels, 'Mesh']) assert.ok(markdown.toLowerCase().includes(label.toLowerCase()), `the Markdown does not name ${label}:\n${markdown}`);
    assert.match(markdown, /Perturbation[^\n]*0\.01/i);
    assert.ok(markdown.includes(version), 'the Markdown names no version');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#compare-csv')]);
    const csv = await readFile(await download.path(), 'utf8');
    const [header, row] = csv.split('\n');
    for (const key of ['scene', 'step', 'version', 'perturb', 'seed', 'dt', 'mesher']) assert.ok(header.split(',').some((h) => h.includes(key)), `the CSV has no ${key} column: ${header}`);
    assert.ok(row.split(',').includes('0.01'), `the CSV row carries no perturbation 0.01: ${row}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('at 1400 × 900 the Compare table shows all its columns, the paper\'s too, without a horizontal scroll', { timeout: 600_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    const option = await page.$eval('#preset-picker', (picker) => [...picker.options].find((o) => o.value.startsWith('table-8-sliding-spike'))?.value ?? null);
    assert.ok(option, 'no preset for table 8, Sliding spike');
    await page.selectOption('#preset-picker', option);
    await waitReady(page, { scene: 'sliding-spike', step: 1 });
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
    const heads = await page.$$eval('#compare-table thead th', (ths) => ths.map((th) => th.textContent));
    assert.ok(heads.some((head) => /^paper /.test(head)), `no paper columns: ${heads}`);
    await page.locator('#compare-table').scrollIntoViewIfNeeded();
    const layout = await page.evaluate(() => {
      const table = /** @type {HTMLElement} */ (document.getElementById('compare-table'));
      const scroller = /** @type {HTMLElement} */ (table.parentElement);
      const heads = [...table.querySelectorAll('thead th')].map((th) => th.getBoundingClientRect());
      return {
        scrolls: scroller.scrollWidth > scroller.clientWidth + 1,
        width: table.getBoundingClientRect().width,
        offscreen: heads.filter((r) => r.right > window.innerWidth || r.left < 0 || r.bottom > window.innerHeight || r.top < 0).length,
      };
    });
    await screenshot(page, `${OUTPUT_DIR}trust-link-compare-wide.png`);
    assert.equal(layout.scrolls, false, 'the table scrolls sideways');
    assert.ok(layout.width >= 600, `the table is ${layout.width} px wide`);
    assert.equal(layout.offscreen, 0, 'some column heads are outside the window');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
