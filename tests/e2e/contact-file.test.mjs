// A visitor's contact file in the page, in headless Chromium (issue 22's
// "Done when"): the CLI writes the Pillar's Opposing contacts as a
// contactlab-contacts/1 file; dropped on the Pillar it becomes the method
// "Imported: <file>" and the readout shows what `contactlab score` says of
// it; Copy link carries it, and the link opened in a fresh page shows the
// same numbers. A malformed file gets a notice naming its line and column
// and the page keeps what it showed; a run stops at the file's last step
// with a notice; picking a method drops the file. Run by `cargo xtask test`
// or by hand (see harness.mjs):
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/contact-file.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ROOT, SCENES_DIR, assertMatchesCli, bannerText, browserForThisFile, openPage, readout, screenshot, stableReadout, waitReady } from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));
/** The method picker's value (and <body>'s data-method) while a contact file is shown. */
const IMPORTED = '__contacts__';

const browser = await browserForThisFile();

/**
 * The CLI's output, from the release build cargo keeps up to date (as
 * harness.mjs's cliRun: it matches the sources the wasm was built from).
 * @param {string[]} args
 */
async function cli(args) {
  const { stdout } = await promisify(execFile)('cargo', ['run', '--quiet', '--release', '--bin', 'contactlab', '--', ...args], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 900_000,
  });
  return stdout;
}

/**
 * Drops files on the page as a visitor's drag and drop does.
 * @param {import('playwright-core').Page} page
 * @param {Array<[string, string]>} files [name, text]
 */
