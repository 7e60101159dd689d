/**
 * @file The Rapier engine (npm `@dimforge/rapier3d-compat@0.21.0`: Rapier
 * with parry3d 0.31.1, single precision, single-threaded) as a contact
 * source (`docs/design/engines.md`).
 *
 * Loading: `@dimforge/rapier3d-compat/dist/rapier.mjs`, whose wasm is
 * inlined as base64, then `await RAPIER.init()`. The package's separate
 * `rapier_wasm3d_bg.wasm` belongs to its raw bindings, which this API module
 * does not load; the non-compat package needs a bundler's wasm import.
 *
 * Bodies, as a Rapier user builds them: a fixed body is a `fixed` rigid
 * body, a free one a `dynamic` rigid body, each with its colliders attached
 * at the body's origin (our centre of mass frame):
 * - a convex body: one `ColliderDesc.convexHull` of its surface vertices;
 * - a fixed non-convex body: one `ColliderDesc.trimesh` of its triangles;
 * - a free non-convex body: one convex-hull collider per convex piece, all
 *   on the one rigid body (Rapier's usual compound).
 * Colliders keep Rapier's defaults: contact skin 0, prediction distance
 * `normalizedPredictionDistance × lengthUnit` = 0.02 m (contacts up to 2 cm
 * apart are reported, with positive depth), the default active collision
 * types (so two fixed bodies are never tested), no trimesh flags.
 *
 * Which contacts: the solver's. For each contact manifold Rapier keeps the
 * raw manifold points (parry's, e.g. 5 for a box face on a box face) and
 * builds from them the solver contacts its constraint solver uses: at most
 * 4 per manifold, points within the prediction distance, each placed midway
 * between the two surfaces, with the signed distance. We report those.
 * Rapier builds solver contacts only for pairs with a dynamic body, so the
 * free bodies must be dynamic rigid bodies, not parentless colliders (which
 * count as fixed and would need FIXED_FIXED collision types, and then get
 * raw points only). One exception: when a pair has several manifolds (a
 * body on several triangles of a trimesh), Rapier 0.21 merges them into
 * "solver clusters" for its solver, a structure the JS API does not expose
 * (the plain manifolds then show no solver contacts). For such pairs we
 * report the raw manifold points within the prediction distance, each the
 * midpoint of its points on the two surfaces with its signed distance: the
 * points the clusters are made from, a superset of what the solver uses.
 *
 * Contacts at our pose (`contactsAt`): Rapier carries history from step to
 * step that changes the contacts at a pose. Its contact recycling (on by
 * default) reuses a pair's contacts while the pair moved less than 5 cm
 * since they were computed, and composite pairs keep per-triangle
 * workspaces. So each call builds a fresh world (Rapier's JS API builds a
 * collider's hull or mesh again from its points each time; the points are
 * checked once at `create`), puts every body at the pose with zero
 * velocity, runs one
 * `world.step()`, whose narrow phase computes the contacts at the pose
 * before its solver moves anything, reads the contacts and frees the
 * world; the step's integration goes with it.
 *
 * Reading a solver contact at the pose: the JS API gives its point only as
 * resolved at the bodies' current poses (it is anchored in the two bodies),
 * which the step has moved. Each solver contact is made from one raw
 * manifold point and sits at that point's midpoint (to f32 round-off,
 * ~1e-7 m), so we match it to the raw point whose midpoint at the current
 * poses is nearest, and report that raw point's two body-frame points
 * placed at the step's start poses, their midpoint, with the solver
 * contact's distance. This reads the world without changing it.
 *
 * Conventions translated: a manifold's `normal()` (world) points from its
 * pair's collider 1 to collider 2, and its distances are < 0 when
 * overlapping. So `a` = collider 1's body, `b` = collider 2's body, the
 * normal and the distance are kept. Each collider pair is read once; the
 * contacts are returned sorted (body pair, then point) so that the order
 * does not follow the narrow phase's graph order.
 *
 * Own run (`ownStep`): one persistent world with Rapier's defaults (contact
 * recycling and clustering, warm starting, sleeping, no damping), gravity
 * `scene.gravity`, `timestep = scene.dt`, friction `scene.friction` on every
 * collider (Rapier averages two, so a pair gets that value), restitution 0
 * (Rapier's default). Mass properties are ours: colliders of density 0 and
 * `setAdditionalMassProperties` with our mass, centre of mass at the origin
 * and our inertia tensor, which Rapier takes as principal moments and their
 * frame, so we diagonalise it (Jacobi) first; the full tensor is kept. Each
 * call records the poses, steps once and returns the contacts the solver
 * used in that step, read as above at the poses the step started from
 * (with recycling, a pair's solver contacts may be ones Rapier computed a
 * few steps earlier and carried along with the bodies: that is what its
 * solver used). Pairs whose dynamic bodies all sleep are skipped: the
 * solver ignores them.
 *
 * Same parry as ours: our `parry` method calls parry3d-f64 0.31.1, the same
 * parry version as this build's parry3d 0.31.1. What differs: Rapier is f32
 * (about 1e-7 relative round-off, so a touching pair shows a depth of about
 * ±1e-7 instead of 0); Rapier asks with a prediction distance of 2 cm, so
 * it also reports pairs up to 2 cm apart; it builds a trimesh as one
 * manifold per triangle and merges them for its solver (above); and it
 * keeps at most 4 solver contacts of a manifold's raw points.
 *
 * Deviations from Rapier's defaults: none in the contact generation. The
 * fresh world per call in our-pose mode removes history, not settings; it
 * costs time (5 to 13 ms a call for the Wall's 81 bodies, against about
 * 4 ms for one step of the own run's persistent world).
 *
 * Errors: a hull of points that are empty, collinear or coplanar is
 * refused here, since Rapier would silently build a collider that touches
 * nothing.
 *
 * Limitations: the solver clusters of multi-manifold trimesh pairs are not
 * readable from JS (raw points instead, above). At poses where two flat
 * faces touch exactly (distance within ~1e-6, as in the built-in scenes'
 * initial stacks), Rapier's (f32) polyhedron–polyhedron query can return a
 * wrong manifold: a tilted normal with distances of tens of centimetres
 * (Pillar's plinth on base), or a zero normal (Wall's bricks). Those are
 * Rapier's answers and are reported as they are, except that manifolds
 * with a zero normal are dropped, since no solver can use them (our
 * dispatcher would drop them too). A gap or overlap of 1e-4 m gives the
 * right face contact.
 */

