/**
 * @file The tooltip shown when the pointer rests on a contact: which bodies,
 * which feature pair, the normal, the depth and the quality q.
 */

/**
 * @param {HTMLElement} tooltip
 * @param {Float32Array} contacts `contactBuffer()`
 * @param {import('../render/contacts.js').ContactLayout} layout `contactLayout()`
 * @param {number} index contact index
 * @param {{bodyNames: string[], featureKinds: string[], x: number, y: number}} context pointer position within the stage
 */
export function showContactTooltip(tooltip, contacts, layout, index, { bodyNames, featureKinds, x, y }) {
  const c = contacts.subarray(index * layout.stride, (index + 1) * layout.stride);
  const vector = (v) => `(${Array.from(v, (x) => x.toFixed(3)).join(', ')})`;
  const qValue = c[layout.q];
  const q = Number.isNaN(qValue) ? 'no oracle' : `${qValue.toFixed(4)} (${c[layout.correct] === 1 ? 'correct' : 'wrong'})`;
  const name = (i) => bodyNames[i] ?? `body ${i}`;
  tooltip.innerHTML = `
    <div class="tip-title"></div>
    <dl>
      <dt>feature pair</dt><dd>${featureKinds[c[layout.feature]] ?? '?'}</dd>
      <dt>normal A→B</dt><dd>${vector(c.subarray(layout.normal, layout.normal + 3))}</dd>
      <dt>depth</dt><dd>${c[layout.depth].toExponential(2)} m</dd>
      <dt>q</dt><dd>${q}</dd>
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
