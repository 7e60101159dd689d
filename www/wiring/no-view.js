// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file The 3D view's stand-in for a browser that gives the page no WebGL2
 * (WebGL turned off, or refused on a software-only GL as Firefox ESR does on
 * a laptop without a GPU driver). The simulation runs in the worker and
 * needs no GPU, so the page keeps everything else: the readout, the plots
 * (2D canvases), Compare, the link, the exports, the lessons, the view told
 * in words and the keyboard's contact list. NoView has the interface of
 * SceneView (wiring/view.js) that the page uses, so main.js builds one or
 * the other and asks nothing else; here the canvas is hidden and its place
 * says why and what the visitor can do (the #no-webgl note in index.html),
 * and the controls that need a view (Present, View PNG, Reset view and the
 * View settings) are disabled with that note as their description.
 *
 * The view's part of the link (cam=, view=, explode=, …) is kept as the
 * link gave it, so a link made on another machine keeps its view when it
 * is copied again here. What depends on a camera does nothing: `onScreen()`
 * lists no contacts, `highlighted()` is null, and the lessons' highlight
 * circle stays hidden (a zero projection puts nothing on the screen).
 */

import { Presentation } from '../ui/presentation.js';

/**
 * Presentation mode where there is no view to present: Present and F do not
 * enter it, but a lesson still uses its layout (panel aside, larger text),
 * and while it is on, Present ("Leave presentation") and F leave it.
 */
class LessonOnlyPresentation extends Presentation {
  /** @param {{button: HTMLButtonElement, onChange: (presenting: boolean) => void, reasonId: string}} options */
  constructor({ button, onChange, reasonId }) {
    super({ button, onChange });
    this.reasonId = reasonId;
    this.showAvailability();
  }

  toggle() {
    if (this.presenting) this.set(false);
  }

  /** @param {boolean} presenting */
  set(presenting) {
    super.set(presenting);
    this.showAvailability();
  }

  /** Present is off, with the reason as its description, except to leave a lesson's presentation. */
  showAvailability() {
    const button = /** @type {HTMLButtonElement} */ (this.button);
    button.disabled = !this.presenting;
    if (this.presenting) button.removeAttribute('aria-describedby');
    else button.setAttribute('aria-describedby', this.reasonId);
  }
}

/** The page's view without WebGL2: the explanation in its place, the view's link keys kept. */
export class NoView {
  /**
   * @param {{elements: import('./elements.js').ViewElements,
   *   explanation: HTMLElement, reasonId: string, exportPng: HTMLButtonElement,
   *   controller: import('../state/run-controller.js').RunController,
   *   onFirstFrame: () => void}} options
   *   explanation: the #no-webgl note shown in the view's place;
   *   reasonId: the id of its paragraph that says why the view is off (the disabled controls' description);
   *   exportPng: the View PNG button;
   *   onFirstFrame: the first frame of a shown scene is "drawn" (here: shown in the readout), as SceneView says it
   */
  constructor({ elements, explanation, reasonId, exportPng, controller, onFirstFrame }) {
    this.elements = elements;
    this.controller = controller;
    this.onFirstFrame = onFirstFrame;
    /** Where "Skip to the view" goes: the explanation, as the canvas is hidden. */
    this.canvas = explanation;
    // A Tab stop: on a small screen it scrolls, and the keys scroll it only with the focus.
    explanation.tabIndex = 0;
    explanation.hidden = false;
    elements.canvas.style.display = 'none';

    /** @type {import('./view.js').ViewState} */
    this.state = { cam: null, view: 'solid', explode: 0, onlyWrong: false, featureColours: false, regions: false };
    /** Nothing is ever waiting to be drawn. */
    this.drawPending = false;
    this.firstFrameDrawn = false;
    /** What the lessons read of the last drawn frame: a zero projection (nothing on the screen) and no contact glyphs. */
    this.renderer = { viewProjection: new Float32Array(16) };
    this.instances = new Float32Array(0);
    this.presentation = new LessonOnlyPresentation({ button: elements.present, onChange: () => {}, reasonId });

    const { viewModes, explode, onlyWrong, featureColours, regions, resetView } = elements;
    for (const control of [...viewModes, explode, onlyWrong, featureColours, regions, resetView, exportPng]) {
      control.disabled = true;
      const described = (control.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id !== '' && id !== reasonId);
      control.setAttribute('aria-describedby', [...described, reasonId].join(' '));
    }
    const reason = document.getElementById(reasonId)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    exportPng.title = reason;
  }

  /**
   * A new configuration is shown; the view's link keys stay as they are.
   * @param {import('../state/run-controller.js').Shown} _shown
   * @returns {boolean} false: there is no camera to frame for another scene
   */
  showScene(_shown) {
    return false;
  }

  /** A frame is shown: the page counts it as drawn (its readout and link follow). */
  showFrame() {
    if (this.controller.shown && !this.firstFrameDrawn) {
      this.firstFrameDrawn = true;
      this.onFirstFrame();
    }
  }

  /** @param {number | null} _index the contact list's choice: no ring without a view */
  highlightContact(_index) {}

  /** @returns {null} no ring is drawn */
  highlighted() {
    return null;
  }

  /** @returns {{contacts: never[], corners: never[], glyph: {diameter: number, length: number}}} nothing is on the screen */
  onScreen() {
    return { contacts: [], corners: [], glyph: { diameter: 0, length: 0 } };
  }

  /** A newly picked scene or file: the link forgets the camera, as with a view. */
  forgetCamera() {
    this.state.cam = null;
  }

  /**
   * Keeps the view a link names, as given, for the next link written, and
   * shows it in the (disabled) View settings.
   * @param {import('./view.js').ViewState} state
   */
  showLinkView(state) {
    Object.assign(this.state, { cam: state.cam, view: state.view, explode: state.explode, onlyWrong: state.onlyWrong, featureColours: state.featureColours, regions: state.regions });
    const { viewModes, explode, explodeValue, onlyWrong, featureColours, regions } = this.elements;
    for (const radio of viewModes) radio.checked = radio.value === this.state.view;
    explode.value = String(this.state.explode);
    explodeValue.textContent = this.state.explode.toFixed(2);
    onlyWrong.checked = this.state.onlyWrong;
    featureColours.checked = this.state.featureColours;
    regions.checked = this.state.regions;
  }
}
