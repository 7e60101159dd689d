// Browser tests of the contacts by keyboard (issue 28, item 3): without a
// mouse, a visitor reaches the contact list beside the view with Tab, walks
// the contacts of the worst body pair with the arrows to a wrong one, and
// finds its details exposed (the listbox's active option names it "wrong",
// with its bodies, feature pair, depth and normal) and the view's highlight
// moved to it (`window.contactlabView.highlighted()` names that contact and
// puts it where `onScreen()` says the last frame drew it; the ring over the
// view sits there). Also: the list follows a new step, pairs change with
// PageDown / the pair picker, and axe finds nothing wrong with the section.
// Screenshots for a person go to target/a11y-keys/ (ignored by git).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, browserForThisFile, openPage, waitReady } from './harness.mjs';

const SHOTS = `${ROOT}target/a11y-keys/`;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** Tab presses a keyboard user would make at most to reach the list from the top of the page. */
const MAX_TABS = 80;

const browser = await browserForThisFile();

/**
 * Presses Tab until the focus is on an element matching `selector`.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @returns {Promise<number>} the presses it took
 */
async function tabTo(page, selector) {
  for (let presses = 1; presses <= MAX_TABS; presses++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return presses;
  }
  throw new Error(`${MAX_TABS} presses of Tab never reached ${selector}`);
}

/**
 * What the focused element exposes: its role, its accessible-name source
 * (the active option's text for a listbox with aria-activedescendant) and
 * the contact that option stands for.
 * @param {import('playwright-core').Page} page
 */
function focusedOption(page) {
  return page.evaluate(() => {
    const focused = /** @type {HTMLElement} */ (document.activeElement);
    const id = focused.getAttribute('aria-activedescendant');
    const option = id ? document.getElementById(id) : null;
    return {
      role: focused.getAttribute('role'),
      option: option ? { role: option.getAttribute('role'), selected: option.getAttribute('aria-selected'), text: option.textContent.trim(), contact: Number(option.dataset.contact) } : null,
    };
  });
}

/** The highlighted contact and where the page says the last frame drew it. */
function highlight(page) {
  return page.evaluate(() => {
    const view = /** @type {any} */ (window).contactlabView;
    const highlighted = view.highlighted?.() ?? null;
    const drawn = highlighted ? view.onScreen().contacts[highlighted.index] : null;
    const ring = document.getElementById('contact-mark');
    const box = ring && !ring.hidden ? ring.getBoundingClientRect() : null;
    return { highlighted, drawn, ring: box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null };
  });
}

