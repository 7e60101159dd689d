/**
 * @file The 3D view's wiring: the canvas with its renderer and orbit
 * camera, the view's part of the link (camera, view mode, explode, which
 * contacts, their colours, the region outlines) with the View controls that
 * edit it, presentation mode, and the input: drag, wheel, fingers and keys
 * move the camera, hovering (or tapping) a contact shows its numbers,
 * double-clicking (or double-tapping) a body focuses it. What is drawn is
 * view/drawing.js's, the camera's framing view/framing.js's, what is under
 * the pointer view/picking.js's; they read and update the shown scene kept
 * here. It draws what the run controller shows; nothing here changes what
 * is simulated, so the page only rewrites the link when the view moves.
 */

import { OrbitCamera } from '../render/camera.js';
import { attachOrbitControls } from '../render/orbit-input.js';
import { showError } from '../ui/banner.js';
import { attachKeyboardOrbit } from '../ui/keyboard.js';
import { Presentation } from '../ui/presentation.js';
import { hideTooltip } from '../ui/tooltip.js';
import { highlighted, requestDraw, showFrame, showMeshes } from '../view/drawing.js';
import { frameCamera, frameNewScene } from '../view/framing.js';
import { focusAt, onScreen, showContactAt } from '../view/picking.js';

/**
 * The view's part of the link; it never changes what is simulated.
 * @typedef {object} ViewState
 * @property {number[] | null} cam the visitor's camera, null while it is framed by the page
 * @property {'solid' | 'wireframe' | 'tetrahedra'} view
 * @property {number} explode
 * @property {boolean} onlyWrong
 * @property {boolean} featureColours
 * @property {boolean} regions draw the contact regions (a region method's)
 */

/** How near, in CSS pixels, the pointer must be to a contact glyph to show its details: a mouse's, and a fingertip's. */
const HOVER_PIXELS = 6;
const TAP_PIXELS = 16;
/** A double click this soon (ms) after a finger touched the view is the browser's own from a double tap, which the touch input handles. */
const TOUCH_CLICK_MS = 1000;

/**
 * What the legend says about the drawn contacts and regions.
 * @typedef {object} DrawnContacts
 * @property {number} count contacts in the frame
 * @property {number} shown contacts drawn
 * @property {boolean} featureColours
 * @property {number | null} regions region outlines drawn; null when they are not asked for or the method finds none
 */

