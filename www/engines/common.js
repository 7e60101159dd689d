// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file The skeleton every engine adapter (`jolt.js`, `physx.js`,
 * `mujoco.js`, `rapier.js`, `bullet.js`; `docs/design/engines.md`) builds
 * its world on: the world `create` returns, with the mode check, the
 * guards of `contactsAt` and `ownStep` (the right mode, a live world, 7
 * numbers a body) and one teardown list that frees the engine's objects in
 * the reverse order they were made, also when the build fails half way;
 * the read-back of poses; the canonical order of contacts; and the checks
 * of a body that several engines refuse in the same words. An adapter
 * keeps only what its engine's API needs. It holds no engine code and
 * loads no package. The adapters import it as `./common.js` (in Node
 * through `tools/engine-host.mjs`, in the page's worker through
 * `worlds.js`); the worker never imports it directly.
 */

/**
 * An engine's sentences for a mode it does not run, in its adapter's words.
 * @typedef {{
 *   name: string,
 *   unknownMode: (mode: string) => string,
 *   notOurs: string,
 *   notOwn: string,
 * }} EngineWords
 */

/**
 * What frees a world: each release is registered as its object is made and
 * run in reverse order by `free`, once.
 * @typedef {{
 *   push: (release: () => void) => void,
 *   owner: (lib: {destroy: (object: any) => void}) => (<T>(object: T) => T),
 *   free: () => void,
 * }} Teardown
 */

/**
 * A world's two steps in its engine's API; `engineWorld` calls each only
 * in its mode, on a live world, `contactsAt` with checked poses.
 * @typedef {{
 *   contactsAt: (poses: Float64Array) => Float64Array,
 *   ownStep: () => {poses: Float64Array, contacts: Float64Array},
 * }} EngineSteps
 */

/**
 * The world an adapter's `create` returns. `build` makes the engine's
 * objects, registering each one's release on the teardown list as it makes
 * it; when it throws, what it made is freed and the error passes on.
 * @param {EngineWords} words
 * @param {{bodies: any[]}} scene the engine scene
 * @param {string} mode `'ours'` or `'own'`
 * @param {(teardown: Teardown) => EngineSteps} build
 * @returns {{contactsAt: EngineSteps['contactsAt'], ownStep: EngineSteps['ownStep'], free: () => void}}
 */
export function engineWorld(words, scene, mode, build) {
  if (mode !== 'ours' && mode !== 'own') throw new Error(words.unknownMode(mode));
  const teardown = teardownList();
  /** @type {EngineSteps} */
  let steps;
  try {
    steps = build(teardown);
  } catch (error) {
    teardown.free();
    throw error;
  }
  let freed = false;
  const alive = () => {
    if (freed) throw new Error(`${words.name}'s world of this scene was already freed.`);
  };
  return {
    contactsAt(poses) {
      alive();
      if (mode !== 'ours') throw new Error(words.notOurs);
      checkPoses(poses, scene.bodies.length, words.name);
      return steps.contactsAt(poses);
    },
    ownStep() {
      alive();
      if (mode !== 'own') throw new Error(words.notOwn);
      return steps.ownStep();
    },
    free() {
      freed = true;
      teardown.free();
    },
  };
}

/**
 * An empty teardown list (see `Teardown`).
 * @returns {Teardown}
 */
export function teardownList() {
  /** @type {Array<() => void>} */
  const releases = [];
  return {
    push: (release) => {
      releases.push(release);
    },
    // An Emscripten module's objects are freed by its `destroy`.
    owner: (lib) => (object) => {
      releases.push(() => lib.destroy(object));
      return object;
    },
    free: () => {
      while (releases.length) /** @type {() => void} */ (releases.pop())();
    },
  };
}

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
 * The poses of `count` bodies, 7 numbers each (`x y z qx qy qz qw`), body
 * `i`'s as `pose(i)` reads it from the engine.
 * @param {number} count
 * @param {(index: number) => ArrayLike<number>} pose
 */
export function posesOf(count, pose) {
  const poses = new Float64Array(7 * count);
  for (let i = 0; i < count; i++) poses.set(pose(i), 7 * i);
  return poses;
}

/**
 * Whether body `index`'s pose in `poses`, rounded to single precision, is
 * `current`, the pose a single-precision engine holds it at: such an
 * engine's fixed body is moved only when told to go elsewhere, since a
 * move costs a rebuild of its tree.
 * @param {number[]} current 7 numbers
 * @param {Float64Array} poses
 * @param {number} index
 */
export function atSinglePose(current, poses, index) {
  const target = Float32Array.from(poses.subarray(index * 7, index * 7 + 7));
  return current.every((value, k) => value === target[k]);
}

/**
 * How an engine builds a body, the same choice in every engine: `'hull'`
 * for a convex body, `'mesh'` for a fixed non-convex one, `'pieces'` (its
 * convex pieces, one compound) for a free non-convex one, which must have
 * pieces: else `refusal` is thrown.
 * @param {{convex: boolean, fixed: boolean, pieces?: number[][]}} body
 * @param {string} refusal the engine's sentence for a body it cannot build
 * @returns {'hull' | 'mesh' | 'pieces'}
 */
export function shapeKind(body, refusal) {
  if (body.convex) return 'hull';
  if (body.fixed) return 'mesh';
  if (!body.pieces || body.pieces.length === 0) throw new Error(refusal);
  return 'pieces';
}

/**
 * Throws unless a free body has a positive mass and a 3 × 3 inertia tensor
 * of finite numbers.
 * @param {{name: string, mass: number, inertia: number[]}} body
 * @param {string} engine the engine's name, for the sentence
 */
export function checkMassProperties(body, engine) {
  const I = body.inertia;
  if (!(body.mass > 0) || !Array.isArray(I) || I.length !== 9 || !I.every(Number.isFinite)) {
    throw new Error(`${engine} cannot simulate body "${body.name}": its mass or inertia is not a positive mass and a 3 × 3 tensor.`);
  }
}

/**
 * Throws unless an inertia tensor's principal moments are all positive.
 * @param {number[]} moments
 * @param {{name: string}} body
 * @param {string} engine the engine's name, for the sentence
 */
export function checkMoments(moments, body, engine) {
  if (!moments.every((moment) => moment > 0)) {
    throw new Error(`${engine} cannot simulate body "${body.name}": its inertia tensor is not positive definite.`);
  }
}

/**
 * Throws unless a body's triangles are at least one and index its vertices.
 * @param {{name: string, vertices: number[], triangles: number[]}} body
 * @param {string} engine the engine's name, for the sentence
 */
export function checkTriangles(body, engine) {
  const vertexCount = body.vertices.length / 3;
  if (body.triangles.length < 3 || body.triangles.some((index) => !(index >= 0 && index < vertexCount))) {
    throw new Error(`${engine} could not build a triangle mesh of body "${body.name}": its triangles do not index its vertices.`);
  }
}

/**
 * The pair `a < b` of a contact between `body0` and `body1` whose engine
 * normal points from `body1` to `body0` (PhysX's, Bullet's), and the sign
 * that turns that normal into ours, from a to b.
 * @param {number} body0
 * @param {number} body1
 */
export function pairFromSecond(body0, body1) {
  const swap = body0 > body1;
  return { a: swap ? body1 : body0, b: swap ? body0 : body1, sign: swap ? 1 : -1 };
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
