// Browser tests of the numbers and labels a class and a shared link must be
// able to trust (issue 20, items 4, 5, 9 and 10): a visitor's scene file is
// named as theirs and opens with its own settings, with a warning when its
// bodies overlap; "penetration" is the bodies' real overlap, the method's
// own depth labelled as such; a link to a far step shows the scene at once
// and advances with progress; the README quotes what the page shows.
// Run as page.test.mjs is (see harness.mjs):
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/trust-data.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { READY_TIMEOUT_MS, ROOT, SCENES_DIR, bannerText, browserForThisFile, canvasStats, openPage as open, readout, screenshot, waitReady } from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));

const browser = await browserForThisFile();

/** @param {string} [hash] */
function openPage(hash = '') {
  return open(browser, hash);
}

/** The text of an element, trimmed. */
async function text(page, selector) {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}

/**
 * The Arch as a visitor edits it: the same title and description, and the
 * stone `pier-left-1` moved 0.5 m down into `pier-left-0`.
 */
async function editedArch() {
  const scene = JSON.parse(await readFile(`${SCENES_DIR}arch.json`, 'utf8'));
  const stone = scene.bodies.find((body) => body.name === 'pier-left-1');
  // 0.2 m into the stone below: an overlap the page loads with a notice.
  // (Sunk past its middle, it would be refused as deep: issue 25.)
  stone.position[1] -= 0.2;
  return { scene, text: JSON.stringify(scene, null, 2) };
}

