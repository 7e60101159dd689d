/**
 * @file Bullet 3.26, from the npm package ammojs3@0.0.11 (a WebAssembly
 * build of ammo.js made from Bullet 3.26: `dist/ammo.wasm.js`, a classic
 * UMD script, and its separate `dist/ammo.wasm.wasm`; single-threaded,
 * single precision), as an engine of `docs/design/engines.md`.
 *
 * Loading: `host.script` gives the script's factory (its global `Ammo` in
 * the page, its `module.exports` in Node); the factory finds the wasm
 * through `locateFile` (`host.url`).
 *
 * Bodies, as a Bullet user builds them: a `btDiscreteDynamicsWorld` with
 * the `btDefaultCollisionConfiguration`, a `btCollisionDispatcher`, a
 * `btDbvtBroadphase` and the `btSequentialImpulseConstraintSolver`; every
 * body a `btRigidBody` (mass 0 when fixed) with a `btDefaultMotionState`.
 * - A convex body is a `btConvexHullShape` of its surface vertices.
 * - A fixed non-convex body is a `btBvhTriangleMeshShape` (quantized
 *   bounding-volume tree) over a `btTriangleMesh` of its triangles.
 * - A free non-convex body is a `btCompoundShape` of one
 *   `btConvexHullShape` per convex piece.
 * Every shape keeps its default collision margin: 0.04 m for the hulls,
 * which Bullet adds OUTSIDE the hull's vertices (the surfaces that collide
 * are the hulls rounded by 4 cm), 0 for the triangle mesh. Hulls are not
 * given `initializePolyhedralFeatures`: most Bullet users never call it
 * (the examples, three.js and the other ammo.js wrappers don't), so hull
 * against hull goes through Bullet's default GJK and EPA, which give one
 * contact point per pair and step (and per triangle against a mesh). The
 * default collision configuration's multipoint perturbation is off, as
 * Bullet ships it.
 *
 * Contacts are read from the dispatcher's persistent manifolds after a
 * step: each point has `positionWorldOnA`, `positionWorldOnB` (on the
 * margin-rounded surfaces of the manifold's body 0 = A and body 1 = B),
 * `normalWorldOnB`, which points from B towards A, and `getDistance()`,
 * negative when overlapping. With a the body of A and b that of B (swapped
 * so that a < b), the normal from a to b is minus Bullet's; the depth is
 * Bullet's distance as it is, so it includes the margins: hulls that touch
 * exactly report -0.08 m (hull on mesh -0.04 m), because that is the
 * overlap of the rounded shapes Bullet's solver works with; Bullet reports
 * pairs up to its contact breaking threshold apart (0.02 times the smaller
 * shape's bounding radius: about 3 cm between the rounded shapes of the
 * Sliding wedge). The point is
 * the midpoint of the points on A and on B. Contacts are sorted by body
 * pair (a, b); within a pair in Bullet's order. Bullet never collides two
 * fixed bodies.
 *
 * Deviations from the defaults, each for a reason:
 * - Our-pose mode (`contactsAt`): a persistent manifold collects points
 *   over frames (up to 4: one new GJK/EPA point each step), so the
 *   contacts Bullet holds at a pose depend on the poses before. Each call
 *   therefore removes every free body from the world and adds it back,
 *   which destroys its pairs' collision algorithms and manifolds; the
 *   step then finds the pairs anew and computes the contacts of a first
 *   frame at that pose: one point per convex pair. The bodies are put at
 *   the pose with zero velocity and never deactivate
 *   (`DISABLE_DEACTIVATION`: a body at rest for 2 s would otherwise sleep
 *   and its pairs be skipped); the step's integration is overwritten by the
 *   next call. The step is `stepSimulation(dt, 0)`, one step of `dt`.
 * - Own mode (`ownStep`): `stepSimulation(scene.dt, 0)` makes exactly one
 *   internal step of the scene's time step (a user's fixed 1/60 s with
 *   sub-steps would not match the scene's). Bullet multiplies the two
 *   bodies' friction coefficients, so each body gets the square root of
 *   `scene.friction` and every pair has `scene.friction`. Restitution 0
 *   (Bullet's default too). Bullet takes an inertia only as a diagonal in
 *   the body's frame, so a body whose tensor is not diagonal (the Arch's
 *   voussoirs) is built in its principal frame: its shape's vertices are
 *   rotated there, and its pose is turned back into our body frame when
 *   read; the principal axes come from a Jacobi eigen-decomposition of our
 *   tensor (`common.js`). Everything else is Bullet's default: 10 solver
 *   iterations, split impulse, no damping, and deactivation (a body at
 *   rest for 2 s sleeps; Bullet then runs no collision detection for pairs
 *   of sleeping or fixed bodies, and their manifolds, stale, are not
 *   reported).
 *
 * Limitations: single precision (about 1e-7 relative); depths carry the
 * margins (see above); at our pose one point per convex pair, so a box on
 * a box gets one contact, not four. When the hulls' cores touch exactly
 * (the scenes' initial poses), Bullet's GJK is degenerate and its normal
 * can point anywhere: the Arch's ground/pier pairs and 5 of the Wall's
 * ground/brick pairs get horizontal normals there, while 1 mm either way
 * gives the face normal. In own mode the scenes start with the rounded
 * hulls overlapping by 0.08 m, deeper than the split impulse's threshold
 * (0.04 m), so Bullet's velocity correction pushes touching bodies apart
 * (a stack grows by about 8 cm a joint; at the Spinning sphere's 1 ms step
 * the sphere is thrown upwards): that is what these defaults do.
 */

