// Saves the screenshots in docs/screenshots/ for a person to look at: run by
// `cargo xtask screenshots` (which builds and serves the page), or by hand:
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node tests/e2e/screenshots.mjs
// Not a test: `cargo xtask test` must leave the working tree unchanged, and
// these files are tracked.

import assert from 'node:assert/strict';
import { ROOT, launchBrowser, openPage, readout, screenshot, waitReady } from './harness.mjs';

const SCREENSHOT_DIR = `${ROOT}docs/screenshots/`;
/** A phone held upright, in CSS pixels. */
const PHONE = { width: 390, height: 844 };
/** [file name, link, scene, step, viewport (default: the harness's), keys pressed once ready, 'compare' to fill the compare table first] */
const SHOTS = [
  // Issue 13: ContactLab's own method on the Pillar, with the compare
  // table run at step 3 so it stands beside Opposing and the others.
  ['pillar-semi-local-compare', '#scene=pillar&method=semi-local&step=3&explode=0.35', 'pillar', 3, { width: 1400, height: 1100 }, null, 'compare'],
  ['pillar-opposing-step3', '#scene=pillar&method=opposing&step=3&explode=0.35', 'pillar', 3],
  ['wall', '#scene=wall&method=opposing&step=3&explode=0.25', 'wall', 3],
  ['arch', '#scene=arch&method=opposing&step=3&explode=0.3', 'arch', 3],
  ['spike-in-hole', '#scene=spike-in-hole&method=opposing&step=5&explode=0.3&cam=0.55,0.75,3.6,0,0.5,0', 'spike-in-hole', 5],
  ['phone', '#scene=pillar&method=opposing&step=3', 'pillar', 3, PHONE],
  // F: presentation mode (large text and contact glyphs, no control panel).
  ['presentation', '#scene=spike-wedge&method=opposing&step=1', 'spike-wedge', 1, { width: 1280, height: 800 }, 'f'],
  // Issue 11: a region method's contact regions outlined (the wedge lifted
  // out of the crack so the crack's faces show).
  ['wedge-in-crack-regions', '#scene=wedge-in-crack&method=region-analysis&step=1&regions=1&explode=0.3', 'wedge-in-crack', 1],
];

const browser = await launchBrowser();
try {
  for (const [name, hash, scene, step, viewport, keys, compare] of SHOTS) {
    const { page, context, problems } = await openPage(browser, hash, viewport);
    try {
      await waitReady(page, { scene, step });
      // A link naming a method the registry lacks falls back to the default
      // one; a screenshot of the wrong method must not be written.
      const method = new URLSearchParams(hash.slice(1)).get('method');
      const shown = await page.evaluate(() => document.body.dataset.method);
      assert.equal(shown, method, `${name}: the page shows ${shown}`);
      if (keys) {
        await page.keyboard.press(keys);
        await waitReady(page, { scene, step });
      }
      assert.ok(Number((await readout(page)).count) > 0, `${scene}: no contacts`);
      if (compare) {
        await page.click('#compare');
        await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 240_000 });
      }
      if (hash.includes('regions=1')) {
        const drawn = await page.evaluate(() => document.body.dataset.regions);
        assert.ok(Number(drawn) > 0, `${name}: no region outlines drawn (data-regions="${drawn}")`);
      }
      await screenshot(page, `${SCREENSHOT_DIR}${name}.png`, compare ? '.compare' : null);
      assert.deepEqual(problems, [], `${name}: ${problems.join('; ')}`);
      console.log(`wrote docs/screenshots/${name}.png`);
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
}
