/**
 * @file What the page says about one contact, and the tooltip shown when
 * the pointer rests on it: which bodies, which feature pair, the normal,
 * the depth and the quality q; for a region method's contact also its
 * region and where its normal came from (Bouma & Vaněček's temporal
 * coherence keeps a region's normal from the previous step). The wording
 * is made DOM-free (`contactDetails`, `detailRows`, `contactSentence`) and
 * shared by the tooltip and the keyboard's contact list
 * (ui/contact-browser.js), so both say the same thing.
 */

import { cssColour } from '../render/contacts.js';
import { featureWords } from '../state/contact-pairs.js';

/** What the tooltip says about where a region method's normal came from. */
export const NORMAL_KEPT = 'kept from the previous step (temporal coherence)';
export const NORMAL_FRESH = 'from the current geometry';

/**
 * The region lines of a contact's details, DOM-free: none for a local
 * method's contact (region NaN).
 * @param {Float32Array} contact one contact's floats of `contactBuffer()`
 * @param {import('../render/contacts.js').ContactLayout} layout `contactLayout()`
 * @returns {{region: number, normal: string} | null} region: its number among its body pair's regions, from 1
 */
export function regionDetails(contact, layout) {
  const region = contact[layout.region];
  if (region === undefined || Number.isNaN(region)) return null;
  return { region: region + 1, normal: contact[layout.kept_normal] === 1 ? NORMAL_KEPT : NORMAL_FRESH };
}

/**
 * Everything the page says about one contact, as text, DOM-free.
 * @typedef {object} ContactDetails
 * @property {number} a body index of A (the normal points from A to B)
 * @property {number} b body index of B
 * @property {string} bodies "A → B" by the scene's body names (untrusted text: a scene file's)
 * @property {string} feature the feature pair's label, e.g. "(F,F)"
 * @property {string} featureWords the same in words, e.g. "face–face"
 * @property {string} normal the normal A→B, "(x, y, z)" to 3 decimals
 * @property {string} depth e.g. "1.20e-4 m"
 * @property {'right' | 'wrong' | null} verdict the core's verdict on the normal, in the readout's and the legend's words; null where the scene has no oracle
 * @property {string} q e.g. "0.9876 (correct)", or "no oracle"
 * @property {'right' | 'indeterminate-right' | 'wrong' | null} geo the geometric oracle's verdict
 *   (indeterminate-right: within a cone of valid normals); null where the core gives none
 * @property {{region: number, normal: string} | null} region `regionDetails`
 */

/**
 * @param {Float32Array} contacts `contactBuffer()`
 * @param {import('../render/contacts.js').ContactLayout} layout `contactLayout()`
 * @param {number} index contact index
 * @param {{bodyNames: string[], featureKinds: string[]}} names the scene's body names and the core's feature kinds
 * @returns {ContactDetails}
 */
export function contactDetails(contacts, layout, index, { bodyNames, featureKinds }) {
  const c = contacts.subarray(index * layout.stride, (index + 1) * layout.stride);
  const vector = (v) => `(${Array.from(v, (x) => x.toFixed(3)).join(', ')})`;
  const qValue = c[layout.q];
  const correct = c[layout.correct];
  const verdict = Number.isNaN(qValue) || Number.isNaN(correct) ? null : correct === 1 ? 'right' : 'wrong';
  const geo = layout.geo === undefined ? undefined : c[layout.geo];
  const name = (i) => bodyNames[i] ?? `body ${i}`;
  const feature = featureKinds[c[layout.feature]] ?? '?';
  return {
    a: c[layout.a],
    b: c[layout.b],
    bodies: `${name(c[layout.a])} → ${name(c[layout.b])}`,
    feature,
    featureWords: featureWords(feature),
    normal: vector(c.subarray(layout.normal, layout.normal + 3)),
    depth: `${c[layout.depth].toExponential(2)} m`,
    verdict,
    q: verdict === null ? 'no oracle' : `${qValue.toFixed(4)} (${verdict} normal)`,
    geo: geo === 1 ? 'right' : geo === 0.5 ? 'indeterminate-right' : geo === 0 ? 'wrong' : null,
    region: regionDetails(c, layout),
  };
}

/**
 * The tooltip's rows, term and value, for any list of a contact's details.
 * @param {ContactDetails} details
 * @param {{of: number} | null} [region] how many regions the contact's body pair has
 * @returns {Array<{term: string, value: string}>}
 */
