/**
 * @file The Jolt Physics engine (npm `jolt-physics@1.1.0`, the
 * JoltPhysics.js WebAssembly build, single precision) as a contact source
 * (`docs/design/engines.md`).
 *
 * Loading: the single-threaded `jolt-physics/wasm` build
 * (`dist/jolt-physics.wasm.js`) with its separate `jolt-physics.wasm.wasm`,
 * found through `host.url`; not the `wasm-compat` build, which inlines the
 * same binary as base64 and is larger to serve, nor the multithreaded ones,
 * which need SharedArrayBuffer.
 *
 * Bodies, as a Jolt user builds them:
 * - a convex body is a `ConvexHullShape` of its surface vertices, with
 *   Jolt's defaults (no convex radius for hulls: the hull is exact; hull
 *   tolerance 1 mm);
 * - a fixed non-convex body is a static `MeshShape` of its triangles;
 * - a free non-convex body is a `StaticCompoundShape` of one hull per
 *   convex piece;
 * - fixed bodies are `Static`, the others `Dynamic`. Two object layers
 *   (static, moving) with static–moving and moving–moving enabled, the
 *   setup every Jolt example uses; so two fixed bodies are never tested.
 * The body's origin is our centre of mass frame: `SetPositionAndRotation`
 * places that origin, and Jolt keeps its own centre of mass relative to it.
 *
 * Contacts at our pose (`contactsAt`): every body is teleported to the pose
 * with zero velocity and one `Step(dt, 1)` runs; its narrow phase reports
 * each body pair's manifold to a contact listener (`OnContactAdded` and
 * `OnContactPersisted`) before anything moves. The integrated poses are
 * thrown away: the next call sets the poses again. History that would make
 * the answer depend on earlier calls is cleared before each step:
 * `InvalidateContactCache` on every moving body (Jolt would otherwise reuse
 * last frame's manifold for a pair that moved less than 1 mm / 2°), and
 * `ResetSleepTimer` (a body that fell asleep after 0.5 s of calls would
 * stop being tested). Neither changes a setting. Jolt visits the body pairs
 * in an order that depends on its broad phase's past, so the contacts are
 * returned sorted (by body pair, then point), in both modes.
 *
 * Conventions translated: Jolt's `mWorldSpaceNormal` points from body 1 to
 * body 2 (the way body 2 must move out), so `a` = body 1, `b` = body 2 and
 * the normal is kept. Jolt gives each manifold point on both surfaces
 * (`GetWorldSpaceContactPointOn1/On2`) and one `mPenetrationDepth` for the
 * whole manifold (> 0 overlapping); we report per point the midpoint of the
 * two points and the signed distance `(on2 − on1)·n`, negative when
 * overlapping, which is the per-point distance Jolt's contact constraint
 * uses. Each body pair comes once (Jolt orders body 1 and body 2 itself).
 * Speculative contacts (gap up to Jolt's `mSpeculativeContactDistance`,
 * 2 cm by default) are reported like the others, with positive depth.
 *
 * Own run (`ownStep`): bodies start at the scene's position, rotation,
 * velocity and angular velocity, with gravity `scene.gravity`, friction
 * `scene.friction` on every body (Jolt combines two frictions by their
 * geometric mean, so a pair gets the same value) and restitution 0 (Jolt's
 * default). Mass properties are ours: `MassAndInertiaProvided` with our mass
 * and full inertia tensor (Jolt diagonalises it itself), and the shape is
 * wrapped in an `OffsetCenterOfMassShape` that moves Jolt's computed centre
 * of mass onto our origin, since our inertia is about that point (for a
 * hull the shift is round-off; for a compound of overlapping pieces it is
 * real). Each call records the poses, runs `Step(dt, 1)` and returns the
 * contacts the listener saw during it, which the solver used; here Jolt's
 * contact cache, warm starting and sleeping stay on, as a user has them, so
 * once bodies fall asleep (after 0.5 s nearly at rest) their pairs give no
 * contacts until something wakes them.
 *
 * Deviations from Jolt's defaults: none in the settings. Jolt's default
 * linear and angular damping (0.05 each) stays on in the own run, as a user
 * gets it; our simulation has none, so a spinning or rolling body slows a
 * little faster in Jolt's run.
 *
 * Limitations: Jolt is float32, so points and depths carry ~1e-7 relative
 * round-off (a touching pair gives depth ≈ ±1e-7, not 0). Manifolds are
 * reduced to at most 4 points, and coplanar manifolds of one body pair
 * (two triangles of a mesh, two pieces of a compound) are merged by Jolt.
 */