import { engineWorld, posesOf, shapeKind, sortedContacts } from './common.js';
import { principalAxes } from './inertia.js';

/** @typedef {any} Rapier the module returned by `load` */

const PACKAGE_MODULE = '@dimforge/rapier3d-compat/dist/rapier.mjs';

/** @type {import('./common.js').EngineWords} */
const WORDS = {
  name: 'Rapier',
  unknownMode: (mode) => `Rapier cannot run in mode "${mode}"`,
  notOurs: 'this Rapier world runs its own simulation; contacts at our pose need mode "ours"',
  notOwn: 'this Rapier world gives contacts at our pose; its own run needs mode "own"',
};

/**
 * How far from 1 the length of a manifold's normal may be: Rapier's normals
 * are f32 unit vectors (length within ~1e-7 of 1), and the degenerate ones
 * it returns at exact touch have length 0.
 */
const UNIT_NORMAL_TOLERANCE = 1e-4;

/**
 * Loads Rapier and its inlined WebAssembly.
 * @param {{ import(path: string): Promise<any> }} host
 * @returns {Promise<Rapier>}
 */
export async function load(host) {
  const module = await host.import(PACKAGE_MODULE);
  const RAPIER = module.default ?? module;
  await RAPIER.init();
  return RAPIER;
}

/**
 * Builds the scene for Rapier.
 * @param {Rapier} RAPIER
 * @param {any} scene the engine scene (`contactlab-engine-scene/1`)
 * @param {'ours' | 'own'} mode
 */
