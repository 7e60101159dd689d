/**
 * @file The MuJoCo engine adapter (`docs/design/engines.md`): MuJoCo 3.14.0
 * from `@mujoco/mujoco@3.14.0`, its single-threaded WebAssembly build
 * (`mujoco.js` + `mujoco.wasm`, the `.wasm` found through `host.url`; the
 * `mt/` build needs SharedArrayBuffer and is not used).
 *
 * How the bodies are built: not by this file. MuJoCo's users describe a
 * world in MJCF, so the adapter loads `scene.mjcf`, the very model
 * `contactlab export --format mjcf` writes and `tools/engine_contacts.py`
 * loads in Python, with `MjModel.from_xml_string`. In it every body is a
 * `<body>` named as the scene body, a free body has a `<freejoint/>` and a
 * fixed body none (welded to the world), and each body's geoms are meshes:
 * the body itself when convex, its convex pieces otherwise. MuJoCo collides
 * every mesh as the convex hull of its vertices and has no static
 * non-convex triangle mesh, so a fixed non-convex body is its pieces too.
 * Masses, full inertia tensors, friction (per geom, and per pair where the
 * scene has its own), the time step and gravity are in the model; scene
 * body `i` is found by its name (`scene.bodies[i].name`).
 *
 * Conventions translated: MuJoCo's contact `frame[0..2]` is the normal from
 * `geom1` to `geom2`, so body `a` is geom1's body and body `b` geom2's
 * (`geom_bodyid`), and the normal is `frame[0..2]` as it is (divided by its
 * length, as the Python script does). `dist` is negative when the geoms
 * overlap, as our depth, and is taken as it is. The point is MuJoCo's
 * `pos`, midway between the two surfaces. MuJoCo reports each contact once
 * and never between two bodies welded to the world, so no contact between
 * two fixed bodies comes out. Every contact of `d.contact[0..ncon)` is kept,
 * as the Python script keeps it. Poses: our `x y z qx qy qz qw` is the free
 * joint's `qpos` `x y z qw qx qy qz` (w first); MuJoCo's `xquat` is read
 * back the same way round. The body frame is the centre of mass in both.
 *
 * Contacts at our pose: each free body's free joint gets the pose (and zero
 * velocity); a fixed body whose pose is not the scene's initial one is moved
 * by its `body_pos`/`body_quat` (our simulation never moves one). Then
 * `mj_kinematics` and `mj_collision`, detection only, no step. MuJoCo keeps
 * no contact cache between calls (`mj_collision` rebuilds `d.contact` from
 * the geoms' poses alone), so a call never depends on an earlier one.
 *
 * Own mode: the state is the model's keyframe 0 (the scene's initial poses
 * and velocities as the export wrote them; MuJoCo reads a free joint's
 * angular velocity in the body frame, and the spinning bodies of the
 * built-in scenes start unrotated, so there both frames agree) or, without
 * a keyframe, the model's own initial state at rest, exactly as
 * `tools/engine_contacts.py` does. Masses and inertias are the model's
 * `<inertial fullinertia=...>`: MuJoCo takes the full tensor (and stores
 * it as principal moments and axes). Each
 * `ownStep` is one `mj_step`; the poses (`xpos`, `xquat`) and contacts it
 * returns are the ones that step's `mj_forward` computed at the state the
 * step started from, read after the step (Euler and the implicit
 * integrators leave them in `mjData`). With the RK4 integrator, whose last
 * stage overwrites them, they are computed before the step instead
 * (`mj_kinematics` + `mj_collision`, the same functions on the same state).
 *
 * Deviations from MuJoCo's defaults: none. The model keeps MuJoCo's default
 * margin 0 and gap 0 (contacts only where the hulls overlap), multi-contact
 * CCD (on by default in 3.14) and the default solver and integrator. The
 * run's `scene.dt` and `scene.gravity` are written into the model's options;
 * the export writes the same values, so this changes nothing unless a run
 * overrides them.
 *
 * Known limitations: MuJoCo stores mesh vertices as float32, so bodies that
 * touch exactly come out overlapping by about 1e-9 m (or apart by as much)
 * and some touching pairs get no contact at all (margin 0). A mesh is
 * always its convex hull: a non-convex body is only as good as the
 * decomposition the export wrote. MuJoCo's restitution is not a
 * coefficient (it follows from the contact's solref); the model keeps the
 * defaults.
 */

