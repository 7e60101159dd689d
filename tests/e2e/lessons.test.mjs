// Browser tests of lessons (issue 20): the three shipped lessons play
// through in presentation mode at 1280 × 720 with every step's contacts
// projected inside the view and the lesson's panel beside it, never over
// it; a teacher's own lesson file opens from a link in a fresh page (its
// text shown as text) and from the file picker; a malformed lesson is
// refused with an error that names the step and key, and the page goes on.
// Screenshots of every step go to target/lessons/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { deflateRawSync } from 'node:zlib';
import { READY_TIMEOUT_MS, ROOT, bannerText, browserForThisFile, openPage as open, screenshot, waitReady } from './harness.mjs';

const SHOTS = `${ROOT}target/lessons/`;
const VIEWPORT = { width: 1280, height: 720 };

const browser = await browserForThisFile();
await mkdir(SHOTS, { recursive: true });

/** A lesson's text packed for `#lesson=`, as the page packs scene files (deflate-raw, base64url). */
function pack(text) {
  return deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url');
}

/** The shipped lessons, from the one list the page reads. */
async function shippedLessons() {
  const list = JSON.parse(await readFile(`${ROOT}www/lessons/index.json`, 'utf8'));
  return Promise.all(list.lessons.map(async (id) => ({ id, lesson: JSON.parse(await readFile(`${ROOT}www/lessons/${id}.json`, 'utf8')) })));
}

/** What the page shows once a step's link is on screen: its scene, method and step. */
function expectedOf(link) {
  const params = new URLSearchParams(link);
  const expected = { scene: params.get('scene'), method: params.get('method') ?? 'opposing' };
  if (params.has('step')) expected.step = Number(params.get('step'));
  return expected;
}

/**
 * Waits until the lesson panel shows step `number` and the page shows its
 * link (every key of it in the address bar), drawn, with the contacts counted.
 */
async function waitForStep(page, number, link) {
  await page.waitForFunction(
    ({ number, pairs }) => {
      const panel = document.getElementById('lesson-panel');
      if (panel.hidden || panel.dataset.step !== String(number)) return false;
      const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
      return pairs.every(([key, value]) => hash.get(key) === value);
    },
    { number, pairs: [...new URLSearchParams(link)] },
    { timeout: READY_TIMEOUT_MS },
  );
  await waitReady(page, expectedOf(link));
  // Two frames: the player counts the contacts of what was drawn last.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForFunction(() => document.getElementById('lesson-panel').dataset.inView !== undefined);
}

