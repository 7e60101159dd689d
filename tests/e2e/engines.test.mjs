// Browser tests of issue 29, items 1 and 2: the page in the three engines a
// class brings — Chromium, Firefox (Debian's firefox-esr over WebDriver
// BiDi) and WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver), the
// latter two in a window on Xvfb (engines.mjs) — and the link's promise
// that every engine shows the same numbers: every data-readout value but
// the timings equals Chromium's, string for string. A missing engine fails
// these tests (engines.mjs names the package); it never skips them.
//
// What Firefox and WebKit run here, and what they skip:
// - load, a link, Play, Step, Compare, a user's scene file (the driver's own
//   file upload), Copy link (the clipboard recorded in the page, as
//   trust-link.test.mjs does: neither driver can read the system clipboard)
//   and a lesson opened from its link and stepped with its Next button;
// - page errors are caught inside the page in every engine (uncaught errors,
//   rejections, console.error after load, and the error banner for what
//   failed before), since WebKitWebDriver reports no console; Firefox adds
//   what BiDi's log.entryAdded reports, Chromium what playwright reports;
// - skipped in both: downloads (Compare CSV, exports: neither driver hands
//   a download to the test), offline mode and touch (no emulation in
//   WebKitWebDriver; Firefox over BiDi has no offline switch), and the
//   checks of layout and accessibility, which page.test.mjs and the
//   accessibility tests make in Chromium: the layout is the same CSS.
// - Firefox's WebGL blocklist refuses Mesa's software renderer, the only
//   GL under Xvfb; its profile sets webgl.force-enabled (engines.mjs).
// Run by hand (CONTACTLAB_DISPLAY=:51 to pick Xvfb's display):
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/engines.test.mjs
// Screenshots of the first link in each engine go to tests/e2e/output/
// (ignored by git).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_URL, READY_TIMEOUT_MS, ROOT, SCENES_DIR, TIMING_KEYS } from './harness.mjs';
import { ENGINES, launchEngine, stopXvfb } from './engines.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));

/** The engines besides Chromium, which the other test files cover in full. */
const OTHER_ENGINES = ENGINES.filter((name) => name !== 'chromium');

/** @type {Map<string, Promise<import('./engines.mjs').Engine>>} */
const launched = new Map();

/** The engine `name`, started on first use and kept for the file's other tests. */
function engine(name) {
  if (!launched.has(name)) launched.set(name, launchEngine(name));
  return launched.get(name);
}

after(async () => {
  for (const started of launched.values()) await (await started.catch(() => null))?.close();
  await stopXvfb();
});

/**
 * Opens `hash` in a fresh tab of engine `name`, runs `body(tab)` and closes
 * the tab, asserting that the page reported no problem meanwhile.
 * @template T
 * @param {string} name
 * @param {string} hash
 * @param {(tab: import('./engines.mjs').Tab) => Promise<T>} body
 * @returns {Promise<T>}
 */
async function inTab(name, hash, body) {
  const tab = await (await engine(name)).open(new URL(hash, BASE_URL).href);
  try {
    const result = await body(tab);
    assert.deepEqual(await tab.problems(), [], `${name}: the page reported problems`);
    return result;
  } finally {
    await tab.close();
  }
}

/**
 * Waits until the page is idle with `expected` shown (harness.mjs's
 * waitReady, in any engine), failing with the banner's text if the error
 * banner appears.
 * @param {import('./engines.mjs').Tab} tab
 * @param {{scene?: string, method?: string, step?: number}} expected
 */
async function waitReady(tab, expected = {}) {
  const shown = await waitForReady(tab, expected).catch(async (error) => {
    // Say what the page showed, so a timeout in another engine can be told apart from a slow machine.
    const state = await tab.evaluate(() => ({ ...document.body.dataset, notice: document.getElementById('notice')?.textContent?.trim() })).catch((why) => `unreadable: ${why}`);
    const problems = await tab.problems().catch((why) => [`unreadable: ${why}`]);
    throw new Error(`${error.message}\nthe page's state: ${JSON.stringify(state)}\nits problems: ${JSON.stringify(problems)}`);
  });
  assert.equal(shown.error, undefined, `the error banner says: ${shown.error}`);
  return shown.step;
}

/** @param {import('./engines.mjs').Tab} tab @param {{scene?: string, method?: string, step?: number}} expected */
function waitForReady(tab, expected) {
  return tab.waitFor(
    ({ scene, method, step }) => {
      const body = document.body.dataset;
      const banner = document.getElementById('error-banner');
      if (!banner.hidden) return { error: banner.querySelector('.message').textContent.trim() };
      const ready =
        body.ready === 'true' &&
        body.run === 'idle' &&
        (scene === undefined || body.scene === scene) &&
        (method === undefined || body.method === method) &&
        (step === undefined || body.step === String(step));
      return ready && { step: Number(body.step) };
    },
    expected,
    READY_TIMEOUT_MS,
  );
}

