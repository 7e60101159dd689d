/**
 * @file The colour key in the corner of the 3D view: what blue, orange and
 * grey mean (and that wrong contacts are cubes), or which colour is which
 * feature pair.
 */

import { FEATURE_COLOURS, cssColour, qualityColour } from '../render/contacts.js';

/**
 * @param {HTMLElement} element
 * @param {{featureColours: boolean, featureKinds: string[], hasOracle: boolean, count: number, shown: number,
 *   toleranceDeg?: number}} options toleranceDeg: the angle tolerance for "right"
 */
export function showLegend(element, { featureColours, featureKinds, hasOracle, count, shown, toleranceDeg = NaN }) {
  const swatch = (colour, label, shape = '') => `<span class="swatch ${shape}" style="background:${cssColour(colour)}"></span>${label}`;
  const within = Number.isFinite(toleranceDeg) ? ` (within ${formatDegrees(toleranceDeg)} of a true normal)` : '';
  let items;
  if (featureColours) {
    items = featureKinds.map((kind, i) => swatch(FEATURE_COLOURS[i], kind));
    if (hasOracle) items.push('<span class="legend-note">cubes: wrong normals</span>');
  } else if (hasOracle) {
    const ramp = `linear-gradient(90deg, ${cssColour(qualityColour(0, 0))}, ${cssColour(qualityColour(1, 0))})`;
    items = [
      swatch(qualityColour(1, 1), `ball: right normal${within}`),
      `<span class="swatch square ramp" style="background:${ramp}"></span>cube: wrong normal`,
      // q is the cosine of the angle to the nearest true normal.
      '<span class="legend-note">shade: q = cos(angle to the true normal), deep orange at 0 or less, light near 1</span>',
    ];
  } else {
    items = [swatch(qualityColour(1, NaN), 'no oracle for this scene')];
  }
  const counted = shown === count ? `${count} contacts` : `${shown} of ${count} contacts shown`;
  element.innerHTML = `<div class="legend-count">${counted}</div>${items.map((item) => `<div>${item}</div>`).join('')}`;
}

/**
 * @param {number} degrees
 * @returns {string} e.g. "1°", "0.5°"
 */
export function formatDegrees(degrees) {
  return `${Number(degrees.toPrecision(3))}°`;
}