import {
  atSinglePose,
  checkMassProperties,
  checkMoments,
  checkTriangles,
  contactsByPair,
  engineWorld,
  pairFromSecond,
  posesOf,
  shapeKind,
} from './common.js';
import { principalAxes } from './inertia.js';

const SCRIPT = 'ammojs3/dist/ammo.wasm.js';
const SCRIPT_DIR = 'ammojs3/dist/';

/** @type {import('./common.js').EngineWords} */
const WORDS = {
  name: 'Bullet',
  unknownMode: (mode) => `Bullet has no mode "${mode}" (it runs "ours" or "own").`,
  notOurs: 'This Bullet world runs its own simulation; it takes no poses.',
  notOwn: 'This Bullet world computes contacts at given poses; it does not run its own simulation.',
};

/** Bullet's activation state that keeps a body from ever sleeping. */
const DISABLE_DEACTIVATION = 4;

/**
 * An inertia tensor whose off-diagonal entries are below this fraction of
 * its largest diagonal entry is diagonal: tensors integrated over an
 * axis-aligned mesh carry off-diagonal round-off of about 1e-17 of the
 * diagonal, a tilted body's are of order 1e-2.
 */
const DIAGONAL_INERTIA_RELATIVE = 1e-12;

/**
 * Loads the Bullet (ammo.js) module.
 * @param {{script: (path: string, name: string) => Promise<any>, url: (path: string) => string}} host
 * @returns {Promise<any>} the Ammo module
 */
export async function load(host) {
  const factory = await host.script(SCRIPT, 'Ammo');
  if (typeof factory !== 'function') throw new Error('Bullet (ammo.js) did not load: its script defined no Ammo factory.');
  return factory({ locateFile: (/** @type {string} */ file) => host.url(SCRIPT_DIR + file) });
}

/**
 * Whether a tensor (row by row) is diagonal to within
 * `DIAGONAL_INERTIA_RELATIVE`, measured on its symmetrised off-diagonal.
 * @param {number[]} tensor
 */
function isDiagonal(tensor) {
  const scale = Math.max(Math.abs(tensor[0]), Math.abs(tensor[4]), Math.abs(tensor[8]));
  const off = Math.max(Math.abs((tensor[1] + tensor[3]) / 2), Math.abs((tensor[2] + tensor[6]) / 2), Math.abs((tensor[5] + tensor[7]) / 2));
  return !(off > DIAGONAL_INERTIA_RELATIVE * scale);
}

/**
 * The Hamilton product `p q` of quaternions `[x, y, z, w]`.
 * @param {number[]} p
 * @param {number[]} q
 */
function multiply(p, q) {
  return [
    p[3] * q[0] + p[0] * q[3] + p[1] * q[2] - p[2] * q[1],
    p[3] * q[1] - p[0] * q[2] + p[1] * q[3] + p[2] * q[0],
    p[3] * q[2] + p[0] * q[1] - p[1] * q[0] + p[2] * q[3],
    p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2],
  ];
}

/**
 * Builds the scene in Bullet.
 * @param {any} Ammo the module from `load`
 * @param {any} scene the engine scene (`docs/design/engines.md`)
 * @param {'ours' | 'own'} mode
 */
export function create(Ammo, scene, mode) {
  return engineWorld(WORDS, scene, mode, (teardown) => bulletWorld(Ammo, scene, mode, teardown));
}