/**
 * Clicks Play again to pause a playing page, and waits until it has. On a
 * busy machine WebKitWebDriver's synthesised click can reach a page that
 * redraws every frame and be lost (the page was seen playing on at step
 * 628); a click the page did not act on within 10 s is made again, up to
 * three times, and then the test fails with the page's run state.
 * @param {import('./engines.mjs').Tab} tab
 */
async function pause(tab) {
  for (let attempt = 1; ; attempt++) {
    await tab.click('#play');
    try {
      await tab.waitFor(() => document.body.dataset.run !== 'playing', null, 10_000);
      return;
    } catch (error) {
      if (attempt === 3) throw new Error(`three clicks on Play did not pause the page: ${error instanceof Error ? error.message : error}`);
    }
  }
}

/** Every data-readout value but the timings, by key (harness.mjs's stableReadout). */
async function stableReadout(tab) {
  const values = await tab.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-readout]')].map((e) => [/** @type {HTMLElement} */ (e).dataset.readout, e.textContent])));
  for (const key of TIMING_KEYS) delete values[key];
  return values;
}

/** Asserts `shown` equals Chromium's readout key for key, naming every value that differs. */
function assertSameReadout(name, shown, chromium, what) {
  assert.ok(Object.keys(chromium).length >= 10, `Chromium's readout has only ${Object.keys(chromium).length} values`);
  const keys = [...new Set([...Object.keys(chromium), ...Object.keys(shown)])];
  const differing = keys.filter((key) => shown[key] !== chromium[key]).map((key) => `${key}: ${name} ${JSON.stringify(shown[key])}, Chromium ${JSON.stringify(chromium[key])}`);
  assert.deepEqual(differing, [], `${what}: ${name}'s readout differs from Chromium's:\n${differing.join('\n')}`);
}

/**
 * How many distinct colours the 3D view's canvas holds, read back (the
 * context keeps its drawing buffer): a few hundred where WebGL2 drew the
 * scene, one where it drew nothing.
 */
function viewColours(tab) {
  return tab.evaluate(() => {
    const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return colours.size;
  });
}

/** The three links of issue 29 with what each shows once ready. */
const LINKS = [
  { hash: '#scene=pillar&method=opposing&perturb=0.01&seed=7&step=20', expected: { scene: 'pillar', method: 'opposing', step: 20 } },
  { hash: '#scene=wall&method=semi-local&step=3', expected: { scene: 'wall', method: 'semi-local', step: 3 } },
  { hash: '#scene=spike-in-hole&method=growth&step=40', expected: { scene: 'spike-in-hole', method: 'growth', step: 40 } },
];

for (const [index, { hash, expected }] of LINKS.entries()) {
  test(`the same bits in every engine: ${hash}`, { timeout: 600_000 }, async () => {
    /** @type {Record<string, Record<string, string>>} */
    const readouts = {};
    for (const name of ENGINES) {
      readouts[name] = await inTab(name, hash, async (tab) => {
        await waitReady(tab, expected);
        if (index === 0) {
          // WebGL2 draws the view in every engine (on Xvfb with Mesa for Firefox and WebKit).
          const colours = await viewColours(tab);
          assert.ok(colours > 50, `${name}: the view holds ${colours} colours; WebGL2 drew no scene`);
          await tab.screenshot(`${OUTPUT_DIR}engines-${name}.png`);
        }
        return stableReadout(tab);
      });
    }
    for (const name of OTHER_ENGINES) assertSameReadout(name, readouts[name], readouts.chromium, hash);
  });
}

