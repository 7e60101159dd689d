/**
 * @file The colour key in the corner of the 3D view: what blue, orange and
 * grey mean (and that wrong contacts are cubes), or which colour is which
 * feature pair; and, when they are drawn, what the region outlines are.
 */

import { FEATURE_COLOURS, cssColour, qualityColour } from '../render/contacts.js';
import { REGION_COLOURS } from '../render/regions.js';

/**
 * @param {HTMLElement} element
 * @param {{featureColours: boolean, featureKinds: string[], hasOracle: boolean, count: number, shown: number,
 *   regions?: number | null, toleranceDeg?: number}} options regions: how many region outlines are
 *   drawn (null: none asked for); toleranceDeg: the angle tolerance for "right"
 */
export function showLegend(element, { featureColours, featureKinds, hasOracle, count, shown, regions = null, toleranceDeg = NaN }) {
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
  if (regions !== null) items.push(regionsLine(regions));
  const counted = shown === count ? `${count} contact${count === 1 ? '' : 's'}` : `${shown} of ${count} contacts shown`;
  element.innerHTML = `<div class="legend-count">${counted}</div>${items.map((item) => `<div>${item}</div>`).join('')}`;
}

/**
 * @param {number} regions how many outlines are drawn
 * @returns {string} the legend's line about them
 */
function regionsLine(regions) {
  if (regions === 0) return '<span class="legend-note">no contact regions at this step</span>';
  const colours = REGION_COLOURS.slice(0, Math.min(regions, REGION_COLOURS.length));
  const ramp = `linear-gradient(90deg, ${colours.map((c, i) => `${cssColour(c)} ${(i * 100) / colours.length}% ${((i + 1) * 100) / colours.length}%`).join(', ')})`;
  const noun = regions === 1 ? 'contact region' : 'contact regions';
  return `<span class="swatch outline" style="background:${ramp}"></span>${regions} ${noun}: each outlined in its own colour (polygon, segment, or a square for a point)`;
}

/**
 * @param {number} degrees
 * @returns {string} e.g. "1°", "0.5°"
 */
export function formatDegrees(degrees) {
  return `${Number(degrees.toPrecision(3))}°`;
}
