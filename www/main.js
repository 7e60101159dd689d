/**
 * @file Entry point of the page: starts the simulation worker, keeps the
 * scene picker and the URL hash in step, and draws what the worker sends.
 * The main thread never runs the core itself, so the page stays responsive
 * whatever the core is doing.
 *
 * For the browser tests, `document.body.dataset.ready` becomes "true" and
 * `data-scene` names the scene once its first frame is on the canvas.
 */

import { OrbitCamera } from './render/camera.js';
import { attachOrbitControls } from './render/controls.js';
import { Renderer } from './render/renderer.js';
import { clearError, clearNotice, showError, showNotice, wireDismissButtons } from './ui/banner.js';
import { DEFAULT_SCENE, sceneFromHash, writeSceneToHash } from './ui/hash.js';
import { fillScenePicker } from './ui/scene-picker.js';

const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
const picker = /** @type {HTMLSelectElement} */ (document.getElementById('scene-picker'));
const status = document.getElementById('status');

wireDismissButtons();

// preserveDrawingBuffer keeps the last frame readable, for the tests'
// pixel checks and for exporting the view as an image.
// alpha: false because the view is opaque; it also saves the compositor work.
const gl = canvas.getContext('webgl2', { alpha: false, antialias: true, preserveDrawingBuffer: true });
if (gl) {
  start(gl);
} else {
  document.getElementById('no-webgl').hidden = false;
  status.hidden = true;
}

