/**
 * @file The tooltip shown when the pointer rests on a contact: which bodies,
 * which feature pair, the normal, the depth and the quality q; for a region
 * method's contact also its region and where its normal came from (Bouma
 * & Vaněček's temporal coherence keeps a region's normal from the previous
 * step).
 */

import { cssColour } from '../render/contacts.js';

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
 * @param {HTMLElement} tooltip
 * @param {Float32Array} contacts `contactBuffer()`
 * @param {import('../render/contacts.js').ContactLayout} layout `contactLayout()`
 * @param {number} index contact index
 * @param {{bodyNames: string[], featureKinds: string[], x: number, y: number,
 *   regionOf?: (a: number, b: number, region: number) => ({of: number, colour: number[] | null} | null)}} context
 *   pointer position within the stage; regionOf: how many regions the contact's body pair has, and the
 *   colour its region's outline is drawn in (null when the outlines are off)
 */
export function showContactTooltip(tooltip, contacts, layout, index, { bodyNames, featureKinds, x, y, regionOf = () => null }) {
  const c = contacts.subarray(index * layout.stride, (index + 1) * layout.stride);
  const vector = (v) => `(${Array.from(v, (x) => x.toFixed(3)).join(', ')})`;
  const qValue = c[layout.q];
  const q = Number.isNaN(qValue) ? 'no oracle' : `${qValue.toFixed(4)} (${c[layout.correct] === 1 ? 'correct' : 'wrong'})`;
  const name = (i) => bodyNames[i] ?? `body ${i}`;
  const details = regionDetails(c, layout);
  let regionRows = '';
  if (details) {
    const region = regionOf(c[layout.a], c[layout.b], details.region - 1);
    const swatch = region?.colour ? `<span class="swatch outline" style="background:${cssColour(region.colour)}"></span>` : '';
    const of = region ? ` of ${region.of}` : '';
    regionRows = `
      <dt>region</dt><dd>${swatch}${details.region}${of} between these bodies</dd>
      <dt>normal</dt><dd>${details.normal}</dd>`;
  }
  tooltip.innerHTML = `
    <div class="tip-title"></div>
    <dl>
      <dt>feature pair</dt><dd>${featureKinds[c[layout.feature]] ?? '?'}</dd>
      <dt>normal A→B</dt><dd>${vector(c.subarray(layout.normal, layout.normal + 3))}</dd>
      <dt>depth</dt><dd>${c[layout.depth].toExponential(2)} m</dd>
      <dt>q</dt><dd>${q}</dd>${regionRows}
    </dl>`;
  // Body names come from a scene file: text, not markup.
  tooltip.querySelector('.tip-title').textContent = `${name(c[layout.a])} → ${name(c[layout.b])}`;
  tooltip.hidden = false;
  const stage = /** @type {HTMLElement} */ (tooltip.offsetParent ?? tooltip.parentElement);
  const left = Math.min(x + 14, stage.clientWidth - tooltip.offsetWidth - 4);
  const top = y + 14 + tooltip.offsetHeight > stage.clientHeight ? y - tooltip.offsetHeight - 8 : y + 14;
  tooltip.style.left = `${Math.max(4, left)}px`;
  tooltip.style.top = `${Math.max(4, top)}px`;
}

/** @param {HTMLElement} tooltip */
export function hideTooltip(tooltip) {
  tooltip.hidden = true;
}
