/**
 * @file The simulation worker: owns the wasm `Playground`s, so that loading,
 * stepping and comparing never freeze the page. Every request carries an
 * `id`; every answer is `{ id, ok: true, result }` or
 * `{ id, ok: false, message, panic }` (panic: the core trapped and this
 * worker must be replaced, see session.js). Requests run one after another
 * in arrival order.
 *
 *   catalogue                         → { version, timer, scenes, methods, defaults, schema, featureKinds, contactLayout, regionLayout, presets }
 *                                       (timer: { isolated, resolutionMs } of this worker's clock, which times the steps)
 *   settingsFromPairs { pairs, link } → { settings, problems }   (a link's settings; link: false for a page opened without one)
 *   settingsToPairs { settings }      → [[url_key, text], …]      (for the link)
 *   checkSetting { setting, text }    → { value } or { problem }  (typed entry)
 *   load { scene: {id}|{text}, settings } → { info, bodies, frame }   (step 0)
 *                                       (scene.contacts: {text, name, posesText, posesName} plays a contact
 *                                       file instead of the method; info.contact_file is its summary)
 *   step { count, budgetMs }          → { frame, history: [[step, count, kinetic energy], …] }
 *                                       (past a contact file's last step: no step, and frame.ended says why)
 *   contacts                          → contactList()
 *   compareRow { method, steps }      → the record of that method
 *   bench { scene, settings, steps, warmup } → per-step timing arrays
 *
 * A frame is `{ step, record, transforms, contacts, regions }`; its typed arrays are
 * transferred, never shared with wasm memory.
 *
 * Two builds of the core: the lean module (`pkg/`, built without the cargo
 * features `parry` and `contact-files`, so without parry3d and the
 * contact-file reader, about a third of the full module)
 * starts with the worker and answers the catalogue and everything about
 * settings; the full module (`pkg/full/`) is fetched only by the first
 * request that needs a method the lean one lists but lacks
 * (`in_this_build: false` in its catalogue: parry), a `load`, `compareRow`
 * or `bench` with it. Each module has its own statics, so the paper-fine
 * meshes are registered in each one that loads a scene with them.
 *
 * An engine (`kind` "engine" in the catalogue) runs in the full module:
 * before a `load` or compare row of one, `engineWorld` makes a world of it
 * with its adapter (`engines/<id>.js`, imported then with its package) and
 * hands the world's `contactsAt` and `ownStep` to the Playground, which
 * calls them at every step.
 *
 * The Playground that handled the last successful `load` is the active one:
 * `step` and `contacts` go to it. A `load` goes to the lean module
 * when it holds the method and plays no contact file, else to the full one. A `compareRow` goes to the
 * active Playground, unless that is the lean one and lacks the method: then
 * the full Playground gets the last `load`'s scene and settings first (a
 * compare row runs from step 0 of the loaded scene and its settings).
 */

import initLean, { Playground as LeanPlayground } from '../pkg/contactlab.js';

// console_error_panic_hook writes the panic message with console.error and
// then the wasm traps with a bare "unreachable". Remembering the last
// console.error lets the banner show the panic message instead.
let lastConsoleError = '';
const consoleError = console.error.bind(console);
console.error = (...args) => {
  lastConsoleError = args.map(String).join(' ');
  consoleError(...args);
};

/**
 * One started build of the core.
 * @typedef {object} Core
 * @property {any} Playground the module's Playground class (its statics)
 * @property {WebAssembly.Memory} memory
 * @property {any} playground the instance this worker drives
 * @property {any} loaded the `load` request `playground` last loaded without an error
 * @property {boolean} paperFine whether the paper-fine meshes are registered in its statics
 * @property {any} contactFile the summary of the contact file `playground` plays, null when it runs a method
 * @property {any} world the engine's world whose contacts `playground` runs with, null for a method
 */

/**
 * @param {(input?: any) => Promise<any>} init the module's wasm-bindgen init
 * @param {any} Playground
 * @returns {Promise<Core>}
 */