/** @param {WebGL2RenderingContext} gl */
function start(gl) {
  /** @type {Renderer} */
  let renderer;
  try {
    renderer = new Renderer(canvas, gl);
  } catch (error) {
    showError(error instanceof Error ? error.message : String(error));
    status.hidden = true;
    return;
  }
  const camera = new OrbitCamera();

  /** @type {import('./ui/scene-picker.js').SceneSummary[]} */
  let catalogue = [];
  /** Id of the scene on the canvas, null before the first one arrives. */
  let shownSceneId = null;
  /** The worker's answers to older requests are ignored. */
  let latestRequest = { id: 0, sceneId: '' };
  let nextRequestId = 1;
  let frameRequested = false;
  /** Scene whose first frame is due; marks the page ready once drawn. */
  let sceneAwaitingFirstFrame = null;

  /** Draws at the next animation frame; many requests make one frame. */
  function requestDraw() {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      renderer.resize();
      renderer.draw(camera);
      if (sceneAwaitingFirstFrame !== null) {
        document.body.dataset.scene = sceneAwaitingFirstFrame;
        document.body.dataset.ready = 'true';
        sceneAwaitingFirstFrame = null;
      }
    });
  }

  new ResizeObserver(requestDraw).observe(canvas);
  attachOrbitControls(canvas, camera, requestDraw);
  canvas.addEventListener('webglcontextlost', (event) => {
    event.preventDefault();
    showError('The graphics context was lost (the GPU was reset or is out of memory). Reload the page.');
  });

  for (const radio of document.querySelectorAll('input[name="view-mode"]')) {
    radio.addEventListener('change', (event) => {
      renderer.setViewMode(/** @type {any} */ (event.target).value);
      requestDraw();
    });
  }

  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.addEventListener('error', (event) => {
    // A module worker that cannot load (usually www/pkg/ not built yet)
    // reports here, without details.
    event.preventDefault();
    fail(
      `The simulation worker could not start${event.message ? ` (${event.message})` : ''}. ` +
        'If you opened www/ directly, build it first with "cargo xtask serve".',
    );
  });
  worker.addEventListener('message', (event) => {
    try {
      onWorkerMessage(event.data);
    } catch (error) {
      showError(error instanceof Error ? error.message : String(error));
      status.hidden = true;
    }
  });

  picker.addEventListener('change', () => {
    clearNotice();
    writeSceneToHash(picker.value);
  });
  window.addEventListener('hashchange', () => {
    if (catalogue.length > 0) loadSceneFromHash();
  });

  /** @param {any} message */
  function onWorkerMessage(message) {
    switch (message.type) {
      case 'catalogue':
        catalogue = message.scenes;
        fillScenePicker(picker, catalogue);
        loadSceneFromHash();
        break;
      case 'scene':
        if (message.requestId === latestRequest.id) showScene(message);
        break;
      case 'error':
        if (message.requestId === latestRequest.id) {
          showError(`Could not load the scene "${latestRequest.sceneId}": ${message.message}`);
          status.hidden = true;
          // Keep showing, and pointing at, the last scene that worked.
          if (shownSceneId !== null) {
            picker.value = shownSceneId;
            writeSceneToHash(shownSceneId, { replace: true });
            document.body.dataset.ready = 'true';
          }
        }
        break;
      case 'fatal':
        fail(message.message);
        break;
      default:
        throw new Error(`The worker sent an unknown message type "${message.type}".`);
    }
  }

  /** Loads the scene the hash names, falling back to the default. */
  function loadSceneFromHash() {
    let sceneId = sceneFromHash();
    if (!catalogue.some((scene) => scene.id === sceneId)) {
      const fallback = catalogue.find((scene) => scene.id === DEFAULT_SCENE);
      showNotice(`There is no built-in scene "${sceneId}", so the ${fallback?.title ?? DEFAULT_SCENE} is shown instead.`);
      sceneId = DEFAULT_SCENE;
      writeSceneToHash(sceneId, { replace: true });
    }
    if (sceneId === shownSceneId && latestRequest.sceneId === sceneId) return;
    requestScene(sceneId);
  }

  /** @param {string} sceneId */
  function requestScene(sceneId) {
    latestRequest = { id: nextRequestId++, sceneId };
    picker.value = sceneId;
    document.body.dataset.ready = 'false';
    const title = catalogue.find((scene) => scene.id === sceneId)?.title ?? sceneId;
    status.textContent = `Loading ${title}…`;
    status.hidden = false;
    worker.postMessage({ type: 'load', requestId: latestRequest.id, sceneId });
  }

  /** @param {{info: any, bodies: import('./render/renderer.js').BodyMesh[], transforms: Float32Array}} message */
  function showScene({ info, bodies, transforms }) {
    // Frame the free bodies and what they rest on, not a 10 m ground plate.
    const boundsMin = vec3(info.focus_min ?? info.bounds_min, 'focus_min');
    const boundsMax = vec3(info.focus_max ?? info.bounds_max, 'focus_max');
    const up = vec3(info.up, 'up');
    renderer.setScene(bodies, transforms);
    renderer.resize();
    camera.frame(boundsMin, boundsMax, up, renderer.aspect());
    describeScene(info, bodies);
    clearError();
    status.hidden = true;
    shownSceneId = latestRequest.sceneId;
    sceneAwaitingFirstFrame = shownSceneId;
    requestDraw();
  }

  /**
   * @param {any} info
   * @param {import('./render/renderer.js').BodyMesh[]} bodies
   */
  function describeScene(info, bodies) {
    const summary = catalogue.find((scene) => scene.id === latestRequest.sceneId);
    document.getElementById('scene-title').textContent = info.title ?? summary?.title ?? '';
    document.getElementById('scene-group').textContent = info.group ?? summary?.group ?? '';
    document.getElementById('scene-description').textContent = info.description ?? summary?.description ?? '';
    const fixed = bodies.filter((body) => body.fixed).length;
    const free = bodies.length - fixed;
    const facts = [`${free} free ${free === 1 ? 'body' : 'bodies'}`, `${fixed} fixed`];
    if (summary && Number.isFinite(summary.min_contacts)) facts.push(`minimal contact count ${summary.min_contacts}`);
    document.getElementById('scene-facts').textContent = facts.join(' · ');
  }

  /** @param {string} message */
  function fail(message) {
    showError(message);
    status.hidden = true;
    picker.disabled = true;
  }
}

/**
 * Checks a 3-vector from the core; a malformed one is a bug worth a banner,
 * not a camera full of NaNs.
 * @param {unknown} value
 * @param {string} name
 * @returns {[number, number, number]}
 */
function vec3(value, name) {
  const list = ArrayBuffer.isView(value) ? Array.from(/** @type {any} */ (value)) : value;
  if (Array.isArray(list) && list.length === 3 && list.every(Number.isFinite)) {
    return /** @type {[number, number, number]} */ (list);
  }
  throw new Error(`The core sent scene info with a malformed ${name}: ${JSON.stringify(value)}`);
}
