/**
 * @file Entry point of the page: the composition root. It asks the worker
 * for the core's catalogue, builds the run controller
 * (state/run-controller.js), which decides what the simulation worker does
 * and what is shown, and connects it to the page's parts in wiring/: the 3D
 * view (view.js), the left panel (controls.js), the readout and plots
 * (readout.js), the link (link.js, over state/page-state.js) and the error
 * banners (errors.js), with the comparison of ui/compare.js.
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
 * `data-regions` is how many region outlines are drawn ("" when none are
 * asked for or the method finds none); `data-compare` follows a
 * comparison; `data-version` is the release shown; `data-embed` is "true"
 * in the embedded view; `data-timer-resolution-ms` is how finely the step
 * timings can tell time; `data-offline` is "controlled" once a published
 * page is served by its service worker. Only this file writes them.
 */

import { Session } from './session.js';
import { RunController } from './state/run-controller.js';
import { showError, showNotice, wireDismissButtons } from './ui/banner.js';
import { embedSnippet } from './ui/embed.js';
import { copyText } from './ui/export.js';
import { readRelease } from './state/release.js';
import { ComparePanel } from './ui/compare.js';
import { installShortcuts } from './ui/keyboard.js';
import { ControlPanel } from './wiring/controls.js';
import { pageElements } from './wiring/elements.js';
import { ErrorReporter } from './wiring/errors.js';
import { PageLink } from './wiring/link.js';
import { ConfigTerms, FILE_OPTION } from './wiring/page-config.js';
import { ReadoutPanel } from './wiring/readout.js';
import { keepOffline } from './wiring/offline.js';
import { SceneView } from './wiring/view.js';
import { Renderer } from './render/renderer.js';

const elements = pageElements();
wireDismissButtons();
document.body.dataset.run = 'idle';

// preserveDrawingBuffer keeps the last frame readable, for the tests'
// pixel checks and for exporting the view as PNG.
const gl = elements.view.canvas.getContext('webgl2', { alpha: false, antialias: true, preserveDrawingBuffer: true });
if (gl) {
  start(gl).catch((error) => fail(error instanceof Error ? error.message : String(error)));
} else {
  elements.noWebgl.hidden = false;
  elements.status.hidden = true;
  document.body.classList.remove('starting');
}

/** @param {string} message */
function fail(message) {
  showError(message);
  elements.status.hidden = true;
  document.body.classList.remove('starting');
  document.body.dataset.ready = 'true';
}