test('a scene file opens as the visitor\'s own, with its own settings, and warns of overlapping bodies', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=arch&method=opposing&perturb=0.02&seed=3');
  try {
    await waitReady(page, { scene: 'arch', step: 3 });
    const builtin = { title: await text(page, '#scene-title'), description: await text(page, '#scene-description') };
    assert.equal(builtin.title, 'Arch');

    const { text: arch } = await editedArch();
    await page.setInputFiles('#file-input', { name: 'arch.json', mimeType: 'application/json', buffer: Buffer.from(arch) });
    await page.waitForFunction(() => document.body.dataset.scene === '__file__', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: '__file__' });

    // Named as the visitor's file, never as the built-in Arch with its
    // description.
    const title = await text(page, '#scene-title');
    const group = await text(page, '#scene-group');
    const description = await text(page, '#scene-description');
    assert.match(`${group} ${title}`, /arch\.json/, `the file's name is not shown: "${group}" / "${title}"`);
    assert.match(`${group} ${title}`, /your file/i);
    assert.notEqual(title, builtin.title, 'the file is shown under the built-in scene\'s name');
    assert.notEqual(description, builtin.description, 'the file is shown with the built-in scene\'s description');
    assert.match(await text(page, '#scene-picker option:checked'), /arch\.json/);

    // Its own settings: the previous case's perturbation and seed are gone.
    const hash = await page.evaluate(() => window.location.hash);
    assert.doesNotMatch(hash, /[#&]perturb=0\.02(&|$)/, `the file inherited the perturbation: ${hash}`);
    assert.doesNotMatch(hash, /[#&]seed=3(&|$)/, `the file inherited the seed: ${hash}`);
    assert.match(hash, /[#&]method=opposing(&|$)/, 'the method shown stays');

    // The overlap is named, with the bodies and the depth, and the file
    // still loads.
    const notice = (await bannerText(page, 'notice')) ?? '';
    assert.match(notice, /pier-left-0/, `no overlap warning: "${notice}"`);
    assert.match(notice, /pier-left-1/);
    assert.match(notice, /0\.200 m/);
    await screenshot(page, `${OUTPUT_DIR}trust-scene-file.png`);

    // A title is text, never markup.
    const { scene } = await editedArch();
    scene.title = '<img src=x onerror="window.injected=1">Mine';
    scene.description = '<b>bold</b> claims';
    await page.setInputFiles('#file-input', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scene)) });
    await page.waitForFunction(() => document.getElementById('scene-title').textContent.includes('Mine'), null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: '__file__' });
    assert.match(await text(page, '#scene-title'), /<img src=x/);
    assert.equal(await page.locator('#scene-title img, #scene-description b, #scene-group img').count(), 0);
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).injected), undefined);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the readout\'s penetration is the bodies\' real overlap; the method\'s depth is labelled as its estimate', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=wall&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'wall', method: 'opposing', step: 3 });
    const values = await readout(page);
    assert.ok('penetration' in values, 'the readout has no "penetration"');
    const penetration = Number(values.penetration);
    assert.ok(Number.isFinite(penetration) && penetration >= 0 && penetration < 1e-4, `the untouched Wall overlaps by ${values.penetration} m`);
    // Opposing's own depths on the Wall are a third of a metre: shown, but as its estimate.
    assert.ok(Number(values.min_depth) < -0.1, `min_depth ${values.min_depth}`);
    const rows = await page.$$eval('.readout-row', (elements) => elements.map((row) => ({ label: row.querySelector('dt').textContent.trim(), value: row.querySelector('dd').textContent.trim() })));
    const overlapRow = rows.find((row) => /penetration|overlap/i.test(row.label) && !/estimate/i.test(row.label));
    assert.ok(overlapRow, `no overlap row in ${JSON.stringify(rows.map((r) => r.label))}`);
    assert.match(overlapRow.value, /µm|e-\d|^0 m/, `the overlap row shows "${overlapRow.value}"`);
    const estimateRow = rows.find((row) => /method's depth estimate/i.test(row.label));
    assert.ok(estimateRow, `the method's depth is not labelled as its estimate: ${JSON.stringify(rows.map((r) => r.label))}`);
    assert.match(estimateRow.value, /0\.31|3\.1\d*e-1/);
    await screenshot(page, `${OUTPUT_DIR}trust-penetration.png`, '#readout');

    // A stone sunk 2 µm into the ground: micrometres after a step, not a
    // method's estimate.
    const text = JSON.stringify({
      format: 'contactlab-scene/1',
      id: 'sunk',
      gravity: [0, -9.81, 0],
      bodies: [
        { name: 'ground', fixed: true, shape: { type: 'box', size: [10, 1, 10] }, position: [0, -0.5, 0] },
        { name: 'stone', shape: { type: 'box', size: [1, 1, 1] }, position: [0, 0.5 - 2e-6, 0] },
      ],
    });
    await page.setInputFiles('#file-input', { name: 'sunk.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => document.body.dataset.scene === '__file__', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: '__file__' });
    assert.match((await bannerText(page, 'notice')) ?? '', /"ground" and "stone" overlap by 2\.00 µm/);
    const sunk = Number((await readout(page)).penetration);
    assert.ok(sunk > 1e-7 && sunk < 1e-5, `a stone sunk 2 µm shows ${sunk} m of overlap`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a link to a far step shows the scene at once and advances with progress, cancellably', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&step=100000');
  try {
    // Drawn at once: the initial pose, while the replay runs on.
    await page.waitForFunction(() => document.body.dataset.scene === 'pillar', null, { timeout: 30_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.run), 'replaying');
    const stats = await canvasStats(page);
    assert.ok(stats.distinctColours > 50 && stats.centreDiffering > 0.2, `the view is blank: ${JSON.stringify(stats)}`);
    assert.equal(await text(page, '#scene-title'), 'Pillar');
    assert.equal(await page.locator('#run-to-step').inputValue(), '100000');

    // Progress: a bar and "step n of 100 000" that moves on.
    await page.waitForFunction(() => Number(/** @type {HTMLProgressElement} */ (document.getElementById('replay-progress')).value) > 0, null, { timeout: 60_000 });
    assert.ok(await page.locator('#replay-progress').isVisible(), 'the progress bar is hidden');
    assert.equal(await page.locator('#replay-progress').getAttribute('max'), '100000');
    const status = await text(page, '#replay-status');
    assert.match(status, /step [\d\u202f ]+ of 100[\u202f ]000/, `the status says "${status}"`);
    await page.waitForFunction((before) => document.getElementById('replay-status').textContent !== before, status, { timeout: 30_000 });
    await screenshot(page, `${OUTPUT_DIR}trust-far-step.png`);

    // Cancel stops at the step reached, which is then shown and linked.
    await page.click('#replay-cancel');
    await waitReady(page, { scene: 'pillar' });
    const step = Number(await page.evaluate(() => document.body.dataset.step));
    assert.ok(step > 0 && step < 100000, `stopped at step ${step}`);
    assert.match(await page.evaluate(() => window.location.hash), new RegExp(`[#&]step=${step}(&|$)`));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the README\'s first numbers are what the default page shows', { timeout: 120_000 }, async () => {
  const readme = await readFile(`${ROOT}README.md`, 'utf8');
  const quoted = readme.replace(/\s+/g, ' ').match(/a headline says "([^"]+)"/);
  assert.ok(quoted, 'the README quotes no headline');
  const { page, context, problems } = await openPage();
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    assert.equal(await text(page, '#headline'), quoted[1]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
