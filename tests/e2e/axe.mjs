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
