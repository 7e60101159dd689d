// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file What the engine adapters (`jolt.js`, `physx.js`, `mujoco.js`,
 * `rapier.js`, `bullet.js`; `docs/design/engines.md`) share: the check of
 * the poses `contactsAt` is given, the canonical order of contacts, and the
 * 3 × 3 algebra some engines need to take our inertia tensor (its principal
 * axes, a rotation matrix's quaternion). It holds no engine code and loads
 * no package. The adapters import it as `./common.js` (in Node through
 * `tools/engine-host.mjs`, in the page's worker through `worlds.js`); the
 * worker never imports it directly.
 */

/**
 * Throws a sentence naming the engine unless `poses` holds 7 numbers per
 * body (`x y z qx qy qz qw`) for a scene of `bodyCount` bodies.
 * @param {ArrayLike<number> | null | undefined} poses
 * @param {number} bodyCount
 * @param {string} engine the engine's name, for the sentence
 */
export function checkPoses(poses, bodyCount, engine) {
  const expected = 7 * bodyCount;
  if (!poses || poses.length !== expected) {
    throw new Error(
      `${engine} needs 7 numbers per body (${expected} for this scene's ${bodyCount} bodies), ` +
        `not ${poses ? poses.length : 0}.`,
    );
  }
}

/**
 * The contacts (9 numbers each: `a b x y z nx ny nz depth`) sorted by body
 * pair, then point, normal and depth, ties kept in their order: an engine
 * that visits pairs in an order following its internals' history then
 * gives the same array for the same pose.
 * @param {ArrayLike<number>} flat
 * @returns {Float64Array}
 */
export function sortedContacts(flat) {
  const count = flat.length / 9;
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((i, j) => {
    for (let k = 0; k < 9; k++) {
      const difference = flat[9 * i + k] - flat[9 * j + k];
      if (difference !== 0) return difference;
    }
    return i - j;
  });
  const contacts = new Float64Array(flat.length);
  order.forEach((from, to) => {
    for (let k = 0; k < 9; k++) contacts[9 * to + k] = flat[9 * from + k];
  });
  return contacts;
}

/**
 * The contacts of body pairs, pair after pair in order of `(a, b)`, each
 * pair's contacts in the order the engine gave them (the sort is stable).
 * Sorts `pairs` in place.
 * @param {Array<{a: number, b: number, values: number[]}>} pairs each
 *   pair's contacts, 9 numbers each
 * @returns {Float64Array}
 */
export function contactsByPair(pairs) {
  pairs.sort((x, y) => x.a - y.a || x.b - y.b);
  const contacts = new Float64Array(pairs.reduce((sum, pair) => sum + pair.values.length, 0));
  let at = 0;
  for (const pair of pairs) {
    contacts.set(pair.values, at);
    at += pair.values.length;
  }
  return contacts;
}

/**
 * Jacobi stops when the off-diagonal's size is at most this fraction of
 * the diagonal's: round-off of a double.
 */
const JACOBI_TOLERANCE = 1e-15;

/** A sweep squares the off-diagonal's size; 50 sweeps reach round-off from anything. */
const JACOBI_SWEEPS = 50;

/**
 * The eigen-decomposition of a symmetric 3 × 3 matrix (an inertia tensor)
 * by cyclic Jacobi rotations: `A = R diag(moments) Rᵀ`, with R a proper
 * rotation whose columns are the principal axes. The tensor is symmetrised
 * first (it is symmetric up to round-off).
 *
 * `norm` says how the sizes of the diagonal and of the off-diagonal are
 * measured for the stopping test: `'max'` the largest magnitude, `'sum'`
 * the sum of the magnitudes. Both reach round-off; they may stop a sweep
 * apart, which changes the last bits, so each adapter keeps the one its
 * engine's results were recorded with (Bullet `'max'`, Rapier `'sum'`).
 * @param {ArrayLike<number>} tensor 9 numbers, row by row
 * @param {'max' | 'sum'} norm
 * @returns {{moments: number[], axes: number[], rotation: number[]}} the
 *   principal moments; R row by row (9 numbers); R as a unit quaternion
 *   `[x, y, z, w]`, the rotation from the principal frame to the tensor's
 */
export function principalAxes(tensor, norm) {
  if (norm !== 'max' && norm !== 'sum') throw new Error(`principalAxes has no norm "${norm}" (it takes "max" or "sum").`);
  const size = norm === 'max'
    ? (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ z) => Math.max(x, y, z)
    : (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ z) => x + y + z;
  const a = [
    [tensor[0], (tensor[1] + tensor[3]) / 2, (tensor[2] + tensor[6]) / 2],
    [(tensor[1] + tensor[3]) / 2, tensor[4], (tensor[5] + tensor[7]) / 2],
    [(tensor[2] + tensor[6]) / 2, (tensor[5] + tensor[7]) / 2, tensor[8]],
  ];
  const r = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const scale = size(Math.abs(a[0][0]), Math.abs(a[1][1]), Math.abs(a[2][2]));
  for (let sweep = 0; sweep < JACOBI_SWEEPS; sweep++) {
    const off = size(Math.abs(a[0][1]), Math.abs(a[0][2]), Math.abs(a[1][2]));
    if (!(off > JACOBI_TOLERANCE * scale)) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      if (a[p][q] === 0) continue;
      // The rotation in the (p, q) plane that zeroes a[p][q].
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k][p];
        const akq = a[k][q];
        a[k][p] = c * akp - s * akq;
        a[k][q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k];
        const aqk = a[q][k];
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const rkp = r[k][p];
        const rkq = r[k][q];
        r[k][p] = c * rkp - s * rkq;
        r[k][q] = s * rkp + c * rkq;
      }
    }
  }
  // A proper rotation (determinant +1): the third axis may be flipped.
  const det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1])
    - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
    + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
  if (det < 0) for (let k = 0; k < 3; k++) r[k][2] = -r[k][2];
  const axes = r.flat();
  return { moments: [a[0][0], a[1][1], a[2][2]], axes, rotation: quaternionOfMatrix(axes) };
}

/**
 * The unit quaternion `[x, y, z, w]` of a rotation matrix given row by row
 * (Shepperd's method: the branch of the largest of the trace and the
 * diagonal, so no division by a small number).
 * @param {ArrayLike<number>} m 9 numbers
 * @returns {number[]}
 */
export function quaternionOfMatrix(m) {
  const trace = m[0] + m[4] + m[8];
  let x;
  let y;
  let z;
  let w;
  if (trace > 0) {
    const s = 2 * Math.sqrt(trace + 1);
    w = s / 4;
    x = (m[7] - m[5]) / s;
    y = (m[2] - m[6]) / s;
    z = (m[3] - m[1]) / s;
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[0] - m[4] - m[8]);
    w = (m[7] - m[5]) / s;
    x = s / 4;
    y = (m[1] + m[3]) / s;
    z = (m[2] + m[6]) / s;
  } else if (m[4] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[4] - m[0] - m[8]);
    w = (m[2] - m[6]) / s;
    x = (m[1] + m[3]) / s;
    y = s / 4;
    z = (m[5] + m[7]) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m[8] - m[0] - m[4]);
    w = (m[3] - m[1]) / s;
    x = (m[2] + m[6]) / s;
    y = (m[5] + m[7]) / s;
    z = s / 4;
  }
  const norm = Math.hypot(x, y, z, w);
  return [x / norm, y / norm, z / norm, w / norm];
}
