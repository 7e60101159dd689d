/**
 * @file The tooltip shown when the pointer rests on a contact: which bodies,
 * which feature pair, the normal, the depth and the quality q.
 */

import { CONTACT_STRIDE } from '../render/contacts.js';

/**
 * @param {HTMLElement} tooltip
 * @param {Float32Array} contacts `contactBuffer()`
 * @param {number} index contact index
 * @param {{bodyNames: string[], featureKinds: string[], x: number, y: number}} context pointer position within the stage
 */
export function showContactTooltip(tooltip, contacts, index, { bodyNames, featureKinds, x, y }) {
  const c = contacts.subarray(index * CONTACT_STRIDE, (index + 1) * CONTACT_STRIDE);
  const vector = (v) => `(${Array.from(v, (x) => x.toFixed(3)).join(', ')})`;
  const q = Number.isNaN(c[6]) ? 'no oracle' : `${c[6].toFixed(4)} (${c[7] === 1 ? 'correct' : 'wrong'})`;
  const name = (i) => bodyNames[i] ?? `body ${i}`;
  tooltip.innerHTML = `
    <div class="tip-title"></div>
    <dl>
      <dt>feature pair</dt><dd>${featureKinds[c[9]] ?? '?'}</dd>
      <dt>normal A→B</dt><dd>${vector(c.subarray(3, 6))}</dd>
      <dt>depth</dt><dd>${c[8].toExponential(2)} m</dd>
      <dt>q</dt><dd>${q}</dd>
    </dl>`;
  // Body names come from a scene file: text, not markup.
  tooltip.querySelector('.tip-title').textContent = `${name(c[10])} → ${name(c[11])}`;
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