import { engineWorld, posesOf, shapeKind, sortedContacts } from './common.js';

/** @typedef {any} Jolt the module returned by `load` */

const PACKAGE_MODULE = 'jolt-physics/dist/jolt-physics.wasm.js';
const PACKAGE_WASM = 'jolt-physics/dist/jolt-physics.wasm.wasm';

/** Object layers: fixed bodies and moving bodies. */
const LAYER_FIXED = 0;
const LAYER_MOVING = 1;

/** @type {import('./common.js').EngineWords} */
const WORDS = {
  name: 'Jolt',
  unknownMode: (mode) => `Jolt cannot run in mode "${mode}"`,
  notOurs: 'this Jolt world runs its own simulation; contacts at our pose need mode "ours"',
  notOwn: 'this Jolt world gives contacts at our pose; its own run needs mode "own"',
};

/**
 * Loads the Jolt module.
 * @param {{ import(path: string): Promise<any>, url(path: string): string }} host
 * @returns {Promise<Jolt>}
 */
export async function load(host) {
  const factory = (await host.import(PACKAGE_MODULE)).default;
  const wasmUrl = host.url(PACKAGE_WASM);
  return factory({ locateFile: () => wasmUrl });
}

/**
 * Builds the scene in a new Jolt physics system.
 * @param {Jolt} Jolt
 * @param {any} scene the engine scene (`contactlab-engine-scene/1`)
 * @param {'ours' | 'own'} mode
 */
export function create(Jolt, scene, mode) {
  return engineWorld(WORDS, scene, mode, (teardown) => joltWorld(Jolt, scene, mode === 'own', teardown));
}

/**
 * Values reused by every call, so a long run allocates nothing per step.
 * @typedef {{vec: any, rvec: any, quat: any}} Scratch
 */

/**
 * The physics system, its contact listener and its bodies, made in that
 * order (the teardown list frees them the other way round), and the steps
 * of both modes.
 * @param {Jolt} Jolt
 * @param {any} scene
 * @param {boolean} own
 * @param {import('./common.js').Teardown} teardown
 * @returns {import('./common.js').EngineSteps}
 */
function joltWorld(Jolt, scene, own, teardown) {
  const bodies = scene.bodies;
  const { jolt, system, bodyInterface } = physicsSystem(Jolt, teardown);
  /** @type {Scratch} */
  const scratch = { vec: new Jolt.Vec3(0, 0, 0), rvec: new Jolt.RVec3(0, 0, 0), quat: new Jolt.Quat(0, 0, 0, 1) };
  teardown.push(() => {
    for (const value of [scratch.vec, scratch.rvec, scratch.quat]) Jolt.destroy(value);
  });
  scratch.vec.Set(scene.gravity[0], scene.gravity[1], scene.gravity[2]);
  system.SetGravity(scratch.vec);
  /** @type {Map<number, number>} Jolt's index-and-sequence number → scene index */
  const sceneIndex = new Map();
  const found = contactListener(Jolt, system, bodies, sceneIndex, teardown);
  const ids = addBodies(Jolt, bodyInterface, scene, own, scratch, sceneIndex, teardown);

  /** Runs one step and returns the contacts its narrow phase reported, in canonical order. */
  const step = () => {
    found.length = 0;
    jolt.Step(scene.dt, 1);
    // Jolt visits body pairs in an order that follows its broad phase's history.
    const contacts = sortedContacts(found);
    found.length = 0;
    return contacts;
  };
  return {
    contactsAt(poses) {
      placeAt(Jolt, bodyInterface, ids, bodies, poses, scratch);
      return step();
    },
    ownStep() {
      const poses = posesOf(ids.length, (index) => {
        const position = bodyInterface.GetPosition(ids[index]);
        const [x, y, z] = [position.GetX(), position.GetY(), position.GetZ()];
        const rotation = bodyInterface.GetRotation(ids[index]);
        return [x, y, z, rotation.GetX(), rotation.GetY(), rotation.GetZ(), rotation.GetW()];
      });
      return { poses, contacts: step() };
    },
  };
}

/**
 * A Jolt interface with two object layers (static, moving) and
 * static–moving and moving–moving collisions enabled, the setup every Jolt
 * example uses.
 * @param {Jolt} Jolt
 * @param {import('./common.js').Teardown} teardown
 */
