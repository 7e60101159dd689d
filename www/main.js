/**
 * @file Entry point of the page: the composition root. It asks the worker
 * for the core's catalogue, builds the run controller
 * (state/run-controller.js), which decides what the simulation worker does
 * and what is shown, and connects it to the page's parts in wiring/: the 3D
 * view (view.js, or without WebGL2 its stand-in no-view.js), the left
 * panel (controls.js), the readout and plots (readout.js), the link
 * (link.js, over state/page-state.js) and the error banners (errors.js),
 * with the comparison of ui/compare.js; what the controller shows goes to
 * them through the display (display.js). `start` takes it in steps: the
 * core, the release and clock notes, the parts (`Page`), then what the link
 * names.
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
 * shown (`data-method` is "__contacts__" while a visitor's contact file
 * is shown in the method's place); `data-first-frame-ms` is the time of the first drawn frame;
 * `data-regions` is how many region outlines are drawn ("" when none are
 * asked for or the method finds none); `data-compare` follows a
 * comparison; `data-version` is the release shown; `data-embed` is "true"
 * in the embedded view; `data-timer-resolution-ms` is how finely the step
 * timings can tell time; `data-offline` is "controlled" once a published
 * page is served by its service worker. Only this file writes them, but
 * for `data-scene`, `data-method`, `data-step` and `data-run`, which the
 * display writes with what it shows (wiring/display.js). And
 * `window.contactlabView.onScreen()` says where the last drawn frame put
 * each contact, in CSS pixels (wiring/view.js), and
 * `window.contactlabView.highlighted()` which contact the keyboard's contact
 * list (ui/contact-browser.js) has ringed in the view and where, in the same
 * pixels ({index, x, y}, or null when none is).
 */

import { Session } from './session.js';
import { RunController } from './state/run-controller.js';
import { showError, showNotice, wireDismissButtons } from './ui/banner.js';
import { copyText } from './ui/export.js';
import { readRelease } from './state/release.js';
import { ContactBrowser } from './ui/contact-browser.js';
import { attachJumpLinks } from './ui/jump-links.js';
import { attachSkipLink, installShortcuts } from './ui/keyboard.js';
import { ViewDescription } from './ui/view-description.js';
import { ControlPanel } from './wiring/controls.js';
import { contactBrowserElements, lessonElements, pageElements, viewWordsElements } from './wiring/elements.js';
import { ErrorReporter } from './wiring/errors.js';
import { PageLink } from './wiring/link.js';
import { ConfigTerms } from './wiring/page-config.js';
import { importedName } from './ui/contact-file.js';
import { PageDisplay } from './wiring/display.js';
import { ReadoutPanel } from './wiring/readout.js';
import { SceneView } from './wiring/view.js';
import { Renderer } from './render/renderer.js';
import { INSTANCE_STRIDE } from './render/contacts.js';

const elements = pageElements();
const body = document.body.dataset;
wireDismissButtons();
body.run = 'idle';

// preserveDrawingBuffer keeps the last frame readable, for the tests'
// pixel checks and for exporting the view as PNG.
// Without WebGL2 (turned off, or refused on a software-only GL) the page
// runs with no 3D view (wiring/no-view.js): the core needs no GPU.
const gl = elements.view.canvas.getContext('webgl2', { alpha: false, antialias: true, preserveDrawingBuffer: true });
start(gl).catch((error) => fail(error instanceof Error ? error.message : String(error)));

/**
 * How long after the first settled view what the page does not need to
 * show it starts loading: the lessons, and the service worker's side.
 */
const AFTER_READY_MS = 1500;

/** @param {string} message */
function fail(message) {
  showError(message);
  elements.status.hidden = true;
  document.body.classList.remove('starting');
  body.ready = 'true';
}

/**
 * Starts the core, says which release and clock the page has, builds the
 * page's parts and opens what the link names.
 * @param {WebGL2RenderingContext | null} gl null: the browser gives no WebGL2
 */
