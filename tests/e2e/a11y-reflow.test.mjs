// What canvas pages usually miss (issue 28, item 4), checked in headless
// Chromium: reflow at 320 CSS px (WCAG 1.4.10), text at 200 % (1.4.4), a
// visible focus on every Tab stop (2.4.7), prefers-reduced-motion, forced
// colours (Windows high contrast) keeping right and wrong apart, and every
// readout plot with its numbers as a table. Run by hand against a served
// page:
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/a11y-reflow.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { BASE_URL, READY_TIMEOUT_MS, browserForThisFile, collectProblems, readout, waitReady } from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));

const browser = await browserForThisFile();
await mkdir(OUTPUT_DIR, { recursive: true });

/**
 * Opens the page in a fresh context with the given emulation and waits until
 * the default scene is shown.
 * @param {{viewport?: {width: number, height: number}, reducedMotion?: 'reduce' | 'no-preference', forcedColors?: 'active' | 'none'}} [options]
 * @param {string} [hash]
 */
async function open(options = {}, hash = '') {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, ...options });
  const page = await context.newPage();
  const problems = collectProblems(page);
  await page.goto(new URL(hash, BASE_URL).href);
  await waitReady(page);
  return { page, context, problems };
}

/** Runs Compare and waits for its table. */
async function compare(page) {
  await page.click('#compare');
  await page.waitForSelector('#compare-result:not([hidden])', { timeout: READY_TIMEOUT_MS });
  await waitReady(page);
}

/**
 * What a reader at this width would lose: the page's sideways scroll, every
 * control, readout row or view overlay that sticks out of the page, and
 * every one cut off by an ancestor that hides its overflow (the view's
 * stage does). Scrolling boxes (a panel, the Compare table's strip) are
 * fine: what is in them can be scrolled to.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{scrollWidth: number, clientWidth: number, lost: string[]}>}
 */
function reflowProblems(page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.split(' ').join('.')}` : ''}`;
    const lost = [];
    const selector = 'button, input, select, a[href], summary, canvas, .readout-row, .headline, .legend, .plot-summary, #compare-table';
    for (const element of document.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue;
      if (element.closest('.compare-scroll')) continue; // scrolls sideways within its strip
      if (box.left < -1 || box.right > root.clientWidth + 1) {
        lost.push(`${name(element)} spans x ${Math.round(box.left)}…${Math.round(box.right)} of ${root.clientWidth}`);
        continue;
      }
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        const cutX = style.overflowX === 'hidden' && (box.left < clip.left - 1 || box.right > clip.right + 1);
        const cutY = style.overflowY === 'hidden' && (box.top < clip.top - 1 || box.bottom > clip.bottom + 1);
        if (cutX || cutY) lost.push(`${name(element)} cut off by ${name(parent)}`);
        break;
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, lost };
  });
}