function physicsSystem(Jolt, teardown) {
  const settings = new Jolt.JoltSettings();
  const layerPairs = new Jolt.ObjectLayerPairFilterTable(2);
  layerPairs.EnableCollision(LAYER_FIXED, LAYER_MOVING);
  layerPairs.EnableCollision(LAYER_MOVING, LAYER_MOVING);
  const broadPhaseLayers = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
  broadPhaseLayers.MapObjectToBroadPhaseLayer(LAYER_FIXED, new Jolt.BroadPhaseLayer(0));
  broadPhaseLayers.MapObjectToBroadPhaseLayer(LAYER_MOVING, new Jolt.BroadPhaseLayer(1));
  settings.mObjectLayerPairFilter = layerPairs;
  settings.mBroadPhaseLayerInterface = broadPhaseLayers;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(broadPhaseLayers, 2, layerPairs, 2);
  // The interface owns the layer tables from here on and deletes them with itself.
  const jolt = new Jolt.JoltInterface(settings);
  Jolt.destroy(settings);
  teardown.push(() => Jolt.destroy(jolt));
  const system = jolt.GetPhysicsSystem();
  return { jolt, system, bodyInterface: system.GetBodyInterface() };
}

/**
 * Listens to the system's narrow phase: every manifold it reports
 * (`OnContactAdded`, `OnContactPersisted`) is appended to the returned
 * list, 9 numbers a contact, which the caller empties.
 * @param {Jolt} Jolt
 * @param {any} system
 * @param {any[]} bodies
 * @param {Map<number, number>} sceneIndex
 * @param {import('./common.js').Teardown} teardown
 * @returns {number[]}
 */
function contactListener(Jolt, system, bodies, sceneIndex, teardown) {
  /** @type {number[]} */
  const found = [];
  const listener = new Jolt.ContactListenerJS();
  listener.OnContactValidate = () => Jolt.ValidateResult_AcceptAllContactsForThisBodyPair;
  listener.OnContactRemoved = () => {};
  /** @param {number} body1 @param {number} body2 @param {number} manifoldPointer */
  const record = (body1, body2, manifoldPointer) => {
    const a = sceneIndex.get(Jolt.wrapPointer(body1, Jolt.Body).GetID().GetIndexAndSequenceNumber());
    const b = sceneIndex.get(Jolt.wrapPointer(body2, Jolt.Body).GetID().GetIndexAndSequenceNumber());
    if (a === undefined || b === undefined) return;
    if (bodies[a].fixed && bodies[b].fixed) return;
    recordManifold(Jolt.wrapPointer(manifoldPointer, Jolt.ContactManifold), a, b, found);
  };
  listener.OnContactAdded = record;
  listener.OnContactPersisted = record;
  system.SetContactListener(listener);
  teardown.push(() => {
    system.SetContactListener(null);
    Jolt.destroy(listener);
  });
  return found;
}

/**
 * Appends a manifold's points to `found`: per point the midpoint of its
 * points on the two bodies and their signed distance along the normal.
 * @param {any} manifold
 * @param {number} a
 * @param {number} b
 * @param {number[]} found
 */
function recordManifold(manifold, a, b, found) {
  const normal = manifold.mWorldSpaceNormal;
  const nx = normal.GetX();
  const ny = normal.GetY();
  const nz = normal.GetZ();
  const count = manifold.mRelativeContactPointsOn1.size();
  for (let i = 0; i < count; i++) {
    const on1 = manifold.GetWorldSpaceContactPointOn1(i);
    const x1 = on1.GetX();
    const y1 = on1.GetY();
    const z1 = on1.GetZ();
    const on2 = manifold.GetWorldSpaceContactPointOn2(i);
    const x2 = on2.GetX();
    const y2 = on2.GetY();
    const z2 = on2.GetZ();
    const distance = (x2 - x1) * nx + (y2 - y1) * ny + (z2 - z1) * nz;
    found.push(a, b, (x1 + x2) / 2, (y1 + y2) / 2, (z1 + z2) / 2, nx, ny, nz, distance);
  }
}

/**
 * Creates and adds the scene's bodies; the list of their ids (scene
 * order) grows as they are added, and the teardown removes those there are.
 * @param {Jolt} Jolt
 * @param {any} bodyInterface
 * @param {any} scene
 * @param {boolean} own
 * @param {Scratch} scratch
 * @param {Map<number, number>} sceneIndex filled here
 * @param {import('./common.js').Teardown} teardown
 */
