// Browser tests of issue 28, item 2: the view told in words. Beside the
// canvas a description names the scene, its bodies and, per touching body
// pair, its contacts, how many normals are right and wrong and from which
// feature pairs, then the largest displacement and whether the structure
// stands; the canvas points to it (aria-describedby, aria-details). It is
// read here the way a screen reader meets it: through the accessibility
// tree (Playwright's ARIA snapshot, and Chromium's computed description of
// the canvas). Run by hand:
//   CONTACTLAB_URL=http://127.0.0.1:8000/ node --test tests/e2e/a11y-words.test.mjs
// Screenshots go to tests/e2e/output/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { browserForThisFile, cliRun, openPage, screenshot, waitReady } from './harness.mjs';

const OUTPUT_DIR = fileURLToPath(new URL('./output/', import.meta.url));

const browser = await browserForThisFile();

/** The CLI's contacts counted per body pair, keyed "a – b" as the page names them. */
function wrongPerPair(contacts) {
  /** @type {Map<string, {count: number, wrong: number}>} */
  const pairs = new Map();
  for (const c of contacts) {
    const key = `${c.a} – ${c.b}`;
    const pair = pairs.get(key) ?? { count: 0, wrong: 0 };
    pair.count++;
    if (c.correct === false) pair.wrong++;
    pairs.set(key, pair);
  }
  return pairs;
}

/** Opens the full list of pairs, as a reader would, and waits for it to be filled. */
async function openPairs(page) {
  const details = page.locator('#view-words details');
  if (!(await details.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open))) await details.locator('summary').click();
  await page.waitForFunction(() => document.querySelectorAll('#view-words details li').length > 0);
}

/**
 * The description's pairs as the accessibility tree gives them: the list
 * items of the ARIA snapshot, "a – b: N contacts, W wrong, …".
 * @returns {Promise<{snapshot: string, pairs: Map<string, {count: number, wrong: number | null, text: string}>}>}
 */
async function describedPairs(page) {
  const snapshot = await page.locator('#view-words').ariaSnapshot();
  const pairs = new Map();
  for (const match of snapshot.matchAll(/listitem: "?(.+? – .+?): (\d+) contacts?(?:, (\d+) wrong)?([^"\n]*)/g)) {
    pairs.set(match[1], { count: Number(match[2]), wrong: match[3] === undefined ? null : Number(match[3]), text: match[0] });
  }
  return { snapshot, pairs };
}

/** What Chromium's accessibility tree says the canvas is described by. */
async function canvasDescription(page) {
  const client = await page.context().newCDPSession(page);
  const { nodes } = await client.send('Accessibility.getPartialAXTree', {
    backendNodeId: (await client.send('DOM.describeNode', {
      objectId: (await client.send('Runtime.evaluate', { expression: 'document.getElementById("view")' })).result.objectId,
    })).node.backendNodeId,
    fetchRelatives: false,
  });
  await client.detach();
  return nodes[0]?.description?.value ?? '';
}