/** Where the contacts, the panel, the view and the highlight are. */
function stepFacts(page) {
  return page.evaluate(() => {
    const panel = document.getElementById('lesson-panel');
    const mark = document.getElementById('lesson-mark');
    return {
      contacts: Number(panel.dataset.contacts),
      inView: Number(panel.dataset.inView),
      covered: Number(panel.dataset.covered),
      panel: panel.getBoundingClientRect().toJSON(),
      canvas: document.getElementById('view').getBoundingClientRect().toJSON(),
      mark: mark.hidden ? null : mark.getBoundingClientRect().toJSON(),
      label: mark.hidden || document.getElementById('lesson-mark-label').hidden ? null : document.getElementById('lesson-mark-label').getBoundingClientRect().toJSON(),
      presenting: document.documentElement.classList.contains('presenting'),
      text: [...document.querySelectorAll('#lesson-text p')].map((p) => p.textContent),
      position: document.getElementById('lesson-position').textContent,
      headline: document.getElementById('headline').textContent,
    };
  });
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('the three shipped lessons play through in presentation mode at 1280×720 with every step\'s contacts in view', { timeout: 600_000 }, async () => {
  const lessons = await shippedLessons();
  assert.equal(lessons.length, 3, 'three lessons are shipped');
  for (const [n, { id, lesson }] of lessons.entries()) {
    const { page, context, problems } = await open(browser, `#lesson=${id}`, VIEWPORT);
    try {
      await page.waitForSelector('#lesson-panel', { state: 'visible', timeout: READY_TIMEOUT_MS });
      assert.equal(await page.locator('#lesson-title').textContent(), lesson.title);
      for (const [index, step] of lesson.steps.entries()) {
        if (index > 0) {
          // The first lesson goes on by the on-screen button, the others by →.
          if (n === 0) await page.click('#lesson-next');
          else await page.keyboard.press('ArrowRight');
        }
        await waitForStep(page, index + 1, step.link);
        const facts = await stepFacts(page);
        const where = `${id}, step ${index + 1} (${step.link})`;
        assert.ok(facts.presenting, `${where}: not in presentation mode`);
        assert.equal(facts.position, `Step ${index + 1} of ${lesson.steps.length}`);
        assert.deepEqual(facts.text, step.text.split(/\n\s*\n/).map((p) => p.trim()), `${where}: the step's text`);
        // Every "N of M … (P %)" the text quotes is what the headline shows.
        for (const [, right, all, percent] of step.text.matchAll(/(\d+) of (\d+)\b[^.()]*\((\d+\.\d) %\)/g)) {
          assert.ok(facts.headline.includes(`${right} of ${all} normal`) && facts.headline.includes(`(${percent} %)`), `${where}: the text quotes ${right} of ${all} (${percent} %), the headline says "${facts.headline}"`);
        }
        assert.ok(!overlaps(facts.panel, facts.canvas), `${where}: the lesson panel covers the view`);
        assert.ok(facts.canvas.width >= 600 && facts.canvas.height >= 600, `${where}: the view is ${facts.canvas.width}×${facts.canvas.height}`);
        if (/no contacts/.test(facts.headline)) assert.equal(facts.contacts, 0);
        else assert.ok(facts.contacts > 0, `${where}: no contacts drawn (headline "${facts.headline}")`);
        assert.equal(facts.inView, facts.contacts, `${where}: only ${facts.inView} of ${facts.contacts} contacts are in view`);
        assert.equal(facts.covered, 0, `${where}: ${facts.covered} of ${facts.contacts} contacts lie under the legend, the headline or the toolbar`);
        if (step.highlight) {
          assert.ok(facts.mark, `${where}: the highlight is not drawn`);
          const centre = { x: facts.mark.left + facts.mark.width / 2, y: facts.mark.top + facts.mark.height / 2 };
          assert.ok(centre.x > facts.canvas.left && centre.x < facts.canvas.right && centre.y > facts.canvas.top && centre.y < facts.canvas.bottom, `${where}: the highlight's centre is off the view`);
          if (facts.label) assert.ok(facts.label.left >= facts.canvas.left && facts.label.right <= facts.canvas.right, `${where}: the highlight's label is cut off (${facts.label.left}…${facts.label.right})`);
        } else {
          assert.equal(facts.mark, null, `${where}: a highlight without one in the lesson`);
        }
        // The readout rows the step points at are marked and in sight.
        const looks = await page.evaluate(() => {
          const panel = document.querySelector('.readout-panel').getBoundingClientRect();
          return [...document.querySelectorAll('.lesson-look')].map((row) => {
            const box = row.getBoundingClientRect();
            return { id: row.id, visible: box.height > 0 && box.top >= panel.top && box.bottom <= panel.bottom };
          });
        });
        const wanted = (step.look ?? []).map((row) => (row === 'standing' ? 'pillar-status' : `row-${row}`));
        assert.deepEqual(looks.map((row) => row.id).sort(), [...wanted].sort(), `${where}: the marked readout rows`);
        assert.ok(looks.every((row) => row.visible), `${where}: a marked readout row is out of sight: ${JSON.stringify(looks)}`);
        // screenshot() scrolls the panels to their tops; this one keeps the readout where the lesson put it.
        await page.screenshot({ path: `${SHOTS}${id}-${index + 1}.png` });
      }
      // ← goes back one step; at the last step Next is off.
      assert.ok(await page.locator('#lesson-next').isDisabled());
      await page.keyboard.press('ArrowLeft');
      await waitForStep(page, lesson.steps.length - 1, lesson.steps[lesson.steps.length - 2].link);
      // Leaving presentation mode ends the lesson.
      await page.click('#present');
      await page.waitForFunction(() => document.getElementById('lesson-panel').hidden && !document.documentElement.classList.contains('presenting'));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('the lessons are listed in the page and open from the Lessons picker', { timeout: 180_000 }, async () => {
  const lessons = await shippedLessons();
  const { page, context, problems } = await open(browser, '#scene=wedges', VIEWPORT);
  try {
    await waitReady(page, { scene: 'wedges' });
    // The lessons load after the first frame (they are not part of the first load).
    await page.waitForFunction((n) => document.querySelectorAll('#lesson-picker option[value]:not([value=""])').length >= n, lessons.length);
    const options = await page.$$eval('#lesson-picker option', (all) => all.filter((o) => o.value).map((o) => [o.value, o.textContent]));
    assert.deepEqual(options, lessons.map(({ id, lesson }) => [id, lesson.title]));
    await page.selectOption('#lesson-picker', lessons[1].id);
    await waitForStep(page, 1, lessons[1].lesson.steps[0].link);
    assert.equal(await page.locator('#lesson-title').textContent(), lessons[1].lesson.title);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/** A teacher's own lesson, with markup in its text that must stay text. */
const OWN_LESSON = {
  format: 'contactlab-lesson/1',
  title: 'My <b>own</b> lesson',
  steps: [
    {
      title: 'Two wedges',
      link: 'scene=wedges&method=semi-local&view=wireframe',
      text: 'Look at the edges.\n\n<img src=x onerror="document.body.dataset.pwned=1"> stays text.',
      highlight: { at: [0, 0, 0], radius: 0.4, label: '<i>here</i>' },
    },
    { link: 'scene=internal-edges&method=intersection&step=1', text: 'Internal edges with Intersection.' },
  ],
};

test('a lesson file of your own opens from a link in a fresh page, its text shown as text', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await open(browser, `#lesson=${pack(JSON.stringify(OWN_LESSON))}`, VIEWPORT);
  try {
    await waitForStep(page, 1, OWN_LESSON.steps[0].link);
    const facts = await stepFacts(page);
    assert.equal(await page.locator('#lesson-title').textContent(), 'My <b>own</b> lesson');
    assert.deepEqual(facts.text, ['Look at the edges.', '<img src=x onerror="document.body.dataset.pwned=1"> stays text.']);
    assert.equal(await page.locator('#lesson-mark-label').textContent(), '<i>here</i>');
    assert.equal(await page.locator('#lesson-panel img, #lesson-panel b, #lesson-mark i').count(), 0, 'markup in a lesson became elements');
    assert.equal(await page.evaluate(() => document.body.dataset.pwned), undefined);
    assert.equal(await page.evaluate(() => document.querySelector('input[name="view-mode"]:checked').value), 'wireframe');
    assert.equal(facts.inView, facts.contacts);
    await screenshot(page, `${SHOTS}own-1.png`);
    await page.keyboard.press('PageDown');
    await waitForStep(page, 2, OWN_LESSON.steps[1].link);
    assert.equal(await page.evaluate(() => document.querySelector('input[name="view-mode"]:checked').value), 'solid', 'a step without view= shows the solid view');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a malformed lesson is refused naming the step and key, and the page goes on', { timeout: 240_000 }, async () => {
  const bad = [
    ['not JSON', '{"format": "contactlab-lesson/1", "title": ', /not JSON/],
    [
      'a key that navigates elsewhere',
      JSON.stringify({ ...OWN_LESSON, steps: [OWN_LESSON.steps[0], { link: 'scene=pillar&file=abc', text: 'x' }] }),
      /step 2, "link" has the key "file", which a lesson may not use/,
    ],
    ['an address', JSON.stringify({ ...OWN_LESSON, steps: [{ link: 'https://example.com/#scene=pillar', text: 'x' }] }), /step 1, "link" must be only the part after "#"/],
    ['an unknown method', JSON.stringify({ ...OWN_LESSON, steps: [{ link: 'scene=pillar&method=nonsense', text: 'x' }] }), /step 1, "link": .*method.*nonsense/],
    ['a typo in a key', JSON.stringify({ ...OWN_LESSON, steps: [{ link: 'scene=pillar', txt: 'x' }] }), /step 1 has an unknown key "txt"/],
    ['a readout row the page has not', JSON.stringify({ ...OWN_LESSON, steps: [{ link: 'scene=pillar', text: 'x', look: ['residue'] }] }), /step 1, "look": "residue" is not a row of the readout \(rows: step, .*solver/],
    ['a bad highlight', JSON.stringify({ ...OWN_LESSON, steps: [{ link: 'scene=pillar', text: 'x', highlight: { at: [0, 1], radius: -1 } }] }), /step 1, "highlight", "at" must be three numbers/],
  ];
  for (const [name, text, message] of bad) {
    const { page, context, problems } = await open(browser, `#lesson=${pack(text)}`, VIEWPORT);
    try {
      await page.waitForFunction(() => !document.getElementById('error-banner').hidden, null, { timeout: READY_TIMEOUT_MS });
      const error = await bannerText(page, 'error-banner');
      assert.match(error, /^Could not open the lesson in the link: /, `${name}: ${error}`);
      assert.match(error, message, `${name}: ${error}`);
      // The page still opens, at the default scene, and the lesson is not shown.
      await page.waitForFunction(() => document.body.dataset.ready === 'true' && document.body.dataset.scene === 'pillar', null, { timeout: READY_TIMEOUT_MS });
      assert.ok(await page.locator('#lesson-panel').isHidden());
      assert.equal(await bannerText(page, 'error-banner'), error, `${name}: the error went when the default scene was shown`);
      assert.deepEqual(problems, [], name);
    } finally {
      await context.close();
    }
  }

  // A link whose lesson was cut short, and a bad and a good file from the picker.
  const { page, context, problems } = await open(browser, '#scene=wedges', VIEWPORT);
  try {
    await waitReady(page, { scene: 'wedges' });
    await page.setInputFiles('#lesson-file-input', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 'contactlab-lesson/2', title: '', steps: [] })) });
    await page.waitForFunction(() => !document.getElementById('error-banner').hidden);
    const error = await bannerText(page, 'error-banner');
    assert.match(error, /Could not open "broken.json": "format" must be "contactlab-lesson\/1", not "contactlab-lesson\/2"; "title" must be a non-empty string/);
    assert.equal(await page.evaluate(() => document.body.dataset.scene), 'wedges', 'a refused lesson changed the scene');
    await page.setInputFiles('#lesson-file-input', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(OWN_LESSON)) });
    await waitForStep(page, 1, OWN_LESSON.steps[0].link);
    assert.equal(await bannerText(page, 'error-banner'), null, 'the old error stays after a good lesson');
    // The panel's Copy link gives a link that opens the file's lesson in a fresh page.
    await page.evaluate(() => {
      navigator.clipboard.writeText = async (text) => {
        /** @type {any} */ (window).copiedText = text;
      };
    });
    await page.click('#lesson-copy-link');
    const link = await page.waitForFunction(() => /** @type {any} */ (window).copiedText).then((handle) => handle.jsonValue());
    assert.match(link, /#lesson=[A-Za-z0-9_-]+$/);
    assert.deepEqual(problems, []);
    const fresh = await open(browser, new URL(link).hash, VIEWPORT);
    try {
      await waitForStep(fresh.page, 1, OWN_LESSON.steps[0].link);
      assert.equal(await fresh.page.locator('#lesson-title').textContent(), OWN_LESSON.title);
      assert.deepEqual(fresh.problems, []);
    } finally {
      await fresh.context.close();
    }
  } finally {
    await context.close();
  }
});
