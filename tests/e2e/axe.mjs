// axe-core in the browser tests (issue 28): injected from the copy npm
// installed (node_modules/axe-core), never from the network, and run on the
// whole document with every WCAG 2.0, 2.1 and 2.2 A and AA rule; no rule
// is disabled and no element excluded.

import { ROOT } from './harness.mjs';

/** The axe tags the page must pass: WCAG 2.2 at levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe on the page (or frame) as it is now.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} page
 * @returns {Promise<{violations: any[], incomplete: any[]}>}
 */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.addScriptTag({ path: `${ROOT}node_modules/axe-core/axe.min.js` });
  }
  return page.evaluate(async (tags) => {
    const results = await /** @type {any} */ (window).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations', 'incomplete'] });
    return { violations: results.violations, incomplete: results.incomplete };
  }, WCAG_TAGS);
}

/**
 * axe's results as lines a person can act on: the rule, its impact, and per
 * element its selector and what axe says is wrong.
 * @param {any[]} results `violations` or `incomplete`
 */
export function describeResults(results) {
  const lines = [];
  for (const result of results) {
    lines.push(`${result.id} (${result.impact ?? 'no impact'}): ${result.help} — ${result.nodes.length} element(s)`);
    for (const node of result.nodes) {
      const summary = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
      lines.push(`  ${node.target.join(' ')}: ${summary}`);
    }
  }
  return lines.join('\n');
}

/**
 * For each color-contrast result axe left "incomplete" (text over the
 * canvas, in a scrolled dialog, symbols only), the contrast a person would
 * measure in the worst case: the text's colour against its own backgrounds
 * and its ancestors', composited over a black and over a white backdrop
 * (whatever the view draws lies between the two), the lower of the two.
 * Returns one entry per element: its selector, the ratio and the ratio it
 * needs (3 for large text, 4.5 otherwise).
 * @param {import('playwright-core').Page | import('playwright-core').Frame} page
 * @param {any[]} incomplete `axeViolations(page).incomplete`
 * @returns {Promise<Array<{target: string, ratio: number, needed: number, text: string}>>}
 */
export async function worstCaseContrasts(page, incomplete) {
  const targets = incomplete.filter((result) => result.id === 'color-contrast').flatMap((result) => result.nodes.map((node) => node.target[0]));
  return page.evaluate((targets) => {
    /** @param {string} text @returns {number[]} r, g, b (0–255) and alpha (0–1) */
    const parse = (text) => {
      const numbers = text.match(/[\d.]+/g).map(Number);
      return [numbers[0], numbers[1], numbers[2], numbers.length > 3 ? numbers[3] : 1];
    };
    /** @param {number[]} top @param {number[]} under an opaque colour */
    const over = (top, under) => under.map((channel, i) => (i < 3 ? top[i] * top[3] + channel * (1 - top[3]) : 1));
    const luminance = (rgb) => {
      const [r, g, b] = rgb.slice(0, 3).map((c) => c / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light + 0.05) / (dark + 0.05);
    };
    return targets.map((target) => {
      const element = document.querySelector(target);
      const style = getComputedStyle(element);
      // The backgrounds from the element outwards, to the first opaque one.
      const layers = [];
      let opacity = 1;
      for (let node = element; node instanceof Element; node = node.parentElement) {
        const own = getComputedStyle(node);
        opacity *= Number(own.opacity);
        const background = parse(own.backgroundColor);
        if (own.backgroundImage !== 'none') layers.push([0, 0, 0, Number.NaN]);
        if (background[3] > 0) layers.push(background);
        if (background[3] === 1) break;
      }
      const size = parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700;
      const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      const worst = Math.min(
        ...[[0, 0, 0, 1], [255, 255, 255, 1]].map((backdrop) => {
          const background = layers.reduceRight((under, layer) => over(layer, under), backdrop);
          const ink = parse(style.color);
          return ratio(over([ink[0], ink[1], ink[2], ink[3] * opacity], background), background);
        }),
      );
      return { target, ratio: worst, needed, text: element.textContent.trim().slice(0, 40) };
    });
  }, targets);
}