export function create(RAPIER, scene, mode) {
  return engineWorld(WORDS, scene, mode, (teardown) => rapierWorld(RAPIER, scene, mode === 'own', teardown));
}

/**
 * A world of the scene with the rigid body of each scene body and the
 * scene index of each collider handle.
 * @typedef {{ world: any, rigidBodies: any[], owner: Map<number, number>, colliderHandles: number[] }} Built
 */

/**
 * What the worlds of a scene share: the scene, its collider descriptions
 * (Rapier builds their shapes when a collider is created; the points are
 * checked once, here), which bodies are triangle meshes, and the mode.
 * @typedef {{ RAPIER: Rapier, scene: any, descriptions: any[][], isMesh: boolean[], own: boolean }} Setup
 */

/**
 * The steps of both modes: at our pose a fresh world per call, in the own
 * run one persistent world, freed by the teardown list.
 * @param {Rapier} RAPIER
 * @param {any} scene
 * @param {boolean} own
 * @param {import('./common.js').Teardown} teardown
 * @returns {import('./common.js').EngineSteps}
 */
function rapierWorld(RAPIER, scene, own, teardown) {
  const bodies = scene.bodies;
  /** @type {Setup} */
  const setup = {
    RAPIER,
    scene,
    descriptions: bodies.map((/** @type {any} */ body) => colliderDescriptions(RAPIER, body)),
    isMesh: bodies.map((/** @type {any} */ body) => !body.convex && body.fixed),
    own,
  };
  /** @type {Built | null} */
  let ownWorld = null;
  if (own) {
    const initialPoses = posesOf(bodies.length, (index) => [...bodies[index].position, ...bodies[index].rotation]);
    const built = buildWorld(setup, initialPoses);
    teardown.push(() => built.world.free());
    ownWorld = built;
  }
  return {
    contactsAt(poses) {
      const built = buildWorld(setup, poses);
      try {
        built.world.step();
        return readContacts(setup, built, poses);
      } finally {
        built.world.free();
      }
    },
    ownStep() {
      const built = /** @type {Built} */ (ownWorld);
      const start = posesOf(built.rigidBodies.length, (index) => poseOf(built.rigidBodies[index]));
      built.world.step();
      return { poses: start, contacts: readContacts(setup, built, start) };
    },
  };
}

/**
 * A world holding the scene at `poses`.
 * @param {Setup} setup
 * @param {Float64Array} poses
 * @returns {Built}
 */
function buildWorld({ RAPIER, scene, descriptions, own }, poses) {
  const world = new RAPIER.World({ x: scene.gravity[0], y: scene.gravity[1], z: scene.gravity[2] });
  world.timestep = scene.dt;
  /** @type {any[]} */
  const rigidBodies = [];
  /** @type {Map<number, number>} collider handle → scene index */
  const owner = new Map();
  /** @type {number[]} collider handles in creation order */
  const colliderHandles = [];
  scene.bodies.forEach((/** @type {any} */ body, /** @type {number} */ index) => {
    const rigidBody = world.createRigidBody(rigidBodyDescription(RAPIER, body, poses, index, own));
    rigidBodies.push(rigidBody);
    for (const colliderDescription of descriptions[index]) {
      if (own) {
        colliderDescription.setFriction(scene.friction);
        colliderDescription.setRestitution(0);
        if (!body.fixed) colliderDescription.setDensity(0);
      }
      const collider = world.createCollider(colliderDescription, rigidBody);
      owner.set(collider.handle, index);
      colliderHandles.push(collider.handle);
    }
  });
  return { world, rigidBodies, owner, colliderHandles };
}

/**
 * A body's rigid body description at its pose in `poses`; in the own run a
 * free body's initial velocities and our mass properties.
 * @param {Rapier} RAPIER
 * @param {any} body
 * @param {Float64Array} poses
 * @param {number} index
 * @param {boolean} own
 */