import { engineWorld, posesOf } from './common.js';

const PACKAGE = '@mujoco/mujoco';

/** @type {import('./common.js').EngineWords} */
const WORDS = {
  name: 'MuJoCo',
  unknownMode: (mode) => `MuJoCo's adapter has no mode "${mode}" (it knows "ours" and "own").`,
  notOurs: "MuJoCo's world runs its own simulation here; it takes no poses.",
  notOwn: "MuJoCo's world takes our poses here; it runs no simulation of its own.",
};

/**
 * @typedef {{
 *   name: string, fixed: boolean, convex: boolean,
 *   position: number[], rotation: number[],
 * }} EngineBody
 * @typedef {{ gravity: number[], dt: number, friction: number, mjcf: string, bodies: EngineBody[] }} EngineScene
 * @typedef {{
 *   contactsAt(poses: Float64Array): Float64Array,
 *   ownStep(): { poses: Float64Array, contacts: Float64Array },
 *   free(): void,
 * }} EngineWorld
 */

/**
 * Loads MuJoCo's single-threaded build.
 * @param {{ import(path: string): Promise<any>, url(path: string): string }} host
 * @returns {Promise<any>} the MuJoCo module
 */
export async function load(host) {
  const module = await host.import(`${PACKAGE}/mujoco.js`);
  /** @param {string} file */
  const locateFile = (file) => host.url(`${PACKAGE}/${file}`);
  try {
    return await module.default({ locateFile });
  } catch (error) {
    throw new Error(`MuJoCo's WebAssembly module could not start: ${message(error)}`);
  }
}

/**
 * Builds the scene's world in MuJoCo from its MJCF model.
 * @param {any} mj the module `load` gave
 * @param {EngineScene} scene
 * @param {'ours' | 'own'} mode
 * @returns {EngineWorld}
 */
export function create(mj, scene, mode) {
  return engineWorld(WORDS, scene, mode, (teardown) => mujocoWorld(mj, scene, mode, teardown));
}

/**
 * The model and its data, and the steps of both modes.
 * @param {any} mj
 * @param {EngineScene} scene
 * @param {'ours' | 'own'} mode
 * @param {import('./common.js').Teardown} teardown
 * @returns {import('./common.js').EngineSteps}
 */
function mujocoWorld(mj, scene, mode, teardown) {
  if (typeof scene.mjcf !== 'string' || scene.mjcf.length === 0) {
    throw new Error('The scene has no MuJoCo model (its "mjcf" is missing), so MuJoCo cannot run it.');
  }
  let model;
  try {
    model = mj.MjModel.from_xml_string(scene.mjcf);
  } catch (error) {
    throw new Error(`MuJoCo could not load the scene's model: ${message(error)}`);
  }
  teardown.push(() => model.delete());
  const data = new mj.MjData(model);
  teardown.push(() => data.delete());
  const map = bodyMap(mj, model, scene);
  const rk4 = setOptions(mj, model, scene);
  // Where each fixed body is in the model now (the scene's initial pose
  // until `contactsAt` moves it), so that it is written only when it moves.
  const fixedAt = scene.bodies.map((body) => [...body.position, ...body.rotation]);
  if (mode === 'own' && model.nkey > 0) mj.mj_resetDataKeyframe(model, data, 0);

  /** The contacts and poses now in `data`, in our convention. */
  const read = () => ({ poses: readPoses(data, map.mjBody), contacts: readContacts(data, map) });
  return {
    contactsAt(poses) {
      placeAt(model, data, map, poses, fixedAt);
      mj.mj_kinematics(model, data);
      mj.mj_collision(model, data);
      return readContacts(data, map);
    },
    ownStep() {
      if (!rk4) {
        mj.mj_step(model, data);
        return read();
      }
      mj.mj_kinematics(model, data);
      mj.mj_collision(model, data);
      const now = read();
      mj.mj_step(model, data);
      return now;
    },
  };
}