/**
 * Bullet's vector and transform scratch values, set in place and handed
 * to its calls.
 * @typedef {{
 *   setVec: (x: number, y: number, z: number) => any,
 *   setTransform: (p: ArrayLike<number>, at: number) => any,
 * }} Scratch
 */

/**
 * What building a body needs: the module, the scratch values and `owned`,
 * which registers an object for `Ammo.destroy` at teardown.
 * @typedef {{Ammo: any, scratch: Scratch, owned: <T>(object: T) => T}} Made
 */

/**
 * The scene in a Bullet dynamics world, its objects made in the order the
 * teardown list undoes, and the steps of both modes.
 * @param {any} Ammo
 * @param {any} scene
 * @param {'ours' | 'own'} mode
 * @param {import('./common.js').Teardown} teardown
 * @returns {import('./common.js').EngineSteps}
 */
function bulletWorld(Ammo, scene, mode, teardown) {
  const bodies = scene.bodies;
  const owned = teardown.owner(Ammo);
  /** @type {Made} */
  const made = { Ammo, scratch: scratchValues(Ammo, owned), owned };
  const configuration = owned(new Ammo.btDefaultCollisionConfiguration());
  const dispatcher = owned(new Ammo.btCollisionDispatcher(configuration));
  const broadphase = owned(new Ammo.btDbvtBroadphase());
  const solver = owned(new Ammo.btSequentialImpulseConstraintSolver());
  const world = owned(new Ammo.btDiscreteDynamicsWorld(dispatcher, broadphase, solver, configuration));
  world.setGravity(made.scratch.setVec(scene.gravity[0], scene.gravity[1], scene.gravity[2]));
  /** @type {Map<number, number>} btCollisionObject pointer -> body index */
  const indexOfBody = new Map();
  /**
   * Per body, the rotation from Bullet's body frame (the principal frame
   * in own mode) to ours, `[x, y, z, w]`, or null when they are the same.
   * @type {Array<number[] | null>}
   */
  const toOurFrame = [];
  const rigidBodies = bodies.map((/** @type {any} */ body, /** @type {number} */ index) => {
    const { rigidBody, back } = makeRigidBody(made, world, scene, body, mode, teardown);
    toOurFrame.push(back);
    indexOfBody.set(Ammo.getPointer(rigidBody), index);
    return rigidBody;
  });
  const fixed = bodies.map((/** @type {any} */ body) => Boolean(body.fixed));
  return {
    contactsAt(poses) {
      placeAt(world, rigidBodies, fixed, poses, made.scratch);
      world.stepSimulation(scene.dt, 0);
      return readContacts(Ammo, dispatcher, indexOfBody, null);
    },
    ownStep() {
      const processed = rigidBodies.map((rigidBody) => rigidBody.isActive());
      const poses = posesOf(rigidBodies.length, (i) => {
        const worldTransform = rigidBodies[i].getWorldTransform();
        const origin = worldTransform.getOrigin();
        const rotation = worldTransform.getRotation();
        let q = [rotation.x(), rotation.y(), rotation.z(), rotation.w()];
        const back = toOurFrame[i];
        if (back) q = multiply(q, back);
        return [origin.x(), origin.y(), origin.z(), ...q];
      });
      world.stepSimulation(scene.dt, 0);
      return { poses, contacts: readContacts(Ammo, dispatcher, indexOfBody, processed) };
    },
  };
}

/**
 * The scratch values, freed by the teardown list.
 * @param {any} Ammo
 * @param {<T>(object: T) => T} owned
 * @returns {Scratch}
 */
function scratchValues(Ammo, owned) {
  const vec = owned(new Ammo.btVector3(0, 0, 0));
  const quat = owned(new Ammo.btQuaternion(0, 0, 0, 1));
  const transform = owned(new Ammo.btTransform());
  /** @param {number} x @param {number} y @param {number} z */
  const setVec = (x, y, z) => {
    vec.setValue(x, y, z);
    return vec;
  };
  return {
    setVec,
    // Position at p[at..], quaternion at p[at+3..].
    setTransform: (p, at) => {
      transform.setIdentity();
      transform.setOrigin(setVec(p[at], p[at + 1], p[at + 2]));
      quat.setValue(p[at + 3], p[at + 4], p[at + 5], p[at + 6]);
      transform.setRotation(quat);
      return transform;
    },
  };
}

/**
 * A body's rigid body, added to the world, and the rotation that takes
 * its Bullet frame back to ours (null when they are the same).
 * @param {Made} made
 * @param {any} world
 * @param {any} scene
 * @param {any} body
 * @param {'ours' | 'own'} mode
 * @param {import('./common.js').Teardown} teardown
 */
