// Unit tests of what the engine adapters share: www/engines/common.js (the
// world skeleton with its mode check, guards and teardown list, the
// read-back of poses, the canonical order of contacts, the checks of the
// poses an adapter is given and of a body) and www/engines/inertia.js (the
// principal axes of an inertia tensor, a rotation matrix's quaternion).
// Run with `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  atSinglePose,
  checkMassProperties,
  checkMoments,
  checkPoses,
  checkTriangles,
  contactsByPair,
  engineWorld,
  pairFromSecond,
  posesOf,
  shapeKind,
  sortedContacts,
  teardownList,
} from '../../www/engines/common.js';
import { principalAxes, quaternionOfMatrix } from '../../www/engines/inertia.js';

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

/** An engine's words for the skeleton's guards. */
const WORDS = {
  name: 'Kiln',
  unknownMode: (mode) => `Kiln has no mode "${mode}".`,
  notOurs: 'This Kiln world runs on its own.',
  notOwn: 'This Kiln world takes our poses.',
};

/** A world of two bodies whose steps and teardown write what they do to `log`. */
function loggedWorld(mode, log, { failAt } = {}) {
  return engineWorld(WORDS, { bodies: [{}, {}] }, mode, (teardown) => {
    for (const name of ['system', 'listener', 'bodies']) {
      if (name === failAt) throw new Error(`no ${name}`);
      log.push(`make ${name}`);
      teardown.push(() => log.push(`free ${name}`));
    }
    return {
      contactsAt: (poses) => {
        log.push(`contactsAt ${poses.length}`);
        return new Float64Array(9);
      },
      ownStep: () => {
        log.push('ownStep');
        return { poses: new Float64Array(14), contacts: new Float64Array(0) };
      },
    };
  });
}

test('engineWorld refuses a mode it does not know, in the engine\'s words, before building', () => {
  const log = [];
  assert.throws(() => loggedWorld('theirs', log), { message: 'Kiln has no mode "theirs".' });
  assert.deepEqual(log, []);
});

test('engineWorld calls each step only in its mode, with checked poses', () => {
  const log = [];
  const ours = loggedWorld('ours', log);
  assert.equal(ours.contactsAt(new Float64Array(14)).length, 9);
  assert.throws(() => ours.contactsAt(new Float64Array(7)), { message: "Kiln needs 7 numbers per body (14 for this scene's 2 bodies), not 7." });
  assert.throws(() => ours.ownStep(), { message: 'This Kiln world takes our poses.' });
  const own = loggedWorld('own', log);
  assert.equal(own.ownStep().poses.length, 14);
  assert.throws(() => own.contactsAt(new Float64Array(14)), { message: 'This Kiln world runs on its own.' });
  assert.deepEqual(log.filter((line) => !line.startsWith('make')), ['contactsAt 14', 'ownStep']);
});

test('engineWorld frees in reverse order, once, and refuses a freed world', () => {
  const log = [];
  const world = loggedWorld('ours', log);
  world.free();
  world.free();
  assert.deepEqual(log, ['make system', 'make listener', 'make bodies', 'free bodies', 'free listener', 'free system']);
  assert.throws(() => world.contactsAt(new Float64Array(14)), { message: "Kiln's world of this scene was already freed." });
});

test('engineWorld frees what a failed build made and passes its error on', () => {
  const log = [];
  assert.throws(() => loggedWorld('own', log, { failAt: 'bodies' }), { message: 'no bodies' });
  assert.deepEqual(log, ['make system', 'make listener', 'free listener', 'free system']);
});

test('teardownList\'s owner destroys objects with the module\'s destroy, last made first', () => {
  const destroyed = [];
  const teardown = teardownList();
  const owned = teardown.owner({ destroy: (object) => destroyed.push(object.name) });
  const first = owned({ name: 'vector' });
  assert.equal(first.name, 'vector');
  owned({ name: 'world' });
  teardown.free();
  teardown.free();
  assert.deepEqual(destroyed, ['world', 'vector']);
});

test('posesOf reads 7 numbers a body into one array', () => {
  const poses = posesOf(2, (i) => [i, 1, 2, 0, 0, 0, 1]);
  assert.ok(poses instanceof Float64Array);
  assert.deepEqual(Array.from(poses), [0, 1, 2, 0, 0, 0, 1, 1, 1, 2, 0, 0, 0, 1]);
});

test('atSinglePose compares a pose rounded to single precision', () => {
  const poses = new Float64Array([9, 9, 9, 0, 0, 0, 1, 0.1, 0.2, 0.3, 0, 0, 0, 1]);
  const single = Array.from(Float32Array.from([0.1, 0.2, 0.3, 0, 0, 0, 1]));
  assert.equal(atSinglePose(single, poses, 1), true);
  assert.equal(atSinglePose([0.1, 0.2, 0.3, 0, 0, 0, 1], poses, 1), false, 'a double is not its single');
  assert.equal(atSinglePose(single, poses, 0), false);
});

test('shapeKind makes the same choice for every engine and refuses a free non-convex body without pieces', () => {
  assert.equal(shapeKind({ convex: true, fixed: false }, 'no'), 'hull');
  assert.equal(shapeKind({ convex: true, fixed: true }, 'no'), 'hull');
  assert.equal(shapeKind({ convex: false, fixed: true }, 'no'), 'mesh');
  assert.equal(shapeKind({ convex: false, fixed: false, pieces: [[0, 0, 0]] }, 'no'), 'pieces');
  assert.throws(() => shapeKind({ convex: false, fixed: false, pieces: [] }, 'Kiln cannot.'), { message: 'Kiln cannot.' });
  assert.throws(() => shapeKind({ convex: false, fixed: false }, 'Kiln cannot.'), { message: 'Kiln cannot.' });
});

test('the body checks name the engine and the body', () => {
  const body = { name: 'plinth', mass: 2, inertia: [1, 0, 0, 0, 1, 0, 0, 0, 1], vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], triangles: [0, 1, 2] };
  checkMassProperties(body, 'Kiln');
  checkMoments([1, 2, 3], body, 'Kiln');
  checkTriangles(body, 'Kiln');
  assert.throws(() => checkMassProperties({ ...body, mass: 0 }, 'Kiln'), {
    message: 'Kiln cannot simulate body "plinth": its mass or inertia is not a positive mass and a 3 × 3 tensor.',
  });
  assert.throws(() => checkMassProperties({ ...body, inertia: [1, 0, 0] }, 'Kiln'), /mass or inertia/);
  assert.throws(() => checkMassProperties({ ...body, inertia: [NaN, 0, 0, 0, 1, 0, 0, 0, 1] }, 'Kiln'), /mass or inertia/);
  assert.throws(() => checkMoments([1, 0, 3], body, 'Kiln'), {
    message: 'Kiln cannot simulate body "plinth": its inertia tensor is not positive definite.',
  });
  assert.throws(() => checkTriangles({ ...body, triangles: [0, 1, 3] }, 'Kiln'), {
    message: 'Kiln could not build a triangle mesh of body "plinth": its triangles do not index its vertices.',
  });
  assert.throws(() => checkTriangles({ ...body, triangles: [] }, 'Kiln'), /do not index/);
});

test('pairFromSecond orders a pair and turns a normal from body 1 to body 0 into one from a to b', () => {
  assert.deepEqual(pairFromSecond(0, 3), { a: 0, b: 3, sign: -1 });
  assert.deepEqual(pairFromSecond(3, 0), { a: 0, b: 3, sign: 1 });
});