function drop(page, files) {
  return page.evaluate((files) => {
    const data = new DataTransfer();
    for (const [name, text] of files) data.items.add(new File([text], name, { type: 'text/csv' }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
}

/** @param {import('playwright-core').Page} page @returns {Promise<string | null>} the notice strip's text */
function notice(page) {
  return bannerText(page, 'notice');
}

test('a contact file dropped on the Pillar is measured as the CLI scores it, travels in the link, and a broken one changes nothing', { timeout: 900_000 }, async () => {
  const contacts = await cli(['contacts', 'pillar', '--method', 'opposing', '--csv']);
  const dir = await mkdtemp(join(tmpdir(), 'contactlab-contact-file-'));
  const path = join(dir, 'pillar-opposing.csv');
  await writeFile(path, contacts);
  // The score's first line is the step-0 record: the file's contacts at the initial pose.
  const scored = JSON.parse((await cli(['score', 'pillar', path, '--json', '--no-timings'])).trim().split('\n')[0]);
  assert.equal(scored.step, 0);
  assert.ok(scored.count > 0, 'the file has contacts');

  const { page, context, problems } = await openPage(browser, '#scene=pillar&method=volume-sat&step=0');
  try {
    await waitReady(page, { scene: 'pillar', method: 'volume-sat', step: 0 });
    await drop(page, [['pillar-opposing.csv', contacts]]);
    await page.waitForFunction((method) => document.body.dataset.method === method, IMPORTED, { timeout: 90_000 });
    await waitReady(page, { scene: 'pillar', method: IMPORTED, step: 0 });
    const picked = await page.$eval('#method-picker', (picker) => /** @type {HTMLSelectElement} */ (picker).selectedOptions[0].textContent);
    assert.equal(picked, 'Imported: pillar-opposing.csv');
    const shown = await readout(page);
    assertMatchesCli(shown, scored);
    assert.equal(shown.count, String(scored.count));
    assert.equal(shown.quality, String(scored.quality));
    // Measured at the initial pose, not simulated: no energy or solver to show, and nothing breaks.
    assert.equal(await page.locator('#human-kinetic_energy').textContent(), '—');
    assert.equal(await page.locator('#human-solver').textContent(), '—');
    // The file's one step is its last: the run ends there, said as a notice.
    await page.click('#step-once');
    await page.waitForFunction(() => /has no contacts after step 0/.test(document.querySelector('#notice .message')?.textContent ?? ''), null, { timeout: 90_000 });
    await waitReady(page, { scene: 'pillar', method: IMPORTED, step: 0 });
    assert.ok(await page.locator('#step-once').isDisabled(), 'Step goes no further than the file');
    await screenshot(page, `${OUTPUT_DIR}contact-file.png`);

    // Copy link: the page records what it puts on the clipboard (neither
    // driver reads the system's).
    await page.evaluate(() => {
      /** @type {any} */ (window).copied = [];
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text) => /** @type {any} */ (window).copied.push(text) } });
    });
    await page.click('#copy-link');
    const link = await page.waitForFunction(() => /** @type {any} */ (window).copied[0]).then((handle) => handle.jsonValue());
    assert.match(link, /[#&]contacts=[A-Za-z0-9_-]+(&|$)/);
    assert.match(link, /[#&]contactsname=pillar-opposing\.csv(&|$)/);
    assert.match(link, /[#&]scene=pillar(&|$)/);
    const fresh = await openPage(browser, new URL(link).hash);
    try {
      await waitReady(fresh.page, { scene: 'pillar', method: IMPORTED, step: 0 });
      assert.deepEqual(await stableReadout(fresh.page), await stableReadout(page));
      assert.equal(await fresh.page.$eval('#method-picker', (picker) => /** @type {HTMLSelectElement} */ (picker).selectedOptions[0].textContent), 'Imported: pillar-opposing.csv');
      assert.deepEqual(fresh.problems, []);
    } finally {
      await fresh.context.close();
    }

    // The link's file on another scene: the core refuses its body names,
    // and the page shows that scene with the method instead.
    const elsewhere = await openPage(browser, new URL(link).hash.replace(/([#&])scene=pillar(&|$)/, '$1scene=spikes$2'));
    try {
      await waitReady(elsewhere.page, { scene: 'spikes', method: 'volume-sat' });
      assert.match(await notice(elsewhere.page), /Could not open the contact file "pillar-opposing\.csv": pillar-opposing\.csv:\d+:\d+: /);
      assert.doesNotMatch(await elsewhere.page.evaluate(() => window.location.hash), /[#&]contacts=/);
      assert.deepEqual(elsewhere.problems, []);
    } finally {
      await elsewhere.context.close();
    }

    // A malformed file: the notice names the file, line and column; the
    // imported file's numbers stay.
    const before = await stableReadout(page);
    const broken = contacts.replace(/\n0,([^,\n]*),([^,\n]*),([^,\n]*),/, '\n0,$1,$2,$3x,');
    assert.notEqual(broken, contacts);
    const badLine = broken.split('\n').findIndex((line) => /^0,[^,]*,[^,]*,[^,]*x,/.test(line)) + 1;
    await drop(page, [['broken.csv', broken]]);
    await page.waitForFunction(() => /broken\.csv/.test(document.querySelector('#notice .message')?.textContent ?? ''), null, { timeout: 90_000 });
    assert.match(await notice(page), new RegExp(`broken\\.csv:${badLine}:\\d+:`));
    await waitReady(page, { scene: 'pillar', method: IMPORTED, step: 0 });
    assert.deepEqual(await stableReadout(page), before);
    assert.match(await page.evaluate(() => window.location.hash), /[#&]contactsname=pillar-opposing\.csv(&|$)/);

    // A contact file that names a poses file, dropped alone: which file is missing.
    await drop(page, [['posed.csv', `# poses: out/posed-poses.csv\n${contacts}`]]);
    await page.waitForFunction(() => /posed-poses\.csv/.test(document.querySelector('#notice .message')?.textContent ?? ''));
    assert.match(await notice(page), /"posed\.csv".*"posed-poses\.csv".*missing/);

    // Picking a method drops the file.
    await page.selectOption('#method-picker', 'opposing');
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 0 });
    assert.doesNotMatch(await page.evaluate(() => window.location.hash), /[#&]contacts/);
    assert.equal(await page.locator('#method-picker optgroup[data-contacts]').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a scene file and a contact file on it, opened together with the contacts button, open as one', { timeout: 600_000 }, async () => {
  const contacts = await cli(['contacts', 'pillar', '--method', 'opposing', '--csv']);
  const count = contacts.split('\n').filter((line) => /^0,/.test(line)).length;
  // The same rows as JSON Lines: the other form a contact file may take.
  const [header, ...rows] = contacts.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  const keys = header.split(',');
  const numeric = new Set(['step', 'x', 'y', 'z', 'nx', 'ny', 'nz', 'depth']);
  const jsonl = rows.map((row) => JSON.stringify(Object.fromEntries(row.split(',').map((value, i) => [keys[i], numeric.has(keys[i]) ? Number(value) : value])))).join('\n');
  const scene = (await readFile(`${SCENES_DIR}pillar.json`, 'utf8')).replace('"Pillar"', '"My pillar"');
  const { page, context, problems } = await openPage(browser, '#scene=spikes&step=0');
  try {
    await waitReady(page, { scene: 'spikes', step: 0 });
    await page.setInputFiles('#contacts-input', [
      { name: 'mine.jsonl', mimeType: 'text/plain', buffer: Buffer.from(jsonl) },
      { name: 'my-pillar.json', mimeType: 'application/json', buffer: Buffer.from(scene) },
    ]);
    await page.waitForFunction((method) => document.body.dataset.method === method, IMPORTED, { timeout: 90_000 });
    await waitReady(page, { scene: '__file__', method: IMPORTED, step: 0 });
    assert.equal(await page.locator('#scene-title').textContent(), 'My pillar');
    assert.equal((await readout(page)).count, String(count));
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /[#&]file=[A-Za-z0-9_-]+/);
    assert.match(hash, /[#&]contactsname=mine\.jsonl(&|$)/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a contact file too big for a dependable link is said to be, and Copy link still copies it', { timeout: 300_000 }, async () => {
  // 3000 contacts between the ground and the plinth at scattered points: a
  // file that packs to far more than a link should hold.
  let seed = 7;
  const scatter = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648) * 0.5;
  };
  const rows = Array.from({ length: 3000 }, () => `0,ground,plinth,${scatter().toFixed(9)},0,${scatter().toFixed(9)},0,1,0,-0`);
  // No comment line: the core's count of skipped lines would be a notice of its own.
  const big = `step,body_a,body_b,x,y,z,nx,ny,nz,depth\n${rows.join('\n')}\n`;
  const { page, context, problems } = await openPage(browser, '#scene=pillar&step=0');
  try {
    await waitReady(page, { scene: 'pillar', step: 0 });
    await drop(page, [['big.csv', big]]);
    await page.waitForFunction(() => /too big for a dependable link/.test(document.querySelector('#notice .message')?.textContent ?? ''), null, { timeout: 90_000 });
    assert.match(await notice(page), /^Your contact file is too big for a dependable link: the link is \d+ characters long/);
    await waitReady(page, { scene: 'pillar', method: IMPORTED, step: 0 });
    assert.equal((await readout(page)).count, '3000');
    await page.evaluate(() => {
      /** @type {any} */ (window).copied = [];
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text) => /** @type {any} */ (window).copied.push(text) } });
    });
    await page.click('#copy-link');
    const link = await page.waitForFunction(() => /** @type {any} */ (window).copied[0]).then((handle) => handle.jsonValue());
    assert.ok(link.length > 8000, `the link is ${link.length} characters`);
    assert.match(await notice(page), /is on the clipboard\. It is \d+ characters long \(your contact file is in it\)/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("MuJoCo's Pillar contacts with their poses file, dropped together, step as the file does, as the CLI scores them, and the link carries both", { timeout: 600_000 }, async () => {
  const dir = `${ROOT}data/engine-contacts/mujoco/`;
  const contacts = await readFile(`${dir}pillar.csv`, 'utf8');
  const poses = await readFile(`${dir}pillar-poses.csv`, 'utf8');
  const records = (await cli(['score', 'pillar', `${dir}pillar.csv`, '--json', '--no-timings']))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((record) => !('run_means' in record));
  assert.ok(records.length >= 2, 'the file has two steps or more');
  const { page, context, problems } = await openPage(browser, '#scene=pillar&step=0');
  try {
    await waitReady(page, { scene: 'pillar', step: 0 });
    // In either order: the poses file is found by the name the contacts' comment gives.
    await drop(page, [['pillar-poses.csv', poses], ['pillar.csv', contacts]]);
    await page.waitForFunction((method) => document.body.dataset.method === method, IMPORTED, { timeout: 90_000 });
    for (const [index, record] of records.entries()) {
      if (index > 0) await page.click('#step-once');
      // One step goes to the file's next step (its poses hold only those).
      await waitReady(page, { scene: 'pillar', method: IMPORTED, step: record.step });
      assertMatchesCli(await readout(page), record);
    }
    const last = records.at(-1).step;
    await page.evaluate(() => {
      /** @type {any} */ (window).copied = [];
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text) => /** @type {any} */ (window).copied.push(text) } });
    });
    await page.click('#copy-link');
    const link = await page.waitForFunction(() => /** @type {any} */ (window).copied[0]).then((handle) => handle.jsonValue());
    assert.match(link, /[#&]posesname=pillar-poses\.csv(&|$)/);
    assert.match(link, /[#&]poses=[A-Za-z0-9_-]+(&|$)/);
    const fresh = await openPage(browser, new URL(link).hash);
    try {
      await waitReady(fresh.page, { scene: 'pillar', method: IMPORTED, step: last });
      assertMatchesCli(await readout(fresh.page), records.at(-1));
      assert.deepEqual(fresh.problems, []);
    } finally {
      await fresh.context.close();
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