async function start(gl) {
  const { session, renderer, catalogue, NoView } = await startCore(gl);
  const release = readRelease((name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? null, catalogue.version);
  showRelease(release);
  showTimer(catalogue.timer);
  const page = new Page({ session, renderer, catalogue, release, NoView });
  await page.open();
}

/**
 * Starts the worker, which fetches and starts the core, and the renderer.
 * @param {WebGL2RenderingContext | null} gl null: no renderer
 */
async function startCore(gl) {
  const session = new Session(new URL('./worker/worker.js', import.meta.url));
  // The shaders compile while the worker fetches and starts the core.
  const renderer = gl ? new Renderer(elements.view.canvas, gl) : null;
  // The view's stand-in is loaded only by a page without WebGL2.
  const NoView = gl ? null : (await import('./wiring/no-view.js')).NoView;
  const catalogue = await session.catalogue();
  // The page's parts are built in a task of their own, not in the one
  // that received the catalogue, so neither holds the page for long.
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { session, renderer, catalogue, NoView };
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

/**
 * The page's parts, built in order from the core's catalogue, and what
 * passes between them: the run controller tells the display
 * (wiring/display.js), which tells the view and the panels, and the link
 * what is shown; they tell it what the visitor asks for.
 */
class Page {
  /**
   * @param {{session: Session, renderer: Renderer | null, catalogue: any,
   *   release: import('./state/release.js').Release,
   *   NoView: typeof import('./wiring/no-view.js').NoView | null}} parts
   *   NoView: the view's stand-in, loaded when there is no renderer
   */
  constructor({ session, renderer, catalogue, release, NoView }) {
    this.session = session;
    this.NoView = NoView;
    this.catalogue = catalogue;
    this.release = release;
    this.terms = new ConfigTerms(catalogue);
    /** @type {() => void} */
    this.resolveFirstFrame = () => {};
    /** @type {Promise<void>} */
    this.firstFrame = new Promise((resolve) => {
      this.resolveFirstFrame = resolve;
    });
    this.display = new PageDisplay(this, elements.status);
    this.controller = this.runController();
    this.readout = new ReadoutPanel({
      elements: elements.readout,
      controller: this.controller,
      terms: this.terms,
      featureKinds: catalogue.featureKinds,
      chooseOracle: (value) => this.terms.oracleSetting && this.controls.changeSetting(this.terms.oracleSetting, value),
    });
    this.view = this.sceneView(renderer);
    this.contactBrowser = new ContactBrowser({
      elements: contactBrowserElements(),
      layout: catalogue.contactLayout,
      featureKinds: catalogue.featureKinds,
      onHighlight: (index) => this.view.highlightContact(index),
    });
    this.words = new ViewDescription({ elements: viewWordsElements(), layout: catalogue.contactLayout, featureKinds: catalogue.featureKinds });
    this.compare = this.comparePanel();
    this.controls = this.controlPanel();
    this.link = this.pageLink();
    /** @type {Promise<import('./wiring/lessons.js').PageLessons> | null} */
    this.lessons = null;
    /** Whether the lessons' code has loaded and taken over their controls. */
    this.lessonsLoaded = false;
    this.errors = new ErrorReporter({ controller: this.controller, fail });
    this.connectInput();
    this.connectLessonFile();
  }

  /** The run controller, whose news goes to the page's parts. */
  runController() {
    return new RunController({
      worker: this.session,
      // Playing shows every step: the next one waits for the display.
      nextFrame: () => new Promise((resolve) => requestAnimationFrame(() => resolve())),
      remeasurable: (from, to) => this.terms.onlyMeasuresChange(from, to),
      listener: {
        scene: (shown) => this.display.showScene(shown),
        frame: (shown) => this.display.showFrame(shown),
        run: () => {
          // The list follows at most a few times a second while playing; the last frame at once.
          if (this.controller.run !== 'playing' && this.controller.shown) this.contactBrowser.render();
          this.display.showRunState();
          this.updateReady();
        },
        progress: (progress) => this.display.showProgress(progress),
        error: (error, context) => this.errors.report(error, /** @type {any} */ (context)),
        link: () => {
          this.controls.showConfigIfChanged();
          this.link.write();
          this.compare?.checkStale();
        },
      },
    });
  }

  /** @param {Renderer | null} renderer @returns {SceneView | import('./wiring/no-view.js').NoView} the 3D view, or its stand-in without WebGL2 */
  sceneView(renderer) {
    const catalogue = this.catalogue;
    if (!renderer) {
      if (!this.NoView) throw new Error('the page has no renderer and no stand-in for the view');
      const { view, noWebgl, controls } = elements;
      return new this.NoView({ elements: view, explanation: noWebgl, reasonId: 'no-webgl-why', exportPng: controls.exportPng, controller: this.controller, onFirstFrame: () => this.firstFrameShown() });
    }
    return new SceneView({
      elements: elements.view,
      renderer,
      controller: this.controller,
      layout: catalogue.contactLayout,
      regionLayout: catalogue.regionLayout,
      featureKinds: catalogue.featureKinds,
      // A contact file finds no regions: its rows are points.
      methodOf: (config) => (config.contacts ? { name: importedName(config.contacts.name), kind: 'file' } : catalogue.methods.find((m) => m.id === this.terms.method(config))),
      onViewChange: (throttle) => this.link.write(throttle),
      onDrawPending: () => this.updateReady(),
      onFirstFrame: () => this.firstFrameShown(),
      onContacts: (contacts) => {
        body.regions = contacts.regions === null ? '' : String(contacts.regions);
        this.readout.showLegend(contacts);
      },
      onResize: () => this.readout.schedulePlots(),
    });
  }

  /** The first frame of a shown scene is on the screen. */
  firstFrameShown() {
    body.firstFrameMs = String(performance.now());
    this.resolveFirstFrame();
    // The panels are filled by now: show them in one piece.
    requestAnimationFrame(() => document.body.classList.remove('starting'));
  }

  /** @returns {DeferredCompare} the comparison of methods, loaded once the page is ready */
  comparePanel() {
    return new DeferredCompare({
      session: this.session,
      beforeRun: () => {
        this.controller.pause();
        body.compare = 'running';
      },
      onDone: (cancelled) => {
        body.compare = cancelled ? 'cancelled' : 'done';
      },
      schema: this.catalogue.schema,
      inputs: () => {
        const config = /** @type {import('./wiring/page-config.js').PageConfig | null} */ (this.controller.config);
        if (!config) return null;
        const sceneKey = `${config.file ? config.file.packed : config.sceneId}${config.contacts ? ` ${config.contacts.packed} ${config.contacts.posesPacked ?? ''}` : ''}`;
        const scene = `${this.terms.sceneName(config)}${config.contacts ? ` (with the contact file ${config.contacts.name})` : ''}`;
        return { scene, sceneKey, settings: config.settings, version: this.release.version };
      },
    });
  }

  /** @returns {ControlPanel} the left panel */
  controlPanel() {
    return new ControlPanel({
      elements: elements.controls,
      controller: this.controller,
      session: this.session,
      catalogue: this.catalogue,
      terms: this.terms,
      canvas: elements.view.canvas,
      forgetCamera: () => this.view.forgetCamera(),
      onPresetOpened: (preset) => this.compare.setSteps(preset.step),
      onChecksChange: () => this.updateReady(),
      copyLink: () => this.link.copy(),
      copyEmbed: () => this.copyEmbed(),
    });
  }

  /** @returns {PageLink} the link, which names what is shown */
  pageLink() {
    return new PageLink({
      controller: this.controller,
      session: this.session,
      sceneIds: this.catalogue.scenes.map((s) => s.id),
      sceneTitles: this.catalogue.scenes.map((s) => s.title),
      schema: this.catalogue.schema,
      viewState: () => this.view.state,
      showLinkView: (state) => this.view.showLinkView(state),
      firstFrame: this.firstFrame,
      onWritesChange: () => this.updateReady(),
      onWritten: () => {
        elements.openFull.href = this.link.linkFromHash(window.location.hash, { embed: false });
      },
      release: this.release,
      onLesson: (value) => this.openLessonLink(value),
      onEmbed: (embed) => {
        document.body.classList.toggle('embed', embed);
        body.embed = String(embed);
        elements.openFull.hidden = !embed;
      },
    });
  }

  /**
   * The lessons (picker, files, links and the player), loaded on first use:
   * their code and data are not needed to show the first view, so they
   * load once it has settled (`updateReady`), or at once for a lesson link,
   * and are not preloaded (`xtask/src/dist.rs`, `AFTER_FIRST_FRAME`).
   * @returns {Promise<import('./wiring/lessons.js').PageLessons>}
   */
  pageLessons() {
    this.lessons ??= import('./wiring/lessons.js').then(({ PageLessons }) => this.loadedLessons(new PageLessons({
      session: this.session,
      sceneIds: this.catalogue.scenes.map((s) => s.id),
      schema: this.catalogue.schema,
      presentation: this.view.presentation,
      showLink: (hash) => this.link.apply(`#${hash}`),
      drawn: () => ({ viewProjection: this.view.renderer.viewProjection, instances: this.view.instances, stride: INSTANCE_STRIDE }),
      siteRoot: () => this.link.siteRootUrl(),
    })));
    return this.lessons;
  }

  /**
   * @param {import('./wiring/lessons.js').PageLessons} lessons constructed, its listeners attached
   * @returns {import('./wiring/lessons.js').PageLessons}
   */
  loadedLessons(lessons) {
    this.lessonsLoaded = true;
    return lessons;
  }

  /**
   * A link names a lesson: it plays; if it cannot, a page that shows
   * nothing yet opens as a link without a lesson would.
   * @param {string} value the link's `lesson=`
   */
  async openLessonLink(value) {
    const opened = await (await this.pageLessons()).openFromLink(value);
    if (opened || this.controller.shown) return;
    // The lesson's error stays up over the scene shown instead.
    this.errors.keepError = true;
    this.link.apply('');
  }

  /**
   * The lesson file button works before the lessons' code has loaded: a
   * file chosen then loads it at once and is handed over (its own
   * listeners take every later choice).
   */
  connectLessonFile() {
    const { openFile, fileInput } = lessonElements();
    openFile.addEventListener('click', () => {
      if (!this.lessonsLoaded) fileInput.click();
    });
    fileInput.addEventListener('change', () => {
      if (this.lessonsLoaded) return;
      this.pageLessons().then(() => fileInput.dispatchEvent(new Event('change')));
    });
  }

  /** The comparison's preset, the keys dialog, the keyboard shortcuts and a restarted worker. */
  connectInput() {
    const { controller, controls, view } = this;
    // A comparison matches a preset when it ran the shown preset's scene and
    // settings for the preset's step.
    this.compare.presetOfRun = (steps) => {
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
    attachSkipLink(elements.skipToView, view.canvas);
    attachJumpLinks(document);
    this.session.onRestart = () => controller.workerRestarted();
    // For the browser tests: where the contacts are drawn (read only).
    /** @type {any} */ (window).contactlabView = { onScreen: () => view.onScreen(), highlighted: () => view.highlighted() };
  }

  /** Loads the presets, then shows what the link names; once settled, the page works offline (`updateReady`). */
  async open() {
    await this.controls.loadPresets();
    await this.link.apply(window.location.hash);
  }

  /** Marks the page ready for the tests: idle, drawn, and the link written. */
  updateReady() {
    const { controller, view, link, controls } = this;
    const ready =
      controller.run === 'idle' && controller.shown !== null && !view.drawPending && link.pendingWrites === 0 && controls.pendingChecks === 0;
    body.ready = String(ready);
    // The lessons and the service worker load a moment after the first view
    // has settled: they are no part of what the page needs to show it, and
    // on a slow link they should not compete with what it does need.
    if (ready && !this.afterReadyScheduled) {
      this.afterReadyScheduled = true;
      setTimeout(() => {
        // The comparison is no part of the first view either (a Compare
        // pressed before it has loaded runs when it has).
        this.compare.load();
        if (this.lessons === null) this.pageLessons().then((lessons) => lessons.list());
        import('./wiring/offline.js').then(({ keepOffline }) => keepOffline(this.release, (state) => (body.offline = state)));
      }, AFTER_READY_MS);
    }
  }

  /** Copies an <iframe> of the embedded view of what is on screen. */
  async copyEmbed() {
    const src = await this.link.shareableLink({ embed: true });
    const shown = this.controller.shown;
    const method = shown ? this.terms.methodName(/** @type {any} */ (shown.config)) : '';
    const title = shown ? `ContactLab: ${this.terms.sceneName(/** @type {any} */ (shown.config))}, ${method}, step ${shown.step}` : 'ContactLab';
    const { embedSnippet } = await import('./ui/embed.js');
    const copied = await copyText(embedSnippet(src, title));
    showNotice(copied ? 'An <iframe> of this view is on the clipboard: paste it into a slide or a course page.' : 'The browser refused the clipboard.');
  }
}

/**
 * Stands in for ui/compare.js's ComparePanel until that module is loaded
 * (once the page is ready: the default page's first view stays within its
 * bytes, issue 27). It keeps what the page tells the comparison and hands
 * it on; a Compare pressed before then runs as soon as the module is in.
 */
class DeferredCompare {
  /** @param {ConstructorParameters<typeof import('./ui/compare.js').ComparePanel>[0]} options */
  constructor(options) {
    this.options = options;
    /** @type {import('./ui/compare.js').ComparePanel | null} */
    this.panel = null;
    /** @type {Promise<import('./ui/compare.js').ComparePanel> | null} */
    this.loading = null;
    /** @type {Array<[string, unknown]>} the calls made before the panel existed, in order */
    this.calls = [];
    /** @type {(steps: number) => unknown} */
    this.presetOfRunFn = () => null;
    /** Until the panel exists, the step field and the button follow the page here, as the panel would. */
    this.stepsField = /** @type {HTMLInputElement} */ (document.getElementById('compare-steps'));
    this.button = /** @type {HTMLButtonElement} */ (document.getElementById('compare'));
    /** @type {string | null} */
    this.sceneId = null;
    /** @type {number | null} */
    this.presetSteps = null;
    const form = /** @type {HTMLFormElement} */ (document.getElementById('compare-form'));
    const early = (/** @type {Event} */ event) => {
      event.preventDefault();
      this.load().then((panel) => panel.run());
    };
    form.addEventListener('submit', early);
    this.removeEarly = () => form.removeEventListener('submit', early);
  }

  /** Loads ui/compare.js (once) and replays what it missed. */
  load() {
    this.loading ??= import('./ui/compare.js').then(({ ComparePanel }) => {
      this.removeEarly();
      const panel = new ComparePanel(this.options);
      panel.presetOfRun = /** @type {any} */ (this.presetOfRunFn);
      // The replay sets the step field as it was set here; what the
      // visitor typed since stays.
      const typed = this.stepsField.value;
      for (const [name, argument] of this.calls) /** @type {any} */ (panel)[name](argument);
      this.stepsField.value = typed;
      this.calls = [];
      this.panel = panel;
      return panel;
    });
    return this.loading;
  }

  /** @param {string} name @param {unknown} argument */
  forward(name, argument) {
    if (this.panel) /** @type {any} */ (this.panel)[name](argument);
    else this.calls.push([name, argument]);
  }

  /** @param {any} context */
  setScene(context) {
    if (!this.panel) {
      if (this.sceneId !== context.id || !this.stepsField.value) this.stepsField.value = String(this.presetSteps ?? context.measureStep);
      this.sceneId = context.id;
      this.presetSteps = null;
      this.button.disabled = false;
    }
    this.forward('setScene', context);
  }

  /** @param {number} steps */
  setSteps(steps) {
    if (!this.panel) {
      this.presetSteps = steps;
      this.stepsField.value = String(steps);
    }
    this.forward('setSteps', steps);
  }

  /** @param {any} preset */
  setPaper(preset) {
    this.forward('setPaper', preset);
  }

  checkStale() {
    this.panel?.checkStale();
  }

  /** @param {(steps: number) => unknown} fn */
  set presetOfRun(fn) {
    this.presetOfRunFn = fn;
    if (this.panel) this.panel.presetOfRun = /** @type {any} */ (fn);
  }
}
