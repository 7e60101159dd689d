// Unit tests of www/engines/common.js, what the engine adapters share: the
// principal axes of an inertia tensor, a rotation matrix's quaternion, the
// canonical order of contacts and the check of the poses an adapter is
// given. Run with `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkPoses,
  contactsByPair,
  principalAxes,
  quaternionOfMatrix,
  sortedContacts,
} from '../../www/engines/common.js';

/** The rotation matrix (row by row) of a unit quaternion `[x, y, z, w]`. */
function matrixOf([x, y, z, w]) {
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

/** The product of two 3 × 3 matrices, row by row. */
function times(p, q) {
  return Array.from({ length: 9 }, (_, at) => {
    const [i, j] = [Math.floor(at / 3), at % 3];
    return p[3 * i] * q[j] + p[3 * i + 1] * q[3 + j] + p[3 * i + 2] * q[6 + j];
  });
}

/** The transpose of a 3 × 3 matrix, row by row. */
const transposed = (m) => [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];

/** The 3 × 3 matrix with `d` on its diagonal. */
const diagonal = (d) => [d[0], 0, 0, 0, d[1], 0, 0, 0, d[2]];

/** A non-diagonal symmetric tensor (a tilted body's), row by row. */
const TILTED = [4.2, -0.7, 0.3, -0.7, 2.9, 1.1, 0.3, 1.1, 3.6];

/** Asserts two lists agree entry by entry to `tolerance` (absolute). */
function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((value, i) => {
    assert.ok(Math.abs(value - expected[i]) <= tolerance, `${what}: entry ${i} is ${value}, not ${expected[i]}`);
  });
}

for (const norm of ['max', 'sum']) {
  test(`principalAxes (${norm}) reconstructs a non-diagonal symmetric tensor from a proper rotation`, () => {
    const { moments, axes, rotation } = principalAxes(TILTED, norm);
    assertClose(times(times(axes, diagonal(moments)), transposed(axes)), TILTED, 1e-12, 'R diag(moments) Rᵀ');
    assertClose(times(axes, transposed(axes)), diagonal([1, 1, 1]), 1e-12, 'R Rᵀ');
    const [a, b, c, d, e, f, g, h, i] = axes;
    assert.ok(Math.abs(a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g) - 1) < 1e-12, 'det R = 1');
    assertClose(matrixOf(rotation), axes, 1e-12, 'the quaternion is R');
    // The moments are the eigenvalues: their sum is the trace.
    assert.ok(Math.abs(moments[0] + moments[1] + moments[2] - (4.2 + 2.9 + 3.6)) < 1e-12);
  });

  test(`principalAxes (${norm}) leaves a diagonal tensor as it is and symmetrises a lopsided one`, () => {
    const plain = principalAxes(diagonal([1, 2, 3]), norm);
    assert.deepEqual(plain.moments, [1, 2, 3]);
    assert.deepEqual(plain.axes, [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert.deepEqual(plain.rotation, [0, 0, 0, 1]);
    const lopsided = [...TILTED];
    lopsided[1] += 1e-3;
    lopsided[3] -= 1e-3;
    assertClose(principalAxes(lopsided, norm).moments, principalAxes(TILTED, norm).moments, 1e-12, 'moments of the symmetrised tensor');
  });
}

test('principalAxes refuses a norm it does not know', () => {
  assert.throws(() => principalAxes(TILTED, 'frobenius'), /no norm "frobenius"/);
});

test('quaternionOfMatrix round-trips rotations through every branch', () => {
  const quaternions = [
    [0, 0, 0, 1], // trace 3
    [0.2, -0.3, 0.1, 0.9], // trace > 0
    [1, 0, 0, 0], // half turns: the x, y and z branches
    [0, 1, 0, 0],
    [0, 0, 1, 0],
    [0.7, 0.1, -0.2, 0.1],
    [0.1, -0.8, 0.3, 0.2],
    [-0.2, 0.1, 0.9, -0.1],
  ].map((q) => q.map((v) => v / Math.hypot(...q)));
  for (const q of quaternions) {
    const back = quaternionOfMatrix(matrixOf(q));
    // q and -q are the same rotation.
    const sign = Math.sign(back.reduce((sum, v, i) => sum + v * q[i], 0));
    assertClose(back.map((v) => sign * v), q, 1e-12, `quaternion ${q}`);
    assert.ok(Math.abs(Math.hypot(...back) - 1) < 1e-15, 'unit length');
  }
});

test('sortedContacts orders contacts by their values, then by their place', () => {
  const contact = (a, b, x, depth) => [a, b, x, 0, 0, 0, 1, 0, depth];
  const flat = [
    ...contact(1, 2, 0.5, -0.1),
    ...contact(0, 2, 0.7, 0),
    ...contact(0, 1, 0.9, 0),
    ...contact(0, 1, 0.1, -0.2),
    ...contact(0, 1, 0.1, -0.3),
  ];
  assert.deepEqual(Array.from(sortedContacts(flat)), [
    ...contact(0, 1, 0.1, -0.3),
    ...contact(0, 1, 0.1, -0.2),
    ...contact(0, 1, 0.9, 0),
    ...contact(0, 2, 0.7, 0),
    ...contact(1, 2, 0.5, -0.1),
  ]);
  assert.ok(sortedContacts(flat) instanceof Float64Array);
  assert.equal(sortedContacts([]).length, 0);
  // Equal values keep their order (the index breaks the tie): -0 before 0 as given, and 0 before -0.
  const signed = [...contact(0, 1, -0, 0), ...contact(0, 1, 0, 0)];
  assert.ok(Object.is(sortedContacts(signed)[2], -0));
  const swapped = [...contact(0, 1, 0, 0), ...contact(0, 1, -0, 0)];
  assert.ok(Object.is(sortedContacts(swapped)[2], 0));
});

test('contactsByPair puts pairs in order of (a, b) and keeps each pair\'s contacts as given', () => {
  const pairs = [
    { a: 1, b: 3, values: [1, 3, 9, 9, 9, 0, 1, 0, 0] },
    { a: 0, b: 2, values: [0, 2, 5, 5, 5, 0, 1, 0, 0, 0, 2, 1, 1, 1, 0, 1, 0, 0] },
    { a: 0, b: 1, values: [0, 1, 7, 7, 7, 0, 1, 0, 0] },
  ];
  assert.deepEqual(Array.from(contactsByPair(pairs)), [
    0, 1, 7, 7, 7, 0, 1, 0, 0,
    0, 2, 5, 5, 5, 0, 1, 0, 0, 0, 2, 1, 1, 1, 0, 1, 0, 0,
    1, 3, 9, 9, 9, 0, 1, 0, 0,
  ]);
  assert.equal(contactsByPair([]).length, 0);
});

test('checkPoses accepts 7 numbers per body and otherwise throws a sentence naming the engine', () => {
  checkPoses(new Float64Array(14), 2, 'Jolt');
  assert.throws(() => checkPoses(new Float64Array(13), 2, 'Jolt'), {
    message: "Jolt needs 7 numbers per body (14 for this scene's 2 bodies), not 13.",
  });
  assert.throws(() => checkPoses(null, 3, 'Bullet'), /^Error: Bullet needs 7 numbers per body \(21 .*\), not 0\.$/);
  assert.throws(() => checkPoses(undefined, 1, 'MuJoCo'), /MuJoCo/);
});