test('the same bits in every engine: a user\'s scene file, opened with the file picker', { timeout: 600_000 }, async () => {
  // The sliding spike under another name and title, as a user's edited copy.
  const folder = await mkdtemp(join(tmpdir(), 'contactlab-engines-'));
  const file = join(folder, 'my-spike.json');
  const text = (await readFile(`${SCENES_DIR}sliding-spike.json`, 'utf8')).replace('"Sliding spike"', '"My sliding spike"').replace('"sliding-spike"', '"my-spike"');
  await writeFile(file, text);
  try {
    /** @type {Record<string, Record<string, string>>} */
    const readouts = {};
    for (const name of ENGINES) {
      readouts[name] = await inTab(name, '#scene=pillar&method=opposing', async (tab) => {
        await waitReady(tab, { scene: 'pillar', step: 3 });
        await tab.setFile('#file-input', file);
        await waitReady(tab, { scene: '__file__' });
        assert.equal(await tab.evaluate(() => document.getElementById('scene-title').textContent), 'My sliding spike', `${name}: the file's title`);
        await tab.fill('#run-to-step', '12');
        await tab.click('#run-to');
        await waitReady(tab, { scene: '__file__', step: 12 });
        return stableReadout(tab);
      });
    }
    for (const name of OTHER_ENGINES) assertSameReadout(name, readouts[name], readouts.chromium, 'my-spike.json at step 12');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('Compare fills the same table in every engine', { timeout: 900_000 }, async () => {
  /** @type {Record<string, string[][]>} */
  const tables = {};
  for (const name of ENGINES) {
    tables[name] = await inTab(name, '#scene=pillar&method=opposing', async (tab) => {
      await waitReady(tab, { scene: 'pillar', step: 3 });
      await tab.fill('#compare-steps', '1');
      await tab.click('#compare');
      await tab.waitFor(() => document.body.dataset.compare === 'done', null, 600_000);
      return tab.evaluate(() => [...document.querySelectorAll('#compare-table tr')].map((tr) => [...tr.children].map((cell) => cell.textContent)));
    });
  }
  const methods = await inTab('chromium', '#scene=pillar', (tab) => tab.evaluate(() => document.querySelectorAll('#method-picker option:not([data-kind="engine"])').length));
  assert.ok(tables.chromium.length > methods, `Chromium's table has ${tables.chromium.length} rows for ${methods} methods`);
  for (const name of OTHER_ENGINES) assert.deepEqual(tables[name], tables.chromium, `${name}'s Compare table differs from Chromium's`);
});

for (const name of OTHER_ENGINES) {
  test(`${name}: the page loads, Play and Step move it on, and Copy link gives a link that shows the same`, { timeout: 600_000 }, async () => {
    const { copied, readout } = await inTab(name, '', async (tab) => {
      await waitReady(tab, { scene: 'pillar', step: 3 });
      await tab.click('#play');
      await tab.waitFor(() => Number(document.body.dataset.step) >= 10, null, 120_000);
      await pause(tab);
      const paused = await waitReady(tab, { scene: 'pillar' });
      assert.ok(paused >= 10, `${name}: paused at step ${paused}`);
      await tab.click('#step-once');
      await waitReady(tab, { scene: 'pillar', step: paused + 1 });
      // Neither driver reads the clipboard: record what the page writes there.
      await tab.evaluate(() => {
        /** @type {any} */ (window).copied = [];
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text) => /** @type {any} */ (window).copied.push(text) } });
      });
      await tab.click('#copy-link');
      const [link] = await tab.waitFor(() => /** @type {any} */ (window).copied.length > 0 && /** @type {any} */ (window).copied);
      assert.match(link, new RegExp(`[#&]step=${paused + 1}(&|$)`), `${name}: Copy link names the step shown`);
      return { copied: link, readout: await stableReadout(tab) };
    });
    const reopened = await inTab(name, new URL(copied).hash, async (tab) => {
      await waitReady(tab, { scene: 'pillar' });
      return stableReadout(tab);
    });
    assertSameReadout(name, reopened, readout, `${name}: the copied link reopened`);
  });

  test(`${name}: a lesson opens from its link and its Next button goes to its second step`, { timeout: 600_000 }, async () => {
    const list = JSON.parse(await readFile(`${ROOT}www/lessons/index.json`, 'utf8'));
    const id = list.lessons[0];
    const lesson = JSON.parse(await readFile(`${ROOT}www/lessons/${id}.json`, 'utf8'));
    await inTab(name, `#lesson=${id}`, async (tab) => {
      for (const [index, step] of lesson.steps.slice(0, 2).entries()) {
        if (index > 0) await tab.click('#lesson-next');
        const link = new URLSearchParams(step.link);
        await tab.waitFor((number) => {
          const panel = document.getElementById('lesson-panel');
          return !panel.hidden && panel.dataset.step === String(number);
        }, index + 1);
        await waitReady(tab, { scene: link.get('scene'), method: link.get('method') ?? undefined, step: link.has('step') ? Number(link.get('step')) : undefined });
        // The player has counted the contacts of the step's frame (lessons.test.mjs's waitForStep):
        // until then the panel may still move, and a click could miss its Next button.
        await tab.waitFor(() => document.getElementById('lesson-panel').dataset.inView !== undefined);
        const shown = await tab.evaluate(() => ({ title: document.getElementById('lesson-title').textContent, position: document.getElementById('lesson-position').textContent }));
        assert.deepEqual(shown, { title: lesson.title, position: `Step ${index + 1} of ${lesson.steps.length}` }, `${name}: lesson ${id}, step ${index + 1}`);
      }
    });
  });
}