/** The canvas, its camera and the view controls, drawing the run controller's shown frame. */
export class SceneView {
  /**
   * @param {{elements: import('./elements.js').ViewElements,
   *   renderer: import('../render/renderer.js').Renderer,
   *   controller: import('../state/run-controller.js').RunController,
   *   layout: any, regionLayout: any, featureKinds: any,
   *   methodOf: (config: any) => ({name: string, kind: string} | undefined),
   *   onViewChange: (throttle: boolean) => void,
   *   onDrawPending: () => void,
   *   onFirstFrame: () => void,
   *   onContacts: (contacts: DrawnContacts) => void,
   *   onResize: () => void}} options
   *   renderer: the canvas's renderer (made early: its shaders compile while the core starts);
   *   layout, regionLayout, featureKinds: the catalogue's contact and region layouts and feature kinds;
   *   methodOf: the catalogue's entry of the method a configuration runs;
   *   onViewChange: the view's part of the link changed (throttle: a camera
   *   drag, written at most a few times a second);
   *   onDrawPending: a draw was requested or done (the page is not ready meanwhile);
   *   onFirstFrame: the first frame of a shown scene is on the canvas;
   *   onContacts: the contact glyphs were rebuilt (for the legend);
   *   onResize: the canvas changed size (the plots follow the layout)
   */
  constructor({ elements, renderer, controller, layout, regionLayout, featureKinds, methodOf, onViewChange, onDrawPending, onFirstFrame, onContacts, onResize }) {
    this.elements = elements;
    this.canvas = elements.canvas;
    this.controller = controller;
    this.layout = layout;
    this.regionLayout = regionLayout;
    this.methodOf = methodOf;
    this.featureKinds = featureKinds;
    this.onViewChange = onViewChange;
    this.onDrawPending = onDrawPending;
    this.onFirstFrame = onFirstFrame;
    this.onContacts = onContacts;
    this.renderer = renderer;
    this.camera = new OrbitCamera();

    /** @type {ViewState} */
    this.state = { cam: null, view: 'solid', explode: 0, onlyWrong: false, featureColours: false, regions: false };
    /** A link's camera, applied when its scene is first shown. @type {number[] | null} */
    this.pendingCam = null;

    // The shown scene as drawn, read and updated by view/drawing.js,
    // view/framing.js and view/picking.js.
    this.info = /** @type {any} */ (null);
    this.bodyTriangles = /** @type {Float32Array[]} */ ([]);
    this.bodyRadii = /** @type {number[]} */ ([]);
    this.stack = false;
    this.sceneCentre = [0, 0, 0];
    /** Which scene the camera was framed for: it is framed again only for another. */
    this.cameraKey = '';
    this.instances = new Float32Array(0);
    /** The contact index of each glyph instance, for the hover tooltip. @type {number[]} */
    this.instanceContacts = [];
    /** Each region of the frame by "a:b:region": its place in the core's list (its colour) and how many its pair has, for the hover tooltip. @type {Map<string, {index: number, of: number}>} */
    this.regionIndex = new Map();
    /** The explode offsets of the shown frame, 3 floats per body. */
    this.offsets = new Float32Array(0);
    /** The contact the keyboard's contact list chose, ringed in the view; null: none. @type {number | null} */
    this.highlightedContact = null;
    /** Whether the region outlines are drawn. */
    this.regionsDrawn = false;
    /** Contact arrow length in metres before presentation mode scales it. */
    this.glyphLength = 0.15;

    this.drawPending = false;
    this.firstFrameDrawn = false;
    /** The camera is framed by the page again before the next draw (the overlays have their sizes by then). */
    this.framePending = false;
    /** Whether the page's framing saw contacts (a scene framed before any touch is framed again when they come). */
    this.framedContacts = false;
    /** The direction the page frames the shown scene from; null: choose it at the next framing. @type {{yaw: number, pitch: number} | null} */
    this.framingFrom = null;
    /** When a finger last touched the view (`performance.now()`), -Infinity: never. */
    this.lastTouch = -Infinity;

    this.presentation = new Presentation({
      button: elements.present,
      onChange: () => {
        this.framePending = true;
        this.requestDraw();
      },
    });

    new ResizeObserver(() => {
      this.framePending = true;
      this.requestDraw();
      onResize();
    }).observe(this.canvas);
    // The legend goes under the toolbar wherever that wraps (a phone, presentation mode).
    const tools = elements.tools;
    new ResizeObserver(() => {
      this.canvas.parentElement?.style.setProperty('--view-tools-height', `${tools.offsetHeight}px`);
      this.framePending = true;
      this.requestDraw();
    }).observe(tools);
    this.canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      showError('The graphics context was lost (the GPU was reset or is out of memory). Reload the page.');
    });

    this.wireViewControls();
    this.wireCamera();
    this.wireHover();
  }

  /** Draws on the next animation frame; several requests before it make one draw. */
  requestDraw() {
    requestDraw(this);
  }

  /**
   * A new configuration is shown: meshes, sizes and, for another scene than
   * before, the framed camera (or the link's, when it looks at the scene).
   * @param {import('../state/run-controller.js').Shown} shown
   * @returns {boolean} whether the camera was framed for another scene
   */
  showScene(shown) {
    showMeshes(this, shown);
    return frameNewScene(this, /** @type {import('./page-config.js').PageConfig} */ (shown.config));
  }

  /** Body poses, explode offsets and contact glyphs from the shown frame. */
  showFrame() {
    showFrame(this);
  }

  /** @returns {ReturnType<typeof onScreen>} where the last drawn frame put each contact, for the browser tests (view/picking.js) */
  onScreen() {
    return onScreen(this);
  }

  /**
   * Rings a contact of the shown frame (the one the keyboard's contact list
   * chose), or none; it follows the camera at every draw.
   * @param {number | null} index into the shown frame's contacts
   */
  highlightContact(index) {
    this.highlightedContact = index;
    this.requestDraw();
  }

  /** @returns {ReturnType<typeof highlighted>} where the ringed contact is drawn, for the browser tests (view/drawing.js) */
  highlighted() {
    return highlighted(this);
  }

  // ---- the view's part of the link ---------------------------------------

  /** A newly picked scene or file is framed by the page, not by the last camera. */
  forgetCamera() {
    this.state.cam = null;
    this.pendingCam = null;
  }

  /**
   * Takes the view a link names; its camera waits for its scene to be shown.
   * @param {ViewState} state
   */
  showLinkView(state) {
    Object.assign(this.state, { cam: state.cam, view: state.view, explode: state.explode, onlyWrong: state.onlyWrong, featureColours: state.featureColours, regions: state.regions });
    this.pendingCam = state.cam;
    this.cameraKey = '';
    const { viewModes, explode, explodeValue, onlyWrong, featureColours, regions } = this.elements;
    for (const radio of viewModes) radio.checked = radio.value === this.state.view;
    this.renderer.setViewMode(this.state.view);
    explode.value = String(this.state.explode);
    explodeValue.textContent = this.state.explode.toFixed(2);
    onlyWrong.checked = this.state.onlyWrong;
    featureColours.checked = this.state.featureColours;
    regions.checked = this.state.regions;
  }

  /** Back to the framed view of the whole scene; the link forgets the camera. */
  resetView() {
    if (!this.info) return;
    frameCamera(this);
    this.state.cam = null;
    this.requestDraw();
    this.onViewChange(false);
  }

  // ---- input --------------------------------------------------------------

  wireViewControls() {
    const { viewModes, explode, explodeValue, onlyWrong, featureColours, regions, resetView } = this.elements;
    for (const radio of viewModes) {
      radio.addEventListener('change', () => {
        this.state.view = /** @type {ViewState['view']} */ (radio.value);
        this.renderer.setViewMode(this.state.view);
        this.requestDraw();
        this.onViewChange(false);
      });
    }
    explode.addEventListener('input', () => {
      this.state.explode = Number(explode.value);
      explodeValue.textContent = this.state.explode.toFixed(2);
      // Until the visitor moves the camera, it keeps the spread scene in view.
      if (!this.state.cam && this.info) frameCamera(this);
      this.showFrame();
      this.onViewChange(false);
    });
    onlyWrong.addEventListener('change', () => {
      this.state.onlyWrong = onlyWrong.checked;
      this.showFrame();
      this.onViewChange(false);
    });
    featureColours.addEventListener('change', () => {
      this.state.featureColours = featureColours.checked;
      this.showFrame();
      this.onViewChange(false);
    });
    regions.addEventListener('change', () => {
      this.state.regions = regions.checked;
      this.showFrame();
      this.onViewChange(false);
    });
    resetView.addEventListener('click', () => this.resetView());
  }

  /** Drag, wheel, fingers and keys move the camera; a double click or a double tap focuses a body, a tap shows a contact's details. */
  wireCamera() {
    const { canvas, camera } = this;
    const tooltip = this.elements.tooltip;
    attachOrbitControls(
      canvas,
      camera,
      () => {
        this.state.cam = camera.getState();
        hideTooltip(tooltip);
        this.requestDraw();
        this.onViewChange(true);
      },
      {
        // A touch screen has no hover: a tap shows a contact's details, a tap elsewhere hides them.
        onTap: (x, y) => showContactAt(this, x, y, TAP_PIXELS, true),
        onDoubleTap: (x, y) => {
          hideTooltip(tooltip);
          focusAt(this, x, y);
        },
      },
    );
    attachKeyboardOrbit(canvas, camera, {
      // A key press is one change, not a drag: the link is written at once.
      onChange: () => {
        this.state.cam = camera.getState();
        this.requestDraw();
        this.onViewChange(false);
      },
      onReset: () => this.resetView(),
    });
    canvas.addEventListener('pointerdown', (event) => {
      if (event.pointerType === 'touch') this.lastTouch = performance.now();
    });
    canvas.addEventListener('dblclick', (event) => {
      // Chromium turns a double tap into a double click too; the tap already focused.
      if (performance.now() - this.lastTouch < TOUCH_CLICK_MS) return;
      focusAt(this, event.clientX, event.clientY);
    });
  }

  /** The tooltip follows the contact glyph under a mouse or a pen; a finger's tap shows it instead (`wireCamera`). */
  wireHover() {
    const { canvas } = this;
    const tooltip = this.elements.tooltip;
    canvas.addEventListener('pointermove', (event) => {
      if (event.pointerType === 'touch') return;
      if (event.buttons !== 0) {
        hideTooltip(tooltip);
        return;
      }
      showContactAt(this, event.clientX, event.clientY, HOVER_PIXELS);
    });
    // A finger leaves the view whenever it is lifted; its tap's details stay.
    canvas.addEventListener('pointerleave', (event) => {
      if (event.pointerType !== 'touch') hideTooltip(tooltip);
    });
  }
}
