/**
 * @file Entry point of the page: DOM wiring only. The run controller
 * (state/run-controller.js) decides what the simulation worker does and
 * what is shown; the link's state is read and written by
 * state/page-state.js, with the settings read and written by the core. This
 * file puts controls, the 3D view, the readout and the plots on screen, and
 * turns clicks into requests to the controller.
 *
 * The page's promise: what the readout, the view and the plots show is the
 * state the link names (scene, every setting, step), simulated from step 0.
 * A change of any setting replays from step 0 to the current step, with the
 * old frame dimmed and labelled meanwhile.
 *
 * For the browser tests, on <body>: `data-run` is "replaying", "playing",
 * "idle", or "diverged" (idle at a step where the core stopped a run that
 * blew up); `data-ready` is "true" while idle with the frame drawn and the
 * link written; `data-scene`, `data-method` and `data-step` name what is
 * shown; `data-first-frame-ms` is the time of the first drawn frame;
 * `data-compare` follows a comparison.
 */

import { runBench } from './bench.js';
import { drawCountHistory } from './plots/count-history.js';
import { drawHistogram } from './plots/histogram.js';
import { drawRegionAreas } from './plots/region-areas.js';
import { drawSortedQuality } from './plots/sorted-quality.js';
import { OrbitCamera } from './render/camera.js';
import { contactCount, contactInstances } from './render/contacts.js';
import { attachOrbitControls } from './render/controls.js';
import { bodyCentres, explodeOffsets, isStack, offsetTransforms } from './render/explode.js';
import { nearestInstance, pickBody } from './render/picking.js';
import { Renderer } from './render/renderer.js';
import { CoreError, Session } from './session.js';
import { DEFAULT_SCENE, formatHash, parseHash } from './state/page-state.js';
import { RunController } from './state/run-controller.js';
import { clearError, clearNotice, showError, showNotice, wireDismissButtons } from './ui/banner.js';
import { ComparePanel } from './ui/compare.js';
import { canRestore, restoredSettings, showDivergence } from './ui/divergence.js';
import { contactsCsv, contactsJson, copyText, downloadCanvas, downloadText } from './ui/export.js';
import { openHelp } from './ui/help.js';
import { showLegend } from './ui/legend.js';
import { attachKeyboardOrbit, installShortcuts } from './ui/keyboard.js';
import { Presentation } from './ui/presentation.js';
import { fillPresetPicker, matchingPreset } from './ui/presets.js';
import { buildReadout, headlineText, showReadout } from './ui/readout.js';
import { LONG_LINK, packSceneText, sceneTitle, unpackSceneText, wireSceneFileInputs } from './ui/scene-file.js';
import { fillScenePicker } from './ui/scene-picker.js';
import { SettingsPanel } from './ui/settings-panel.js';
import { hideTooltip, showContactTooltip } from './ui/tooltip.js';

const $ = (id) => /** @type {any} */ (document.getElementById(id));
/** Picker value of a visitor's own scene file. */
const FILE_OPTION = '__file__';
/** Browsers throttle replaceState; while playing the link is written at most this often. */
const HASH_INTERVAL_MS = 250;

const canvas = /** @type {HTMLCanvasElement} */ ($('view'));
const status = $('status');
wireDismissButtons();
document.body.dataset.run = 'idle';

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

/**
 * What the page simulates: the controller's configuration, with what the
 * link needs to name it.
 * @typedef {object} PageConfig
 * @property {{id: string} | {text: string}} scene what the worker loads
 * @property {Record<string, any>} settings
 * @property {string} sceneId the built-in scene (the last one picked, when a file is open)
 * @property {{packed: string, title: string, name: string} | null} file the visitor's scene file
 */

