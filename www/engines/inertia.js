// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file The 3 × 3 algebra some engine adapters need to take our inertia
 * tensor (`docs/design/engines.md`): its principal moments and axes (Bullet
 * and Rapier take an inertia only as principal moments in a frame of their
 * own) and a rotation matrix's quaternion. No engine code, no package.
 */

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