function rigidBodyDescription(RAPIER, body, poses, index, own) {
  const p = 7 * index;
  const description = body.fixed ? RAPIER.RigidBodyDesc.fixed() : RAPIER.RigidBodyDesc.dynamic();
  description.setTranslation(poses[p], poses[p + 1], poses[p + 2]);
  description.setRotation({ x: poses[p + 3], y: poses[p + 4], z: poses[p + 5], w: poses[p + 6] });
  if (own && !body.fixed) {
    description.setLinvel(body.velocity[0], body.velocity[1], body.velocity[2]);
    description.setAngvel({ x: body.angularVelocity[0], y: body.angularVelocity[1], z: body.angularVelocity[2] });
    // Rapier takes principal moments and the rotation from their frame to the body's.
    const { moments, rotation } = principalAxes(body.inertia, 'sum');
    description.setAdditionalMassProperties(
      body.mass,
      { x: 0, y: 0, z: 0 },
      { x: moments[0], y: moments[1], z: moments[2] },
      { x: rotation[0], y: rotation[1], z: rotation[2], w: rotation[3] },
    );
  }
  return description;
}

/**
 * The pose a rigid body is at now, 7 numbers.
 * @param {any} rigidBody
 */
function poseOf(rigidBody) {
  const t = rigidBody.translation();
  const r = rigidBody.rotation();
  return [t.x, t.y, t.z, r.x, r.y, r.z, r.w];
}

/**
 * A manifold as read: its bodies, normal, the solver's contacts placed at
 * the step's start poses, and its raw points.
 * @typedef {{ a: number, b: number, normal: number[], contacts: number[][], raw: RawPoint[] }} Manifold
 * @typedef {{ at: number[], now: number[], distance: number }} RawPoint a raw manifold
 *   point's midpoint at the step's start poses and now, and its distance
 */

/**
 * The contacts the last step's solver used, 9 numbers each, in canonical
 * order, placed at `poses`, the poses the step started from.
 *
 * A solver contact's point is anchored in the two bodies and read at
 * their current poses, which the step has moved. So each solver contact
 * is matched to the raw manifold point it was made from (the solver point
 * is that point's midpoint at the current poses, up to f32 round-off, and
 * has its distance), and that raw point's two body-frame points are
 * placed at `poses` instead. Nothing in the world is touched.
 * @param {Setup} setup
 * @param {Built} built
 * @param {Float64Array} poses
 */
function readContacts({ scene, isMesh }, built, poses) {
  const { world, rigidBodies, owner } = built;
  const bodies = scene.bodies;
  const parameters = world.integrationParameters;
  const prediction = parameters.normalizedPredictionDistance * parameters.lengthUnit;
  const now = posesOf(rigidBodies.length, (index) => poseOf(rigidBodies[index]));
  /** @type {number[]} */
  const found = [];
  const awake = (/** @type {number} */ index) => !bodies[index].fixed && !rigidBodies[index].isSleeping();
  for (const [handle1, handle2] of colliderPairs(built)) {
    const owner1 = /** @type {number} */ (owner.get(handle1));
    const owner2 = owner.get(handle2);
    if (owner2 === undefined || owner1 === owner2) continue;
    if (bodies[owner1].fixed && bodies[owner2].fixed) continue;
    if (!awake(owner1) && !awake(owner2)) continue;
    const { manifolds, solverCount } = pairManifolds(world, handle1, handle2, [owner1, owner2], [poses, now]);
    // Several manifolds of a mesh pair: Rapier solves their (hidden) clusters; see the file comment.
    const clustered = manifolds.length > 1 && (isMesh[owner1] || isMesh[owner2]) && solverCount === 0;
    for (const { a, b, normal, contacts, raw } of manifolds) {
      // A zero normal (see the file comment) gives the solver no direction: no contact.
      if (Math.abs(Math.hypot(normal[0], normal[1], normal[2]) - 1) > UNIT_NORMAL_TOLERANCE) continue;
      const chosen = clustered
        ? raw.filter((point) => point.distance < prediction).map((point) => [...point.at, point.distance])
        : contacts;
      for (const [x, y, z, distance] of chosen) {
        found.push(a, b, x, y, z, normal[0], normal[1], normal[2], distance);
      }
    }
  }
  return sortedContacts(found);
}