function makeRigidBody(made, world, scene, body, mode, teardown) {
  const { Ammo, scratch, owned } = made;
  const { rotate, moments } = bulletFrame(body, mode);
  const shape = bodyShape(made, body, rotate);
  const orientation = rotate ? multiply(body.rotation, rotate.rotation) : body.rotation;
  const back = rotate ? [-rotate.rotation[0], -rotate.rotation[1], -rotate.rotation[2], rotate.rotation[3]] : null;
  const motionState = owned(new Ammo.btDefaultMotionState(scratch.setTransform([...body.position, ...orientation], 0)));
  const inertia = owned(new Ammo.btVector3(moments[0], moments[1], moments[2]));
  const info = owned(new Ammo.btRigidBodyConstructionInfo(body.fixed ? 0 : body.mass, motionState, shape, inertia));
  const rigidBody = new Ammo.btRigidBody(info);
  teardown.push(() => {
    world.removeRigidBody(rigidBody);
    Ammo.destroy(rigidBody);
  });
  if (mode === 'own') {
    // Bullet multiplies the two bodies' frictions: each has the square root.
    rigidBody.setFriction(Math.sqrt(Math.max(0, scene.friction)));
    rigidBody.setRestitution(0);
    if (!body.fixed) {
      rigidBody.setLinearVelocity(scratch.setVec(body.velocity[0], body.velocity[1], body.velocity[2]));
      rigidBody.setAngularVelocity(scratch.setVec(body.angularVelocity[0], body.angularVelocity[1], body.angularVelocity[2]));
    }
  } else if (!body.fixed) {
    rigidBody.setActivationState(DISABLE_DEACTIVATION);
  }
  world.addRigidBody(rigidBody);
  return { rigidBody, back };
}

/**
 * A body's principal moments, and in own mode the principal frame a free
 * body with a non-diagonal inertia lives in (else null: our frame).
 * @param {any} body
 * @param {'ours' | 'own'} mode
 * @returns {{rotate: {axes: number[], rotation: number[]} | null, moments: number[]}}
 */
function bulletFrame(body, mode) {
  if (body.fixed) return { rotate: null, moments: [0, 0, 0] };
  checkMassProperties(body, 'Bullet');
  const I = body.inertia;
  // A tensor diagonal to round-off is taken as it is: the body keeps our frame.
  const principal = isDiagonal(I) ? null : principalAxes(I, 'max');
  const moments = principal ? principal.moments : [I[0], I[4], I[8]];
  checkMoments(moments, body, 'Bullet');
  return { rotate: mode === 'own' ? principal : null, moments };
}

/**
 * The Bullet shape of one body (see the file comment for which kind),
 * its vertices turned into Bullet's frame of the body.
 * @param {Made} made
 * @param {any} body
 * @param {{axes: number[]} | null} rotate
 */
function bodyShape(made, body, rotate) {
  const what = `body "${body.name}"`;
  const kind = shapeKind(body, `Bullet cannot collide ${what}: it is not convex and has no convex pieces.`);
  if (kind === 'hull') return hullShape(made, body.vertices, what, rotate);
  if (kind === 'mesh') return meshShape(made, body);
  const { Ammo, owned } = made;
  const shape = owned(new Ammo.btCompoundShape());
  const identity = owned(new Ammo.btTransform());
  identity.setIdentity();
  body.pieces.forEach((/** @type {number[]} */ piece, /** @type {number} */ p) => {
    shape.addChildShape(identity, hullShape(made, piece, `piece ${p + 1} of ${what}`, rotate));
  });
  return shape;
}

/**
 * A convex hull shape of a flat `x y z` list of body-frame points.
 * @param {Made} made
 * @param {ArrayLike<number>} flat
 * @param {string} of e.g. `body "plinth"`
 * @param {{axes: number[]} | null} rotate
 */
function hullShape({ Ammo, scratch, owned }, flat, of, rotate) {
  if (flat.length < 12 || flat.length % 3 !== 0 || !Array.prototype.every.call(flat, Number.isFinite)) {
    throw new Error(`Bullet could not build a convex hull of ${of}: it needs at least 4 finite vertices.`);
  }
  const points = rotate ? toBulletFrame(flat, rotate.axes) : flat;
  const shape = owned(new Ammo.btConvexHullShape());
  for (let i = 0; i < points.length; i += 3) {
    shape.addPoint(scratch.setVec(points[i], points[i + 1], points[i + 2]), i + 3 === points.length);
  }
  return shape;
}

