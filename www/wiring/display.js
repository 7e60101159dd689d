/**
 * @file The page's display of what the run controller shows: a new
 * configuration, a new frame, the run's state and its loading progress go
 * to the view, the readout, the contact list, the left panel, the view told
 * in words and the comparison; what the core said while loading is said
 * once as a notice. main.js builds the parts and connects the controller's
 * news here; `data-scene`, `data-method`, `data-step` and `data-run` on
 * <body> are written here (main.js's header says what each means).
 */

import { showNotice } from '../ui/banner.js';
import { CONTACTS_COMPARE_ID, CONTACTS_OPTION, importedName } from '../ui/contact-file.js';
import { FILE_OPTION } from './page-config.js';

/**
 * The page's parts the display drives, as main.js's Page holds them (read
 * at each call: they are built after the run controller that calls here).
 * @typedef {object} DisplayedParts
 * @property {import('../state/run-controller.js').RunController} controller
 * @property {import('./page-config.js').ConfigTerms} terms
 * @property {any} catalogue the core's catalogue
 * @property {import('./view.js').SceneView | import('./no-view.js').NoView} view
 * @property {import('./readout.js').ReadoutPanel} readout
 * @property {import('../ui/contact-browser.js').ContactBrowser} contactBrowser
 * @property {import('../ui/view-description.js').ViewDescription} words
 * @property {import('./controls.js').ControlPanel} controls
 * @property {any} compare the comparison (main.js's stand-in until ui/compare.js loads)
 * @property {import('./errors.js').ErrorReporter} errors
 */

/** Shows the run controller's news on the page's parts. */
export class PageDisplay {
  /**
   * @param {DisplayedParts} parts
   * @param {HTMLElement} status the loading line shown until the first scene
   */
  constructor(parts, status) {
    this.parts = parts;
    this.status = status;
    /** The core's notices about loading the scene, as last shown. */
    this.shownLoadNotices = '';
    /** The contact file's warnings, as last shown. */
    this.shownContactWarnings = '';
    /** The configuration whose contact file's end was last said. */
    this.endSaidFor = null;
  }

  /** @param {{config: unknown}} progress a replay's or a load's progress */
  showProgress(progress) {
    const { controls, controller, terms, readout } = this.parts;
    controls.showProgress(progress);
    if (!controller.shown) {
      this.status.textContent = `Loading ${terms.sceneName(/** @type {any} */ (progress.config))}…`;
      this.status.hidden = false;
    }
    readout.updateCaption();
  }

  /** @param {import('../state/run-controller.js').Shown} shown a new configuration */
  showScene(shown) {
    const { view, contactBrowser, controls, compare, readout, errors, catalogue } = this.parts;
    const info = shown.scene.info;
    const newScene = view.showScene(shown);
    if (newScene) contactBrowser.reset();
    controls.showScene(shown, newScene);
    // Compare runs the picker's methods; a `@paper-code` variant is one
    // switch away, and `contactlab table --paper-code` lists them beside.
    // A contact file shown in the method's place has a row of its own.
    const config = /** @type {import('./page-config.js').PageConfig} */ (shown.config);
    const fileRow = config.contacts ? [{ id: CONTACTS_COMPARE_ID, name: importedName(config.contacts.name) }] : [];
    compare.setScene({ methods: [...fileRow, ...catalogue.methods.filter((m) => !m.paper_code)], oracle: info.oracle, title: info.title, id: info.id, measureStep: info.measure_step });
    readout.showScene(info);
    this.status.hidden = true;
    errors.sceneShown();
    this.showLoadNotices(info.notices ?? []);
    this.showContactFileWarnings(info.contact_file ?? null);
    this.showFrame(shown);
  }

  /**
   * What the core counted while reading a contact file (normals it
   * normalised, comment lines it skipped), said when the file is shown.
   * @param {{warnings: string[]} | null} summary `contactFileSummary()`
   */
  showContactFileWarnings(summary) {
    const text = summary ? summary.warnings.map((w) => w.replace(/\.?$/, '.')).join(' ') : '';
    // Said once per file, not again after each change of a setting.
    if (text !== '' && text !== this.shownContactWarnings) showNotice(text);
    this.shownContactWarnings = text;
  }

  /**
   * What the core says about loading the scene (the meshes it fell back to,
   * bodies that overlap at the start), said once per new set, never silently.
   * @param {string[]} notices
   */
  showLoadNotices(notices) {
    const text = notices.join('. ');
    if (text !== '' && text !== this.shownLoadNotices) showNotice(`Loading the scene: ${text}.`);
    this.shownLoadNotices = text;
  }

  /** @param {import('../state/run-controller.js').Shown} shown a new frame */
  showFrame(shown) {
    const { view, contactBrowser, readout, compare, controls, controller, terms } = this.parts;
    const body = document.body.dataset;
    const config = /** @type {import('./page-config.js').PageConfig} */ (shown.config);
    body.scene = config.file ? FILE_OPTION : shown.scene.info.id;
    body.method = config.contacts ? CONTACTS_OPTION : String(terms.method(config));
    body.step = String(shown.step);
    view.showFrame();
    contactBrowser.showFrame(shown.frame.contacts, shown.scene.info.bodies.map((b) => b.name), controller.run === 'playing');
    readout.showFrame(shown);
    compare.setPaper(controls.shownPreset());
    controls.showFrame();
    this.showRunState();
    // A contact file's run goes no further than its file: said once, as a
    // notice (nothing went wrong).
    if (shown.frame.ended && this.endSaidFor !== shown.config) {
      this.endSaidFor = shown.config;
      showNotice(`${shown.frame.ended}.`);
    }
  }

  /** `data-run` on <body> (the controller's run state, or "diverged" when it stopped at a blow-up), and the run buttons. */
  showRunState() {
    const { controller, controls, readout, words } = this.parts;
    const run = controller.run;
    document.body.dataset.run = run === 'idle' && controller.diverged ? 'diverged' : run;
    controls.updateRunControls();
    readout.updateCaption();
    words.show(controller.shown, run);
  }
}
