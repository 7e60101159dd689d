/**
 * @file Entry point of the page. It keeps the page state (scene, settings,
 * step, view; the same state the URL hash holds), asks the simulation worker
 * (session.js) to load and step, and shows what comes back: the 3D view, the
 * readout and the plots. The main thread never runs the core, so the page
 * stays responsive whatever the core is doing; every number shown comes
 * from the core.
 *
 * For the browser tests: `document.body.dataset.ready` is "true" while
 * nothing is pending and the current frame is drawn; `data-scene` and
 * `data-step` name what is shown; `data-first-frame-ms` is the time of the
 * first drawn frame.
 */

import { runBench } from './bench.js';
import { drawCountHistory } from './plots/count-history.js';
import { drawHistogram } from './plots/histogram.js';
import { drawRegionAreas } from './plots/region-areas.js';
import { drawSortedQuality } from './plots/sorted-quality.js';
import { OrbitCamera } from './render/camera.js';
import { contactInstances } from './render/contacts.js';
import { attachOrbitControls } from './render/controls.js';
import { bodyCentres, explodeOffsets, isStack, offsetTransforms } from './render/explode.js';
import { nearestInstance, pickBody } from './render/picking.js';
import { Renderer } from './render/renderer.js';
import { CoreError, Session } from './session.js';
import { clearError, clearNotice, showError, showNotice, wireDismissButtons } from './ui/banner.js';
import { ComparePanel } from './ui/compare.js';
import { contactsCsv, contactsJson, copyText, downloadCanvas, downloadText } from './ui/export.js';
import { DEFAULT_SCENE, formatHash, parseHash, replaceHash } from './ui/hash.js';
import { openHelp } from './ui/help.js';
import { showLegend } from './ui/legend.js';
import { cloneSettings } from './ui/parameters.js';
import { buildReadout, showReadout } from './ui/readout.js';
import { LONG_LINK, packSceneText, sceneTitle, unpackSceneText, wireSceneFileInputs } from './ui/scene-file.js';
import { fillScenePicker } from './ui/scene-picker.js';
import { SettingsPanel } from './ui/settings-panel.js';
import { hideTooltip, showContactTooltip } from './ui/tooltip.js';

/** `loadScene`'s `runTo` for "the scene's measure step" (3 for the Pillar:
 * a visitor sees contacts and numbers at once, where the paper measures). */
const MEASURE_STEP = 'measure';

const $ = (id) => /** @type {any} */ (document.getElementById(id));
/** Picker value of a visitor's own scene file. */
const FILE_OPTION = '__file__';
/** A "run to step" slice: long enough to amortise messages, short enough to stop promptly. */
const RUN_SLICE_MS = 100;

const canvas = /** @type {HTMLCanvasElement} */ ($('view'));
const status = $('status');
wireDismissButtons();

// preserveDrawingBuffer keeps the last frame readable, for the tests'
// pixel checks and for exporting the view as PNG.
const gl = canvas.getContext('webgl2', { alpha: false, antialias: true, preserveDrawingBuffer: true });
if (gl) {
  start(gl).catch((error) => fail(error instanceof Error ? error.message : String(error)));
} else {
  $('no-webgl').hidden = false;
  status.hidden = true;
}

/** @param {string} message */
function fail(message) {
  showError(message);
  status.hidden = true;
  document.body.dataset.ready = 'true';
}