async function startCore(init, Playground) {
  const exports = await init();
  return { Playground, memory: exports.memory, playground: new Playground(), loaded: null, paperFine: false, contactFile: null, world: null };
}

/** @type {Core | null} the lean module, started with the worker */
let lean = null;
/** @type {Core | null} the full module, once started */
let full = null;
/** @type {Promise<Core> | null} the full module's start, from the first request that needs it */
let fullStarting = null;
/** @type {Core | null} the core whose Playground handled the last successful `load` */
let active = null;
/** @type {any} the last successful `load` request (its scene and settings) */
let lastLoad = null;
/** @type {Set<string>} ids of the methods the lean module lists but lacks */
const leanLacks = new Set();
/** @type {Map<string, any>} the catalogue's engines (`kind` "engine"), by id */
const engines = new Map();

const started = (async () => {
  lean = await startCore(initLean, LeanPlayground);
  active = lean;
  for (const method of plain(LeanPlayground.methods())) {
    if (method.in_this_build === false) leanLacks.add(method.id);
    if (method.kind === 'engine') engines.set(method.id, method);
  }
})();

/**
 * The full module, fetched and started the first time; a failure is
 * reported to the request that needed it, and the next such request tries
 * again.
 * @param {string} method the method that needs it, or 'contact file', for the message
 * @returns {Promise<Core>}
 */
function fullCore(method) {
  fullStarting ??= startFull().then(
    (core) => {
      full = core;
      return core;
    },
    (error) => {
      fullStarting = null;
      throw error;
    },
  );
  return fullStarting.catch((error) => {
    const what = method === 'contact file' ? 'A contact file' : `The ${method} method`;
    throw new Error(`${what} needs the full simulation core, which failed to load: ${describe(error)}`);
  });
}

/** @returns {Promise<Core>} */
async function startFull() {
  let module;
  try {
    module = await import('../pkg/full/contactlab.js');
  } catch (error) {
    throw new Error(`could not fetch its script pkg/full/contactlab.js (${describe(error)})`);
  }
  try {
    return await startCore(module.default, module.Playground);
  } catch (error) {
    throw new Error(`could not fetch or instantiate pkg/full/contactlab_bg.wasm (${describe(error)})`);
  }
}

/** @param {unknown} method a method id @returns {boolean} whether only the full module runs it */
function needsFull(method) {
  return typeof method === 'string' && leanLacks.has(method);
}

// Requests are handled one after another, in arrival order.
let queue = started.catch(() => {});
self.addEventListener('message', (event) => {
  const request = event.data;
  queue = queue.then(() => answer(request));
});

/** @param {{id: number, type: string}} request */
async function answer(request) {
  try {
    await started;
  } catch (error) {
    self.postMessage({ id: request.id, ok: false, message: `The simulation core failed to start: ${describe(error)}`, panic: false, fatal: true });
    return;
  }
  try {
    const { result, transfer } = await handle(request);
    self.postMessage({ id: request.id, ok: true, result }, transfer);
  } catch (error) {
    self.postMessage({ id: request.id, ok: false, message: describe(error), panic: error instanceof WebAssembly.RuntimeError });
  }
}

/** @type {Promise<string | null> | null} the paper-fine meshes' text, once fetched */
let paperFineText = null;

/**
 * Registers the paper-fine TetGen meshes in `core` the first time it loads
 * a scene with them, from `pkg/paper-fine.json` beside the lean wasm (the
 * build copies it there; fetched once for both modules). Without them the
 * core falls back to the default TetGen meshes and says so in the scene's
 * notices, so a failed fetch is not an error (and is tried again next time).
 * @param {Core} core
 * @param {any} settings the settings of the load or bench request
 */