function addBodies(Jolt, bodyInterface, scene, own, scratch, sceneIndex, teardown) {
  /** @type {any[]} Jolt body ids in scene order */
  const ids = [];
  teardown.push(() => {
    for (const id of ids) {
      bodyInterface.RemoveBody(id);
      bodyInterface.DestroyBody(id);
    }
  });
  scene.bodies.forEach((/** @type {any} */ body, /** @type {number} */ index) => {
    const id = createBody(Jolt, bodyInterface, scene, body, own, scratch);
    bodyInterface.AddBody(id, body.fixed ? Jolt.EActivation_DontActivate : Jolt.EActivation_Activate);
    ids.push(id);
    sceneIndex.set(id.GetIndexAndSequenceNumber(), index);
  });
  return ids;
}

/**
 * Creates one body at its scene pose and returns its id.
 * @param {Jolt} Jolt
 * @param {any} bodyInterface
 * @param {any} scene
 * @param {any} body
 * @param {boolean} own
 * @param {Scratch} scratch
 */
function createBody(Jolt, bodyInterface, scene, body, own, scratch) {
  const { shape, shapeSettings } = buildShape(Jolt, body, own);
  scratch.rvec.Set(body.position[0], body.position[1], body.position[2]);
  scratch.quat.Set(body.rotation[0], body.rotation[1], body.rotation[2], body.rotation[3]);
  const creation = new Jolt.BodyCreationSettings(
    shape,
    scratch.rvec,
    scratch.quat,
    body.fixed ? Jolt.EMotionType_Static : Jolt.EMotionType_Dynamic,
    body.fixed ? LAYER_FIXED : LAYER_MOVING,
  );
  if (own) ownRunSettings(Jolt, creation, scene, body, scratch.vec);
  const created = bodyInterface.CreateBody(creation);
  Jolt.destroy(creation);
  // The body holds the shape now; dropping the settings' count to zero deletes them
  // (and the pieces' settings they hold), not the shape.
  shapeSettings.AddRef();
  shapeSettings.Release();
  if (!created || Jolt.getPointer(created) === 0) {
    throw new Error(`Jolt could not create body "${body.name}": it has no room for more bodies`);
  }
  return created.GetID();
}

/**
 * The own run's friction and restitution, and a free body's mass
 * properties (ours) and initial velocities.
 * @param {Jolt} Jolt
 * @param {any} creation the body's creation settings
 * @param {any} scene
 * @param {any} body
 * @param {any} vec scratch
 */
function ownRunSettings(Jolt, creation, scene, body, vec) {
  creation.mFriction = scene.friction;
  creation.mRestitution = 0;
  if (body.fixed) return;
  creation.mOverrideMassProperties = Jolt.EOverrideMassProperties_MassAndInertiaProvided;
  const massProperties = creation.mMassPropertiesOverride;
  massProperties.mMass = body.mass;
  massProperties.mInertia = inertiaMatrix(Jolt, body.inertia);
  vec.Set(body.velocity[0], body.velocity[1], body.velocity[2]);
  creation.mLinearVelocity = vec;
  vec.Set(body.angularVelocity[0], body.angularVelocity[1], body.angularVelocity[2]);
  creation.mAngularVelocity = vec;
}

/**
 * Puts every body at `poses` for a step at our pose: free ones at rest,
 * awake and without a contact cache, so nothing of earlier calls remains.
 * @param {Jolt} Jolt
 * @param {any} bodyInterface
 * @param {any[]} ids
 * @param {any[]} bodies
 * @param {Float64Array} poses
 * @param {Scratch} scratch
 */
function placeAt(Jolt, bodyInterface, ids, bodies, poses, scratch) {
  scratch.vec.Set(0, 0, 0);
  ids.forEach((id, index) => {
    const p = 7 * index;
    scratch.rvec.Set(poses[p], poses[p + 1], poses[p + 2]);
    scratch.quat.Set(poses[p + 3], poses[p + 4], poses[p + 5], poses[p + 6]);
    if (bodies[index].fixed) {
      bodyInterface.SetPositionAndRotation(id, scratch.rvec, scratch.quat, Jolt.EActivation_DontActivate);
    } else {
      bodyInterface.SetPositionAndRotation(id, scratch.rvec, scratch.quat, Jolt.EActivation_Activate);
      bodyInterface.SetLinearAndAngularVelocity(id, scratch.vec, scratch.vec);
      bodyInterface.ResetSleepTimer(id);
      bodyInterface.InvalidateContactCache(id);
    }
  });
}

/**
 * The Jolt shape of one body (see the file comment for which kind), and the
 * settings it was made from, which the caller releases once a body holds the shape.
 * @param {Jolt} Jolt
 * @param {any} body
 * @param {boolean} ownMassProperties whether to move Jolt's centre of mass onto our origin
 */
