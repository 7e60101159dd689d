/**
 * @file NVIDIA PhysX 5.6.1, from the npm package physx-js-webidl@2.7.3
 * (fabmax's WebIDL bindings: `physx-js-webidl.mjs` and its separate
 * `physx-js-webidl.wasm`, single-threaded, single precision), as an engine
 * of `docs/design/engines.md`.
 *
 * Loading. The build is compiled for the web and workers only and throws in
 * Node. When `host.node`, `load` makes the factory believe it runs in a
 * worker while it runs: it hides `process.versions.node` and defines
 * `globalThis.WorkerGlobalScope` (both restored afterwards, also on failure)
 * and hands it the wasm's bytes (`host.bytes`), so it never fetches. In the
 * page's worker the factory finds the wasm through `locateFile`
 * (`host.url`).
 *
 * Bodies, as a PhysX user builds them: one `PxPhysics` with the default
 * `PxTolerancesScale` (length 1 m, speed 10 m/s), cooking with the default
 * `PxCookingParams`.
 * - A convex body is a `PxConvexMesh` cooked from its surface vertices with
 *   `eCOMPUTE_CONVEX` (the cooked hull's own vertex limit of 255 is the
 *   default; no built-in scene comes near it).
 * - A fixed non-convex body is a static `PxTriangleMesh` of its surface
 *   (our triangles are counter-clockwise seen from outside, which is
 *   PhysX's front face, so no `eFLIPNORMALS`).
 * - A free non-convex body is one `PxRigidDynamic` with one convex-mesh
 *   shape per convex piece.
 * Fixed bodies are `PxRigidStatic`s, free bodies `PxRigidDynamic`s; every
 * shape is an exclusive simulation shape with the default contact offset
 * (0.02 m) and rest offset (0), and the scene keeps its default flags (PCM
 * contact generation on, no CCD) and broad phase.
 *
 * Contacts. The contact report of the scene's simulation event callback
 * gives, per shape pair, points with a world `position`, a `normal` that
 * points from shape 1 to shape 0 and a `separation` (< 0 overlapping).
 * With body a the body of shape 0 and b that of shape 1 (swapped so that
 * a < b), the normal from a to b is minus PhysX's and the depth is the
 * separation as it is. PhysX gives one point per contact, not one on each
 * surface: it is reported as given (with PCM it lies on the surface of
 * shape 1). Because of the contact offsets PhysX also reports pairs up to
 * 0.04 m apart (positive depths): that is its default and is kept.
 * Contacts are returned sorted by body pair (a, b); within a pair in
 * PhysX's order. Two fixed bodies never make a pair in PhysX.
 *
 * Deviations from the defaults, each for a reason:
 * - A pass-through filter shader that raises PhysX's default pair flags
 *   (`eSOLVE_CONTACT | eDETECT_DISCRETE_CONTACT`, what the default filter
 *   shader sets) by the notification flags `eNOTIFY_TOUCH_FOUND`,
 *   `eNOTIFY_TOUCH_PERSISTS` and `eNOTIFY_CONTACT_POINTS`: without them
 *   PhysX reports no contacts. It changes no contact.
 * - Our-pose mode (`contactsAt`): free bodies are dynamic actors put at the
 *   pose with zero velocity and woken, then the scene is simulated for one
 *   step whose integration the next call overwrites. PhysX's PCM keeps a
 *   persistent manifold per pair from frame to frame, so before each call
 *   the adapter re-runs the filtering of every free actor
 *   (`PxScene::resetFiltering`), which drops its pairs and their caches:
 *   each call's contacts are those of a first frame at that pose, whatever
 *   came before. Checked bit for bit against a new world along paths of
 *   small motions; those paths gave the same bits without the reset too
 *   (teleporting with `setGlobalPose` seems to refresh the manifolds), but
 *   that is not documented behaviour, so the reset stays (it about doubles
 *   the time of a call).
 * - Own mode (`ownStep`): the mass is ours (`setMass`), and our full
 *   inertia tensor is given as PhysX takes it: its principal moments
 *   (`setMassSpaceInertiaTensor`) and the rotation to its principal axes
 *   (`setCMassLocalPose`, whose position stays at the body origin, our
 *   centre of mass); this is exact, PhysX computes the diagonalisation
 *   (`PxMassProperties::getMassSpaceInertia`, in single precision).
 *   Friction (static and dynamic) is `scene.friction`, restitution 0.
 *   Everything else is PhysX's default, which a user sees: 4 position and
 *   1 velocity iteration, the PGS solver with patch friction, angular
 *   damping 0.05 (linear 0), a maximum angular velocity of 100 rad/s, and
 *   sleeping. Once an island of bodies sleeps PhysX runs no collision
 *   detection for it, so `ownStep` then reports no contacts for its pairs:
 *   that is what the engine used.
 *
 * Limitations: single precision throughout (positions, normals, depths
 * about 1e-7 relative); the hull is PhysX's cooked hull of the vertices,
 * which may merge nearly coplanar faces (its plane tolerance 0.0007 m).
 * PhysX finds no contact at all when a vertex exactly touches an edge in
 * a first frame (the Spike-wedge's initial pose: none at gaps 0 and 1 mm,
 * one at 1 cm, three once the tip is 1 mm inside): that is PhysX's answer
 * and is reported as such.
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

const WASM = 'physx-js-webidl/physx-js-webidl.wasm';

/** @type {import('./common.js').EngineWords} */
const WORDS = {
  name: 'PhysX',
  unknownMode: (mode) => `PhysX has no mode "${mode}" (it runs "ours" or "own").`,
  notOurs: 'This PhysX world runs its own simulation; it takes no poses.',
  notOwn: 'This PhysX world computes contacts at given poses; it does not run its own simulation.',
};