async function meshesFor(core, settings) {
  if (core.paperFine || settings?.mesher !== 'paper-fine') return;
  paperFineText ??= fetch(new URL('../pkg/paper-fine.json', import.meta.url))
    .then((response) => (response.ok ? response.text() : null))
    // Offline from a plain folder, or the file was not copied: the notice
    // of the fallback tells the visitor.
    .catch(() => null);
  const text = await paperFineText;
  if (text === null) {
    paperFineText = null;
    return;
  }
  try {
    core.Playground.registerMeshes('paper-fine', text);
    core.paperFine = true;
  } catch {
    // A file the core refuses: the fallback's notice tells the visitor.
  }
}

/**
 * Loads the scene and settings of a `load` request into `core`'s
 * Playground, and its contact file if it has one; on failure it keeps its
 * previous scene (and file).
 * @param {Core} core
 * @param {any} request
 */
async function loadInto(core, request) {
  await meshesFor(core, request.settings);
  const contacts = request.scene?.contacts;
  if (!contacts) {
    const world = await engineWorld(core, core.playground, request);
    try {
      loadScene(core.playground, request);
    } catch (error) {
      world?.free();
      throw error;
    }
    core.world?.free();
    core.world = world;
    core.contactFile = null;
    core.loaded = request;
    return;
  }
  // The scene and the file go into a Playground of their own, which takes
  // the old one's place only when both loaded: a file the core refuses
  // leaves the page's run as it was.
  const playground = new core.Playground();
  let summary;
  try {
    loadScene(playground, request);
    summary = plain(playground.loadContactFile(String(contacts.text), String(contacts.name), contacts.posesText ?? null, contacts.posesName ?? null));
  } catch (error) {
    playground.free();
    throw error;
  }
  core.playground.free();
  core.playground = playground;
  core.contactFile = summary;
  core.loaded = request;
}

/**
 * When `request` (a `load`, a compare row's or a bench's) names an engine:
 * a new world of it on the request's scene and settings (its adapter and
 * package imported the first time, `engines/worlds.js`), handed to
 * `playground` for its next run. Null for a method.
 * @param {Core} core
 * @param {any} playground one of `core`'s Playgrounds
 * @param {any} request
 */
async function engineWorld(core, playground, request) {
  const engine = engines.get(request.settings?.method);
  if (!engine) return null;
  const { worldFor } = await import('../engines/worlds.js');
  return worldFor(core.Playground, playground, engine, request);
}

/**
 * @param {any} playground
 * @param {any} request a `load` request
 */
function loadScene(playground, request) {
  if (typeof request.scene?.text === 'string') playground.loadSceneText(request.scene.text, request.settings);
  else playground.loadScene(String(request.scene?.id), request.settings);
}

/**
 * The core that runs a compare row of `method`: the active one, unless
 * that is the lean module and lacks the method; then the full module, with
 * the last loaded scene and settings.
 * @param {string} method
 * @returns {Promise<Core>}
 */
async function compareCore(method) {
  if (active !== lean || !needsFull(method)) return active;
  const core = await fullCore(method);
  if (lastLoad && core.loaded !== lastLoad) await loadInto(core, lastLoad);
  return core;
}

/**
 * @param {any} request
 * @returns {Promise<{result: any, transfer: Transferable[]}>}
 */
