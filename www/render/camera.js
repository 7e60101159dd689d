/**
 * @file Orbit camera: circles a target point around the scene's own `up`
 * direction. Nothing here assumes that y is up, because a rotated scene
 * file carries its own up vector.
 */

import { add, cross, dot, length, lookAt, multiply, normalize, perspective, scale, sub } from './math.js';

/** @typedef {import('./math.js').Vec3} Vec3 */

const FOV_Y = (40 * Math.PI) / 180;
// Keeps the view direction off the up axis, where lookAt degenerates.
const MAX_PITCH = 1.5;
const DEFAULT_YAW = 0.55;
const DEFAULT_PITCH = 0.3;
/** The whole viewport, in normalised device coordinates. */
const WHOLE_VIEW = { left: -1, right: 1, bottom: -1, top: 1 };
/** Room left around the framed points, as a share of the distance. */
const FIT_MARGIN = 1.04;

/**
 * The directions the page may frame a scene from, the default first: a
 * contact deep in a pit is hidden from the default's low angle, so the page
 * tries higher ones, up to nearly straight down, and the other sides (see
 * wiring/view.js).
 * @type {Array<{yaw: number, pitch: number}>}
 */
export const FRAMING_DIRECTIONS = [0, Math.PI / 2, Math.PI, (3 * Math.PI) / 2].flatMap((turn) =>
  [DEFAULT_PITCH, 0.75, 1.2, 1.45].map((pitch) => ({ yaw: DEFAULT_YAW + turn, pitch })),
);

/** A camera that orbits a target point around the scene's up direction. */
export class OrbitCamera {
  constructor() {
    /** @type {Vec3} */ this.target = [0, 0, 0];
    /** @type {Vec3} */ this.sceneCentre = [0, 0, 0];
    this.sceneRadius = 1;
    this.distance = 5;
    this.yaw = DEFAULT_YAW;
    this.pitch = DEFAULT_PITCH;
    this.setUp([0, 1, 0]);
  }