/**
 * Loads the PhysX module.
 * @param {{node: boolean, import: (path: string) => Promise<any>, url: (path: string) => string, bytes: (path: string) => Promise<Uint8Array>}} host
 * @returns {Promise<any>} the PhysX module
 */
export async function load(host) {
  const { default: PhysX } = await host.import('physx-js-webidl/physx-js-webidl.mjs');
  if (!host.node) return PhysX({ locateFile: () => host.url(WASM) });
  const wasmBinary = await host.bytes(WASM);
  // The build refuses Node; it runs there as it does in a worker once it
  // cannot see Node and can see a worker, for as long as the factory runs.
  const versions = Object.getOwnPropertyDescriptor(process, 'versions');
  const hadWorkerScope = Object.prototype.hasOwnProperty.call(globalThis, 'WorkerGlobalScope');
  Object.defineProperty(process, 'versions', {
    value: { ...process.versions, node: undefined },
    configurable: true,
    enumerable: versions?.enumerable ?? true,
    writable: false,
  });
  if (!hadWorkerScope) globalThis.WorkerGlobalScope = function WorkerGlobalScope() {};
  try {
    return await PhysX({ wasmBinary });
  } finally {
    if (versions) Object.defineProperty(process, 'versions', versions);
    if (!hadWorkerScope) delete globalThis.WorkerGlobalScope;
  }
}

/**
 * PhysX allows one foundation per process: the foundation and the physics
 * object are made once per module and shared by its worlds, counted.
 * @type {WeakMap<object, {foundation: any, physics: any, tolerances: any, cooking: any, allocator: any, errors: any, users: number}>}
 */
const sdks = new WeakMap();

/** @param {any} px */
function acquireSdk(px) {
  let sdk = sdks.get(px);
  if (!sdk) {
    const top = px.PxTopLevelFunctions.prototype;
    const version = top.get_PHYSICS_VERSION();
    const allocator = new px.PxDefaultAllocator();
    const errors = new px.PxDefaultErrorCallback();
    const foundation = top.CreateFoundation(version, allocator, errors);
    if (!foundation || px.getPointer(foundation) === 0) throw new Error('PhysX could not start (its foundation was not created).');
    const tolerances = new px.PxTolerancesScale();
    const physics = top.CreatePhysics(version, foundation, tolerances);
    if (!physics || px.getPointer(physics) === 0) throw new Error('PhysX could not start (its physics object was not created).');
    const cooking = new px.PxCookingParams(tolerances);
    sdk = { foundation, physics, tolerances, cooking, allocator, errors, users: 0 };
    sdks.set(px, sdk);
  }
  sdk.users += 1;
  return sdk;
}