async function handle(request) {
  const none = { transfer: [] };
  const Playground = lean.Playground;
  switch (request.type) {
    case 'catalogue':
      return {
        ...none,
        result: {
          version: Playground.version(),
          timer: timerFacts(),
          scenes: plain(Playground.scenes()),
          methods: plain(Playground.methods()),
          defaults: plain(Playground.defaultSettings()),
          schema: plain(Playground.settingsSchema()),
          featureKinds: plain(Playground.featureKinds()),
          contactLayout: plain(Playground.contactLayout()),
          regionLayout: plain(Playground.regionLayout()),
          presets: plain(Playground.presets()),
        },
      };
    case 'settingsFromPairs':
      return { ...none, result: plain(Playground.settingsFromPairs(request.pairs, request.link !== false)) };
    case 'settingsToPairs':
      return { ...none, result: plain(Playground.settingsToPairs(request.settings)) };
    case 'checkSetting':
      try {
        return { ...none, result: { value: plain(Playground.checkSetting(String(request.setting), String(request.text))) } };
      } catch (error) {
        // A refusal is an answer here; a trap is not.
        if (error instanceof WebAssembly.RuntimeError) throw error;
        return { ...none, result: { problem: describe(error) } };
      }
    case 'load': {
      const method = request.settings?.method;
      // Only the full module reads contact files (cargo feature
      // `contact-files`, left out of the lean one for its size).
      const core = request.scene?.contacts
        ? await fullCore('contact file')
        : needsFull(method) ? await fullCore(method) : lean;
      await loadInto(core, request);
      active = core;
      lastLoad = request;
      return withScene({});
    }
    case 'step':
      return stepFor(request.count, request.budgetMs);
    case 'remeasure': {
      // Settings that only judge the contacts: the step held is judged
      // again, and a compare row or the other module's next load runs
      // with them too.
      const record = plain(active.playground.setMeasureSettings(request.settings));
      lastLoad = { ...lastLoad, settings: request.settings };
      active.loaded = lastLoad;
      const frame = currentFrame(record);
      return { result: { frame }, transfer: frameTransfer(frame) };
    }
    case 'contacts':
      return { ...none, result: plain(active.playground.contactList()) };
    case 'compareRow': {
      const method = String(request.method);
      const core = await compareCore(method);
      // An engine's row runs with a world of its own, from the start.
      const world = core.loaded ? await engineWorld(core, core.playground, { ...core.loaded, settings: { ...core.loaded.settings, method } }) : null;
      try {
        return { ...none, result: plain(core.playground.compareRow(method, request.steps)) };
      } finally {
        world?.free();
      }
    }
    case 'bench': {
      const method = request.settings?.method;
      const core = needsFull(method) ? await fullCore(method) : lean;
      await meshesFor(core, request.settings);
      return { ...none, result: await bench(core, request) };
    }
    default:
      throw new Error(`unknown request type "${request.type}"`);
  }
}

/**
 * How finely this worker's clock, which times the steps, can tell time.
 * Browsers coarsen `performance.now()` unless the page is cross-origin
 * isolated (COOP/COEP headers, which a plain static host does not send):
 * Chromium to 0.1 ms, Firefox and Safari to 1 ms. Measured, not assumed:
 * the smallest step of the clock seen while it is read for up to 10 ms.
 * @returns {{isolated: boolean, resolutionMs: number}}
 */
function timerFacts() {
  const start = performance.now();
  let last = start;
  let smallest = Infinity;
  for (let now = start; now - start < 10 && smallest > 0.001; now = performance.now()) {
    if (now > last) {
      smallest = Math.min(smallest, now - last);
      last = now;
    }
  }
  return { isolated: Boolean(self.crossOriginIsolated), resolutionMs: Number.isFinite(smallest) ? smallest : 10 };
}

/**
 * Takes up to `count` steps, stopping early once `budgetMs` has passed, so a
 * long "run to step N" reports progress and can be stopped between slices.
 * @param {number} count
 * @param {number} budgetMs 0: no limit
 */
function stepFor(count, budgetMs) {
  const { playground, contactFile } = active;
  const start = performance.now();
  /** @type {Array<[number, number, number]>} */
  const history = [];
  let record;
  /** @type {string | null} why a contact file's run went no further */
  let ended = null;
  for (let i = 0; i < Math.max(1, count); i++) {
    const pastFile = contactFile !== null && Number(playground.stepIndex()) >= contactFile.last_step;
    try {
      record = plain(playground.step(1));
    } catch (error) {
      // Past a contact file's last step the core refuses to step and says
      // why: the run ends there, at the step it holds. So does a step the
      // core refused (a detection past its budget) after others of this
      // call were taken: they are shown, the refusal with them. The core
      // undid the refused step, so page and core agree on the step.
      if (error instanceof WebAssembly.RuntimeError || (!pastFile && record === undefined)) throw error;
      ended = describe(error);
      break;
    }
    history.push([record.step, record.count, record.kinetic_energy]);
    // The core paused the run at a step that diverged; stepping on would throw.
    if (record.diverged) break;
    if (budgetMs > 0 && performance.now() - start > budgetMs) break;
  }
  const frame = currentFrame(record);
  if (ended !== null) frame.ended = ended;
  return { result: { frame, history }, transfer: frameTransfer(frame) };
}