test('keyboard only: Tab to the contact list, arrow to a wrong contact on the Pillar at step 3; its details are exposed and the view highlights it', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage(browser, '#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    // The pair picker first: the worst pair is chosen, shaft-3 → capital.
    await tabTo(page, '#contact-pair');
    const pair = await page.evaluate(() => {
      const select = /** @type {HTMLSelectElement} */ (document.activeElement);
      return { text: select.selectedOptions[0]?.textContent ?? '', name: select.labels?.[0]?.textContent ?? '' };
    });
    assert.match(pair.text, /shaft-3 → capital/, `the first pair is "${pair.text}"`);
    assert.match(pair.text, /\d+ wrong/);
    // Then the list of that pair's contacts.
    await page.keyboard.press('Tab');
    let shown = await focusedOption(page);
    assert.equal(shown.role, 'listbox', 'Tab after the pair picker does not reach the contact list');
    assert.ok(shown.option, 'the list has no active option');
    assert.equal(shown.option.role, 'option');
    // Walk down to the first wrong contact.
    let presses = 0;
    while (!/\bwrong\b/.test(shown.option.text) && presses < 40) {
      await page.keyboard.press('ArrowDown');
      presses++;
      shown = await focusedOption(page);
    }
    const option = /** @type {NonNullable<typeof shown.option>} */ (shown.option);
    assert.match(option.text, /^contact \d+ of \d+: shaft-3 → capital, /, option.text);
    assert.match(option.text, /\bwrong\b/, `no wrong contact within ${presses} presses: "${option.text}"`);
    assert.match(option.text, /face–face/);
    assert.match(option.text, /depth -?[\d.]+e[-+]?\d+ m/);
    assert.match(option.text, /normal A→B \(-?[\d.]+, -?[\d.]+, -?[\d.]+\)/);
    assert.equal(option.selected, 'true');
    // The details beside the list say the same as the tooltip would.
    const details = await page.locator('#contact-details').textContent();
    assert.match(details, /shaft-3 → capital/);
    assert.match(details, /wrong/);
    // The view's highlight moved to that contact, where the frame drew it.
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    const seen = await highlight(page);
    assert.ok(seen.highlighted, 'the view highlights no contact');
    assert.equal(seen.highlighted.index, option.contact, 'the highlighted contact is not the chosen one');
    assert.ok(seen.drawn, 'onScreen() has no such contact');
    assert.ok(Math.abs(seen.highlighted.x - seen.drawn.x) < 0.5 && Math.abs(seen.highlighted.y - seen.drawn.y) < 0.5, `highlight at ${JSON.stringify(seen.highlighted)}, contact drawn at ${JSON.stringify(seen.drawn)}`);
    assert.ok(seen.ring, 'no ring over the view');
    assert.ok(Math.abs(seen.ring.x - seen.drawn.x) < 1.5 && Math.abs(seen.ring.y - seen.drawn.y) < 1.5, `ring at ${JSON.stringify(seen.ring)}, contact drawn at ${JSON.stringify(seen.drawn)}`);
    await page.screenshot({ path: `${SHOTS}wrong-contact.png` });
    // The arrows moved the highlight, not the camera or the step.
    assert.equal(await page.evaluate(() => document.body.dataset.step), '3');
    assert.ok(!(await page.evaluate(() => window.location.hash.includes('cam='))), 'the arrows turned the camera');
    // One more: the highlight follows.
    await page.keyboard.press('End');
    const last = await focusedOption(page);
    assert.match(last.option?.text ?? '', /^contact (\d+) of \1: /);
    await page.waitForFunction((index) => /** @type {any} */ (window).contactlabView.highlighted()?.index === index, last.option?.contact);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('PageDown moves to the next pair; a new step keeps the pair and clamps the place', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage(browser, '#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    await tabTo(page, '#contact-list');
    const pairOf = () => page.evaluate(() => /** @type {HTMLSelectElement} */ (document.getElementById('contact-pair')).selectedOptions[0]?.textContent ?? '');
    const first = await pairOf();
    await page.keyboard.press('PageDown');
    const second = await pairOf();
    assert.notEqual(second, first, 'PageDown did not move to another pair');
    let shown = await focusedOption(page);
    assert.equal(shown.role, 'listbox', 'the focus left the list');
    assert.match(shown.option?.text ?? '', /^contact 1 of \d+: /);
    await page.keyboard.press('PageUp');
    assert.equal(await pairOf(), first);
    await page.keyboard.press('End');
    shown = await focusedOption(page);
    const before = /** @type {string} */ (shown.option?.text).match(/^contact (\d+) of (\d+)/);
    // One step on (→ is the page's Step key; in a vertical list it is free).
    await page.keyboard.press('ArrowRight');
    await waitReady(page, { step: 4 });
    shown = await focusedOption(page);
    assert.equal(shown.role, 'listbox');
    const after = /** @type {string} */ (shown.option?.text).match(/^contact (\d+) of (\d+): (.*?),/);
    assert.ok(after, 'the list is empty after a step');
    assert.equal(await pairOf().then((t) => t.split(':')[0]), first.split(':')[0], 'the pair changed with the step');
    assert.equal(Number(after[1]), Math.min(Number(before?.[1]), Number(after[2])), 'the place was not kept (clamped)');
    const seen = await highlight(page);
    assert.equal(seen.highlighted?.index, shown.option?.contact);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe finds no violation in the contact list, with a contact chosen', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage(browser, '#scene=pillar&method=opposing&step=3');
  try {
    await waitReady(page, { scene: 'pillar', method: 'opposing', step: 3 });
    await tabTo(page, '#contact-list');
    await page.keyboard.press('ArrowDown');
    await page.addScriptTag({ path: `${ROOT}node_modules/axe-core/axe.min.js` });
    const result = await page.evaluate(
      (tags) => /** @type {any} */ (window).axe.run('#contact-browser', { runOnly: { type: 'tag', values: tags } }),
      AXE_TAGS,
    );
    const violations = result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    assert.deepEqual(violations, []);
    const snapshot = await page.locator('#contact-browser').ariaSnapshot();
    assert.match(snapshot, /listbox/);
    assert.match(snapshot, /option "contact \d+ of \d+: shaft-3 → capital/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