/** @param {any} px */
function releaseSdk(px) {
  const sdk = sdks.get(px);
  if (!sdk) return;
  sdk.users -= 1;
  if (sdk.users > 0) return;
  sdks.delete(px);
  sdk.physics.release();
  sdk.foundation.release();
  for (const object of [sdk.cooking, sdk.tolerances, sdk.errors, sdk.allocator]) px.destroy(object);
}

/**
 * Whether PhysX returned no object (the bindings wrap a null pointer).
 * @param {any} px
 * @param {any} object
 */
function isNull(px, object) {
  return !object || px.getPointer(object) === 0;
}

/**
 * PhysX's points of a flat `x y z` list, in a `PxArray_PxVec3` the caller destroys.
 * @param {any} px
 * @param {ArrayLike<number>} flat
 */
function pointArray(px, flat) {
  const points = new px.PxArray_PxVec3();
  const point = new px.PxVec3(0, 0, 0);
  for (let i = 0; i + 2 < flat.length; i += 3) {
    point.x = flat[i];
    point.y = flat[i + 1];
    point.z = flat[i + 2];
    points.pushBack(point);
  }
  px.destroy(point);
  return points;
}

/**
 * @param {any} px
 * @param {any} sdk
 * @param {ArrayLike<number>} flat
 * @param {string} what e.g. `body "plinth"`
 */
function convexMesh(px, sdk, flat, what) {
  if (flat.length < 12) throw new Error(`PhysX could not build a convex hull of ${what}: it has fewer than 4 vertices.`);
  const points = pointArray(px, flat);
  const desc = new px.PxConvexMeshDesc();
  const flags = new px.PxConvexFlags(px.PxConvexFlagEnum.eCOMPUTE_CONVEX);
  try {
    desc.points.count = points.size();
    desc.points.stride = 12;
    desc.points.data = points.begin();
    desc.flags = flags;
    const mesh = px.PxTopLevelFunctions.prototype.CreateConvexMesh(sdk.cooking, desc);
    if (isNull(px, mesh)) throw new Error(`PhysX could not build a convex hull of ${what}: its cooking failed (are the vertices flat or all in one place?).`);
    return mesh;
  } finally {
    px.destroy(flags);
    px.destroy(desc);
    px.destroy(points);
  }
}

/**
 * @param {any} px
 * @param {any} sdk
 * @param {{name: string, vertices: number[], triangles: number[]}} body
 * @param {string} what
 */
function triangleMesh(px, sdk, body, what) {
  checkTriangles(body, 'PhysX');
  const points = pointArray(px, body.vertices);
  const indices = new px.PxArray_PxU32();
  for (const index of body.triangles) indices.pushBack(index);
  const desc = new px.PxTriangleMeshDesc();
  try {
    desc.points.count = points.size();
    desc.points.stride = 12;
    desc.points.data = points.begin();
    desc.triangles.count = body.triangles.length / 3;
    desc.triangles.stride = 12;
    desc.triangles.data = indices.begin();
    const mesh = px.PxTopLevelFunctions.prototype.CreateTriangleMesh(sdk.cooking, desc);
    if (isNull(px, mesh)) throw new Error(`PhysX could not build a triangle mesh of ${what}: its cooking failed.`);
    return mesh;
  } finally {
    px.destroy(desc);
    px.destroy(indices);
    px.destroy(points);
  }
}

/**
 * Builds the scene in PhysX.
 * @param {any} px the module from `load`
 * @param {any} scene the engine scene (`docs/design/engines.md`)
 * @param {'ours' | 'own'} mode
 */
export function create(px, scene, mode) {
  return engineWorld(WORDS, scene, mode, (teardown) => physxWorld(px, scene, mode, teardown));
}

/**
 * PhysX's transform and vector scratch values, set in place and handed to
 * its calls.
 * @typedef {{
 *   vec: any,
 *   setVec: (x: number, y: number, z: number) => any,
 *   setTransform: (p: ArrayLike<number>, at: number) => any,
 * }} Scratch
 */

/**
 * The scene in PhysX, its objects made in the order the teardown list
 * undoes, and the steps of both modes.
 * @param {any} px
 * @param {any} scene
 * @param {'ours' | 'own'} mode
 * @param {import('./common.js').Teardown} teardown
 * @returns {import('./common.js').EngineSteps}
 */