// `contactlab run --json --contacts` lists the step's contacts with the
// core's verdicts, so the page's pairs are checked against it pair by pair.
test('the Pillar with Opposing at step 3 is told in words: shaft-3 – capital and its wrong normals, as the CLI counts them', { timeout: 600_000 }, async () => {
  const cli = await cliRun(['pillar', '--method', 'opposing', '--steps', '3', '--contacts']);
  const cliWrong = cli.count - cli.correct;
  const expected = wrongPerPair(cli.contacts);
  const { page, context, problems } = await openPage(browser, '#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    // The view is described: the canvas names the summary, and its details.
    const description = await canvasDescription(page);
    assert.match(description, /step 3/i, `the canvas's description: ${description}`);
    assert.match(description, new RegExp(`${cli.count} contacts.*${cliWrong} wrong`), `the canvas's description: ${description}`);
    assert.equal(await page.locator('#view').getAttribute('aria-details'), 'view-words');

    await openPairs(page);
    const { snapshot, pairs } = await describedPairs(page);
    assert.match(snapshot, /heading "The view in words"/);
    assert.match(snapshot, new RegExp(`Step 3: ${cli.count} contacts between \\d+ body pairs, ${cliWrong} wrong`), snapshot);
    assert.match(snapshot, /8 bodies/);
    for (const name of ['ground', 'plinth', 'shaft-3', 'capital', 'abacus']) assert.ok(snapshot.includes(name), `the bodies: ${name} missing from\n${snapshot}`);
    const capital = pairs.get('shaft-3 – capital');
    assert.ok(capital, `no "shaft-3 – capital" in\n${snapshot}`);
    assert.match(capital.text, /face–face/);
    assert.equal(capital.wrong, expected.get('shaft-3 – capital')?.wrong, `shaft-3 – capital: the page says ${capital.text}`);
    assert.ok(capital.wrong > 0, `shaft-3 – capital has wrong normals at step 3: ${capital.text}`);
    // Every pair as the CLI counts it.
    assert.deepEqual(
      Object.fromEntries([...pairs].map(([key, p]) => [key, { count: p.count, wrong: p.wrong }])),
      Object.fromEntries(expected),
      snapshot,
    );
    assert.match(snapshot, /Largest displacement/i);
    assert.match(snapshot, new RegExp(cli.standing ? 'stands' : 'collapsed', 'i'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a scene without an oracle of its own is judged by the geometric oracle: its pairs say right and wrong', { timeout: 300_000 }, async () => {
  // Parry predicts contacts a little apart: the rolling spheres have some by step 3 (the paper's methods find none).
  const { page, context, problems } = await openPage(browser, '#scene=rolling-spheres&method=parry&step=3');
  try {
    await waitReady(page, { scene: 'rolling-spheres', step: 3 });
    await openPairs(page);
    const { snapshot, pairs } = await describedPairs(page);
    assert.doesNotMatch(snapshot, /no oracle/i);
    assert.ok(pairs.size > 0, snapshot);
    for (const pair of pairs.values()) {
      assert.notEqual(pair.wrong, null, `every pair is judged: ${pair.text}`);
      assert.match(pair.text, /(vertex|edge|face)–(vertex|edge|face)/, pair.text);
    }
    // The pairs' wrong contacts are the readout's (the geometric oracle's, as the CLI gives them).
    const exact = await page.evaluate(() => ({
      count: Number(document.querySelector('[data-readout="count"]')?.textContent),
      correct: Number(document.querySelector('[data-readout="correct"]')?.textContent),
      oracle: document.querySelector('[data-readout="oracle"]')?.textContent,
    }));
    assert.equal(exact.oracle, 'geometric');
    assert.equal([...pairs.values()].reduce((sum, pair) => sum + pair.wrong, 0), exact.count - exact.correct);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the Wall leads with a summary, its pairs can be browsed a page at a time, and the view is not crowded', { timeout: 600_000 }, async () => {
  const { page, context, problems } = await openPage(browser, '#scene=wall&method=opposing&step=1');
  try {
    await waitReady(page, { scene: 'wall', step: 1 });
    await screenshot(page, `${OUTPUT_DIR}a11y-words-wall.png`);
    // Beside the view, not over it, and a few lines until the pairs are opened.
    const words = await page.locator('#view-words').boundingBox();
    const view = await page.locator('#view').boundingBox();
    assert.ok(words && view && (words.x >= view.x + view.width || words.y >= view.y + view.height), `the description covers the view: ${JSON.stringify({ words, view })}`);
    assert.ok(words.height < 300, `the closed description is ${words.height} px tall`);
    const summary = await page.locator('#view-words-summary').textContent();
    const pairCount = Number(/between (\d+) body pairs/.exec(summary ?? '')?.[1]);
    assert.ok(pairCount > 100, `the Wall has hundreds of touching pairs: ${summary}`);
    // The worst pairs lead, before the list.
    assert.match(await page.locator('#view-words').ariaSnapshot(), /Most wrong normals: .+ – .+ \(\d+ of \d+\)/);
    // The list is closed at first, and then shows a page of pairs and says how many more there are.
    assert.equal(await page.locator('#view-words details').evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open), false);
    await openPairs(page);
    const shown = await page.locator('#view-words details li').count();
    assert.ok(shown < pairCount && shown <= 50, `a first page of pairs, not all ${pairCount}: ${shown}`);
    const more = page.locator('#view-words details button');
    assert.match(await more.textContent(), new RegExp(`${pairCount - shown} more`));
    await more.click();
    assert.ok((await page.locator('#view-words details li').count()) > shown, 'the next page of pairs');
    // The focus goes to the first new pair, where the reader goes on.
    assert.equal(await page.evaluate(() => [...document.querySelectorAll('#view-words li')].indexOf(/** @type {HTMLLIElement} */ (document.activeElement))), shown);
    const { pairs } = await describedPairs(page);
    assert.ok(pairs.size > shown);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the short summary is announced politely: at most once a second while playing, and once on pause', { timeout: 300_000 }, async () => {
  const { page, context, problems } = await openPage(browser, '#scene=pillar&method=opposing&step=0');
  try {
    await waitReady(page, { scene: 'pillar', step: 0 });
    const live = page.locator('#view-words-summary');
    assert.equal(await live.getAttribute('aria-live'), 'polite');
    // The full description is to browse: nothing around it is live.
    assert.equal(await page.locator('#view-words').evaluate((e) => e.closest('[aria-live]:not([aria-live="off"])') === null), true);
    assert.equal(await page.locator('#view-words details').evaluate((e) => e.querySelector('[aria-live]') === null), true);
    // Every live region's text changes, not only the summary's: another one
    // that said each frame's step would drown it.
    await page.evaluate(() => {
      /** @type {any} */ (window).liveChanges = [];
      for (const target of document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]')) {
        new MutationObserver(() =>
          /** @type {any} */ (window).liveChanges.push({ at: performance.now(), id: target.id, text: target.textContent, run: document.body.dataset.run }),
        ).observe(target, { childList: true, characterData: true, subtree: true });
      }
    });
    await page.click('#play');
    await page.waitForFunction(() => Number(document.body.dataset.step) >= 20, null, { timeout: 120_000 });
    await page.waitForTimeout(3500);
    await page.click('#play');
    await waitReady(page, { scene: 'pillar' });
    const step = await page.evaluate(() => document.body.dataset.step);
    await page.waitForTimeout(300);
    /** @type {{at: number, id: string, text: string, run: string}[]} */
    const all = await page.evaluate(() => /** @type {any} */ (window).liveChanges);
    for (const id of new Set(all.map((c) => c.id))) {
      const times = all.filter((c) => c.id === id && c.run === 'playing').map((c) => c.at);
      for (let i = 1; i < times.length; i++) {
        assert.ok(times[i] - times[i - 1] >= 990, `the live region #${id} changed twice in ${Math.round(times[i] - times[i - 1])} ms while playing`);
      }
    }
    const changes = all.filter((c) => c.id === 'view-words-summary');
    const playing = changes.filter((c) => c.run === 'playing');
    assert.ok(playing.length >= 2, `the summary follows the run while playing: ${JSON.stringify(changes)}`);
    for (let i = 1; i < playing.length; i++) {
      assert.ok(playing[i].at - playing[i - 1].at >= 990, `two changes ${Math.round(playing[i].at - playing[i - 1].at)} ms apart while playing`);
    }
    const last = changes[changes.length - 1];
    assert.match(last.text, new RegExp(`step ${step}\\b`, 'i'), 'the pause is announced with the paused step');
    assert.equal(changes.filter((c) => c.run !== 'playing').length, 1, `one announcement on pause: ${JSON.stringify(changes)}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
