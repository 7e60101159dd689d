/**
 * @file What is under the pointer: the body a ray from the eye hits first
 * (Möller–Trumbore against every surface triangle, on double-click only),
 * and the contact whose sphere or arrow is drawn nearest to the pointer on
 * screen (on hover).
 */

import { INSTANCE_STRIDE } from './contacts.js';
import { cross, dot, sub } from './math.js';

/** @typedef {import('./math.js').Vec3} Vec3 */

/**
 * @param {Float32Array} m column-major 4×4
 * @param {number} x @param {number} y @param {number} z
 * @returns {Vec3}
 */
function transformPoint(m, x, y, z) {
  return [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
}

/**
 * Distance along the ray to the triangle, or Infinity.
 * @param {Vec3} origin @param {Vec3} direction @param {Vec3} a @param {Vec3} b @param {Vec3} c
 */
function rayTriangle(origin, direction, a, b, c) {
  const e1 = sub(b, a);
  const e2 = sub(c, a);
  const p = cross(direction, e2);
  const det = dot(e1, p);
  if (Math.abs(det) < 1e-12) return Infinity;
  const s = sub(origin, a);
  const u = dot(s, p) / det;
  if (u < 0 || u > 1) return Infinity;
  const q = cross(s, e1);
  const v = dot(direction, q) / det;
  if (v < 0 || u + v > 1) return Infinity;
  const t = dot(e2, q) / det;
  return t > 0 ? t : Infinity;
}

/**
 * The index of the body the ray hits first, or -1.
 * @param {{origin: Vec3, direction: Vec3}} ray
 * @param {Float32Array[]} triangles per body, 9 floats per triangle, body frame
 * @param {Float32Array} transforms 16 floats per body, as drawn
 * @returns {number}
 */
export function pickBody({ origin, direction }, triangles, transforms) {
  let best = Infinity;
  let hit = -1;
  triangles.forEach((list, body) => {
    const m = transforms.subarray(body * 16, body * 16 + 16);
    for (let i = 0; i + 9 <= list.length; i += 9) {
      const t = rayTriangle(
        origin,
        direction,
        transformPoint(m, list[i], list[i + 1], list[i + 2]),
        transformPoint(m, list[i + 3], list[i + 4], list[i + 5]),
        transformPoint(m, list[i + 6], list[i + 7], list[i + 8]),
      );
      if (t < best) {
        best = t;
        hit = body;
      }
    }
  });
  return hit;
}

/**
 * The contact drawn nearest to a pointer position, within `radius` pixels of
 * its sphere or its arrow.
 * @param {Float32Array} instances INSTANCE_STRIDE floats each, starting with position and normal (world)
 * @param {Float32Array} viewProjection
 * @param {number} arrowLength in metres
 * @param {{x: number, y: number, width: number, height: number}} pointer
 *   position and canvas size in CSS pixels
 * @param {number} radius
 * @returns {number} instance index or -1
 */
export function nearestInstance(instances, viewProjection, arrowLength, { x: px, y: py, width, height }, radius) {
  const m = viewProjection;
  /** @returns {number[] | null} screen position of a world point, null behind the eye */
  const project = (x, y, z) => {
    const w = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (w <= 0) return null;
    return [(((m[0] * x + m[4] * y + m[8] * z + m[12]) / w) * 0.5 + 0.5) * width, (0.5 - ((m[1] * x + m[5] * y + m[9] * z + m[13]) / w) * 0.5) * height];
  };
  let best = radius * radius;
  let found = -1;
  for (let i = 0, k = 0; i + INSTANCE_STRIDE <= instances.length; i += INSTANCE_STRIDE, k++) {
    const [x, y, z] = [instances[i], instances[i + 1], instances[i + 2]];
    const a = project(x, y, z);
    const b = project(x + instances[i + 3] * arrowLength, y + instances[i + 4] * arrowLength, z + instances[i + 5] * arrowLength);
    if (!a || !b) continue;
    // Squared distance from the pointer to the projected arrow segment.
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const t = Math.min(1, Math.max(0, ((px - a[0]) * dx + (py - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    const d2 = (a[0] + t * dx - px) ** 2 + (a[1] + t * dy - py) ** 2;
    if (d2 < best) {
      best = d2;
      found = k;
    }
  }
  return found;
}

/**
 * Every body's surface triangles in world coordinates, as drawn: 9 floats
 * per triangle, for `hiddenBehind`'s many rays.
 * @param {Float32Array[]} triangles per body, 9 floats per triangle, body frame
 * @param {Float32Array} transforms 16 floats per body, as drawn
 * @returns {Float64Array}
 */
export function worldTriangles(triangles, transforms) {
  const world = new Float64Array(triangles.reduce((sum, list) => sum + list.length - (list.length % 9), 0));
  let o = 0;
  triangles.forEach((list, body) => {
    const m = transforms.subarray(body * 16, body * 16 + 16);
    for (let i = 0; i + 3 <= list.length - (list.length % 9); i += 3) {
      world.set(transformPoint(m, list[i], list[i + 1], list[i + 2]), o);
      o += 3;
    }
  });
  return world;
}

/**
 * Whether a surface lies between the eye and a point: a contact drawn there
 * is seen only faintly, through the body in front of it. Möller–Trumbore
 * without allocations: the page asks this for many contacts and directions.
 * @param {Vec3} eye
 * @param {Vec3} point
 * @param {Float64Array} world `worldTriangles()`
 * @param {number} tolerance a surface this close in front of the point does
 *   not hide it (a contact lies on, or a penetration depth inside, its surfaces)
 * @returns {boolean}
 */
export function hiddenBehind(eye, point, world, tolerance) {
  const [ox, oy, oz] = eye;
  let dx = point[0] - ox;
  let dy = point[1] - oy;
  let dz = point[2] - oz;
  const reach = Math.hypot(dx, dy, dz);
  if (reach <= tolerance) return false;
  dx /= reach;
  dy /= reach;
  dz /= reach;
  const limit = reach - tolerance;
  for (let i = 0; i + 9 <= world.length; i += 9) {
    const ax = world[i], ay = world[i + 1], az = world[i + 2];
    const e1x = world[i + 3] - ax, e1y = world[i + 4] - ay, e1z = world[i + 5] - az;
    const e2x = world[i + 6] - ax, e2y = world[i + 7] - ay, e2z = world[i + 8] - az;
    const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
    const det = e1x * px + e1y * py + e1z * pz;
    if (Math.abs(det) < 1e-12) continue;
    const sx = ox - ax, sy = oy - ay, sz = oz - az;
    const u = (sx * px + sy * py + sz * pz) / det;
    if (u < 0 || u > 1) continue;
    const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
    const v = (dx * qx + dy * qy + dz * qz) / det;
    if (v < 0 || u + v > 1) continue;
    const t = (e2x * qx + e2y * qy + e2z * qz) / det;
    if (t > 0 && t < limit) return true;
  }
  return false;
}
