/**
 * @file The few vector and 4×4 matrix operations the renderer needs.
 *
 * Matrices are column-major Float32Arrays of length 16, the layout WebGL's
 * uniformMatrix4fv expects with transpose = false and the layout the wasm
 * core uses for body transforms, so they pass through without reshuffling.
 */

/** @typedef {[number, number, number]} Vec3 */

/** @param {Vec3} a @param {Vec3} b @returns {Vec3} */
export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

/** @param {Vec3} a @param {Vec3} b @returns {Vec3} */
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** @param {Vec3} a @param {number} s @returns {Vec3} */
export const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];

/** @param {Vec3} a @param {Vec3} b @returns {number} */
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** @param {Vec3} a @param {Vec3} b @returns {Vec3} */
export const cross = (a, b) => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** @param {Vec3} a @returns {number} */
export const length = (a) => Math.hypot(a[0], a[1], a[2]);

/**
 * Unit vector along `a`; `fallback` when `a` is (nearly) zero, so a bad
 * `up` from a scene file cannot turn the camera into NaNs.
 * @param {Vec3} a
 * @param {Vec3} [fallback]
 * @returns {Vec3}
 */
export function normalize(a, fallback = [0, 1, 0]) {
  const len = length(a);
  return len > 1e-12 && Number.isFinite(len) ? scale(a, 1 / len) : [...fallback];
}

/**
 * Perspective projection (OpenGL clip space, depth −1…1).
 * @param {number} fovY vertical field of view in radians
 * @param {number} aspect width / height
 * @param {number} near
 * @param {number} far
 * @returns {Float32Array}
 */
export function perspective(fovY, aspect, near, far) {
  const f = 1 / Math.tan(fovY / 2);
  const m = new Float32Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[10] = (far + near) / (near - far);
  m[11] = -1;
  m[14] = (2 * far * near) / (near - far);
  return m;
}

/**
 * View matrix of a camera at `eye` looking at `target` with `up` roughly up.
 * @param {Vec3} eye
 * @param {Vec3} target
 * @param {Vec3} up
 * @returns {Float32Array}
 */
export function lookAt(eye, target, up) {
  const back = normalize(sub(eye, target));
  const right = normalize(cross(up, back), [1, 0, 0]);
  const trueUp = cross(back, right);
  return new Float32Array([
    right[0], trueUp[0], back[0], 0,
    right[1], trueUp[1], back[1], 0,
    right[2], trueUp[2], back[2], 0,
    -dot(right, eye), -dot(trueUp, eye), -dot(back, eye), 1,
  ]);
}

/**
 * Product a·b of two column-major 4×4 matrices.
 * @param {Float32Array} a
 * @param {Float32Array} b
 * @returns {Float32Array}
 */
export function multiply(a, b) {
  const out = new Float32Array(16);
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row] * b[col * 4 + k];
      out[col * 4 + row] = sum;
    }
  }
  return out;
}