/**
 * The collider handle pairs in contact, each once (from its lower handle),
 * listed before any manifold is read: the manifolds are not read from
 * inside the narrow phase's iteration.
 * @param {Built} built
 * @returns {number[][]}
 */
function colliderPairs({ world, colliderHandles }) {
  /** @type {number[][]} */
  const pairs = [];
  for (const handle1 of colliderHandles) {
    world.narrowPhase.contactPairsWith(handle1, (/** @type {number} */ handle2) => {
      if (handle1 < handle2) pairs.push([handle1, handle2]);
    });
  }
  return pairs;
}

/**
 * The manifolds of one collider pair, and how many solver contacts they have.
 * @param {any} world
 * @param {number} handle1
 * @param {number} handle2
 * @param {number[]} owners the scene bodies of the two colliders
 * @param {Float64Array[]} at the step's start poses and the poses now
 */
function pairManifolds(world, handle1, handle2, [owner1, owner2], [poses, now]) {
  /** @type {Manifold[]} */
  const manifolds = [];
  let solverCount = 0;
  world.narrowPhase.contactPair(handle1, handle2, world.bodies, (/** @type {any} */ manifold, /** @type {boolean} */ flipped) => {
    const a = flipped ? owner2 : owner1;
    const b = flipped ? owner1 : owner2;
    const n = manifold.normal();
    const normal = [n.x, n.y, n.z];
    const raw = rawPoints(manifold, a, b, poses, now);
    const contacts = solverPoints(manifold, raw);
    solverCount += manifold.numSolverContacts();
    manifolds.push({ a, b, normal, contacts, raw });
  });
  return { manifolds, solverCount };
}

/**
 * A manifold's raw points.
 * @param {any} manifold
 * @param {number} a
 * @param {number} b
 * @param {Float64Array} poses the step's start poses
 * @param {Float64Array} now the poses now
 * @returns {RawPoint[]}
 */
function rawPoints(manifold, a, b, poses, now) {
  const raw = [];
  for (let i = 0; i < manifold.numContacts(); i++) {
    const local1 = manifold.localContactPoint1(i);
    const local2 = manifold.localContactPoint2(i);
    if (!local1 || !local2) continue;
    const l1 = [local1.x, local1.y, local1.z];
    const l2 = [local2.x, local2.y, local2.z];
    raw.push({
      at: midpoint(transform(poses, a, l1), transform(poses, b, l2)),
      now: midpoint(transform(now, a, l1), transform(now, b, l2)),
      distance: manifold.contactDist(i),
    });
  }
  return raw;
}

/**
 * A manifold's solver contacts `[x, y, z, distance]`, each at the start
 * pose of the raw point whose midpoint now is nearest its point.
 * @param {any} manifold
 * @param {RawPoint[]} raw
 */
function solverPoints(manifold, raw) {
  const contacts = [];
  const solverContacts = manifold.numSolverContacts();
  for (let i = 0; i < solverContacts; i++) {
    const point = manifold.solverContactPoint(i);
    if (!point || raw.length === 0) continue;
    let best = raw[0];
    let bestDistance = Infinity;
    for (const candidate of raw) {
      const d = Math.hypot(candidate.now[0] - point.x, candidate.now[1] - point.y, candidate.now[2] - point.z);
      if (d < bestDistance) {
        bestDistance = d;
        best = candidate;
      }
    }
    contacts.push([...best.at, manifold.solverContactDist(i)]);
  }
  return contacts;
}

/**
 * The collider descriptions of one body (see the file comment for which kind).
 * @param {Rapier} RAPIER
 * @param {any} body
 * @returns {any[]}
 */