/** @param {WebGL2RenderingContext} gl */
async function start(gl) {
  const session = new Session(new URL('./worker.js', import.meta.url));
  // The shaders compile while the worker fetches and starts the core.
  const renderer = new Renderer(elements.view.canvas, gl);
  const catalogue = await session.catalogue();
  // The page's parts are built in a task of their own, not in the one
  // that received the catalogue, so neither holds the page for long.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const terms = new ConfigTerms(catalogue);
  const body = document.body.dataset;
  const release = readRelease((name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? null, catalogue.version);
  showRelease(release);
  showTimer(catalogue.timer);
  /** @type {() => void} */
  let resolveFirstFrame = () => {};
  /** @type {Promise<void>} */
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
        updateReady();
      },
      progress: (progress) => {
        controls.showProgress(progress);
        if (!controller.shown) {
          elements.status.textContent = `Loading ${terms.sceneName(/** @type {any} */ (progress.config))}…`;
          elements.status.hidden = false;
        }
        readout.updateCaption();
      },
      error: (error, context) => errors.report(error, /** @type {any} */ (context)),
      link: () => {
        controls.showConfigIfChanged();
        link.write();
      },
    },
  });

  const readout = new ReadoutPanel({ elements: elements.readout, controller, terms, featureKinds: catalogue.featureKinds });
  const view = new SceneView({
    elements: elements.view,
    renderer,
    controller,
    layout: catalogue.contactLayout,
    regionLayout: catalogue.regionLayout,
    featureKinds: catalogue.featureKinds,
    methodOf: (config) => catalogue.methods.find((m) => m.id === terms.method(config)),
    onViewChange: (throttle) => link.write(throttle),
    onDrawPending: () => updateReady(),
    onFirstFrame: () => {
      body.firstFrameMs = String(performance.now());
      resolveFirstFrame();
      // The panels are filled by now: show them in one piece.
      requestAnimationFrame(() => document.body.classList.remove('starting'));
    },
    onContacts: (contacts) => {
      body.regions = contacts.regions === null ? '' : String(contacts.regions);
      readout.showLegend(contacts);
    },
    onResize: () => readout.schedulePlots(),
  });
  const compare = new ComparePanel({
    session,
    beforeRun: () => {
      controller.pause();
      body.compare = 'running';
    },
    onDone: (cancelled) => {
      body.compare = cancelled ? 'cancelled' : 'done';
    },
  });
  const controls = new ControlPanel({
    elements: elements.controls,
    controller,
    session,
    catalogue,
    terms,
    canvas: elements.view.canvas,
    forgetCamera: () => view.forgetCamera(),
    onPresetOpened: (preset) => compare.setSteps(preset.step),
    onChecksChange: () => updateReady(),
    copyLink: () => link.copy(),
    copyEmbed: () => copyEmbed(),
  });
  const link = new PageLink({
    controller,
    session,
    sceneIds: catalogue.scenes.map((s) => s.id),
    schema: catalogue.schema,
    viewState: () => view.state,
    showLinkView: (state) => view.showLinkView(state),
    firstFrame,
    onWritesChange: () => updateReady(),
    onWritten: () => {
      elements.openFull.href = link.linkFromHash(window.location.hash, { embed: false });
    },
    release,
    onEmbed: (embed) => {
      document.body.classList.toggle('embed', embed);
      body.embed = String(embed);
      elements.openFull.hidden = !embed;
    },
  });
  const errors = new ErrorReporter({ controller, fail });

  // A comparison matches a preset when it ran the shown preset's scene and
  // settings for the preset's step.
  compare.presetOfRun = (steps) => {
    const preset = controls.shownPreset();
    return preset && preset.step === steps ? preset : null;
  };
  const showKeys = () => {
    if (!elements.keysDialog.open) elements.keysDialog.showModal();
  };
  elements.showKeys.addEventListener('click', showKeys);
  installShortcuts({
    togglePlay: () => controls.togglePlay(),
    step: () => controller.stepOnce(),
    reset: () => controller.reset(),
    present: () => view.presentation.toggle(),
    keys: showKeys,
    canvas: elements.view.canvas,
  });
  session.onRestart = () => controller.workerRestarted();

  /** @param {import('./state/run-controller.js').Shown} shown a new configuration */
  function showScene(shown) {
    const info = shown.scene.info;
    const newScene = view.showScene(shown);
    controls.showScene(shown, newScene);
    // Compare runs the picker's methods; a `@paper-code` variant is one
    // switch away, and `contactlab table --paper-code` lists them beside.
    compare.setScene({ methods: catalogue.methods.filter((m) => !m.paper_code), oracle: info.oracle, title: info.title, id: info.id, measureStep: info.measure_step });
    readout.showScene(info);
    elements.status.hidden = true;
    errors.sceneShown();
    showMeshNotices(info.notices ?? []);
    showFrame(shown);
  }

  /** The meshes the core fell back to, said once per new set, never silently. */
  let shownMeshNotices = '';
  /** @param {string[]} notices */
  function showMeshNotices(notices) {
    const text = notices.join(' ');
    if (text !== '' && text !== shownMeshNotices) showNotice(`Meshes: ${text}`);
    shownMeshNotices = text;
  }

  /** @param {import('./state/run-controller.js').Shown} shown a new frame */
  function showFrame(shown) {
    const config = /** @type {import('./wiring/page-config.js').PageConfig} */ (shown.config);
    body.scene = config.file ? FILE_OPTION : shown.scene.info.id;
    body.method = String(terms.method(config));
    body.step = String(shown.step);
    view.showFrame();
    readout.showFrame(shown);
    compare.setPaper(controls.shownPreset());
    controls.showFrame();
    showRunState();
  }

  /** `data-run` on <body> (the controller's run state, or "diverged" when it stopped at a blow-up), and the run buttons. */
  function showRunState() {
    const run = controller.run;
    body.run = run === 'idle' && controller.diverged ? 'diverged' : run;
    controls.updateRunControls();
    readout.updateCaption();
  }

  /** Marks the page ready for the tests: idle, drawn, and the link written. */
  function updateReady() {
    const ready =
      controller.run === 'idle' && controller.shown !== null && !view.drawPending && link.pendingWrites === 0 && controls.pendingChecks === 0;
    body.ready = String(ready);
  }

  /**
   * The brand names the release, and a published one links its changes.
   * @param {import('./state/release.js').Release} shown
   */
  function showRelease(shown) {
    body.version = shown.version;
    if (shown.siteRoot === null) {
      elements.version.textContent = `Version ${shown.version} (development build)`;
      return;
    }
    elements.version.textContent = `Version ${shown.version} · `;
    const changes = document.createElement('a');
    changes.textContent = 'what changed';
    changes.href = `${shown.siteRoot}CHANGELOG.txt`;
    changes.target = '_blank';
    changes.rel = 'noopener';
    elements.version.append(changes);
  }

  /**
   * Says how finely the step timings can tell time where the browser
   * coarsens its clock (a page that is not cross-origin isolated).
   * @param {{isolated: boolean, resolutionMs: number}} timer
   */
  function showTimer(timer) {
    body.timerResolutionMs = String(timer.resolutionMs);
    if (timer.isolated) return;
    const step = timer.resolutionMs >= 0.5 ? `${Math.round(timer.resolutionMs)} ms` : `${Number(timer.resolutionMs.toPrecision(1))} ms`;
    elements.timerNote.textContent = `Timings are to about ${step}: this page is not cross-origin isolated (its host sends no COOP/COEP headers), so the browser coarsens its clock. The numbers are unaffected.`;
    elements.timerNote.hidden = false;
  }

  /** Copies an <iframe> of the embedded view of what is on screen. */
  async function copyEmbed() {
    const src = await link.shareableLink({ embed: true });
    const shown = controller.shown;
    const method = catalogue.methods.find((m) => m.id === terms.method(shown?.config))?.name ?? '';
    const title = shown ? `ContactLab: ${terms.sceneName(/** @type {any} */ (shown.config))}, ${method}, step ${shown.step}` : 'ContactLab';
    const copied = await copyText(embedSnippet(src, title));
    showNotice(copied ? 'An <iframe> of this view is on the clipboard: paste it into a slide or a course page.' : 'The browser refused the clipboard.');
  }

  await controls.loadPresets();
  await link.apply(window.location.hash);
  firstFrame.then(() => keepOffline(release, (state) => (body.offline = state)));
}
