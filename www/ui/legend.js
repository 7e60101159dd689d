/**
 * @file The colour key in the corner of the 3D view: what blue, orange and
 * grey mean (and that wrong contacts are cubes), or which colour is which
 * feature pair; and, when they are drawn, what the region outlines are.
 */

import { FEATURE_COLOURS, cssColour, qualityColour } from '../render/contacts.js';
import { REGION_COLOURS } from '../render/regions.js';

/**
 * @param {HTMLElement} element
 * @param {{featureColours: boolean, featureKinds: string[], oracle: 'scene' | 'geometric', count: number, shown: number,
 *   regions?: number | null, toleranceDeg?: number}} options oracle: the one whose verdicts the
 *   colours show (the headline's); regions: how many region outlines are drawn (null: none asked
 *   for); toleranceDeg: the angle tolerance for "right"
 */
export function showLegend(element, { featureColours, featureKinds, oracle, count, shown, regions = null, toleranceDeg = NaN }) {
  const swatch = (colour, label, shape = '') => `<span class="swatch ${shape}" style="background:${cssColour(colour)}"></span>${label}`;
  const geometric = oracle === 'geometric';
  // The geometric oracle's right normals come from the surfaces at this
  // pose, and a normal inside a cone of valid ones counts as right too.
  const truth = geometric ? 'a normal the surfaces allow' : 'a true normal';
  const within = Number.isFinite(toleranceDeg) ? ` (within ${formatDegrees(toleranceDeg)} of ${truth})` : '';
  const judge = `<span class="legend-note">judged by the ${geometric ? 'geometric oracle' : "scene's oracle"}</span>`;
  let items;
  if (featureColours) {
    items = featureKinds.map((kind, i) => swatch(FEATURE_COLOURS[i], kind));
    items.push('<span class="legend-note">cubes: wrong normals</span>', judge);
  } else {
    const ramp = `linear-gradient(90deg, ${cssColour(qualityColour(0, 0))}, ${cssColour(qualityColour(1, 0))})`;
    items = [
      swatch(qualityColour(1, 1), `ball: right normal${within}`),
      `<span class="swatch square ramp" style="background:${ramp}"></span>cube: wrong normal`,
      // q is the cosine of the angle to the nearest right normal.
      `<span class="legend-note">shade: q = cos(angle to ${truth}), deep orange at 0 or less, light near 1</span>`,
      judge,
    ];
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