/** @param {WebGL2RenderingContext} gl */
async function start(gl) {
  const renderer = new Renderer(canvas, gl);
  const camera = new OrbitCamera();
  const session = new Session(new URL('./worker.js', import.meta.url));
  const catalogue = await session.catalogue();
  const sceneIds = catalogue.scenes.map((s) => s.id);
  const layout = catalogue.contactLayout;
  const schema = catalogue.schema;
  const methodSetting = schema.find((entry) => entry.kind === 'method')?.id ?? 'method';
  // The tolerance that makes a contact "correct" is drawn in the sorted
  // quality plot; its URL key is part of every shared link, so it is stable.
  const toleranceSetting = schema.find((entry) => entry.url_key === 'tol')?.id ?? null;

  /** The view's part of the link; it never changes what is simulated. */
  const view = {
    /** @type {number[] | null} */
    cam: null,
    /** @type {'solid' | 'wireframe' | 'tetrahedra'} */
    view: 'solid',
    explode: 0,
    onlyWrong: false,
    featureColours: false,
  };
  /** Render data of the shown scene. */
  const scene = {
    info: /** @type {any} */ (null),
    bodyTriangles: /** @type {Float32Array[]} */ ([]),
    bodyRadii: /** @type {number[]} */ ([]),
    stack: false,
    sceneCentre: [0, 0, 0],
    /** Which scene the camera was framed for: it is framed again only for another. */
    cameraKey: '',
    instances: new Float32Array(0),
    instanceContacts: /** @type {number[]} */ ([]),
    /** Contact arrow length in metres before presentation mode scales it. */
    glyphLength: 0.15,
  };
  /** A link's camera, applied when its scene is first shown. @type {number[] | null} */
  let pendingCam = null;
  /** The next scene shown is a fallback after a failed load: keep that error up. */
  let keepError = false;
  /** Link writes and typed-value checks waiting for the worker: the page is not ready meanwhile. */
  let hashWrites = 0;
  let pendingChecks = 0;
  let bench = false;
  let firstFrameDrawn = false;
  let resolveFirstFrame = () => {};
  const firstFrame = new Promise((resolve) => {
    resolveFirstFrame = resolve;
  });

  const controller = new RunController({
    worker: session,
    // Playing shows every step: the next one waits for the display.
    nextFrame: () => new Promise((resolve) => requestAnimationFrame(() => resolve())),
    listener: {
      scene: (shown) => showScene(shown),
      frame: (shown) => showFrame(shown),
      run: () => {
        showRunState();
        updateRunControls();
        updateReady();
      },
      progress: (progress) => showProgress(progress),
      error: (error, context) => reportError(error, context),
      link: () => {
        showControlsIfChanged();
        writeHash();
      },
    },
  });

  // ---- drawing --------------------------------------------------------

  let frameRequested = false;
  function requestDraw() {
    if (frameRequested) return;
    frameRequested = true;
    updateReady();
    requestAnimationFrame(() => {
      frameRequested = false;
      renderer.resize();
      renderer.draw(camera);
      if (controller.shown && !firstFrameDrawn) {
        firstFrameDrawn = true;
        document.body.dataset.firstFrameMs = String(performance.now());
        resolveFirstFrame();
      }
      updateReady();
    });
  }

  /** `data-run` on <body>: the controller's run state, or "diverged" when it stopped at a blow-up. */
  function showRunState() {
    const run = controller.run;
    document.body.dataset.run = run === 'idle' && controller.diverged ? 'diverged' : run;
  }

  /** Marks the page ready for the tests: idle, drawn, and the link written. */
  function updateReady() {
    const ready = controller.run === 'idle' && controller.shown !== null && !frameRequested && hashWrites === 0 && pendingChecks === 0;
    document.body.dataset.ready = String(ready);
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
    schema,
    check: async (id, text) => {
      // Until the core has answered, the typed value is neither refused nor replayed.
      pendingChecks++;
      updateReady();
      try {
        return await session.checkSetting(id, text);
      } finally {
        pendingChecks--;
        updateReady();
      }
    },
    onChange: (id, value) => changeSetting(id, value),
    onInvalid: (message) => showNotice(message),
  });

  const compare = new ComparePanel({
    session,
    beforeRun: () => {
      controller.pause();
      document.body.dataset.compare = 'running';
    },
    onDone: (cancelled) => {
      document.body.dataset.compare = cancelled ? 'cancelled' : 'done';
    },
  });

  scenePicker.addEventListener('change', () => {
    clearNotice();
    if (scenePicker.value === FILE_OPTION) return;
    const current = controller.config;
    if (!current) return;
    view.cam = null;
    pendingCam = null;
    controller.open({ scene: { id: scenePicker.value }, settings: current.settings, sceneId: scenePicker.value, file: null }, 'measure');
  });

  wireSceneFileInputs({
    input: $('file-input'),
    button: $('open-file'),
    dropTarget: document.body,
    onFile: (text, name) => openSceneFile(text, name),
    onError: (message) => showError(message),
  });

  function togglePlay() {
    if (controller.run === 'playing') controller.pause();
    else controller.play();
  }
  // While playing or running to a step these buttons read "Pause" or "Stop".
  $('play').addEventListener('click', togglePlay);
  $('view-play').addEventListener('click', togglePlay);

  // ---- presets, divergence, keyboard, presentation -----------------------

  /** @type {import('./ui/presets.js').Preset[]} */
  const presets = catalogue.presets ?? [];
  /** Each preset's settings object, read by the core from its pairs. */
  const presetSettings = new Map();
  const presetPicker = /** @type {HTMLSelectElement} */ ($('preset-picker'));
  fillPresetPicker(presetPicker, presets);
  await Promise.all(
    presets.map(async (preset) => {
      const { settings, problems } = await session.settingsFromPairs(preset.settings);
      if (problems.length === 0) presetSettings.set(preset.id, settings);
    }),
  );
  presetPicker.addEventListener('change', () => {
    const preset = presets.find((p) => p.id === presetPicker.value);
    const settings = preset && presetSettings.get(preset.id);
    if (!preset || !settings) return;
    clearNotice();
    view.cam = null;
    pendingCam = null;
    // The method shown stays: the paper's tables cover every method.
    const method = controller.config?.settings[methodSetting] ?? settings[methodSetting];
    /** @type {PageConfig} */
    const config = { scene: { id: preset.scene }, settings: { ...settings, [methodSetting]: method }, sceneId: preset.scene, file: null };
    controller.open(config, preset.step);
    compare.setSteps(preset.step);
  });
  /** @returns {import('./ui/presets.js').Preset | null} the preset the page shows exactly */
  function shownPreset() {
    const shown = controller.shown;
    return shown ? matchingPreset(presets, presetSettings, /** @type {PageConfig} */ (shown.config), shown.step, methodSetting) : null;
  }
  // A comparison matches a preset when it ran the shown preset's scene and
  // settings for the preset's step.
  compare.presetOfRun = (steps) => {
    const preset = shownPreset();
    return preset && preset.step === steps ? preset : null;
  };

  $('restore-settings').addEventListener('click', () => {
    const current = /** @type {PageConfig | null} */ (controller.config);
    if (!current) return;
    clearNotice();
    controller.change({ ...current, settings: restoredSettings(current.settings, schema) });
  });

  const presentation = new Presentation({
    button: $('present'),
    onChange: () => {
      sizeGlyphs();
      requestDraw();
    },
  });
  const keysDialog = /** @type {HTMLDialogElement} */ ($('keys-dialog'));
  const showKeys = () => {
    if (!keysDialog.open) keysDialog.showModal();
  };
  $('show-keys').addEventListener('click', showKeys);
  installShortcuts({
    togglePlay,
    step: () => controller.stepOnce(),
    reset: () => controller.reset(),
    present: () => presentation.toggle(),
    keys: showKeys,
    canvas,
  });
  /** Back to the framed view of the whole scene; the link forgets the camera. */
  function resetView() {
    if (!scene.info) return;
    frameCamera();
    view.cam = null;
    requestDraw();
    writeHash();
  }
  $('reset-view').addEventListener('click', resetView);
  $('step-once').addEventListener('click', () => controller.stepOnce());
  $('reset').addEventListener('click', () => controller.reset());
  $('replay-cancel').addEventListener('click', () => controller.cancel());
  $('run-to-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const field = /** @type {HTMLInputElement} */ ($('run-to-step'));
    const step = Number(field.value);
    if (!Number.isInteger(step) || step < 0 || step > 100000) {
      showNotice(`Run to step: "${field.value}" is not a whole number from 0 to 100000.`);
      return;
    }
    controller.runTo(step);
  });

  for (const radio of document.querySelectorAll('input[name="view-mode"]')) {
    radio.addEventListener('change', (event) => {
      view.view = /** @type {any} */ (event.target).value;
      renderer.setViewMode(view.view);
      requestDraw();
      writeHash();
    });
  }
  $('explode').addEventListener('input', () => {
    view.explode = Number($('explode').value);
    $('explode-value').textContent = view.explode.toFixed(2);
    // Until the visitor moves the camera, it keeps the spread scene in view.
    if (!view.cam && scene.info) frameCamera();
    updateView();
    writeHash();
  });
  $('only-wrong').addEventListener('change', () => {
    view.onlyWrong = $('only-wrong').checked;
    updateView();
    writeHash();
  });
  $('feature-colours').addEventListener('change', () => {
    view.featureColours = $('feature-colours').checked;
    updateView();
    writeHash();
  });

  $('copy-link').addEventListener('click', async () => {
    await writeHash();
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
      const shown = controller.shown;
      const context = { scene: scene.info?.id ?? '', step: shown?.step ?? 0, settings: shown?.config.settings ?? {} };
      downloadText(`${exportName()}.json`, contactsJson(contacts, context), 'application/json');
    }),
  );
  $('export-png').addEventListener('click', () => downloadCanvas(canvas, `${exportName()}.png`));

  const helpDialog = /** @type {HTMLDialogElement} */ ($('help-dialog'));
  document.addEventListener('click', (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest?.('[data-help]');
    if (!button) return;
    const topic = button.getAttribute('data-help');
    const method = controller.config?.settings[methodSetting] ?? '';
    openHelp(helpDialog, topic === 'method' ? `method:${method}` : topic, catalogue.methods);
  });
  $('open-help').addEventListener('click', () => openHelp(helpDialog, '', catalogue.methods));

  // ---- camera, hover, focus --------------------------------------------

  attachOrbitControls(canvas, camera, () => {
    view.cam = camera.getState();
    hideTooltip($('tooltip'));
    requestDraw();
    writeHash(true);
  });
  attachKeyboardOrbit(canvas, camera, {
    // A key press is one change, not a drag: the link is written at once.
    onChange: () => {
      view.cam = camera.getState();
      requestDraw();
      writeHash();
    },
    onReset: resetView,
  });

  canvas.addEventListener('pointermove', (event) => {
    const shown = controller.shown;
    if (event.buttons !== 0 || scene.instances.length === 0 || !shown) {
      hideTooltip($('tooltip'));
      return;
    }
    const rect = canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const hit = nearestInstance(scene.instances, renderer.viewProjection, renderer.contactLength, { x, y, width: rect.width, height: rect.height }, 6);
    if (hit < 0) {
      hideTooltip($('tooltip'));
      return;
    }
    showContactTooltip($('tooltip'), shown.frame.contacts, layout, scene.instanceContacts[hit], {
      bodyNames: scene.info.bodies.map((b) => b.name),
      featureKinds: catalogue.featureKinds,
      x,
      y,
    });
  });
  canvas.addEventListener('pointerleave', () => hideTooltip($('tooltip')));

  canvas.addEventListener('dblclick', (event) => {
    if (!controller.shown) return;
    const rect = canvas.getBoundingClientRect();
    const ndcX = ((event.clientX - rect.left) / rect.width) * 2 - 1;
    const ndcY = 1 - ((event.clientY - rect.top) / rect.height) * 2;
    const transforms = renderer.transforms;
    const body = pickBody(camera.ray(ndcX, ndcY, renderer.aspect()), scene.bodyTriangles, transforms);
    if (body < 0) {
      frameCamera();
    } else {
      camera.focus([transforms[body * 16 + 12], transforms[body * 16 + 13], transforms[body * 16 + 14]], scene.bodyRadii[body]);
    }
    view.cam = camera.getState();
    requestDraw();
    writeHash();
  });

  window.addEventListener('hashchange', () => {
    const hash = window.location.hash;
    const benchHash = new URLSearchParams(hash.replace(/^#/, '')).has('bench');
    // A benchmark times a freshly loaded page, never one that has run.
    if (benchHash && !bench) {
      window.location.reload();
      return;
    }
    // Leaving a benchmark: its result goes, and the link follows the page again.
    if (bench && !benchHash) {
      bench = false;
      document.getElementById('bench-result')?.remove();
    }
    applyHash(hash);
  });

  // ---- requests to the controller ---------------------------------------

  session.onRestart = () => controller.workerRestarted();

  /**
   * One setting edited: the same scene with the new settings, replayed to
   * the current step.
   * @param {string} id setting id
   * @param {any} value
   */
  function changeSetting(id, value) {
    const current = /** @type {PageConfig | null} */ (controller.config);
    if (!current || current.settings[id] === value) return;
    controller.change({ ...current, settings: { ...current.settings, [id]: value } });
  }

  /**
   * @param {string} text
   * @param {string} name
   */
  async function openSceneFile(text, name) {
    const current = /** @type {PageConfig | null} */ (controller.config);
    const packed = await packSceneText(text);
    view.cam = null;
    pendingCam = null;
    controller.open(
      {
        scene: { text },
        settings: current?.settings ?? { ...catalogue.defaults },
        sceneId: current?.sceneId ?? DEFAULT_SCENE,
        file: { packed, title: sceneTitle(text, name), name },
      },
      'measure',
    );
  }

  /**
   * @param {any} error
   * @param {{during: 'load' | 'step', config: PageConfig}} context
   */
  function reportError(error, { during, config }) {
    const message = error instanceof Error ? error.message : String(error);
    // A panic restarts the worker, and the controller rebuilds the shown step.
    if (error instanceof CoreError && error.panic) {
      showError(`The simulation core hit an internal error: ${message}. It was restarted at the last good step.`);
      return;
    }
    if (error instanceof CoreError && error.fatal) {
      fail(message);
      return;
    }
    if (during === 'load') {
      showError(`Could not load ${config.file ? `"${config.file.name}"` : `the scene "${config.sceneId}"`}: ${message}`);
      // Nothing on screen to go back to: show the default scene instead.
      if (!controller.shown && (config.file || config.sceneId !== DEFAULT_SCENE)) {
        keepError = true;
        queueMicrotask(() => controller.open({ scene: { id: DEFAULT_SCENE }, settings: config.settings, sceneId: DEFAULT_SCENE, file: null }, 0));
      }
      return;
    }
    showError(`${message}. The view shows the last good step.`);
  }

  // ---- showing what the controller says ---------------------------------

  /** @param {import('./state/run-controller.js').Shown} shown */
  function showScene(shown) {
    const { info, bodies } = shown.scene;
    const config = /** @type {PageConfig} */ (shown.config);
    scene.info = info;
    scene.bodyTriangles = bodies.map((b) => b.triangles);
    scene.bodyRadii = bodies.map((b) => {
      let r = 0;
      for (let i = 0; i < b.triangles.length; i += 3) r = Math.max(r, Math.hypot(b.triangles[i], b.triangles[i + 1], b.triangles[i + 2]));
      return r;
    });
    renderer.setScene(bodies, shown.frame.transforms);
    renderer.resize();
    const fixed = info.bodies.map((b) => b.fixed);
    scene.stack = isStack(bodyCentres(shown.frame.transforms, bodies.length), fixed, info.up);
    scene.sceneCentre = info.focus_min.map((v, i) => (v + info.focus_max[i]) / 2);
    // Glyphs scale with the scene, but stay shorter than a typical free
    // body, or the wall's thousand contacts would hide its bricks.
    const size = Math.hypot(...info.focus_max.map((v, i) => v - info.focus_min[i]));
    const freeRadii = scene.bodyRadii.filter((_, i) => !fixed[i]).sort((a, b) => a - b);
    const typical = freeRadii.length > 0 ? freeRadii[Math.floor(freeRadii.length / 2)] : size;
    scene.glyphLength = Math.min(size * 0.05, typical * 0.6);
    sizeGlyphs();
    // The camera stays where it is for new settings of the same scene.
    const cameraKey = config.file ? `file:${config.file.packed}` : `scene:${config.sceneId}`;
    if (cameraKey !== scene.cameraKey) {
      scene.cameraKey = cameraKey;
      frameCamera();
      if (pendingCam && camera.showsScene(pendingCam)) {
        camera.setState(pendingCam);
      } else if (pendingCam) {
        // A view that looks away from the scene would leave a blank canvas.
        showNotice(`The link's view (cam=${pendingCam.join(',')}) does not look at the scene; showing the default view.`);
        view.cam = null;
      }
      pendingCam = null;
      // "Run to step" starts at the step where the paper measures this scene.
      /** @type {HTMLInputElement} */ ($('run-to-step')).value = String(info.measure_step);
    }
    describeScene(info, bodies);
    compare.setScene({ methods: catalogue.methods, oracle: info.oracle, title: info.title, id: info.id, measureStep: info.measure_step });
    $('plot-regions-figure').hidden = !(info.expected_region_areas?.length > 0);
    status.hidden = true;
    // A scene that loads ends the error of one that did not, unless it is
    // the fallback shown because of that error.
    if (!keepError) clearError();
    keepError = false;
    showFrame(shown);
  }

  /** @param {import('./state/run-controller.js').Shown} shown */
  function showFrame(shown) {
    const config = /** @type {PageConfig} */ (shown.config);
    const body = document.body.dataset;
    body.scene = config.file ? FILE_OPTION : scene.info.id;
    body.method = String(config.settings[methodSetting]);
    body.step = String(shown.step);
    updateView();
    const record = shown.frame.record;
    const toleranceDeg = toleranceOf(config);
    showReadout($('readout'), record, shown.step, scene.info, { toleranceDeg, dt: timeStepOf(config) });
    $('headline').textContent = headlineText(record, shown.step, { toleranceDeg: scene.info.oracle === 'none' ? NaN : toleranceDeg });
    showDivergence($('diverged'), record?.diverged ?? null, { step: shown.step, restorable: canRestore(config.settings, schema) });
    compare.setPaper(shownPreset());
    const preset = shownPreset();
    presetPicker.value = preset ? preset.id : '';
    $('preset-source').textContent = preset ? preset.source : '';
    $('preset-source').hidden = !preset;
    drawPlots();
    updateCaption();
    showRunState();
    updateRunControls();
  }

  /** @param {PageConfig} config @returns {number} the angle tolerance for "right", in degrees */
  function toleranceOf(config) {
    return toleranceSetting ? Number(config.settings[toleranceSetting]) : NaN;
  }

  /** @param {PageConfig} config @returns {number | null} the time step every step of the run took */
  function timeStepOf(config) {
    const entry = schema.find((e) => e.url_key === 'dt');
    const value = entry ? config.settings[entry.id] : null;
    return value ?? scene.info?.dt ?? null;
  }

  /** Contact glyph sizes: from the scene's size, larger in presentation mode. */
  function sizeGlyphs() {
    const grow = presentation.glyphScale();
    renderer.contactLength = scene.glyphLength * grow.length;
    renderer.contactRadius = scene.glyphLength * 0.12 * grow.radius;
  }

  /** @param {{config: any, reached: number, goal: number | null}} progress */
  function showProgress({ config, reached, goal }) {
    const progress = /** @type {HTMLProgressElement} */ ($('replay-progress'));
    progress.max = Math.max(1, goal ?? 1);
    progress.value = reached;
    const to = goal === null ? 'its measure step' : `step ${goal}`;
    $('replay-status').textContent = `Replaying ${describeConfig(config)} from step 0 to ${to}: at step ${reached}`;
    if (!controller.shown) {
      status.textContent = `Loading ${sceneName(config)}…`;
      status.hidden = false;
    }
    updateCaption();
  }

  /** Says what the readout shows, and during a replay that it is the old state. */
  function updateCaption() {
    const shown = controller.shown;
    const caption = $('shown-caption');
    if (!shown) {
      caption.textContent = '';
      return;
    }
    const what = `${describeConfig(shown.config)}, step ${shown.step}`;
    caption.textContent = controller.run === 'replaying' ? `Still showing ${what} until the replay is done` : `Showing ${what}`;
  }

  /** @param {PageConfig} config @returns {string} scene and method, for captions */
  function describeConfig(config) {
    const method = catalogue.methods.find((m) => m.id === config.settings[methodSetting])?.name ?? String(config.settings[methodSetting]);
    return `${sceneName(config)} · ${method}`;
  }

  /** @param {PageConfig} config */
  function sceneName(config) {
    return config.file ? config.file.title : (catalogue.scenes.find((s) => s.id === config.sceneId)?.title ?? config.sceneId);
  }

  /** Frames the scene's focus box, grown by the explode factor so spread bodies stay in view. */
  function frameCamera() {
    const info = scene.info;
    const grow = 1 + view.explode;
    const min = info.focus_min.map((v, i) => scene.sceneCentre[i] + (v - scene.sceneCentre[i]) * grow);
    const max = info.focus_max.map((v, i) => scene.sceneCentre[i] + (v - scene.sceneCentre[i]) * grow);
    renderer.resize();
    camera.frame(min, max, info.up, renderer.aspect());
  }

  /** Body poses, explode offsets and contact glyphs from the shown frame. */
  function updateView() {
    const shown = controller.shown;
    if (!shown || !scene.info) return;
    const { transforms, contacts } = shown.frame;
    const centres = bodyCentres(transforms, scene.info.bodies.length);
    const offsets = explodeOffsets(centres, scene.sceneCentre, scene.info.up, scene.stack, view.explode);
    renderer.setTransforms(offsetTransforms(transforms, offsets));
    const { instances, indices } = contactInstances(contacts, layout, offsets, view);
    scene.instances = instances;
    scene.instanceContacts = indices;
    renderer.setContacts(instances);
    showLegend($('legend'), {
      featureColours: view.featureColours,
      featureKinds: catalogue.featureKinds,
      hasOracle: scene.info.oracle !== 'none',
      count: contactCount(contacts, layout),
      shown: indices.length,
      toleranceDeg: toleranceOf(/** @type {PageConfig} */ (shown.config)),
    });
    requestDraw();
  }

  function drawPlots() {
    const shown = controller.shown;
    const record = shown?.frame.record;
    const toleranceDeg = toleranceSetting && shown ? Number(shown.config.settings[toleranceSetting]) : NaN;
    drawSortedQuality($('plot-sorted'), record?.sorted_quality ?? [], Number.isFinite(toleranceDeg) ? Math.cos((toleranceDeg * Math.PI) / 180) : NaN);
    drawHistogram($('plot-histogram'), record?.histogram ?? new Array(20).fill(0));
    drawCountHistory($('plot-count'), shown?.history ?? [], scene.info?.min_contacts ?? null);
    // The plateaus are the exact regions' areas, computed by the core.
    const plateaus = scene.info?.expected_region_areas ?? [];
    if (plateaus.length > 0) drawRegionAreas($('plot-regions'), record?.region_areas ?? [], plateaus);
  }

  /** The configuration the controls last showed. */
  let controlsConfig = /** @type {PageConfig | null} */ (null);

  /** Puts the latest configuration (what the link names) into the controls, when it changed. */
  function showControlsIfChanged() {
    const config = /** @type {PageConfig | null} */ (controller.config);
    if (!config || config === controlsConfig) return;
    controlsConfig = config;
    if (config.file) {
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
      option.textContent = config.file.title;
      scenePicker.value = FILE_OPTION;
    } else {
      scenePicker.querySelector('optgroup[data-file]')?.remove();
      scenePicker.value = config.sceneId;
    }
    settingsPanel.show(config.settings, sceneValue);
  }

  /**
   * What null stands for in a nullable setting: the shown scene's own time
   * step or friction (the schema marks them nullable; sceneInfo has the values).
   * @param {{url_key: string}} entry
   * @returns {number | null}
   */
  function sceneValue(entry) {
    if (!scene.info) return null;
    if (entry.url_key === 'dt') return scene.info.dt ?? null;
    if (entry.url_key === 'mu') return scene.info.friction ?? null;
    return null;
  }

  /** Puts the view part of the link into its controls. */
  function showViewControls() {
    for (const radio of document.querySelectorAll('input[name="view-mode"]')) radio.checked = radio.value === view.view;
    renderer.setViewMode(view.view);
    $('explode').value = String(view.explode);
    $('explode-value').textContent = view.explode.toFixed(2);
    $('only-wrong').checked = view.onlyWrong;
    $('feature-colours').checked = view.featureColours;
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
    // The nullable settings show the scene's values as placeholders.
    controlsConfig = null;
    showControlsIfChanged();
  }

  function updateRunControls() {
    const run = controller.run;
    const shown = controller.shown !== null;
    const replaying = run === 'replaying';
    const running = run === 'playing' && !controller.target?.playing;
    // A run the core stopped because it blew up goes no further.
    const stopped = controller.diverged !== null;
    for (const id of ['play', 'view-play']) {
      $(id).disabled = !shown || replaying || (stopped && run !== 'playing');
      $(id).textContent = run === 'playing' ? (running ? 'Stop' : 'Pause') : 'Play';
    }
    $('step-once').disabled = !shown || replaying || stopped;
    $('reset').disabled = !shown;
    $('run-to').disabled = !shown;
    $('replay').hidden = !replaying;
    // The contacts the worker would export are not the ones shown during a replay.
    for (const id of ['export-csv', 'export-json']) $(id).disabled = !shown || replaying;
    const step = controller.shown?.step ?? 0;
    let text = '';
    if (running) text = `Running to step ${controller.target?.step}… at step ${step}`;
    else if (run === 'playing') text = `Playing: step ${step}`;
    $('run-status').textContent = text;
    updateCaption();
  }

  // ---- the link -------------------------------------------------------

  /** The core's pairs for a settings object, asked once per settings object. */
  const pairsCache = new WeakMap();
  /** @param {Record<string, any>} settings @returns {Promise<Array<[string, string]>>} */
  function settingPairs(settings) {
    if (!pairsCache.has(settings)) pairsCache.set(settings, session.settingsToPairs(settings));
    return pairsCache.get(settings);
  }

  let hashTimer = 0;
  let hashSequence = 0;
  /** Files whose long link was already pointed out. */
  const warnedFiles = new Set();

  /**
   * Writes what the controller says the link holds, plus the view: at once,
   * or at most four times a second while playing or when `throttle` (a
   * camera drag), since browsers throttle replaceState.
   * @param {boolean} [throttle]
   * @returns {Promise<void>}
   */
  async function writeHash(throttle = false) {
    // A #bench link stays as the benchmark driver wrote it.
    if (bench) return;
    if (throttle || controller.run === 'playing') {
      if (!hashTimer) {
        hashTimer = window.setTimeout(() => {
          hashTimer = 0;
          writeHash();
        }, HASH_INTERVAL_MS);
      }
      return;
    }
    clearTimeout(hashTimer);
    hashTimer = 0;
    const link = controller.link();
    if (!link || link.step === null) return;
    const config = /** @type {PageConfig} */ (link.config);
    const sequence = ++hashSequence;
    hashWrites++;
    try {
      const pairs = await settingPairs(config.settings);
      // A later write supersedes this one.
      if (sequence !== hashSequence) return;
      const hash = formatHash({ scene: config.sceneId, file: config.file?.packed ?? null, settings: config.settings, step: link.step, ...view }, pairs);
      if (hash !== window.location.hash) window.history.replaceState(null, '', hash);
      if (config.file && hash.length > LONG_LINK && !warnedFiles.has(config.file.packed)) {
        warnedFiles.add(config.file.packed);
        showNotice(`Your scene file makes the link ${hash.length} characters long; some mail and chat programs cut links above ${LONG_LINK}.`);
      }
    } catch (error) {
      showError(`Could not write the link: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      hashWrites--;
      updateReady();
    }
  }

  /**
   * Reads a link and shows what it names, replayed from step 0.
   * @param {string} hash
   */
  async function applyHash(hash) {
    const parsed = await parseHash(hash, { sceneIds, schema, core: session });
    const { state, problems } = parsed;
    /** @type {PageConfig['file']} */
    let file = null;
    let text = null;
    if (state.file) {
      try {
        text = await unpackSceneText(state.file);
        file = { packed: state.file, title: sceneTitle(text, 'your scene file'), name: 'the scene file in the link' };
      } catch (error) {
        problems.push(`${error instanceof Error ? error.message : String(error)}; showing the ${state.scene} instead`);
      }
    }
    if (problems.length > 0) showNotice(`Some of the link was not understood, so defaults are used there: ${problems.join('; ')}.`);
    else clearNotice();
    Object.assign(view, { cam: state.cam, view: state.view, explode: state.explode, onlyWrong: state.onlyWrong, featureColours: state.featureColours });
    pendingCam = state.cam;
    scene.cameraKey = '';
    showViewControls();
    /** @type {PageConfig} */
    const config = { scene: file ? { text } : { id: state.scene }, settings: state.settings, sceneId: state.scene, file };
    if (parsed.bench) {
      bench = true;
      controller.open(config, 0);
      await controller.settled();
      await runBench({ session, state, bench: parsed.bench, firstFrame });
      return;
    }
    // A link without a step shows the scene at its measure step (where the
    // paper measures it), not an empty step 0.
    controller.open(config, parsed.stepGiven ? state.step : 'measure');
  }

  function exportName() {
    const config = /** @type {PageConfig | null} */ (controller.shown?.config ?? null);
    const name = config?.file ? 'scene-file' : (config?.sceneId ?? 'scene');
    return `contactlab-${name}-${config?.settings[methodSetting] ?? ''}-step${controller.shown?.step ?? 0}`;
  }

  await applyHash(window.location.hash);
}
