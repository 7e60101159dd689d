/**
 * @file The explode view: every body moves away from the scene's centre by
 * a fraction of its distance from it, as the paper moved stones apart to
 * show the contacts between them. In a stack (bodies above one another,
 * like the Pillar) only the distance along `up` counts, so the stones part
 * vertically and stay in line.
 */

import { dot, scale, sub } from './math.js';

/** @typedef {import('./math.js').Vec3} Vec3 */

/**
 * @param {Float32Array} transforms 16 floats per body (world-from-body; its
 *   translation is the centre of mass)
 * @param {number} bodyCount
 * @returns {Vec3[]}
 */
export function bodyCentres(transforms, bodyCount) {
  const centres = [];
  for (let i = 0; i < bodyCount; i++) centres.push([transforms[i * 16 + 12], transforms[i * 16 + 13], transforms[i * 16 + 14]]);
  return centres;
}

/**
 * Whether the free bodies form a stack: they spread further along `up` than
 * across it.
 * @param {Vec3[]} centres
 * @param {boolean[]} fixed
 * @param {Vec3} up unit
 * @returns {boolean}
 */
export function isStack(centres, fixed, up) {
  const free = centres.filter((_, i) => !fixed[i]);
  if (free.length < 2) return true;
  let along = 0;
  let across = 0;
  for (const a of free) {
    for (const b of free) {
      const d = sub(a, b);
      const vertical = dot(d, up);
      along = Math.max(along, Math.abs(vertical));
      across = Math.max(across, Math.hypot(...sub(d, scale(up, vertical))));
    }
  }
  return along > 2 * across;
}

/**
 * Offsets of every body for an explode factor.
 * @param {Vec3[]} centres
 * @param {Vec3} sceneCentre
 * @param {Vec3} up unit
 * @param {boolean} stack
 * @param {number} factor 0 (as simulated) … 1
 * @returns {Float32Array} 3 floats per body
 */
export function explodeOffsets(centres, sceneCentre, up, stack, factor) {
  const offsets = new Float32Array(centres.length * 3);
  if (factor === 0) return offsets;
  centres.forEach((centre, i) => {
    const away = sub(centre, sceneCentre);
    const offset = stack ? scale(up, dot(away, up) * factor) : scale(away, factor);
    offsets.set(offset, i * 3);
  });
  return offsets;
}

/**
 * Transforms with the offsets added to their translations.
 * @param {Float32Array} transforms
 * @param {Float32Array} offsets
 * @returns {Float32Array}
 */
export function offsetTransforms(transforms, offsets) {
  const out = transforms.slice();
  for (let i = 0; i * 3 < offsets.length; i++) {
    out[i * 16 + 12] += offsets[i * 3];
    out[i * 16 + 13] += offsets[i * 3 + 1];
    out[i * 16 + 14] += offsets[i * 3 + 2];
  }
  return out;
}