function buildShape(Jolt, body, ownMassProperties) {
  const kind = shapeKind(body, `Jolt cannot build body "${body.name}": it is not convex and has no convex pieces`);
  /** @type {any} */
  let shapeSettings;
  if (kind === 'hull') {
    shapeSettings = hullSettings(Jolt, body.vertices);
  } else if (kind === 'mesh') {
    shapeSettings = meshSettings(Jolt, body);
  } else {
    shapeSettings = new Jolt.StaticCompoundShapeSettings();
    const origin = new Jolt.Vec3(0, 0, 0);
    const identity = new Jolt.Quat(0, 0, 0, 1);
    for (const piece of body.pieces) shapeSettings.AddShape(origin, identity, hullSettings(Jolt, piece), 0);
    Jolt.destroy(origin);
    Jolt.destroy(identity);
  }
  const shape = createShape(Jolt, shapeSettings, body);
  if (!ownMassProperties || body.fixed) return { shape, shapeSettings };
  // Our inertia is about our origin; Jolt's own centre of mass of the shape may sit elsewhere.
  const centre = shape.GetCenterOfMass();
  const offset = new Jolt.Vec3(-centre.GetX(), -centre.GetY(), -centre.GetZ());
  const offsetSettings = new Jolt.OffsetCenterOfMassShapeSettings(offset, shapeSettings);
  Jolt.destroy(offset);
  return { shape: createShape(Jolt, offsetSettings, body), shapeSettings: offsetSettings };
}

/**
 * Creates a shape from its settings, with a sentence naming the body on failure.
 * The settings keep a reference to the shape, and the body keeps one once created.
 * @param {Jolt} Jolt
 * @param {any} shapeSettings
 * @param {any} body
 */
function createShape(Jolt, shapeSettings, body) {
  const result = shapeSettings.Create();
  if (result.HasError()) {
    throw new Error(`Jolt could not build the shape of body "${body.name}": ${result.GetError().c_str()}`);
  }
  return result.Get();
}

/**
 * Hull settings of a flat `x y z` list of points.
 * @param {Jolt} Jolt
 * @param {number[]} points
 */
function hullSettings(Jolt, points) {
  const settings = new Jolt.ConvexHullShapeSettings();
  const point = new Jolt.Vec3(0, 0, 0);
  for (let i = 0; i + 2 < points.length; i += 3) {
    point.Set(points[i], points[i + 1], points[i + 2]);
    settings.mPoints.push_back(point);
  }
  Jolt.destroy(point);
  return settings;
}

/**
 * Static triangle mesh settings of a body's surface.
 * @param {Jolt} Jolt
 * @param {any} body
 */
function meshSettings(Jolt, body) {
  const vertices = new Jolt.VertexList();
  const vertex = new Jolt.Float3(0, 0, 0);
  for (let i = 0; i + 2 < body.vertices.length; i += 3) {
    vertex.x = body.vertices[i];
    vertex.y = body.vertices[i + 1];
    vertex.z = body.vertices[i + 2];
    vertices.push_back(vertex);
  }
  Jolt.destroy(vertex);
  const triangles = new Jolt.IndexedTriangleList();
  const triangle = new Jolt.IndexedTriangle(0, 0, 0, 0, 0);
  for (let i = 0; i + 2 < body.triangles.length; i += 3) {
    triangle.set_mIdx(0, body.triangles[i]);
    triangle.set_mIdx(1, body.triangles[i + 1]);
    triangle.set_mIdx(2, body.triangles[i + 2]);
    triangles.push_back(triangle);
  }
  Jolt.destroy(triangle);
  const materials = new Jolt.PhysicsMaterialList();
  const settings = new Jolt.MeshShapeSettings(vertices, triangles, materials);
  Jolt.destroy(vertices);
  Jolt.destroy(triangles);
  Jolt.destroy(materials);
  return settings;
}

/**
 * Jolt's 4 × 4 inertia matrix of our 3 × 3 tensor (row by row; it is symmetric).
 * @param {Jolt} Jolt
 * @param {number[]} inertia
 */
function inertiaMatrix(Jolt, inertia) {
  const matrix = Jolt.Mat44.prototype.sIdentity();
  const column = new Jolt.Vec3(0, 0, 0);
  for (let c = 0; c < 3; c++) {
    column.Set(inertia[c], inertia[3 + c], inertia[6 + c]);
    matrix.SetColumn3(c, column);
  }
  Jolt.destroy(column);
  return matrix;
}