function colliderDescriptions(RAPIER, body) {
  const kind = shapeKind(body, `Rapier cannot build body "${body.name}": it is not convex and has no convex pieces`);
  if (kind === 'hull') return [hull(RAPIER, body.vertices, body)];
  if (kind === 'mesh') {
    const description = RAPIER.ColliderDesc.trimesh(new Float32Array(body.vertices), new Uint32Array(body.triangles));
    if (!description) throw new Error(`Rapier could not build a triangle mesh of body "${body.name}"`);
    return [description];
  }
  return body.pieces.map((/** @type {number[]} */ piece) => hull(RAPIER, piece, body));
}

/**
 * A convex-hull collider description of a flat `x y z` list of points.
 * @param {Rapier} RAPIER
 * @param {number[]} points
 * @param {any} body
 */
function hull(RAPIER, points, body) {
  // Rapier accepts flat or collinear points without complaint and builds a
  // collider that never touches anything; a user would want to be told.
  const description = isSolid(points) ? RAPIER.ColliderDesc.convexHull(new Float32Array(points)) : null;
  if (!description) {
    throw new Error(`Rapier could not build a convex hull of body "${body.name}": its points are empty, collinear or coplanar`);
  }
  return description;
}

/**
 * Points within this fraction of their spread from one plane are flat: no
 * solid hull. Far above f32 round-off (1e-7), far below any real body's
 * thickness relative to its size.
 */
const FLAT_RELATIVE_TOLERANCE = 1e-6;

/**
 * Whether a flat `x y z` list of points spans a solid (is not empty,
 * collinear or coplanar).
 * @param {number[]} points
 */
function isSolid(points) {
  const count = Math.floor(points.length / 3);
  if (count < 4) return false;
  const at = (/** @type {number} */ i) => [points[3 * i], points[3 * i + 1], points[3 * i + 2]];
  const sub = (/** @type {number[]} */ p, /** @type {number[]} */ q) => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
  const cross = (/** @type {number[]} */ p, /** @type {number[]} */ q) => [
    p[1] * q[2] - p[2] * q[1],
    p[2] * q[0] - p[0] * q[2],
    p[0] * q[1] - p[1] * q[0],
  ];
  const dot = (/** @type {number[]} */ p, /** @type {number[]} */ q) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
  const origin = at(0);
  // The point farthest from the first, the one farthest from that line, then from that plane.
  let far = origin;
  for (let i = 1; i < count; i++) if (dot(sub(at(i), origin), sub(at(i), origin)) > dot(sub(far, origin), sub(far, origin))) far = at(i);
  const spread = Math.sqrt(dot(sub(far, origin), sub(far, origin)));
  if (!(spread > 0)) return false;
  const axis = sub(far, origin);
  let normal = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    const candidate = cross(axis, sub(at(i), origin));
    if (dot(candidate, candidate) > dot(normal, normal)) normal = candidate;
  }
  const normalLength = Math.sqrt(dot(normal, normal));
  if (!(normalLength > FLAT_RELATIVE_TOLERANCE * spread * spread)) return false;
  let height = 0;
  for (let i = 0; i < count; i++) height = Math.max(height, Math.abs(dot(normal, sub(at(i), origin))) / normalLength);
  return height > FLAT_RELATIVE_TOLERANCE * spread;
}

/**
 * The midpoint of two points.
 * @param {number[]} p
 * @param {number[]} q
 */
function midpoint(p, q) {
  return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2];
}

/**
 * A point of body `index`'s frame moved to the world by its pose.
 * @param {Float64Array} poses
 * @param {number} index
 * @param {number[]} local
 */
function transform(poses, index, local) {
  const p = 7 * index;
  const [x, y, z] = local;
  const qx = poses[p + 3];
  const qy = poses[p + 4];
  const qz = poses[p + 5];
  const qw = poses[p + 6];
  // v + 2 w (q × v) + 2 q × (q × v), q the vector part.
  const cx = qy * z - qz * y;
  const cy = qz * x - qx * z;
  const cz = qx * y - qy * x;
  return [
    poses[p] + x + 2 * (qw * cx + qy * cz - qz * cy),
    poses[p + 1] + y + 2 * (qw * cy + qz * cx - qx * cz),
    poses[p + 2] + z + 2 * (qw * cz + qx * cy - qy * cx),
  ];
}