/**
 * Body-frame points `x y z` in the principal frame of `axes` (Rᵀ v).
 * @param {ArrayLike<number>} flat
 * @param {number[]} axes R row by row
 */
function toBulletFrame(flat, axes) {
  const out = new Float64Array(flat.length);
  for (let i = 0; i + 2 < flat.length; i += 3) {
    for (let k = 0; k < 3; k++) out[i + k] = axes[k] * flat[i] + axes[3 + k] * flat[i + 1] + axes[6 + k] * flat[i + 2];
  }
  return out;
}

/**
 * A static triangle mesh shape (quantized bounding-volume tree) of a body's surface.
 * @param {Made} made
 * @param {any} body
 */
function meshShape({ Ammo, owned }, body) {
  checkTriangles(body, 'Bullet');
  const mesh = owned(new Ammo.btTriangleMesh());
  const corners = [0, 1, 2].map(() => owned(new Ammo.btVector3(0, 0, 0)));
  const v = body.vertices;
  for (let t = 0; t < body.triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const i = body.triangles[t + k] * 3;
      corners[k].setValue(v[i], v[i + 1], v[i + 2]);
    }
    mesh.addTriangle(corners[0], corners[1], corners[2], false);
  }
  return owned(new Ammo.btBvhTriangleMeshShape(mesh, true, true));
}

/**
 * Puts every body at `poses` for a step at our pose. Removing a free body
 * and adding it back destroys its pairs' algorithms and manifolds, so no
 * history survives; a fixed body is moved only when it is elsewhere.
 * @param {any} world
 * @param {any[]} rigidBodies
 * @param {boolean[]} fixed
 * @param {Float64Array} poses
 * @param {Scratch} scratch
 */
function placeAt(world, rigidBodies, fixed, poses, scratch) {
  rigidBodies.forEach((rigidBody, i) => {
    if (!fixed[i]) world.removeRigidBody(rigidBody);
  });
  rigidBodies.forEach((rigidBody, i) => {
    if (fixed[i]) {
      const origin = rigidBody.getWorldTransform().getOrigin();
      const rotation = rigidBody.getWorldTransform().getRotation();
      const current = [origin.x(), origin.y(), origin.z(), rotation.x(), rotation.y(), rotation.z(), rotation.w()];
      if (!atSinglePose(current, poses, i)) {
        rigidBody.setWorldTransform(scratch.setTransform(poses, i * 7));
        world.updateSingleAabb(rigidBody);
      }
      return;
    }
    rigidBody.setCenterOfMassTransform(scratch.setTransform(poses, i * 7));
    rigidBody.setLinearVelocity(scratch.setVec(0, 0, 0));
    rigidBody.setAngularVelocity(scratch.setVec(0, 0, 0));
    world.addRigidBody(rigidBody);
  });
}

/**
 * The contacts of the dispatcher's manifolds, sorted by body pair.
 * @param {any} Ammo
 * @param {any} dispatcher
 * @param {Map<number, number>} indexOfBody
 * @param {boolean[] | null} processed per body, whether its pairs were collided this step (null: all)
 */
function readContacts(Ammo, dispatcher, indexOfBody, processed) {
  /** @type {Array<{a: number, b: number, values: number[]}>} */
  const pairs = [];
  const manifoldCount = dispatcher.getNumManifolds();
  for (let i = 0; i < manifoldCount; i++) {
    const manifold = dispatcher.getManifoldByIndexInternal(i);
    const count = manifold.getNumContacts();
    if (count === 0) continue;
    const body0 = indexOfBody.get(Ammo.getPointer(manifold.getBody0()));
    const body1 = indexOfBody.get(Ammo.getPointer(manifold.getBody1()));
    if (body0 === undefined || body1 === undefined) continue;
    if (processed && !processed[body0] && !processed[body1]) continue;
    // Bullet's normal (on B) points from B to A.
    const { a, b, sign } = pairFromSecond(body0, body1);
    const values = [];
    for (let j = 0; j < count; j++) {
      const point = manifold.getContactPoint(j);
      const onA = point.getPositionWorldOnA();
      const ax = onA.x();
      const ay = onA.y();
      const az = onA.z();
      const onB = point.getPositionWorldOnB();
      const normal = point.get_m_normalWorldOnB();
      values.push(
        a, b,
        (ax + onB.x()) / 2, (ay + onB.y()) / 2, (az + onB.z()) / 2,
        sign * normal.x(), sign * normal.y(), sign * normal.z(),
        point.getDistance(),
      );
    }
    pairs.push({ a, b, values });
  }
  return contactsByPair(pairs);
}