/**
 * Pairs of the view's overlays (toolbar buttons, legend, headline) that
 * overlap: text drawn over text.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
function overlayOverlaps(page) {
  return page.evaluate(() => {
    const overlays = [...document.querySelectorAll('#view-tools button, #legend, #headline')].filter((e) => e.getBoundingClientRect().width > 0);
    const found = [];
    for (let i = 0; i < overlays.length; i++) {
      for (let j = i + 1; j < overlays.length; j++) {
        const a = overlays[i].getBoundingClientRect();
        const b = overlays[j].getBoundingClientRect();
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) found.push(`${overlays[i].id} overlaps ${overlays[j].id}`);
      }
    }
    return found;
  });
}

test('reflow at 320 CSS px (a phone, or 1280 px at 400 %): no sideways scrolling and nothing cut off, also in Present and with the Compare table', { timeout: 300_000 }, async () => {
  for (const viewport of [{ width: 320, height: 640 }, { width: 320, height: 256 }]) {
    const { page, context, problems } = await open({ viewport });
    try {
      const where = `${viewport.width}×${viewport.height}`;
      const check = async (state) => {
        const found = await reflowProblems(page);
        assert.ok(found.scrollWidth <= found.clientWidth, `${where}, ${state}: the page scrolls sideways (${found.scrollWidth} > ${found.clientWidth})`);
        assert.deepEqual(found.lost, [], `${where}, ${state}: cut off`);
        assert.deepEqual(await overlayOverlaps(page), [], `${where}, ${state}: the view's overlays drawn over each other`);
      };
      await check('default');
      await compare(page);
      await check('with the Compare table');
      if (viewport.height === 640) await page.screenshot({ path: `${OUTPUT_DIR}a11y-reflow-320.png` });
      await page.click('#present');
      await page.waitForFunction(() => document.documentElement.classList.contains('presenting'));
      await check('in Present');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('text at 200 %: no sideways scrolling, no text cut off, and the view\'s toolbar, legend and headline never overlap', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await open();
  try {
    // Twice the page's own root size (what a reader's 200 % text setting does to it).
    await page.evaluate(() => {
      const root = document.documentElement;
      root.style.fontSize = `${parseFloat(getComputedStyle(root).fontSize) * 2}px`;
    });
    await page.waitForTimeout(300);
    await waitReady(page);
    const found = await reflowProblems(page);
    assert.ok(found.scrollWidth <= found.clientWidth, `the page scrolls sideways (${found.scrollWidth} > ${found.clientWidth})`);
    assert.deepEqual(found.lost, [], 'cut off at 200 % text');
    assert.deepEqual(await overlayOverlaps(page), [], 'overlays drawn over each other at 200 % text');
    // No readout value squeezed into a sliver a word or two wide.
    const slivers = await page.evaluate(() =>
      [...document.querySelectorAll('.readout-row dt, .readout-row dd')]
        .filter((cell) => cell.getBoundingClientRect().width > 0 && cell.getBoundingClientRect().width < 6 * parseFloat(getComputedStyle(cell).fontSize))
        .map((cell) => `${cell.parentElement?.id} ${cell.tagName.toLowerCase()}: ${Math.round(cell.getBoundingClientRect().width)} px`),
    );
    assert.deepEqual(slivers, [], 'readout cells narrower than six characters');
    // The view keeps a usable share of the width.
    const view = await page.locator('#view').boundingBox();
    assert.ok(view && view.width >= 400, `the view is ${view?.width} px wide at 200 % text`);
    await page.screenshot({ path: `${OUTPUT_DIR}a11y-reflow-text-200.png` });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/**
 * Presses Tab until the focus comes round again and returns, for each stop,
 * what it is and whether it shows a focus indicator: an outline of at least
 * 2 px or a box shadow, on the element or (for the segmented control's
 * hidden radios) on its label.
 * @param {import('playwright-core').Page} page
 * @param {number} limit
 */