function physxWorld(px, scene, mode, teardown) {
  const bodies = scene.bodies;
  const sdk = acquireSdk(px);
  teardown.push(() => releaseSdk(px));
  const scratch = scratchValues(px, teardown);
  const material = sdk.physics.createMaterial(scene.friction, scene.friction, 0);
  teardown.push(() => material.release());
  const report = contactReport(px, teardown);
  const world = physxScene(px, sdk, scene, report.callback, scratch, teardown);
  const shapeFlags = new px.PxShapeFlags(px.PxShapeFlagEnum.eSCENE_QUERY_SHAPE | px.PxShapeFlagEnum.eSIMULATION_SHAPE);
  teardown.push(() => px.destroy(shapeFlags));
  const actors = bodies.map((/** @type {any} */ body, /** @type {number} */ index) => {
    const { actor, shapes } = makeActor(px, sdk, body, { material, shapeFlags, scratch, teardown });
    for (const shape of shapes) report.bodyOfShape.set(px.getPointer(shape), index);
    if (!body.fixed && mode === 'own') {
      actor.setLinearVelocity(scratch.setVec(body.velocity[0], body.velocity[1], body.velocity[2]), true);
      actor.setAngularVelocity(scratch.setVec(body.angularVelocity[0], body.angularVelocity[1], body.angularVelocity[2]), true);
    }
    world.addActor(actor);
    return actor;
  });
  const fixed = bodies.map((/** @type {any} */ body) => Boolean(body.fixed));

  /** One step of the scene's time step; its contacts, sorted by body pair. */
  const step = () => {
    report.take();
    world.simulate(scene.dt);
    world.fetchResults(true);
    return contactsByPair(report.take());
  };
  return {
    contactsAt(poses) {
      actors.forEach((actor, i) => placeActor(world, actor, fixed[i], poses, i, scratch));
      return step();
    },
    ownStep() {
      const poses = posesOf(actors.length, (i) => {
        const pose = actors[i].getGlobalPose();
        const p = pose.p;
        const q = pose.q;
        return [p.x, p.y, p.z, q.x, q.y, q.z, q.w];
      });
      return { poses, contacts: step() };
    },
  };
}

/**
 * The scratch values, freed by the teardown list.
 * @param {any} px
 * @param {import('./common.js').Teardown} teardown
 * @returns {Scratch}
 */
function scratchValues(px, teardown) {
  const vec = new px.PxVec3(0, 0, 0);
  const quat = new px.PxQuat(0, 0, 0, 1);
  const transform = new px.PxTransform(vec, quat);
  teardown.push(() => [vec, quat, transform].forEach((object) => px.destroy(object)));
  return {
    vec,
    setVec: (x, y, z) => {
      vec.x = x;
      vec.y = y;
      vec.z = z;
      return vec;
    },
    setTransform: (p, at) => {
      const position = transform.p;
      position.x = p[at];
      position.y = p[at + 1];
      position.z = p[at + 2];
      const rotation = transform.q;
      rotation.x = p[at + 3];
      rotation.y = p[at + 4];
      rotation.z = p[at + 5];
      rotation.w = p[at + 6];
      return transform;
    },
  };
}

/**
 * The scene's simulation event callback, whose contact report collects
 * each shape pair's points during `fetchResults`; `take()` hands over what
 * it collected and starts afresh. `bodyOfShape` (shape pointer → body
 * index) is filled as the shapes are made.
 * @param {any} px
 * @param {import('./common.js').Teardown} teardown
 */
function contactReport(px, teardown) {
  /** @type {Map<number, number>} */
  const bodyOfShape = new Map();
  /** @type {Array<{a: number, b: number, values: number[]}>} */
  let reported = [];
  const buffer = { points: new px.Vector_PxContactPairPoint(64), capacity: 64 };
  teardown.push(() => px.destroy(buffer.points));
  const helpers = px.NativeArrayHelpers.prototype;
  const callback = new px.PxSimulationEventCallbackImpl();
  callback.onConstraintBreak = () => {};
  callback.onWake = () => {};
  callback.onSleep = () => {};
  callback.onTrigger = () => {};
  callback.onContact = (/** @type {any} */ _header, /** @type {number} */ pairs, /** @type {number} */ pairCount) => {
    const first = px.wrapPointer(pairs, px.PxContactPair);
    for (let i = 0; i < pairCount; i++) {
      const pair = readPair(px, helpers.getContactPairAt(first, i), bodyOfShape, buffer);
      if (pair) reported.push(pair);
    }
  };
  teardown.push(() => px.destroy(callback));
  return {
    callback,
    bodyOfShape,
    take: () => {
      const taken = reported;
      reported = [];
      return taken;
    },
  };
}