/**
 * How the scene's bodies are found in MuJoCo's model.
 * @typedef {{
 *   mjBody: Int32Array, sceneBody: Int32Array, qposAddress: Int32Array, geomBody: Int32Array,
 * }} BodyMap MuJoCo's body id of each scene body; the scene body of each
 *   MuJoCo body (-1 for none); each scene body's free joint's qpos address
 *   (-1 for a fixed body); the MuJoCo body of each geom.
 */

/**
 * Finds each scene body in the model by its name, and refuses a model
 * that would move a fixed body, not move a free one, or has a geom of no
 * scene body.
 * @param {any} mj
 * @param {any} model
 * @param {EngineScene} scene
 * @returns {BodyMap}
 */
function bodyMap(mj, model, scene) {
  const BODY = mj.mjtObj.mjOBJ_BODY.value;
  const FREE = mj.mjtJoint.mjJNT_FREE.value;
  const mjBody = new Int32Array(scene.bodies.length);
  const sceneBody = new Int32Array(model.nbody).fill(-1);
  const qposAddress = new Int32Array(scene.bodies.length).fill(-1);
  // Copies, not views: a view of the WebAssembly memory is detached when
  // MuJoCo grows it (reading `data.contact` of the Wall does), so views are
  // only ever taken right before they are used.
  const bodyJoint = model.body_jntadr.slice();
  const bodyJointCount = model.body_jntnum.slice();
  const jointType = model.jnt_type.slice();
  const jointQpos = model.jnt_qposadr.slice();
  scene.bodies.forEach((body, i) => {
    const id = mj.mj_name2id(model, BODY, String(body.name));
    if (id < 1) {
      throw new Error(`MuJoCo's model of the scene has no body named "${body.name}" (scene body ${i + 1}).`);
    }
    if (sceneBody[id] !== -1) {
      throw new Error(`Two bodies of the scene are both named "${body.name}"; MuJoCo needs distinct names.`);
    }
    mjBody[i] = id;
    sceneBody[id] = i;
    if (body.fixed) {
      if (bodyJointCount[id] !== 0) {
        throw new Error(`The fixed body "${body.name}" has a joint in MuJoCo's model, so MuJoCo would move it.`);
      }
    } else {
      if (bodyJointCount[id] !== 1 || jointType[bodyJoint[id]] !== FREE) {
        throw new Error(`The free body "${body.name}" has no free joint in MuJoCo's model.`);
      }
      qposAddress[i] = jointQpos[bodyJoint[id]];
    }
  });
  const geomBody = model.geom_bodyid.slice();
  for (let g = 0; g < model.ngeom; g++) {
    if (sceneBody[geomBody[g]] === -1) {
      throw new Error(`MuJoCo's model has a geom (number ${g}) that belongs to no body of the scene.`);
    }
  }
  return { mjBody, sceneBody, qposAddress, geomBody };
}

/**
 * Writes the run's time step and gravity into the model's options, and
 * says whether its integrator is RK4.
 * @param {any} mj
 * @param {any} model
 * @param {EngineScene} scene
 */
function setOptions(mj, model, scene) {
  const options = model.opt;
  try {
    options.timestep = scene.dt;
    options.gravity.set(scene.gravity);
    return options.integrator === mj.mjtIntegrator.mjINT_RK4.value;
  } finally {
    options.delete();
  }
}

/**
 * The contacts now in `data`, in our convention.
 * @param {any} data
 * @param {BodyMap} map
 */
