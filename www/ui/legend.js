/**
 * @file The colour key in the corner of the 3D view: what green, red and
 * grey mean, or which colour is which feature pair.
 */

import { FEATURE_COLOURS, cssColour, qualityColour } from '../render/contacts.js';

/**
 * @param {HTMLElement} element
 * @param {{featureColours: boolean, featureKinds: string[], hasOracle: boolean, count: number, shown: number}} options
 */
export function showLegend(element, { featureColours, featureKinds, hasOracle, count, shown }) {
  const swatch = (colour, label) => `<span class="swatch" style="background:${cssColour(colour)}"></span>${label}`;
  let items;
  if (featureColours) {
    items = featureKinds.map((kind, i) => swatch(FEATURE_COLOURS[i], kind));
  } else if (hasOracle) {
    const ramp = `linear-gradient(90deg, ${cssColour(qualityColour(0, 0))}, ${cssColour(qualityColour(1, 0))})`;
    items = [swatch(qualityColour(1, 1), 'correct'), `<span class="swatch ramp" style="background:${ramp}"></span>wrong (q 0 → 1)`];
  } else {
    items = [swatch(qualityColour(1, NaN), 'no oracle for this scene')];
  }
  const counted = shown === count ? `${count} contacts` : `${shown} of ${count} contacts shown`;
  element.innerHTML = `<div class="legend-count">${counted}</div>${items.map((item) => `<div>${item}</div>`).join('')}`;
}