/**
 * One shape pair's contacts in our convention, or null when it has none.
 * @param {any} px
 * @param {any} pair a `PxContactPair`
 * @param {Map<number, number>} bodyOfShape
 * @param {{points: any, capacity: number}} buffer grown when a pair has more points
 */
function readPair(px, pair, bodyOfShape, buffer) {
  const count = pair.contactCount;
  if (count === 0) return null;
  const body0 = bodyOfShape.get(px.getPointer(pair.get_shapes(0)));
  const body1 = bodyOfShape.get(px.getPointer(pair.get_shapes(1)));
  if (body0 === undefined || body1 === undefined) return null;
  if (count > buffer.capacity) {
    px.destroy(buffer.points);
    buffer.capacity = count;
    buffer.points = new px.Vector_PxContactPairPoint(buffer.capacity);
  }
  const extracted = pair.extractContacts(buffer.points.data(), buffer.capacity);
  // PhysX's normal points from shape 1 to shape 0.
  const { a, b, sign } = pairFromSecond(body0, body1);
  const values = [];
  for (let j = 0; j < extracted; j++) {
    const point = buffer.points.at(j);
    const p = point.position;
    const n = point.normal;
    values.push(a, b, p.x, p.y, p.z, sign * n.x, sign * n.y, sign * n.z, point.separation);
  }
  return { a, b, values };
}

/**
 * The PhysX scene: gravity, a CPU dispatcher, the contact report's
 * callback and a pass-through filter shader that asks for the reports.
 * @param {any} px
 * @param {any} sdk
 * @param {any} scene
 * @param {any} callback
 * @param {Scratch} scratch
 * @param {import('./common.js').Teardown} teardown
 */
function physxScene(px, sdk, scene, callback, scratch, teardown) {
  const shader = new px.PassThroughFilterShaderImpl();
  const pairFlags = px.PxPairFlagEnum.eSOLVE_CONTACT | px.PxPairFlagEnum.eDETECT_DISCRETE_CONTACT
    | px.PxPairFlagEnum.eNOTIFY_TOUCH_FOUND | px.PxPairFlagEnum.eNOTIFY_TOUCH_PERSISTS
    | px.PxPairFlagEnum.eNOTIFY_CONTACT_POINTS;
  shader.filterShader = () => {
    shader.outputPairFlags = pairFlags;
    return px.PxFilterFlagEnum.eDEFAULT;
  };
  teardown.push(() => px.destroy(shader));
  const top = px.PxTopLevelFunctions.prototype;
  const dispatcher = top.DefaultCpuDispatcherCreate(0);
  // The bindings expose no release(); its virtual destructor is what release() ends in.
  teardown.push(() => px.destroy(dispatcher));
  const sceneDesc = new px.PxSceneDesc(sdk.tolerances);
  sceneDesc.gravity = scratch.setVec(scene.gravity[0], scene.gravity[1], scene.gravity[2]);
  sceneDesc.cpuDispatcher = dispatcher;
  sceneDesc.simulationEventCallback = callback;
  top.setupPassThroughFilterShader(sceneDesc, shader);
  const world = sdk.physics.createScene(sceneDesc);
  px.destroy(sceneDesc);
  if (isNull(px, world)) throw new Error('PhysX could not create its scene.');
  teardown.push(() => world.release());
  return world;
}

/**
 * One body's actor with its shapes and, when free, our mass properties
 * (not yet in the scene).
 * @param {any} px
 * @param {any} sdk
 * @param {any} body
 * @param {{material: any, shapeFlags: any, scratch: Scratch, teardown: import('./common.js').Teardown}} made
 * @returns {{actor: any, shapes: any[]}}
 */