/**
 * The active Playground's scene: its info, its bodies' geometry and the frame.
 * @param {object} extra
 * @returns {{result: any, transfer: Transferable[]}}
 */
function withScene(extra) {
  const { playground } = active;
  const info = { ...plain(playground.sceneInfo()), contact_file: active.contactFile };
  const bodies = [];
  for (let body = 0; body < playground.bodyCount(); body++) {
    bodies.push({
      fixed: Boolean(info.bodies?.[body]?.fixed),
      triangles: owned(playground.surfaceTriangles(body)),
      normals: owned(playground.surfaceNormals(body)),
      edges: owned(playground.surfaceEdges(body)),
      tetEdges: owned(playground.tetEdges(body)),
    });
  }
  const frame = currentFrame();
  const transfer = [...frameTransfer(frame), ...bodies.flatMap((b) => [b.triangles.buffer, b.normals.buffer, b.edges.buffer, b.tetEdges.buffer])];
  return { result: { ...extra, info, bodies, frame }, transfer };
}

/** @param {any} [record] the last step's record when the caller has it */
function currentFrame(record) {
  const { playground } = active;
  return {
    step: Number(playground.stepIndex()),
    record: record === undefined ? plain(playground.record()) : record,
    transforms: owned(playground.bodyTransforms()),
    contacts: owned(playground.contactBuffer()),
    regions: owned(playground.regionBuffer()),
  };
}

/** @param {{transforms: Float32Array, contacts: Float32Array, regions: Float32Array}} frame */
function frameTransfer(frame) {
  return [frame.transforms.buffer, frame.contacts.buffer, frame.regions.buffer];
}

/**
 * The `#bench` workload: its own Playground of `core` so the page's state
 * is left alone; `warmup` untimed steps, then `steps` steps whose core
 * timings are collected per step.
 * @param {Core} core
 * @param {{scene: string, settings: any, steps: number, warmup: number}} request
 */
async function bench(core, { scene, settings, steps, warmup }) {
  const own = new core.Playground();
  const world = await engineWorld(core, own, { scene: { id: scene }, settings });
  try {
    own.loadScene(scene, settings);
    if (warmup > 0) own.step(warmup);
    const result = { ms_broad: [], ms_method: [], ms_solver: [] };
    for (let i = 0; i < steps; i++) {
      const record = plain(own.step(1));
      for (const key of Object.keys(result)) result[key].push(record[key]);
    }
    return result;
  } finally {
    own.free();
    world?.free();
  }
}

/**
 * Returns an array that is safe to transfer. Transferring a view on wasm
 * memory would detach that memory and kill the module, so such a view is
 * copied first; the facade's arrays are normally copies already.
 * @param {Float32Array} array
 * @returns {Float32Array}
 */
function owned(array) {
  if (!(array instanceof Float32Array)) throw new Error('the core returned a render buffer that is not a Float32Array');
  const onWasmMemory = [lean, full].some((core) => core && array.buffer === core.memory.buffer);
  return onWasmMemory ? array.slice() : array;
}

/**
 * serde-wasm-bindgen may turn Rust maps into JS Maps; plain objects survive
 * postMessage and read the same everywhere.
 * @param {unknown} value
 * @returns {any}
 */
function plain(value) {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/**
 * A readable message for anything thrown by the core or by this file.
 * @param {unknown} error
 * @returns {string}
 */
function describe(error) {
  if (error instanceof WebAssembly.RuntimeError) {
    // The hook's message is followed by a stack trace; the first paragraph
    // is the panic itself.
    const detail = lastConsoleError.split('\n\n')[0] || error.message;
    return `internal error in the simulation core (${detail})`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