export function detailRows(details, region = null) {
  const rows = [
    { term: 'feature pair', value: `${details.feature} ${details.featureWords}` },
    { term: 'normal A→B', value: details.normal },
    { term: 'depth', value: details.depth },
    { term: 'q', value: details.q },
  ];
  if (details.geo) rows.push({ term: 'geometric oracle', value: details.geo });
  if (details.region) {
    rows.push({ term: 'region', value: `${details.region.region}${region ? ` of ${region.of}` : ''} between these bodies` });
    rows.push({ term: 'normal', value: details.region.normal });
  }
  return rows;
}

/**
 * The contact in one line, as the keyboard's contact list names it, e.g.
 * "contact 3 of 19: shaft-3 → capital, face–face, wrong (q -0.1200),
 * depth 1.20e-4 m, normal A→B (0.000, 1.000, 0.000)".
 * @param {ContactDetails} details
 * @param {number} position its place in its list, from 1
 * @param {number} count the list's length
 * @returns {string}
 */
export function contactSentence(details, position, count) {
  const verdict = details.verdict === null ? 'no oracle' : `${details.verdict} normal (q ${details.q.split(' ')[0]})`;
  // The geometric verdict only where it says more than the one above.
  const geo = details.geo && details.geo !== details.verdict ? `, geometric oracle: ${details.geo}` : '';
  return `contact ${position} of ${count}: ${details.bodies}, ${details.featureWords}, ${verdict}${geo}, depth ${details.depth}, normal A→B ${details.normal}`;
}

/**
 * Fills a <dl> with a contact's rows (text only: nothing here is markup).
 * @param {HTMLElement} list
 * @param {Array<{term: string, value: string}>} rows
 * @returns {HTMLElement[]} the value elements, in row order
 */
export function fillDetailList(list, rows) {
  const values = rows.map(({ term, value }) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
    return dd;
  });
  return values;
}

/**
 * @param {HTMLElement} tooltip
 * @param {Float32Array} contacts `contactBuffer()`
 * @param {import('../render/contacts.js').ContactLayout} layout `contactLayout()`
 * @param {number} index contact index
 * @param {{bodyNames: string[], featureKinds: string[], x: number, y: number, above?: boolean,
 *   regionOf?: (a: number, b: number, region: number) => ({of: number, colour: number[] | null} | null)}} context
 *   pointer position within the stage; above: put the tooltip above the point where it fits (a finger's
 *   tap: the hand covers what is below it); regionOf: how many regions the contact's body pair has, and the
 *   colour its region's outline is drawn in (null when the outlines are off)
 */
export function showContactTooltip(tooltip, contacts, layout, index, { bodyNames, featureKinds, x, y, above = false, regionOf = () => null }) {
  const details = contactDetails(contacts, layout, index, { bodyNames, featureKinds });
  const region = details.region ? regionOf(details.a, details.b, details.region.region - 1) : null;
  const title = document.createElement('div');
  title.className = 'tip-title';
  // Body names come from a scene file: text, not markup.
  title.textContent = details.bodies;
  const list = document.createElement('dl');
  const rows = detailRows(details, region);
  const values = fillDetailList(list, rows);
  if (region?.colour) {
    const swatch = document.createElement('span');
    swatch.className = 'swatch outline';
    swatch.style.background = cssColour(region.colour);
    values[rows.findIndex((row) => row.term === 'region')]?.prepend(swatch);
  }
  tooltip.replaceChildren(title, list);
  tooltip.hidden = false;
  const stage = /** @type {HTMLElement} */ (tooltip.offsetParent ?? tooltip.parentElement);
  const left = Math.min(x + 14, stage.clientWidth - tooltip.offsetWidth - 4);
  const fitsAbove = y - tooltip.offsetHeight - 8 >= 4;
  const fitsBelow = y + 14 + tooltip.offsetHeight <= stage.clientHeight;
  const top = (above && fitsAbove) || !fitsBelow ? y - tooltip.offsetHeight - 8 : y + 14;
  tooltip.style.left = `${Math.max(4, left)}px`;
  tooltip.style.top = `${Math.max(4, top)}px`;
}

/** @param {HTMLElement} tooltip */
export function hideTooltip(tooltip) {
  tooltip.hidden = true;
}
