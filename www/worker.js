/**
 * @file The simulation worker: owns the wasm `Playground` so that loading
 * and (later) stepping never freezes the page. It speaks a small message
 * protocol with main.js:
 *
 *   in:  { type: 'load', requestId, sceneId }
 *   out: { type: 'catalogue', scenes }                       once, at start
 *        { type: 'scene', requestId, info, bodies, transforms }
 *        { type: 'error', requestId, message }               a request failed
 *        { type: 'fatal', message }                          wasm did not start
 *
 * Every failure is turned into a message; nothing is left uncaught.
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
  self.postMessage({ type: 'catalogue', scenes: plain(Playground.scenes()) });
})().catch((error) => {
  self.postMessage({ type: 'fatal', message: `The simulation core failed to start: ${describe(error)}` });
});

// Requests are handled one after another, in arrival order.
let queue = started;
self.addEventListener('message', (event) => {
  queue = queue.then(() => handle(event.data));
});

/** @param {{type: string, requestId: number, sceneId?: string}} request */
function handle(request) {
  if (!playground) return; // start-up failed and was reported as 'fatal'
  try {
    if (request.type === 'load') {
      playground.loadScene(String(request.sceneId));
      postScene(request.requestId);
    } else {
      throw new Error(`unknown request type "${request.type}"`);
    }
  } catch (error) {
    self.postMessage({ type: 'error', requestId: request.requestId, message: describe(error) });
  }
}

/** Posts the loaded scene's info and render buffers, transferring them. */
function postScene(requestId) {
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
  const transforms = owned(playground.bodyTransforms());
  const transfer = [transforms.buffer, ...bodies.flatMap((b) => [b.triangles.buffer, b.normals.buffer, b.edges.buffer, b.tetEdges.buffer])];
  self.postMessage({ type: 'scene', requestId, info, bodies, transforms }, transfer);
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
 * serde-wasm-bindgen turns Rust maps into JS Maps; plain objects survive
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
    return `internal error in the simulation core (${detail}). Reload the page to start again.`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
