// Browser tests of the contact regions on the page (issue 11): the
// "Contact regions" toggle is off for the paper's local methods and says
// why; with a region method it outlines the regions the core found, the
// link carries it, and a contact's hover details name its region and where
// its normal came from. Run by `cargo xtask test` (see harness.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { REGION_COLOURS } from '../../www/render/regions.js';
import { browserForThisFile, canvasPixelsNear, canvasStats, openPage, screenshot, waitReady } from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));

const browser = await browserForThisFile();

/** The checkbox's state, its label's title and how many outlines the page says it drew. */
function regionsToggle(page) {
  return page.evaluate(() => {
    const box = /** @type {HTMLInputElement} */ (document.getElementById('show-regions'));
    return { checked: box.checked, disabled: box.disabled, title: document.getElementById('show-regions-label').title, drawn: document.body.dataset.regions };
  });
}

/** How many canvas pixels are (nearly) one of the region outline colours. */
function outlinePixels(page) {
  return canvasPixelsNear(page, REGION_COLOURS, 30);
}

test('the regions toggle is off, and says why, for the paper\'s local methods; a link keeps it', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openPage(browser, '#scene=cliff-edges&method=opposing&step=1&regions=1');
  try {
    await waitReady(page, { scene: 'cliff-edges', method: 'opposing', step: 1 });
    const toggle = await regionsToggle(page);
    assert.equal(toggle.disabled, true, 'the toggle is usable with a local method');
    assert.match(toggle.title, /only region methods find regions/i);
    assert.equal(toggle.checked, true, 'the link asked for regions');
    assert.equal(toggle.drawn, '', 'a local method has no regions to draw');
    assert.match(await page.evaluate(() => window.location.hash), /[#&]regions=1(&|$)/);
    assert.doesNotMatch(await page.locator('#legend').textContent(), /contact region/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a region method outlines its regions on request, the link carries it, and the hover details name the region', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage(browser, '#scene=cliff-edges&method=opposing&step=1');
  try {
    await waitReady(page, { scene: 'cliff-edges', method: 'opposing', step: 1 });
    // The first region method of the registry, whichever it is: the picker
    // marks each method with the kind the core derives from its algorithm.
    const method = await page.evaluate(() => /** @type {HTMLOptionElement | null} */ (document.querySelector('#method-picker option[data-kind="region"]'))?.value ?? null);
    assert.ok(method, 'the method picker offers no option with data-kind="region", though the registry has region methods');
    await page.selectOption('#method-picker', method);
    await waitReady(page, { scene: 'cliff-edges', method, step: 1 });
    // Its help comes from the registry: its name, one paragraph, and the source and section it follows.
    await page.click('button[data-help="method"]');
    const name = await page.evaluate(() => /** @type {HTMLSelectElement} */ (document.getElementById('method-picker')).selectedOptions[0].textContent);
    const entry = page.locator('#help-dialog .help-entry.current');
    assert.equal(await entry.locator('h3').textContent(), name);
    assert.ok((await entry.locator('p').first().textContent()).length > 100, `${method}'s help is not a paragraph`);
    assert.match(await entry.locator('p.paper').textContent(), /^Read more: \S.{10,}\.$/);
    await page.click('#help-dialog .help-close button');

    let toggle = await regionsToggle(page);
    assert.equal(toggle.disabled, false, `the toggle is off for ${method}`);
    assert.equal(toggle.checked, false, 'regions are off by default');
    assert.doesNotMatch(await page.evaluate(() => window.location.hash), /[#&]regions=/);

    // Hovering a contact shows its region and where its normal came from.
    const box = await page.locator('#view').boundingBox();
    const stats = await canvasStats(page);
    assert.ok(stats.right, `no contact with a right normal is drawn for ${method} on the cliff edges`);
    let tooltip = null;
    for (const [dx, dy] of [[0, 0], [2, 2], [-2, 2], [2, -2], [-2, -2], [0, 4], [4, 0]]) {
      await page.mouse.move(box.x + stats.right.x + dx, box.y + stats.right.y + dy);
      if (await page.locator('#tooltip').isVisible()) {
        tooltip = await page.locator('#tooltip').textContent();
        break;
      }
    }
    assert.ok(tooltip, 'no tooltip when hovering a contact');
    assert.match(tooltip, /region\s*\d+ of \d+ between these bodies/);
    assert.match(tooltip, /normal\s*(kept from the previous step \(temporal coherence\)|from the current geometry)/);
    await page.mouse.move(box.x + 5, box.y + 5);

    const before = await outlinePixels(page);
    await page.check('#show-regions');
    await waitReady(page, { scene: 'cliff-edges', method, step: 1 });
    toggle = await regionsToggle(page);
    const drawn = Number(toggle.drawn);
    assert.ok(toggle.drawn !== '' && drawn > 0, `no regions drawn for ${method} on the cliff edges (data-regions="${toggle.drawn}")`);
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /[#&]regions=1(&|$)/);
    assert.match(await page.locator('#legend').textContent(), new RegExp(`${drawn} contact regions?:`));
    const after = await outlinePixels(page);
    assert.ok(after > before + 50, `the outlines are not on the canvas: ${before} outline-coloured pixels before, ${after} after`);
    await screenshot(page, `${OUTPUT_DIR}regions-${method}.png`);

    // The link reproduces what is on screen.
    const { page: again, context: againContext, problems: againProblems } = await openPage(browser, hash);
    try {
      await waitReady(again, { scene: 'cliff-edges', method, step: 1 });
      assert.deepEqual(await regionsToggle(again), toggle);
      assert.deepEqual(againProblems, []);
    } finally {
      await againContext.close();
    }

    // Off again: nothing drawn, and the link forgets it.
    await page.uncheck('#show-regions');
    await waitReady(page, { scene: 'cliff-edges', method, step: 1 });
    assert.equal((await regionsToggle(page)).drawn, '');
    assert.doesNotMatch(await page.evaluate(() => window.location.hash), /[#&]regions=/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