function makeActor(px, sdk, body, { material, shapeFlags, scratch, teardown }) {
  const what = `body "${body.name}"`;
  const initial = [...body.position, ...body.rotation];
  const geometries = bodyGeometries(px, sdk, body, what, teardown);
  const actor = body.fixed
    ? sdk.physics.createRigidStatic(scratch.setTransform(initial, 0))
    : sdk.physics.createRigidDynamic(scratch.setTransform(initial, 0));
  if (isNull(px, actor)) throw new Error(`PhysX could not create ${what}.`);
  teardown.push(() => actor.release());
  const shapes = geometries.map((geometry) => {
    const shape = px.PxRigidActorExt.prototype.createExclusiveShape(actor, geometry, material, shapeFlags);
    px.destroy(geometry);
    if (isNull(px, shape)) throw new Error(`PhysX could not give ${what} its shape.`);
    return shape;
  });
  if (!body.fixed) setMassProperties(px, actor, body, scratch);
  return { actor, shapes };
}

/**
 * The geometries of a body's shapes (see the file comment for which kind),
 * their meshes released by the teardown list.
 * @param {any} px
 * @param {any} sdk
 * @param {any} body
 * @param {string} what
 * @param {import('./common.js').Teardown} teardown
 * @returns {any[]}
 */
function bodyGeometries(px, sdk, body, what, teardown) {
  /** @param {any} mesh */
  const kept = (mesh) => {
    teardown.push(() => mesh.release());
    return mesh;
  };
  const kind = shapeKind(body, `PhysX cannot collide ${what}: it is not convex and has no convex pieces.`);
  if (kind === 'hull') return [new px.PxConvexMeshGeometry(kept(convexMesh(px, sdk, body.vertices, what)))];
  if (kind === 'mesh') return [new px.PxTriangleMeshGeometry(kept(triangleMesh(px, sdk, body, what)))];
  return body.pieces.map((/** @type {number[]} */ piece, /** @type {number} */ p) =>
    new px.PxConvexMeshGeometry(kept(convexMesh(px, sdk, piece, `piece ${p + 1} of ${what}`))));
}

/**
 * Our mass, and our inertia tensor as its principal moments and axes.
 * @param {any} px
 * @param {any} actor
 * @param {any} body
 * @param {Scratch} scratch
 */
function setMassProperties(px, actor, body, scratch) {
  checkMassProperties(body, 'PhysX');
  const I = body.inertia;
  actor.setMass(body.mass);
  // The tensor is symmetric: its rows are its columns.
  const col0 = new px.PxVec3(I[0], I[3], I[6]);
  const col1 = new px.PxVec3(I[1], I[4], I[7]);
  const col2 = new px.PxVec3(I[2], I[5], I[8]);
  const tensor = new px.PxMat33(col0, col1, col2);
  const axes = new px.PxQuat(0, 0, 0, 1);
  const moments = px.PxMassProperties.prototype.getMassSpaceInertia(tensor, axes);
  const principal = [moments.x, moments.y, moments.z];
  scratch.setVec(0, 0, 0);
  const massFrame = new px.PxTransform(scratch.vec, axes);
  actor.setCMassLocalPose(massFrame);
  actor.setMassSpaceInertiaTensor(scratch.setVec(principal[0], principal[1], principal[2]));
  for (const object of [col0, col1, col2, tensor, axes, massFrame]) px.destroy(object);
  checkMoments(principal, body, 'PhysX');
}

/**
 * Puts one actor at its pose in `poses` for a step at our pose: a free one
 * at rest, awake and without the pair caches (PCM's persistent manifolds)
 * of earlier calls; a fixed one only when it is elsewhere.
 * @param {any} world
 * @param {any} actor
 * @param {boolean} fixed
 * @param {Float64Array} poses
 * @param {number} i
 * @param {Scratch} scratch
 */
function placeActor(world, actor, fixed, poses, i, scratch) {
  if (fixed) {
    const pose = actor.getGlobalPose();
    const p = pose.p;
    const q = pose.q;
    if (!atSinglePose([p.x, p.y, p.z, q.x, q.y, q.z, q.w], poses, i)) actor.setGlobalPose(scratch.setTransform(poses, i * 7), true);
    return;
  }
  actor.setGlobalPose(scratch.setTransform(poses, i * 7), true);
  actor.setLinearVelocity(scratch.setVec(0, 0, 0), true);
  actor.setAngularVelocity(scratch.setVec(0, 0, 0), true);
  actor.wakeUp();
  world.resetFiltering(actor);
}