  /**
   * Sets the up direction and the two horizontal axes yaw turns between.
   * @param {Vec3} up
   */
  setUp(up) {
    this.up = normalize(up);
    // Prefer a horizontal axis close to +z so a y-up scene opens with the
    // familiar front view; fall back to +x when up is (nearly) ±z.
    const reference = Math.abs(this.up[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0];
    this.forward = normalize(sub(reference, scale(this.up, dot(reference, this.up))));
    this.side = cross(this.up, this.forward);
  }

  /**
   * Frames points (the corners of the scene's box and its contacts) from a
   * direction, as close as they all fit inside `free`: the part of the
   * viewport no overlay covers. The target moves off the points' centre so
   * their picture is centred in `free`, not in the viewport.
   * @param {Vec3[]} points
   * @param {Vec3} up
   * @param {number} aspect width / height of the viewport
   * @param {{left: number, right: number, bottom: number, top: number}} [free] in normalised device coordinates
   * @param {{yaw: number, pitch: number}} [from]
   */
  fit(points, up, aspect, free = WHOLE_VIEW, from = { yaw: DEFAULT_YAW, pitch: DEFAULT_PITCH }) {
    this.setUp(up);
    this.yaw = from.yaw;
    this.pitch = from.pitch;
    // A loop, not Math.min(...): a scene of many refined bodies has more
    // points than a call may have arguments.
    const min = /** @type {Vec3} */ ([Infinity, Infinity, Infinity]);
    const max = /** @type {Vec3} */ ([-Infinity, -Infinity, -Infinity]);
    for (const p of points) {
      for (let k = 0; k < 3; k++) {
        if (p[k] < min[k]) min[k] = p[k];
        if (p[k] > max[k]) max[k] = p[k];
      }
    }
    this.sceneCentre = scale(add(min, max), 0.5);
    this.sceneRadius = Math.max(length(sub(max, min)) / 2, 1e-3);
    const back = this.direction();
    const right = normalize(cross(this.up, back), this.side);
    const screenUp = cross(back, right);
    // Each point in the camera's axes, from the centre: across, up, towards the eye.
    const local = points.map((p) => {
      const d = sub(p, this.sceneCentre);
      return [dot(d, right), dot(d, screenUp), dot(d, back)];
    });
    const tanY = Math.tan(FOV_Y / 2);
    // At eye distance `d`, the sideways shifts of the target that keep every
    // point inside `free`: a point at depth d − z projects to (x − shift) / ((d − z)·tan).
    const shifts = (d, axis, tan, low, high) => {
      let from = -Infinity;
      let to = Infinity;
      for (const p of local) {
        const depth = d - p[2];
        from = Math.max(from, p[axis] - high * tan * depth);
        to = Math.min(to, p[axis] - low * tan * depth);
      }
      return { from, to };
    };
    const fits = (d) => {
      const x = shifts(d, 0, tanY * aspect, free.left, free.right);
      const y = shifts(d, 1, tanY, free.bottom, free.top);
      return x.from <= x.to && y.from <= y.to ? { x, y } : null;
    };
    const nearest = local.reduce((m, p) => Math.max(m, p[2]), -Infinity) + this.sceneRadius * 0.05;
    let far = Math.max(nearest, this.sceneRadius) * 2;
    while (!fits(far) && far < this.sceneRadius * 1e4) far *= 2;
    let near = nearest;
    for (let i = 0; i < 40 && fits(far); i++) {
      const mid = (near + far) / 2;
      if (fits(mid)) far = mid;
      else near = mid;
    }
    this.distance = far * FIT_MARGIN;
    const fitted = fits(this.distance);
    const sx = fitted ? (fitted.x.from + fitted.x.to) / 2 : 0;
    const sy = fitted ? (fitted.y.from + fitted.y.to) / 2 : 0;
    this.target = add(this.sceneCentre, add(scale(right, sx), scale(screenUp, sy)));
  }

  /** @returns {Vec3} unit vector from the target towards the eye */
  direction() {
    const cp = Math.cos(this.pitch);
    const horizontal = add(scale(this.forward, cp * Math.cos(this.yaw)), scale(this.side, cp * Math.sin(this.yaw)));
    return add(horizontal, scale(this.up, Math.sin(this.pitch)));
  }

  /** @returns {Vec3} */
  eye() {
    return add(this.target, scale(this.direction(), this.distance));
  }

  /**
   * Rotates by a pointer movement in pixels.
   * @param {number} dx
   * @param {number} dy
   */
  rotate(dx, dy) {
    this.yaw -= dx * 0.006;
    this.pitch = Math.min(MAX_PITCH, Math.max(-MAX_PITCH, this.pitch + dy * 0.006));
  }

  /**
   * Moves the target so the scene follows the pointer.
   * @param {number} dx pointer movement in CSS pixels
   * @param {number} dy
   * @param {number} viewportHeight in CSS pixels
   */
  pan(dx, dy, viewportHeight) {
    const back = this.direction();
    const right = normalize(cross(this.up, back), this.side);
    const screenUp = cross(back, right);
    const metresPerPixel = this.metresPerPixel(viewportHeight);
    this.target = add(this.target, add(scale(right, -dx * metresPerPixel), scale(screenUp, dy * metresPerPixel)));
  }

  /**
   * How many metres one pixel spans at the target's distance.
   * @param {number} viewportHeight in pixels
   * @returns {number}
   */
  metresPerPixel(viewportHeight) {
    return (2 * this.distance * Math.tan(FOV_Y / 2)) / Math.max(viewportHeight, 1);
  }

  /**
   * Multiplies the distance to the target, within limits that keep the
   * scene in reach.
   * @param {number} factor > 1 moves away
   */
  zoom(factor) {
    this.distance = Math.min(this.sceneRadius * 40, Math.max(this.sceneRadius * 0.02, this.distance * factor));
  }

  /**
   * Zooms about a point of the viewport rather than its centre (a pinch's
   * centre): the point of the target's plane under it stays under it, so the
   * target slides towards it as the camera comes closer.
   * @param {number} factor > 1 moves away
   * @param {number} ndcX −1 (left) … 1 (right)
   * @param {number} ndcY −1 (bottom) … 1 (top)
   * @param {number} aspect width / height of the viewport
   */
  zoomAt(factor, ndcX, ndcY, aspect) {
    const before = this.distance;
    this.zoom(factor);
    // The plane point under (ndcX, ndcY) is target + offset at `before`; at
    // the new distance the same spot shows target' + offset·(distance/before).
    const shrink = 1 - this.distance / before;
    const back = this.direction();
    const right = normalize(cross(this.up, back), this.side);
    const screenUp = cross(back, right);
    const halfHeight = Math.tan(FOV_Y / 2) * before;
    this.target = add(this.target, add(scale(right, ndcX * halfHeight * aspect * shrink), scale(screenUp, ndcY * halfHeight * shrink)));
  }

  /**
   * A ray from the eye through a point of the viewport.
   * @param {number} ndcX −1 (left) … 1 (right)
   * @param {number} ndcY −1 (bottom) … 1 (top)
   * @param {number} aspect
   * @returns {{origin: Vec3, direction: Vec3}}
   */
  ray(ndcX, ndcY, aspect) {
    const back = this.direction();
    const right = normalize(cross(this.up, back), this.side);
    const screenUp = cross(back, right);
    const h = Math.tan(FOV_Y / 2);
    const direction = normalize(add(scale(back, -1), add(scale(right, ndcX * h * aspect), scale(screenUp, ndcY * h))));
    return { origin: this.eye(), direction };
  }

  /**
   * Turns around `centre` and comes close enough to see a ball of `radius`.
   * @param {Vec3} centre
   * @param {number} radius
   */
  focus(centre, radius) {
    this.target = [...centre];
    this.distance = Math.min(this.sceneRadius * 40, Math.max(this.sceneRadius * 0.02, (radius / Math.sin(FOV_Y / 2)) * 1.3));
  }

  /**
   * The view as six numbers for a link: yaw, pitch, distance, target.
   * @returns {number[]}
   */
  getState() {
    const round = (v) => Number(v.toPrecision(5));
    return [round(this.yaw), round(this.pitch), round(this.distance), ...this.target.map(round)];
  }

  /**
   * Restores `getState()`'s numbers (within the camera's limits).
   * @param {number[]} state
   */
  setState([yaw, pitch, distance, x, y, z]) {
    this.yaw = yaw;
    this.pitch = Math.min(MAX_PITCH, Math.max(-MAX_PITCH, pitch));
    this.distance = Math.min(this.sceneRadius * 40, Math.max(this.sceneRadius * 0.02, distance));
    this.target = [x, y, z];
  }

  /**
   * Whether a link's view (`getState()` numbers) looks at the framed scene:
   * its target within a few scene radii of the scene's centre. A view that
   * does not would show nothing, with no way back but "reset view".
   * @param {number[]} state
   * @returns {boolean}
   */
  showsScene(state) {
    if (state.length !== 6 || !state.every(Number.isFinite)) return false;
    const target = /** @type {Vec3} */ (state.slice(3));
    return length(sub(target, this.sceneCentre)) <= this.sceneRadius * 10;
  }

  /**
   * Projection × view for the current state.
   * @param {number} aspect
   * @returns {Float32Array}
   */
  viewProjection(aspect) {
    // Near and far hug the scene so depth precision stays good for the
    // thin gaps between stacked stones.
    const reach = this.sceneRadius + length(sub(this.target, this.sceneCentre));
    const near = Math.max(this.distance - reach * 1.5, this.distance * 0.01, 1e-4);
    const far = this.distance + reach * 1.5;
    return multiply(perspective(FOV_Y, aspect, near, far), lookAt(this.eye(), this.target, this.up));
  }
}

/**
 * @param {Vec3} min
 * @param {Vec3} max
 * @returns {Vec3[]} the eight corners of the box
 */
export function boxCorners(min, max) {
  const corners = [];
  for (let k = 0; k < 8; k++) corners.push(/** @type {Vec3} */ ([k & 1 ? max[0] : min[0], k & 2 ? max[1] : min[1], k & 4 ? max[2] : min[2]]));
  return corners;
}