function readContacts(data, { sceneBody, geomBody }) {
  const count = data.ncon;
  const out = new Float64Array(9 * count);
  const contacts = data.contact;
  try {
    for (let k = 0; k < count; k++) {
      const contact = contacts.get(k);
      try {
        const frame = contact.frame;
        const pos = contact.pos;
        const length = Math.sqrt(frame[0] * frame[0] + frame[1] * frame[1] + frame[2] * frame[2]);
        const o = 9 * k;
        out[o] = sceneBody[geomBody[contact.geom1]];
        out[o + 1] = sceneBody[geomBody[contact.geom2]];
        out[o + 2] = pos[0];
        out[o + 3] = pos[1];
        out[o + 4] = pos[2];
        out[o + 5] = length > 0 ? frame[0] / length : frame[0];
        out[o + 6] = length > 0 ? frame[1] / length : frame[1];
        out[o + 7] = length > 0 ? frame[2] / length : frame[2];
        out[o + 8] = contact.dist;
      } finally {
        contact.delete();
      }
    }
  } finally {
    contacts.delete();
  }
  return out;
}

/**
 * Every scene body's pose now in `data` (`xpos`, `xquat`), ours: x y z qx qy qz qw.
 * @param {any} data
 * @param {Int32Array} mjBody
 */
function readPoses(data, mjBody) {
  const xpos = data.xpos;
  const xquat = data.xquat;
  return posesOf(mjBody.length, (i) => {
    const id = mjBody[i];
    return [xpos[3 * id], xpos[3 * id + 1], xpos[3 * id + 2], xquat[4 * id + 1], xquat[4 * id + 2], xquat[4 * id + 3], xquat[4 * id]];
  });
}

/**
 * Puts every body at `poses`: a free body's free joint at rest, a fixed
 * body moved in the model.
 * @param {any} model
 * @param {any} data
 * @param {BodyMap} map
 * @param {Float64Array} poses
 * @param {number[][]} fixedAt where each fixed body is in the model now
 */
function placeAt(model, data, { mjBody, qposAddress }, poses, fixedAt) {
  const qpos = data.qpos;
  const qvel = data.qvel;
  qvel.fill(0);
  for (let i = 0; i < mjBody.length; i++) {
    const o = 7 * i;
    const at = qposAddress[i];
    if (at >= 0) {
      qpos[at] = poses[o];
      qpos[at + 1] = poses[o + 1];
      qpos[at + 2] = poses[o + 2];
      qpos[at + 3] = poses[o + 6];
      qpos[at + 4] = poses[o + 3];
      qpos[at + 5] = poses[o + 4];
      qpos[at + 6] = poses[o + 5];
    } else {
      placeFixed(model, mjBody[i], poses, o, fixedAt[i]);
    }
  }
}

/**
 * Moves a fixed body (MuJoCo body `id`) to its pose at `poses[o..]` when
 * it is not already there (a fixed body has no joint: its pose is the
 * model's `body_pos`/`body_quat`, relative to the world).
 * @param {any} model
 * @param {number} id
 * @param {Float64Array} poses
 * @param {number} o
 * @param {number[]} now where it is in the model, updated here
 */
function placeFixed(model, id, poses, o, now) {
  let same = true;
  for (let k = 0; k < 7; k++) same &&= poses[o + k] === now[k];
  if (same) return;
  for (let k = 0; k < 7; k++) now[k] = poses[o + k];
  const pos = model.body_pos;
  const quat = model.body_quat;
  pos[3 * id] = poses[o];
  pos[3 * id + 1] = poses[o + 1];
  pos[3 * id + 2] = poses[o + 2];
  quat[4 * id] = poses[o + 6];
  quat[4 * id + 1] = poses[o + 3];
  quat[4 * id + 2] = poses[o + 4];
  quat[4 * id + 3] = poses[o + 5];
}

/**
 * A thrown value's text, for a user.
 * @param {unknown} error
 */
function message(error) {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim();
}
