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

import { checkPoses, contactsByPair, principalAxes } from './common.js';

const SCRIPT = 'ammojs3/dist/ammo.wasm.js';
const SCRIPT_DIR = 'ammojs3/dist/';

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
  if (mode !== 'ours' && mode !== 'own') throw new Error(`Bullet has no mode "${mode}" (it runs "ours" or "own").`);
  /** @type {Array<() => void>} undone in reverse order by free() */
  const releases = [];
  const free = () => {
    while (releases.length) releases.pop()();
  };
  /** @template T @param {T} object @returns {T} an object Ammo.destroy frees at free() */
  const owned = (object) => {
    releases.push(() => Ammo.destroy(object));
    return object;
  };
  try {
    return build();
  } catch (error) {
    free();
    throw error;
  }

  function build() {
    const bodies = scene.bodies;
    const vec = owned(new Ammo.btVector3(0, 0, 0));
    const quat = owned(new Ammo.btQuaternion(0, 0, 0, 1));
    const transform = owned(new Ammo.btTransform());
    /** @param {number} x @param {number} y @param {number} z */
    const setVec = (x, y, z) => {
      vec.setValue(x, y, z);
      return vec;
    };
    /** @param {ArrayLike<number>} p position at p[at..], quaternion at p[at+3..] */
    const setTransform = (p, at) => {
      transform.setIdentity();
      transform.setOrigin(setVec(p[at], p[at + 1], p[at + 2]));
      quat.setValue(p[at + 3], p[at + 4], p[at + 5], p[at + 6]);
      transform.setRotation(quat);
      return transform;
    };

    const configuration = owned(new Ammo.btDefaultCollisionConfiguration());
    const dispatcher = owned(new Ammo.btCollisionDispatcher(configuration));
    const broadphase = owned(new Ammo.btDbvtBroadphase());
    const solver = owned(new Ammo.btSequentialImpulseConstraintSolver());
    const world = owned(new Ammo.btDiscreteDynamicsWorld(dispatcher, broadphase, solver, configuration));
    world.setGravity(setVec(scene.gravity[0], scene.gravity[1], scene.gravity[2]));

    /** @type {any[]} */
    const rigidBodies = [];
    /** @type {Map<number, number>} btCollisionObject pointer -> body index */
    const indexOfBody = new Map();
    /**
     * Per body, the rotation from Bullet's body frame (the principal frame
     * in own mode) to ours, `[x, y, z, w]`, or null when they are the same.
     * @type {Array<number[] | null>}
     */
    const toOurFrame = [];
    const bodyFriction = Math.sqrt(Math.max(0, scene.friction));

    bodies.forEach((body, index) => {
      const what = `body "${body.name}"`;
      // In own mode a free body with a non-diagonal inertia lives in its principal frame.
      /** @type {{axes: number[], rotation: number[]} | null} */
      let rotate = null;
      let moments = [0, 0, 0];
      if (!body.fixed) {
        const I = body.inertia;
        if (!(body.mass > 0) || !Array.isArray(I) || I.length !== 9 || !I.every(Number.isFinite)) {
          throw new Error(`Bullet cannot simulate ${what}: its mass or inertia is not a positive mass and a 3 × 3 tensor.`);
        }
        // A tensor diagonal to round-off is taken as it is: the body keeps our frame.
        const principal = isDiagonal(I) ? null : principalAxes(I, 'max');
        moments = principal ? principal.moments : [I[0], I[4], I[8]];
        if (!moments.every((moment) => moment > 0)) throw new Error(`Bullet cannot simulate ${what}: its inertia tensor is not positive definite.`);
        if (mode === 'own' && principal) rotate = principal;
      }
      /** @param {ArrayLike<number>} flat body-frame x y z -> Bullet's frame (Rᵀ v) */
      const toBulletFrame = (flat) => {
        if (!rotate) return flat;
        const axes = rotate.axes;
        const out = new Float64Array(flat.length);
        for (let i = 0; i + 2 < flat.length; i += 3) {
          for (let k = 0; k < 3; k++) out[i + k] = axes[k] * flat[i] + axes[3 + k] * flat[i + 1] + axes[6 + k] * flat[i + 2];
        }
        return out;
      };
      /** @param {ArrayLike<number>} flat @param {string} of */
      const hull = (flat, of) => {
        if (flat.length < 12 || flat.length % 3 !== 0 || !Array.prototype.every.call(flat, Number.isFinite)) {
          throw new Error(`Bullet could not build a convex hull of ${of}: it needs at least 4 finite vertices.`);
        }
        const points = toBulletFrame(flat);
        const shape = owned(new Ammo.btConvexHullShape());
        for (let i = 0; i < points.length; i += 3) {
          shape.addPoint(setVec(points[i], points[i + 1], points[i + 2]), i + 3 === points.length);
        }
        return shape;
      };

      let shape;
      if (body.convex) {
        shape = hull(body.vertices, what);
      } else if (body.fixed) {
        const vertexCount = body.vertices.length / 3;
        if (body.triangles.length < 3 || body.triangles.some((/** @type {number} */ i) => !(i >= 0 && i < vertexCount))) {
          throw new Error(`Bullet could not build a triangle mesh of ${what}: its triangles do not index its vertices.`);
        }
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
        shape = owned(new Ammo.btBvhTriangleMeshShape(mesh, true, true));
      } else {
        if (!body.pieces || body.pieces.length === 0) throw new Error(`Bullet cannot collide ${what}: it is not convex and has no convex pieces.`);
        shape = owned(new Ammo.btCompoundShape());
        const identity = owned(new Ammo.btTransform());
        identity.setIdentity();
        body.pieces.forEach((/** @type {number[]} */ piece, /** @type {number} */ p) => {
          shape.addChildShape(identity, hull(piece, `piece ${p + 1} of ${what}`));
        });
      }

      const orientation = rotate ? multiply(body.rotation, rotate.rotation) : body.rotation;
      toOurFrame.push(rotate ? [-rotate.rotation[0], -rotate.rotation[1], -rotate.rotation[2], rotate.rotation[3]] : null);
      const motionState = owned(new Ammo.btDefaultMotionState(setTransform([...body.position, ...orientation], 0)));
      const inertia = owned(new Ammo.btVector3(moments[0], moments[1], moments[2]));
      const info = owned(new Ammo.btRigidBodyConstructionInfo(body.fixed ? 0 : body.mass, motionState, shape, inertia));
      const rigidBody = new Ammo.btRigidBody(info);
      releases.push(() => {
        world.removeRigidBody(rigidBody);
        Ammo.destroy(rigidBody);
      });
      if (mode === 'own') {
        rigidBody.setFriction(bodyFriction);
        rigidBody.setRestitution(0);
        if (!body.fixed) {
          rigidBody.setLinearVelocity(setVec(body.velocity[0], body.velocity[1], body.velocity[2]));
          rigidBody.setAngularVelocity(setVec(body.angularVelocity[0], body.angularVelocity[1], body.angularVelocity[2]));
        }
      } else if (!body.fixed) {
        rigidBody.setActivationState(DISABLE_DEACTIVATION);
      }
      world.addRigidBody(rigidBody);
      rigidBodies.push(rigidBody);
      indexOfBody.set(Ammo.getPointer(rigidBody), index);
    });

    const poseCount = bodies.length * 7;
    const fixed = bodies.map((/** @type {any} */ body) => Boolean(body.fixed));

    /**
     * The contacts of the dispatcher's manifolds, sorted by body pair.
     * @param {boolean[] | null} processed per body, whether its pairs were collided this step (null: all)
     */
    const readContacts = (processed) => {
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
        const swap = body0 > body1;
        const a = swap ? body1 : body0;
        const b = swap ? body0 : body1;
        const sign = swap ? 1 : -1;
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
    };

    return {
      /** @param {Float64Array} poses */
      contactsAt(poses) {
        if (mode !== 'ours') throw new Error('This Bullet world runs its own simulation; it takes no poses.');
        checkPoses(poses, bodies.length, 'Bullet');
        // Removing a body destroys its pairs' algorithms and manifolds: no history survives.
        rigidBodies.forEach((rigidBody, i) => {
          if (!fixed[i]) world.removeRigidBody(rigidBody);
        });
        rigidBodies.forEach((rigidBody, i) => {
          if (fixed[i]) {
            const origin = rigidBody.getWorldTransform().getOrigin();
            const rotation = rigidBody.getWorldTransform().getRotation();
            const current = [origin.x(), origin.y(), origin.z(), rotation.x(), rotation.y(), rotation.z(), rotation.w()];
            const target = Float32Array.from(poses.subarray(i * 7, i * 7 + 7));
            if (current.some((value, k) => value !== target[k])) {
              rigidBody.setWorldTransform(setTransform(poses, i * 7));
              world.updateSingleAabb(rigidBody);
            }
            return;
          }
          rigidBody.setCenterOfMassTransform(setTransform(poses, i * 7));
          rigidBody.setLinearVelocity(setVec(0, 0, 0));
          rigidBody.setAngularVelocity(setVec(0, 0, 0));
          world.addRigidBody(rigidBody);
        });
        world.stepSimulation(scene.dt, 0);
        return readContacts(null);
      },
      ownStep() {
        if (mode !== 'own') throw new Error('This Bullet world computes contacts at given poses; it does not run its own simulation.');
        const poses = new Float64Array(poseCount);
        const processed = rigidBodies.map((rigidBody) => rigidBody.isActive());
        rigidBodies.forEach((rigidBody, i) => {
          const worldTransform = rigidBody.getWorldTransform();
          const origin = worldTransform.getOrigin();
          const rotation = worldTransform.getRotation();
          let q = [rotation.x(), rotation.y(), rotation.z(), rotation.w()];
          const back = toOurFrame[i];
          if (back) q = multiply(q, back);
          poses.set([origin.x(), origin.y(), origin.z(), ...q], i * 7);
        });
        world.stepSimulation(scene.dt, 0);
        return { poses, contacts: readContacts(processed) };
      },
      free,
    };
  }
}