async function tabStops(page, limit = 250) {
  await page.evaluate(() => {
    /** @type {HTMLElement} */ (document.activeElement)?.blur();
    window.getSelection()?.removeAllRanges();
  });
  const stops = [];
  const seen = new Set();
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = /** @type {HTMLElement} */ (document.activeElement);
      if (!element || element === document.body) return null;
      const shown = element instanceof HTMLInputElement && element.type === 'radio' ? element.labels?.[0] ?? element : element;
      const style = getComputedStyle(shown);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
      const shadow = style.boxShadow !== 'none';
      const label = element.getAttribute('aria-label') || element.textContent?.trim().slice(0, 30) || '';
      return {
        key: `${element.tagName}#${element.id}|${label}|${element.getAttribute('name') ?? ''}|${element.getAttribute('value') ?? ''}`,
        what: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.getAttribute('type') ? `[${element.getAttribute('type')}]` : ''} "${label}"`,
        visible: outline || shadow,
        style: `outline ${style.outlineStyle} ${style.outlineWidth}, shadow ${style.boxShadow}`,
      };
    });
    if (!stop) continue;
    if (seen.has(stop.key)) break;
    seen.add(stop.key);
    stops.push(stop);
  }
  return stops;
}

test('every Tab stop shows a visible focus: the view, sliders, radios, help buttons, the toolbar, the Compare table and the lesson player', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await open();
  try {
    await compare(page);
    const stops = await tabStops(page);
    const lessonContext = await open({}, '#lesson=cliff-edge');
    try {
      await lessonContext.page.waitForSelector('#lesson-panel', { state: 'visible', timeout: READY_TIMEOUT_MS });
      await waitReady(lessonContext.page);
      stops.push(...(await tabStops(lessonContext.page)));
      assert.deepEqual(lessonContext.problems, []);
    } finally {
      await lessonContext.context.close();
    }
    const whats = stops.map((stop) => stop.what).join('\n');
    for (const expected of [/canvas#view/, /input#explode\[range\]/, /input#view-wireframe\[radio\]|input#view-solid\[radio\]/, /"About this method"/, /button#present/, /button#view-play|button#reset-view/, /#compare-table|"Method"|sort/i, /button#lesson-next|button#lesson-previous/]) {
      assert.match(whats, expected, `no Tab stop matching ${expected} among\n${whats}`);
    }
    const invisible = stops.filter((stop) => !stop.visible).map((stop) => `${stop.what}: ${stop.style}`);
    assert.deepEqual(invisible, [], `Tab stops without a visible focus (of ${stops.length})`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('prefers-reduced-motion: nothing moves unasked (no transitions or animations; a focused body is jumped to)', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await open({ reducedMotion: 'reduce' });
  try {
    // Every transition and animation the style sheet could start, in the
    // states that have them (a replay dims the old frame).
    const moving = await page.evaluate(() => {
      const body = document.body;
      const run = body.dataset.run;
      body.dataset.run = 'replaying';
      const found = [];
      for (const element of document.querySelectorAll('*')) {
        for (const pseudo of [null, '::before', '::after']) {
          const style = getComputedStyle(element, pseudo);
          const longest = (list) => Math.max(...list.split(',').map((d) => parseFloat(d) * (d.trim().endsWith('ms') ? 0.001 : 1)));
          const transition = longest(style.transitionDuration) + longest(style.transitionDelay);
          const animation = style.animationName !== 'none' ? longest(style.animationDuration) : 0;
          if (transition > 0.01 || animation > 0.01) found.push(`${element.tagName.toLowerCase()}#${element.id}${pseudo ?? ''}: transition ${style.transitionDuration}, animation ${style.animationName} ${style.animationDuration}`);
        }
      }
      body.dataset.run = run;
      return found;
    });
    assert.deepEqual(moving, [], 'transitions or animations under prefers-reduced-motion: reduce');

    // Double-clicking a body frames it at once: the view in the link does
    // not change after the first frame.
    await page.dblclick('#view');
    await waitReady(page);
    const camera = () => page.evaluate(() => window.location.hash.match(/cam=([^&]*)/)?.[1] ?? null);
    const first = await camera();
    assert.ok(first, 'the focus put no camera into the link');
    await page.waitForTimeout(700);
    await waitReady(page);
    assert.equal(await camera(), first, 'the camera kept moving after a focus');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('forced colours (Windows high contrast): the legend keeps right and wrong apart, every swatch stays visible, and the chosen view mode stands out', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await open({ forcedColors: 'active' });
  try {
    assert.equal(await page.evaluate(() => matchMedia('(forced-colors: active)').matches), true);
    const swatches = await page.evaluate(() =>
      [...document.querySelectorAll('#legend .swatch')].map((swatch) => {
        const style = getComputedStyle(swatch);
        const row = /** @type {HTMLElement} */ (swatch.parentElement);
        return { text: row.textContent.trim(), background: `${style.backgroundColor} ${style.backgroundImage}`, legend: getComputedStyle(/** @type {HTMLElement} */ (document.getElementById('legend'))).backgroundColor };
      }),
    );
    const right = swatches.find((s) => /right normal/.test(s.text));
    const wrong = swatches.find((s) => /wrong normal/.test(s.text));
    assert.ok(right && wrong, `the legend has no right and wrong entries: ${JSON.stringify(swatches)}`);
    assert.notEqual(right.background, wrong.background, 'right and wrong swatches look the same in forced colours');
    // Each swatch still shows: a gradient, or a colour that is neither
    // transparent nor the legend's own.
    const rgb = (colour) => colour.match(/[\d.]+/g)?.slice(0, 3).join(',');
    const alpha = (colour) => Number(colour.match(/rgba\([^)]*,\s*([\d.]+)\)/)?.[1] ?? 1);
    for (const swatch of [right, wrong]) {
      const [colour] = swatch.background.match(/^rgba?\([^)]*\)/) ?? [''];
      const image = !swatch.background.endsWith(' none');
      assert.ok(image || (alpha(colour) > 0.5 && rgb(colour) !== rgb(swatch.legend)), `the "${swatch.text}" swatch vanishes into the legend (${swatch.background} on ${swatch.legend})`);
    }
    // The chosen view mode stands out from the others by more than weight.
    const modes = await page.evaluate(() => [...document.querySelectorAll('.segmented label')].map((label) => getComputedStyle(label).backgroundColor));
    const chosen = await page.evaluate(() => [...document.querySelectorAll('.segmented input')].findIndex((input) => /** @type {HTMLInputElement} */ (input).checked));
    assert.ok(modes.every((colour, i) => i === chosen || colour !== modes[chosen]), `the chosen view mode looks like the others: ${modes.join(', ')}`);
    // The readout says right and wrong in words, not colour alone.
    const shown = await readout(page);
    assert.match(await page.locator('.readout').textContent(), new RegExp(`${shown.correct} of ${shown.count} normals right`));
    await page.screenshot({ path: `${OUTPUT_DIR}a11y-reflow-forced-colours.png` });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every plot has a summary and its numbers as a table: the Pillar with Opposing at step 3', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await open({}, '#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    const count = Number((await readout(page)).count);
    assert.ok(count > 0);
    // A reader opens each plot's "Data as a table" (it is filled when open).
    const disclosures = page.locator('.plots figure:not([hidden]) details > summary');
    assert.equal(await disclosures.count(), 4, 'a "Data as a table" disclosure under each plot');
    for (let i = 0; i < 4; i++) await disclosures.nth(i).click();
    // The table is filled on the disclosure's toggle event, a task later.
    await page.waitForFunction(() => [...document.querySelectorAll('.plots figure:not([hidden]) details')].every((d) => d.querySelector('caption')));
    const figures = await page.evaluate(() =>
      [...document.querySelectorAll('.plots figure:not([hidden])')].map((figure) => ({
        caption: figure.querySelector('figcaption')?.textContent?.trim() ?? '',
        canvas: figure.querySelector('canvas')?.id ?? '',
        summary: figure.querySelector('.plot-summary')?.textContent?.trim() ?? '',
        table: figure.querySelector('details table caption')?.textContent?.trim() ?? null,
        rows: figure.querySelectorAll('details table tbody tr').length,
        headers: figure.querySelectorAll('details table thead th[scope=col]').length,
      })),
    );
    assert.equal(figures.length, 4, JSON.stringify(figures));
    for (const figure of figures) {
      assert.notEqual(figure.summary, '', `"${figure.caption}" has no summary`);
      assert.notEqual(figure.table, null, `"${figure.caption}" has no data table`);
      assert.ok(figure.rows > 0 && figure.headers >= 2, `"${figure.caption}": ${figure.rows} rows, ${figure.headers} column headers`);
    }
    const sorted = figures.find((figure) => figure.canvas === 'plot-sorted');
    assert.equal(sorted.rows, count, `the sorted-quality table has ${sorted.rows} rows for ${count} contacts`);
    assert.match(sorted.summary, new RegExp(`\\b${count} contacts\\b`));
    const histogram = figures.find((figure) => figure.canvas === 'plot-histogram');
    assert.equal(histogram.rows, 20, 'the histogram table has a row per bin');

    // A screen reader meets it as a table with its caption and headers.
    const snapshot = await page.locator('#plot-sorted').locator('xpath=..').ariaSnapshot();
    assert.match(snapshot, /table/);
    assert.match(snapshot, /columnheader "q"/);
    await page.screenshot({ path: `${OUTPUT_DIR}a11y-reflow-plot-table.png` });

    // Kept current with the step.
    await page.click('#step-once');
    await waitReady(page, { step: 4 });
    const after = Number((await readout(page)).count);
    const rows = await page.locator('#plot-sorted').locator('xpath=..').locator('details table tbody tr').count();
    assert.equal(rows, Math.min(after, 200));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
