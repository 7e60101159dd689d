/**
 * @file The simulation worker: owns the wasm `Playground`, so that loading,
 * stepping and comparing never freeze the page. Every request carries an
 * `id`; every answer is `{ id, ok: true, result }` or
 * `{ id, ok: false, message, panic }` (panic: the core trapped and this
 * worker must be replaced, see session.js). Requests run one after another
 * in arrival order.
 *
 *   catalogue                         → { version, timer, scenes, methods, defaults, schema, featureKinds, contactLayout, regionLayout, presets }
 *                                       (timer: { isolated, resolutionMs } of this worker's clock, which times the steps)
 *   settingsFromPairs { pairs }       → { settings, problems }   (a link's settings)
 *   settingsToPairs { settings }      → [[url_key, text], …]      (for the link)
 *   checkSetting { setting, text }    → { value } or { problem }  (typed entry)
 *   load { scene: {id}|{text}, settings } → { info, bodies, frame }   (step 0)
 *   reset                             → { frame }
 *   step { count, budgetMs }          → { frame, history: [[step, count, kinetic energy], …] }
 *   contacts                          → contactList()
 *   compareRow { method, steps }      → the record of that method
 *   bench { scene, settings, steps, warmup } → per-step timing arrays
 *
 * A frame is `{ step, record, transforms, contacts, regions }`; its typed arrays are
 * transferred, never shared with wasm memory.
 */

import init, { Playground } from './pkg/contactlab.js';

// console_error_panic_hook writes the panic message with console.error and
// then the wasm traps with a bare "unreachable". Remembering the last
// console.error lets the banner show the panic message instead.
let lastConsoleError = '';
const consoleError = console.error.bind(console);
console.error = (...args) => {
  lastConsoleError = args.map(String).join(' ');
  consoleError(...args);
};

/** @type {WebAssembly.Memory | null} */
let memory = null;
/** @type {Playground | null} */
let playground = null;

const started = (async () => {
  const exports = await init();
  memory = exports.memory;
  playground = new Playground();
})();

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
    await meshesFor(request);
    const { result, transfer } = handle(request);
    self.postMessage({ id: request.id, ok: true, result }, transfer);
  } catch (error) {
    self.postMessage({ id: request.id, ok: false, message: describe(error), panic: error instanceof WebAssembly.RuntimeError });
  }
}

/** Whether the paper-fine meshes (about 1 MB, not in the wasm) are loaded. */
let paperFineLoaded = false;

/**
 * Loads the paper-fine TetGen meshes the first time a scene is loaded with
 * them, from `pkg/paper-fine.json` beside the wasm (the build copies it
 * there). Without them the core falls back to the default TetGen meshes
 * and says so in the scene's notices, so a failed fetch is not an error.
 * @param {any} request
 */
async function meshesFor(request) {
  if (paperFineLoaded || request.type !== 'load' || request.settings?.mesher !== 'paper-fine') return;
  try {
    const response = await fetch(new URL('./pkg/paper-fine.json', import.meta.url));
    if (!response.ok) return;
    Playground.registerMeshes('paper-fine', await response.text());
    paperFineLoaded = true;
  } catch {
    // Offline from a plain folder, or the file was not copied: the notice
    // of the fallback tells the visitor.
  }
}

/**
 * @param {any} request
 * @returns {{result: any, transfer: Transferable[]}}
 */
function handle(request) {
  const none = { transfer: [] };
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
      return { ...none, result: plain(Playground.settingsFromPairs(request.pairs)) };
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
      if (typeof request.scene?.text === 'string') playground.loadSceneText(request.scene.text, request.settings);
      else playground.loadScene(String(request.scene?.id), request.settings);
      return withScene({});
    }
    case 'reset': {
      playground.reset();
      const frame = currentFrame();
      return { result: { frame }, transfer: frameTransfer(frame) };
    }
    case 'step':
      return stepFor(request.count, request.budgetMs);
    case 'contacts':
      return { ...none, result: plain(playground.contactList()) };
    case 'compareRow':
      return { ...none, result: plain(playground.compareRow(String(request.method), request.steps)) };
    case 'bench':
      return { ...none, result: bench(request) };
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
  const start = performance.now();
  /** @type {Array<[number, number, number]>} */
  const history = [];
  let record = null;
  for (let i = 0; i < Math.max(1, count); i++) {
    record = plain(playground.step(1));
    history.push([record.step, record.count, record.kinetic_energy]);
    // The core paused the run at a step that diverged; stepping on would throw.
    if (record.diverged) break;
    if (budgetMs > 0 && performance.now() - start > budgetMs) break;
  }
  const frame = currentFrame(record);
  return { result: { frame, history }, transfer: frameTransfer(frame) };
}

/** @param {object} extra @returns {{result: any, transfer: Transferable[]}} */
function withScene(extra) {
  const info = plain(playground.sceneInfo());
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
 * The `#bench` workload: its own Playground so the page's state is left
 * alone; `warmup` untimed steps, then `steps` steps whose core timings are
 * collected per step.
 * @param {{scene: string, settings: any, steps: number, warmup: number}} request
 */
function bench({ scene, settings, steps, warmup }) {
  const own = new Playground();
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
  return memory && array.buffer === memory.buffer ? array.slice() : array;
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