/** @param {WebGL2RenderingContext} gl */
async function start(gl) {
  const renderer = new Renderer(canvas, gl);
  const camera = new OrbitCamera();
  const session = new Session(new URL('./worker.js', import.meta.url));
  const catalogue = await session.catalogue();
  const sceneIds = catalogue.scenes.map((s) => s.id);
  const methodIds = catalogue.methods.map((m) => m.id);

  /** Everything the page shows, and what the hash holds. */
  const app = {
    /** @type {import('./ui/hash.js').PageState} */
    state: parseHash('', { defaults: catalogue.defaults, sceneIds, methodIds }).state,
    /** The visitor's scene file: its text, title and file name. */
    file: /** @type {{text: string, title: string, name: string} | null} */ (null),
    /** The state of the last scene that loaded, to return to when a load fails. */
    loaded: /** @type {{state: any, file: any} | null} */ (null),
    info: /** @type {any} */ (null),
    bodyTriangles: /** @type {Float32Array[]} */ ([]),
    bodyRadii: /** @type {number[]} */ ([]),
    frame: /** @type {{step: number, record: any, transforms: Float32Array, contacts: Float32Array} | null} */ (null),
    /** [step, count] of every step since the scene was (re)built. */
    history: /** @type {Array<[number, number]>} */ ([]),
    playing: false,
    /** "Run to step" target, or null. */
    target: /** @type {number | null} */ (null),
    inFlight: false,
    loading: false,
    /** The step at which a setting changed in the middle of a run, or null. */
    changedAt: /** @type {number | null} */ (null),
    stack: false,
    sceneCentre: /** @type {number[]} */ ([0, 0, 0]),
    instances: new Float32Array(0),
    instanceContacts: /** @type {number[]} */ ([]),
    firstFrameDrawn: false,
    /** A #bench run: the page only loads the scene and reports timings. */
    bench: false,
    /** Resolves at the first drawn frame, for #bench. */
    firstFrame: /** @type {Promise<void>} */ (null),
  };
  let resolveFirstFrame = () => {};
  app.firstFrame = new Promise((resolve) => {
    resolveFirstFrame = resolve;
  });

  // ---- drawing --------------------------------------------------------

  let frameRequested = false;
  function requestDraw() {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      renderer.resize();
      renderer.draw(camera);
      if (app.frame && !app.firstFrameDrawn) {
        app.firstFrameDrawn = true;
        document.body.dataset.firstFrameMs = String(performance.now());
        resolveFirstFrame();
      }
      if (isIdle()) document.body.dataset.ready = 'true';
    });
  }

  function isIdle() {
    return app.frame !== null && !app.loading && !app.inFlight && !app.playing && app.target === null;
  }

  function markBusy() {
    document.body.dataset.ready = 'false';
  }

  new ResizeObserver(() => {
    requestDraw();
    drawPlots();
  }).observe(canvas);
  canvas.addEventListener('webglcontextlost', (event) => {
    event.preventDefault();
    showError('The graphics context was lost (the GPU was reset or is out of memory). Reload the page.');
  });

  // ---- controls -------------------------------------------------------

  const scenePicker = /** @type {HTMLSelectElement} */ ($('scene-picker'));
  fillScenePicker(scenePicker, catalogue.scenes);
  buildReadout($('readout'));

  const settingsPanel = new SettingsPanel({
    methods: catalogue.methods,
    onChange: (edit) => changeSettings(edit),
    onInvalid: (message) => showNotice(message),
  });

  const compare = new ComparePanel({
    session,
    beforeRun: () => {
      app.playing = false;
      updateRunControls();
      document.body.dataset.compare = 'running';
    },
    onDone: (cancelled) => {
      document.body.dataset.compare = cancelled ? 'cancelled' : 'done';
    },
  });

  scenePicker.addEventListener('change', () => {
    clearNotice();
    if (scenePicker.value === FILE_OPTION) return;
    app.state.scene = scenePicker.value;
    app.state.file = null;
    app.state.step = 0;
    app.state.cam = null;
    loadScene({ runTo: MEASURE_STEP });
  });

  wireSceneFileInputs({
    input: $('file-input'),
    button: $('open-file'),
    dropTarget: document.body,
    onFile: (text, name) => openSceneFile(text, name),
    onError: (message) => showError(message),
  });

  $('play').addEventListener('click', () => {
    // While running to a step this button reads "Stop".
    if (app.target !== null) {
      app.target = null;
      app.playing = false;
    } else {
      app.playing = !app.playing;
    }
    updateRunControls();
    // Pausing with no step in hand: the pump is waiting for the next frame.
    if (!app.playing && !app.inFlight) writeHash();
    pump();
  });
  $('step-once').addEventListener('click', () => {
    if (!app.frame) return;
    app.playing = false;
    app.target = app.frame.step + 1;
    pump();
  });
  $('reset').addEventListener('click', () => resetScene());
  $('run-to-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const field = /** @type {HTMLInputElement} */ ($('run-to-step'));
    const step = Number(field.value);
    if (!Number.isInteger(step) || step < 0 || step > 100000) {
      showNotice(`Run to step: "${field.value}" is not a whole number from 0 to 100000.`);
      return;
    }
    runTo(step);
  });

  for (const radio of document.querySelectorAll('input[name="view-mode"]')) {
    radio.addEventListener('change', (event) => {
      app.state.view = /** @type {any} */ (event.target).value;
      renderer.setViewMode(app.state.view);
      requestDraw();
      writeHash();
    });
  }
  $('explode').addEventListener('input', () => {
    app.state.explode = Number($('explode').value);
    $('explode-value').textContent = app.state.explode.toFixed(2);
    // Until the visitor moves the camera, it keeps the spread scene in view.
    if (!app.state.cam && app.info) frameCamera();
    updateView();
    writeHash();
  });
  $('only-wrong').addEventListener('change', () => {
    app.state.onlyWrong = $('only-wrong').checked;
    updateView();
    writeHash();
  });
  $('feature-colours').addEventListener('change', () => {
    app.state.featureColours = $('feature-colours').checked;
    updateView();
    writeHash();
  });

  $('copy-link').addEventListener('click', async () => {
    writeHash();
    const link = window.location.href;
    const copied = await copyText(link);
    const long = link.length > LONG_LINK ? ` It is ${link.length} characters long (your scene file is in it); some mail and chat programs cut links above ${LONG_LINK}.` : '';
    showNotice(`${copied ? 'The link is on the clipboard.' : 'The browser refused the clipboard; copy the address bar instead.'}${long}`);
  });
  /** @param {(contacts: any[]) => void} save */
  async function exportContacts(save) {
    try {
      save(await session.contacts());
    } catch (error) {
      showError(`Could not export the contacts: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  $('export-csv').addEventListener('click', () =>
    exportContacts((contacts) => downloadText(`${exportName()}.csv`, contactsCsv(contacts), 'text/csv')),
  );
  $('export-json').addEventListener('click', () =>
    exportContacts((contacts) => {
      const context = { scene: app.info?.id ?? '', step: app.frame?.step ?? 0, settings: app.state.settings };
      downloadText(`${exportName()}.json`, contactsJson(contacts, context), 'application/json');
    }),
  );
  $('export-png').addEventListener('click', () => downloadCanvas(canvas, `${exportName()}.png`));

  const helpDialog = /** @type {HTMLDialogElement} */ ($('help-dialog'));
  document.addEventListener('click', (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest?.('[data-help]');
    if (!button) return;
    const topic = button.getAttribute('data-help');
    openHelp(helpDialog, topic === 'method' ? `method:${app.state.settings.method}` : topic);
  });
  $('open-help').addEventListener('click', () => openHelp(helpDialog, ''));

  // ---- camera, hover, focus --------------------------------------------

  attachOrbitControls(canvas, camera, () => {
    app.state.cam = camera.getState();
    hideTooltip($('tooltip'));
    requestDraw();
    writeHash(true);
  });

  canvas.addEventListener('pointermove', (event) => {
    if (event.buttons !== 0 || app.instances.length === 0) {
      hideTooltip($('tooltip'));
      return;
    }
    const rect = canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const hit = nearestInstance(app.instances, renderer.viewProjection, renderer.contactLength, { x, y, width: rect.width, height: rect.height }, 6);
    if (hit < 0) {
      hideTooltip($('tooltip'));
      return;
    }
    showContactTooltip($('tooltip'), app.frame.contacts, app.instanceContacts[hit], {
      bodyNames: app.info.bodies.map((b) => b.name),
      featureKinds: catalogue.featureKinds,
      x,
      y,
    });
  });
  canvas.addEventListener('pointerleave', () => hideTooltip($('tooltip')));

  canvas.addEventListener('dblclick', (event) => {
    if (!app.frame) return;
    const rect = canvas.getBoundingClientRect();
    const ndcX = ((event.clientX - rect.left) / rect.width) * 2 - 1;
    const ndcY = 1 - ((event.clientY - rect.top) / rect.height) * 2;
    const transforms = renderer.transforms;
    const body = pickBody(camera.ray(ndcX, ndcY, renderer.aspect()), app.bodyTriangles, transforms);
    if (body < 0) {
      frameCamera();
    } else {
      camera.focus([transforms[body * 16 + 12], transforms[body * 16 + 13], transforms[body * 16 + 14]], app.bodyRadii[body]);
    }
    app.state.cam = camera.getState();
    requestDraw();
    writeHash();
  });

  window.addEventListener('hashchange', () => applyHash(window.location.hash));

  // ---- the simulation ---------------------------------------------------

  session.onRestart = () => {
    // The core trapped; the worker was replaced. Rebuild the last good
    // state: load again and re-run to the step that was shown.
    const step = app.frame?.step ?? 0;
    app.inFlight = false;
    app.playing = false;
    loadScene({ runTo: step, keepCamera: true });
  };

  /** The scene reference the worker loads: a built-in id or the file's text. */
  function sceneRef() {
    return app.state.file && app.file ? { text: app.file.text } : { id: app.state.scene };
  }

  /**
   * Loads the scene of `app.state` with its settings, then runs to `runTo`.
   * On failure the worker keeps the previous scene, and so does the page.
   * @param {{runTo: number | "measure", keepCamera?: boolean, keepError?: boolean}} options
   *   keepError: leave the error banner up (a fallback after a failed load)
   * @returns {Promise<boolean>} whether the scene loaded
   */
  async function loadScene({ runTo, keepCamera = false, keepError = false }) {
    app.playing = false;
    app.target = null;
    app.loading = true;
    markBusy();
    updateRunControls();
    const title = app.state.file ? app.file?.title : catalogue.scenes.find((s) => s.id === app.state.scene)?.title;
    status.textContent = `Loading ${title ?? 'the scene'}…`;
    status.hidden = false;
    let result;
    try {
      result = await session.load(sceneRef(), app.state.settings);
    } catch (error) {
      app.loading = false;
      status.hidden = true;
      updateRunControls();
      const message = error instanceof Error ? error.message : String(error);
      showError(`Could not load ${app.state.file ? `"${app.file?.name}"` : `the scene "${app.state.scene}"`}: ${message}`);
      if (app.loaded) {
        // Back to what the worker still holds.
        app.state = { ...app.state, ...cloneState(app.loaded.state), step: app.frame?.step ?? 0 };
        app.file = app.loaded.file;
        showControls();
        writeHash();
        pump();
      } else if (app.state.file || app.state.scene !== DEFAULT_SCENE) {
        app.state.file = null;
        app.file = null;
        app.state.scene = DEFAULT_SCENE;
        await loadScene({ runTo: 0, keepError: true });
      }
      return false;
    }
    app.loading = false;
    status.hidden = true;
    if (!keepError) clearError();
    app.loaded = { state: cloneState(app.state), file: app.file };
    app.history = [];
    app.changedAt = null;
    showScene(result, keepCamera);
    const target = runTo === MEASURE_STEP ? (app.info?.measure_step ?? 0) : runTo;
    if (target > 0) app.target = target;
    pump();
    return true;
  }

  /**
   * Runs from the current step to `step`.
   * @param {number} step
   */
  function startRunTo(step) {
    app.target = step;
    pump();
  }

  /**
   * Runs to `step`, from the start when it lies behind.
   * @param {number} step
   */
  async function runTo(step) {
    app.playing = false;
    if (!app.loading && app.frame && step < app.frame.step) await resetScene();
    startRunTo(step);
  }

  /** Back to step 0 with the current settings. A "run to" asked for meanwhile starts after. */
  async function resetScene() {
    app.playing = false;
    app.target = null;
    // Holds the pump until the worker has reset.
    app.loading = true;
    markBusy();
    updateRunControls();
    try {
      const { frame } = await session.reset();
      app.loading = false;
      app.history = [];
      app.changedAt = null;
      applyFrame(frame);
    } catch (error) {
      app.loading = false;
      reportStepError(error);
    }
    pump();
  }

  /**
   * Applies a settings edit: the worker decides whether it needs a rebuild
   * (perturbation, seed, refinement, erosion) or applies from the next step.
   * @param {(settings: any) => void} edit
   */
  async function changeSettings(edit) {
    const previous = app.state.settings;
    const next = cloneSettings(previous);
    edit(next);
    app.state.settings = next;
    markBusy();
    let result;
    try {
      result = await session.setSettings(next);
    } catch (error) {
      app.state.settings = previous;
      showControls();
      if (!(error instanceof CoreError && error.panic)) showError(`That setting was not applied: ${error instanceof Error ? error.message : String(error)}`);
      requestDraw();
      return;
    }
    app.loaded = { state: cloneState(app.state), file: app.file };
    document.body.dataset.method = next.method;
    if (result.reset) {
      app.history = [];
      app.changedAt = null;
      app.target = null;
      showScene(result, true);
    } else {
      if (app.frame && app.frame.step > 0 && app.changedAt === null) app.changedAt = app.frame.step;
      settingsPanel.show(app.state.settings, app.info?.dt ?? null, app.info?.friction ?? null);
      writeHash();
      requestDraw();
    }
    updateLinkNote();
    pump();
  }

  /**
   * Asks the worker for the next steps when playing or running to a target.
   * One request at a time: the worker is never flooded, and a pause takes
   * effect after the step in hand.
   */
  function pump() {
    if (app.inFlight || app.loading || !app.frame) return;
    const current = app.frame.step;
    let count = 0;
    let budget = 0;
    if (app.target !== null && app.target > current) {
      count = app.target - current;
      budget = RUN_SLICE_MS;
    } else if (app.playing) {
      count = 1;
    }
    if (count === 0) {
      app.target = null;
      updateRunControls();
      // Idle now: the hash may still hold a throttled, older step.
      writeHash();
      requestDraw();
      return;
    }
    app.inFlight = true;
    markBusy();
    updateRunControls();
    session.step(count, budget).then(
      ({ frame, history }) => {
        app.inFlight = false;
        app.history.push(...history);
        applyFrame(frame);
        // Playing shows every step: the next one waits for the display.
        if (app.playing && app.target === null) requestAnimationFrame(pump);
        else pump();
      },
      (error) => {
        app.inFlight = false;
        reportStepError(error);
      },
    );
  }

  /** @param {unknown} error */
  function reportStepError(error) {
    app.playing = false;
    app.target = null;
    updateRunControls();
    // A panic restarts the worker, which reports through onRestart.
    if (error instanceof CoreError && error.panic) {
      showError(`The simulation core hit an internal error: ${error.message}. It was restarted at the last good step.`);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    showError(`${message}. The view shows the last good step; press Reset to start again.`);
    requestDraw();
  }

  // ---- showing what the worker sent -----------------------------------

  /**
   * @param {{info: any, bodies: any[], frame: any}} result
   * @param {boolean} keepCamera keep the view (a rebuild of the same scene)
   */
  function showScene({ info, bodies, frame }, keepCamera) {
    app.info = info;
    app.bodyTriangles = bodies.map((b) => b.triangles);
    app.bodyRadii = bodies.map((b) => {
      let r = 0;
      for (let i = 0; i < b.triangles.length; i += 3) r = Math.max(r, Math.hypot(b.triangles[i], b.triangles[i + 1], b.triangles[i + 2]));
      return r;
    });
    renderer.setScene(bodies, frame.transforms);
    renderer.resize();
    const fixed = info.bodies.map((b) => b.fixed);
    app.stack = isStack(bodyCentres(frame.transforms, bodies.length), fixed, info.up);
    app.sceneCentre = info.focus_min.map((v, i) => (v + info.focus_max[i]) / 2);
    // Glyphs scale with the scene, but stay shorter than a typical free
    // body, or the wall's thousand contacts would hide its bricks.
    const size = Math.hypot(...info.focus_max.map((v, i) => v - info.focus_min[i]));
    const freeRadii = app.bodyRadii.filter((_, i) => !fixed[i]).sort((a, b) => a - b);
    const typical = freeRadii.length > 0 ? freeRadii[Math.floor(freeRadii.length / 2)] : size;
    renderer.contactLength = Math.min(size * 0.05, typical * 0.6);
    renderer.contactRadius = renderer.contactLength * 0.12;
    if (!keepCamera) frameCamera();
    if (!keepCamera && app.state.cam) camera.setState(app.state.cam);
    describeScene(info, bodies);
    showControls();
    compare.setScene({ methods: catalogue.methods, oracle: info.oracle, title: info.title, id: info.id, measureStep: info.measure_step });
    for (const id of ['export-csv', 'export-json']) $(id).disabled = false;
    $('plot-regions-figure').hidden = !(info.expected_region_areas?.length > 0);
    document.body.dataset.scene = app.state.file ? FILE_OPTION : info.id;
    applyFrame(frame);
  }

  /** Frames the scene's focus box, grown by the explode factor so spread bodies stay in view. */
  function frameCamera() {
    const info = app.info;
    const grow = 1 + app.state.explode;
    const min = info.focus_min.map((v, i) => app.sceneCentre[i] + (v - app.sceneCentre[i]) * grow);
    const max = info.focus_max.map((v, i) => app.sceneCentre[i] + (v - app.sceneCentre[i]) * grow);
    renderer.resize();
    camera.frame(min, max, info.up, renderer.aspect());
  }

  /** @param {{step: number, record: any, transforms: Float32Array, contacts: Float32Array}} frame */
  function applyFrame(frame) {
    app.frame = frame;
    app.state.step = frame.step;
    document.body.dataset.step = String(frame.step);
    document.body.dataset.method = app.state.settings.method;
    updateView();
    showReadout($('readout'), frame.record, frame.step, app.info);
    drawPlots();
    updateRunControls();
    updateLinkNote();
    writeHash();
  }

  /** Body poses, explode offsets and contact glyphs from the current frame. */
  function updateView() {
    if (!app.frame || !app.info) return;
    const { transforms, contacts } = app.frame;
    const centres = bodyCentres(transforms, app.info.bodies.length);
    const offsets = explodeOffsets(centres, app.sceneCentre, app.info.up, app.stack, app.state.explode);
    renderer.setTransforms(offsetTransforms(transforms, offsets));
    const { instances, indices } = contactInstances(contacts, offsets, app.state);
    app.instances = instances;
    app.instanceContacts = indices;
    renderer.setContacts(instances);
    showLegend($('legend'), {
      featureColours: app.state.featureColours,
      featureKinds: catalogue.featureKinds,
      hasOracle: app.info.oracle !== 'none',
      count: contacts.length / 12,
      shown: indices.length,
    });
    requestDraw();
  }

  function drawPlots() {
    const record = app.frame?.record;
    const tolerance = (app.state.settings.angle_tolerance_deg * Math.PI) / 180;
    drawSortedQuality($('plot-sorted'), record?.sorted_quality ?? [], Math.cos(tolerance));
    drawHistogram($('plot-histogram'), record?.histogram ?? new Array(20).fill(0));
    drawCountHistory($('plot-count'), app.history, app.info?.min_contacts ?? null);
    // The plateaus are the exact regions' areas, computed by the core.
    const plateaus = app.info?.expected_region_areas ?? [];
    if (plateaus.length > 0) drawRegionAreas($('plot-regions'), record?.region_areas ?? [], plateaus);
  }

  /** Puts the state into every control. */
  function showControls() {
    const s = app.state;
    if (s.file && app.file) {
      let group = scenePicker.querySelector('optgroup[data-file]');
      if (!group) {
        group = document.createElement('optgroup');
        group.label = 'Your scene';
        group.dataset.file = 'true';
        group.append(document.createElement('option'));
        scenePicker.append(group);
      }
      const option = group.querySelector('option');
      option.value = FILE_OPTION;
      option.textContent = app.file.title;
      scenePicker.value = FILE_OPTION;
    } else {
      scenePicker.querySelector('optgroup[data-file]')?.remove();
      scenePicker.value = s.scene;
    }
    settingsPanel.show(s.settings, app.info?.dt ?? null, app.info?.friction ?? null);
    for (const radio of document.querySelectorAll('input[name="view-mode"]')) radio.checked = radio.value === s.view;
    renderer.setViewMode(s.view);
    $('explode').value = String(s.explode);
    $('explode-value').textContent = s.explode.toFixed(2);
    $('only-wrong').checked = s.onlyWrong;
    $('feature-colours').checked = s.featureColours;
  }

  /** @param {any} info @param {any[]} bodies */
  function describeScene(info, bodies) {
    $('scene-title').textContent = info.title;
    $('scene-group').textContent = info.group;
    $('scene-description').textContent = info.description;
    const fixed = bodies.filter((body) => body.fixed).length;
    const free = bodies.length - fixed;
    const facts = [`${free} free ${free === 1 ? 'body' : 'bodies'}`, `${fixed} fixed`, `time step ${info.dt} s`];
    if (Number.isFinite(info.min_contacts)) facts.push(`minimal contact count ${info.min_contacts}`);
    facts.push(`measured at step ${info.measure_step}`);
    $('scene-facts').textContent = facts.join(' · ');
  }

  function updateRunControls() {
    const ready = app.frame !== null && !app.loading;
    $('play').disabled = !ready;
    $('play').textContent = app.playing ? 'Pause' : 'Play';
    $('step-once').disabled = !ready;
    $('reset').disabled = !ready;
    $('run-to').disabled = !ready;
    const step = app.frame?.step ?? 0;
    let text = '';
    if (app.target !== null) text = `Running to step ${app.target}… at step ${step}`;
    else if (app.playing) text = `Playing: step ${step}`;
    $('run-status').textContent = text;
    if (app.target !== null) {
      // The stop button for a long run is the Play/Pause button.
      $('play').textContent = 'Stop';
    }
  }

  /** Says when the link cannot reproduce the run exactly. */
  function updateLinkNote() {
    const note = $('link-note');
    if (app.changedAt === null) {
      note.hidden = true;
      return;
    }
    note.hidden = false;
    note.innerHTML = '';
    note.append(
      `Settings changed at step ${app.changedAt}. A link replays every step with the current settings, so its numbers can differ. `,
    );
    const replay = document.createElement('button');
    replay.type = 'button';
    replay.className = 'linkish';
    replay.textContent = `Replay to step ${app.frame?.step ?? 0} now`;
    const step = app.frame?.step ?? 0;
    replay.addEventListener('click', async () => {
      await resetScene();
      startRunTo(step);
    });
    note.append(replay);
  }

  // ---- the hash -------------------------------------------------------

  let hashTimer = 0;
  /**
   * Writes the state into the hash: at once when idle, at most four times
   * a second while playing or when `throttle` (a camera drag), since
   * browsers throttle replaceState.
   * @param {boolean} [throttle]
   */
  function writeHash(throttle = false) {
    // A #bench link stays as the benchmark driver wrote it.
    if (app.loading || app.bench) return;
    if (!throttle && (!app.playing || app.target !== null)) {
      clearTimeout(hashTimer);
      hashTimer = 0;
      replaceHash(formatHash(app.state));
      return;
    }
    if (hashTimer) return;
    hashTimer = window.setTimeout(() => {
      hashTimer = 0;
      replaceHash(formatHash(app.state));
    }, 250);
  }

  /**
   * Reads a hash and shows what it describes.
   * @param {string} hash
   */
  async function applyHash(hash) {
    const { state, problems, bench, stepGiven } = parseHash(hash, { defaults: catalogue.defaults, sceneIds, methodIds });
    let file = null;
    if (state.file) {
      try {
        const text = await unpackSceneText(state.file);
        file = { text, title: sceneTitle(text, 'your scene file'), name: 'the scene file in the link' };
      } catch (error) {
        problems.push(`${error instanceof Error ? error.message : String(error)}; showing the ${state.scene} instead`);
        state.file = null;
      }
    }
    if (problems.length > 0) showNotice(`Some of the link was not understood, so defaults are used there: ${problems.join('; ')}.`);
    else clearNotice();
    app.state = state;
    app.file = file;
    showControls();
    if (bench) {
      app.bench = true;
      await loadScene({ runTo: 0 });
      await runBench({ session, state, bench, firstFrame: app.firstFrame });
      return;
    }
    await loadScene({ runTo: stepGiven ? state.step : MEASURE_STEP });
    writeHash();
  }

  /**
   * @param {string} text
   * @param {string} name
   */
  async function openSceneFile(text, name) {
    const previousFile = app.file;
    const previousState = cloneState(app.state);
    app.file = { text, title: sceneTitle(text, name), name };
    app.state.file = await packSceneText(text);
    app.state.step = 0;
    app.state.cam = null;
    if (!(await loadScene({ runTo: 0 }))) {
      // loadScene went back to the last scene that loaded, if any.
      if (!app.loaded) {
        app.file = previousFile;
        app.state = previousState;
      }
      return;
    }
    const length = formatHash(app.state).length;
    if (length > LONG_LINK) showNotice(`Your scene file makes the link ${length} characters long; some mail and chat programs cut links above ${LONG_LINK}.`);
  }

  function exportName() {
    const scene = app.state.file ? 'scene-file' : app.state.scene;
    return `contactlab-${scene}-${app.state.settings.method}-step${app.frame?.step ?? 0}`;
  }

  await applyHash(window.location.hash);
}

/** @param {any} state @returns {any} a deep copy of a page state */
function cloneState(state) {
  return JSON.parse(JSON.stringify(state));
}
