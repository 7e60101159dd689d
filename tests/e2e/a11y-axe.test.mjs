// Browser tests of issue 28's first item: axe-core (from npm, injected from
// node_modules) with the WCAG 2.0, 2.1 and 2.2 A and AA rules, no rule
// disabled and no element excluded, finds no violation in any state of the
// page: default, a help panel open, the keyboard list open, a user's scene
// file loaded, after Compare, Present, phone width, a lesson, the
// divergence message and `embed=1`. What axe cannot decide ("incomplete":
// a person has to look) is printed per state for the accessibility note;
// the contrast of text axe could not measure (over the view) is measured
// here against the worst view behind it.
// Screenshots for a person go to target/a11y/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { READY_TIMEOUT_MS, ROOT, SCENES_DIR, browserForThisFile, openPage as open, screenshot, waitReady } from './harness.mjs';
import { axeViolations, describeResults, worstCaseContrasts } from './axe.mjs';

const SHOTS = `${ROOT}target/a11y/`;
const PHONE = { width: 390, height: 844 };

const browser = await browserForThisFile();

/** @param {string} hash @param {{width: number, height: number}} [viewport] */
function openPage(hash, viewport) {
  return open(browser, hash, viewport);
}

/**
 * Runs axe on what the page shows now, prints what it could not decide and
 * fails with every violation (rule, element, what is wrong).
 * @param {import('playwright-core').Page} page
 * @param {string} state what is on screen, for the messages
 */
async function assertNoViolations(page, state) {
  const { violations, incomplete } = await axeViolations(page);
  if (incomplete.length > 0) console.log(`axe incomplete in ${state}:\n${describeResults(incomplete)}`);
  else console.log(`axe incomplete in ${state}: none`);
  assert.equal(violations.length, 0, `axe found violations in ${state}:\n${describeResults(violations)}`);
  // axe cannot tell the background of text over the view (or in a dialog it
  // finds partly covered); measured here over a black and a white view.
  const contrasts = await worstCaseContrasts(page, incomplete);
  for (const { target, ratio, needed, text } of contrasts) {
    console.log(`  worst-case contrast of ${target} ("${text}"): ${ratio.toFixed(2)} : 1 (needs ${needed})`);
  }
  const low = contrasts.filter(({ ratio, needed }) => !(ratio >= needed));
  assert.deepEqual(low, [], `text in ${state} whose contrast is too low over some view`);
}

test('axe: no violations on the default page, with a help panel and the keyboard list open', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('');
  try {
    await waitReady(page);
    await screenshot(page, `${SHOTS}default.png`);
    await assertNoViolations(page, 'the default page');
    await page.click('button[data-help="method"]');
    await page.waitForSelector('#help-dialog', { state: 'visible' });
    await assertNoViolations(page, 'the default page with the method\'s help open');
    await page.click('#help-dialog .help-close button');
    await page.click('#show-keys');
    await page.waitForSelector('#keys-dialog', { state: 'visible' });
    await assertNoViolations(page, 'the default page with the keyboard list open');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('each setting\'s slider and number field are named by its label in the accessibility tree', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('');
  try {
    await waitReady(page);
    const labels = await page.$$eval('#sliders .slider:not(.field-only) .slider-head label', (all) => all.map((label) => label.textContent));
    assert.ok(labels.length >= 5, `only ${labels.length} sliders`);
    const tree = await page.locator('#sliders').ariaSnapshot();
    for (const label of labels) {
      assert.ok(tree.includes(`slider "${label}"`), `no slider named "${label}" in:\n${tree}`);
      assert.ok(tree.includes(`spinbutton "${label} value"`), `no number field named "${label} value" in:\n${tree}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations at phone width', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('', PHONE);
  try {
    await waitReady(page);
    await screenshot(page, `${SHOTS}phone.png`);
    await assertNoViolations(page, 'the default page at 390 × 844');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations after Compare', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=spike-wedge&method=opposing');
  try {
    await waitReady(page, { scene: 'spike-wedge' });
    await page.fill('#compare-steps', '1');
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
    await page.locator('#compare-table').scrollIntoViewIfNeeded();
    await assertNoViolations(page, 'the page after Compare');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations in presentation mode', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=spike-wedge&method=opposing&step=1');
  try {
    await waitReady(page, { scene: 'spike-wedge', step: 1 });
    await page.click('#present');
    await page.waitForFunction(() => document.documentElement.classList.contains('presenting'));
    await waitReady(page);
    await screenshot(page, `${SHOTS}present.png`);
    await assertNoViolations(page, 'presentation mode');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations with a lesson open, at its first step and its second', { timeout: 240_000 }, async () => {
  const list = JSON.parse(await readFile(`${ROOT}www/lessons/index.json`, 'utf8'));
  const id = list.lessons[0];
  const { page, context, problems } = await openPage(`#lesson=${id}`, { width: 1280, height: 720 });
  try {
    await page.waitForSelector('#lesson-panel', { state: 'visible', timeout: READY_TIMEOUT_MS });
    await waitReady(page);
    await page.waitForFunction(() => document.getElementById('lesson-panel').dataset.inView !== undefined);
    await screenshot(page, `${SHOTS}lesson.png`);
    await assertNoViolations(page, `the lesson ${id} at its first step`);
    await page.click('#lesson-next');
    await page.waitForFunction(() => document.getElementById('lesson-panel').dataset.step === '2', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page);
    await assertNoViolations(page, `the lesson ${id} at its second step`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations with the divergence message shown', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&dt=0.1&iters=1&mu=0&step=0');
  try {
    await waitReady(page, { scene: 'pillar', step: 0 });
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.body.dataset.run === 'diverged', null, { timeout: 60_000 });
    assert.ok(await page.locator('#diverged').isVisible(), 'the divergence message is not on screen');
    await screenshot(page, `${SHOTS}diverged.png`);
    await assertNoViolations(page, 'the divergence message');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations with a user\'s scene file loaded', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=spikes');
  try {
    await waitReady(page, { scene: 'spikes' });
    const text = (await readFile(`${SCENES_DIR}sliding-spike.json`, 'utf8')).replace('"Sliding spike"', '"My sliding spike"').replace('"sliding-spike"', '"my-spike"');
    await page.setInputFiles('#file-input', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => document.body.dataset.scene === '__file__', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: '__file__' });
    await assertNoViolations(page, 'a user\'s scene file loaded');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations with a contact file in the method\'s place, its notice shown', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&step=0');
  try {
    await waitReady(page, { scene: 'pillar', step: 0 });
    const contacts = await readFile(`${ROOT}data/engine-contacts/mujoco/pillar.csv`, 'utf8');
    const poses = await readFile(`${ROOT}data/engine-contacts/mujoco/pillar-poses.csv`, 'utf8');
    await page.setInputFiles('#contacts-input', [
      { name: 'pillar.csv', mimeType: 'text/csv', buffer: Buffer.from(contacts) },
      { name: 'pillar-poses.csv', mimeType: 'text/csv', buffer: Buffer.from(poses) },
    ]);
    await page.waitForFunction(() => document.body.dataset.method === '__contacts__', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: 'pillar', method: '__contacts__', step: 0 });
    await assertNoViolations(page, 'a contact file in the method\'s place');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe: no violations in the embedded view (embed=1)', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage('#scene=pillar&method=opposing&step=3&embed=1', { width: 960, height: 600 });
  try {
    await waitReady(page, { scene: 'pillar', step: 3 });
    assert.equal(await page.evaluate(() => document.body.dataset.embed), 'true');
    await screenshot(page, `${SHOTS}embed.png`);
    await assertNoViolations(page, 'the embedded view');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
