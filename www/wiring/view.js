/**
 * @file The 3D view: the canvas with its renderer and orbit camera, the
 * view's part of the link (camera, view mode, explode, which contacts, their
 * colours, the region outlines) with the View controls that edit it, presentation mode's glyph
 * sizes, hovering (or tapping) a contact for its numbers and double-clicking
 * (or double-tapping) a body to focus it, and the ring over the contact
 * chosen in the keyboard's contact list (ui/contact-browser.js). It draws what the run controller shows; nothing here changes
 * what is simulated, so the page only rewrites the link when the view moves.
 */

import { FRAMING_DIRECTIONS, OrbitCamera, boxCorners } from '../render/camera.js';
import { INSTANCE_STRIDE, contactCount, contactInstances } from '../render/contacts.js';
import { bodyCentres, explodeOffsets, isStack, offsetTransforms } from '../render/explode.js';
import { attachOrbitControls } from '../render/orbit-input.js';
import { hiddenBehind, nearestInstance, pickBody, worldTriangles } from '../render/picking.js';
import { outlineVertices, readRegions, regionColour } from '../render/regions.js';
import { showError, showNotice } from '../ui/banner.js';
import { attachKeyboardOrbit } from '../ui/keyboard.js';
import { Presentation } from '../ui/presentation.js';
import { hideTooltip, showContactTooltip } from '../ui/tooltip.js';

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

/** Width of the region outlines in presentation mode, relative to the normal. */
const PRESENTING_REGION_SCALE = 2;
/** The smallest contact glyph on the screen, in CSS pixels: a ball's diameter and an arrow's length. */
const MIN_GLYPH_PIXELS = { diameter: 8, length: 22 };
/** The ring over the chosen contact: at least this wide, in CSS pixels, and this much wider than its glyph. */
const MARK_MIN_PIXELS = 26;
const MARK_MARGIN_PIXELS = 12;
/** How near, in CSS pixels, the pointer must be to a contact glyph to show its details: a mouse's, and a fingertip's. */
const HOVER_PIXELS = 6;
const TAP_PIXELS = 16;
/** A double click this soon (ms) after a finger touched the view is the browser's own from a double tap, which the touch input handles. */
const TOUCH_CLICK_MS = 1000;
/** Gap kept between the framed scene and the overlays on the view, in CSS pixels. */
const OVERLAY_GAP = 8;
/** At most this many contacts are tested for being hidden when the page picks a direction to frame from. */
const VISIBILITY_SAMPLES = 24;
/** The share of the sampled contacts another direction must show more than the default one for the page to frame from there. */
const CLEARER_SHARE = 0.25;
/** Ray-triangle tests the page spends at most on that choice (some 50 ms); beyond, it keeps the default direction. */
const VISIBILITY_BUDGET = 4_000_000;

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

    // Render data of the shown scene.
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

  // ---- drawing ----------------------------------------------------------

  /** Draws on the next animation frame; several requests before it make one draw. */
  requestDraw() {
    if (this.drawPending) return;
    this.drawPending = true;
    this.onDrawPending();
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.renderer.resize();
      // Until the visitor moves it, the camera keeps the scene and its
      // contacts framed in the part of the view the overlays leave free.
      if (this.framePending && this.info && !this.state.cam) this.frameCamera();
      this.framePending = false;
      this.sizeGlyphs();
      this.renderer.draw(this.camera);
      this.placeContactMark();
      if (this.controller.shown && !this.firstFrameDrawn) {
        this.firstFrameDrawn = true;
        this.onFirstFrame();
      }
      this.onDrawPending();
    });
  }

  /**
   * A new configuration is shown: meshes, sizes and, for another scene than
   * before, the framed camera (or the link's, when it looks at the scene).
   * @param {import('../state/run-controller.js').Shown} shown
   * @returns {boolean} whether the camera was framed for another scene
   */
  showScene(shown) {
    const { info, bodies } = shown.scene;
    const config = /** @type {import('./page-config.js').PageConfig} */ (shown.config);
    this.info = info;
    this.bodyTriangles = bodies.map((b) => b.triangles);
    this.bodyRadii = bodies.map((b) => {
      let r = 0;
      for (let i = 0; i < b.triangles.length; i += 3) r = Math.max(r, Math.hypot(b.triangles[i], b.triangles[i + 1], b.triangles[i + 2]));
      return r;
    });
    this.renderer.setScene(bodies, shown.frame.transforms);
    this.renderer.resize();
    const fixed = info.bodies.map((b) => b.fixed);
    this.stack = isStack(bodyCentres(shown.frame.transforms, bodies.length), fixed, info.up);
    this.sceneCentre = info.focus_min.map((v, i) => (v + info.focus_max[i]) / 2);
    // Glyphs scale with the scene, but stay shorter than a typical free
    // body, or the wall's thousand contacts would hide its bricks.
    const size = Math.hypot(...info.focus_max.map((v, i) => v - info.focus_min[i]));
    const freeRadii = this.bodyRadii.filter((_, i) => !fixed[i]).sort((a, b) => a - b);
    const typical = freeRadii.length > 0 ? freeRadii[Math.floor(freeRadii.length / 2)] : size;
    this.glyphLength = Math.min(size * 0.05, typical * 0.6);
    this.sizeGlyphs();
    // The camera stays where it is for new settings of the same scene.
    const cameraKey = config.file ? `file:${config.file.packed}` : `scene:${config.sceneId}`;
    if (cameraKey === this.cameraKey) return false;
    this.cameraKey = cameraKey;
    this.framingFrom = null;
    this.frameCamera();
    this.framePending = true;
    const pendingCam = this.pendingCam;
    if (pendingCam && this.camera.showsScene(pendingCam)) {
      this.camera.setState(pendingCam);
    } else if (pendingCam) {
      // A view that looks away from the scene would leave a blank canvas.
      showNotice(`The link's view (cam=${pendingCam.join(',')}) does not look at the scene; showing the default view.`);
      this.state.cam = null;
    }
    this.pendingCam = null;
    return true;
  }

  /**
   * Body poses, explode offsets and contact glyphs from the shown frame.
   * @returns {void}
   */
  showFrame() {
    const shown = this.controller.shown;
    if (!shown || !this.info) return;
    const { transforms, contacts } = shown.frame;
    const centres = bodyCentres(transforms, this.info.bodies.length);
    const offsets = explodeOffsets(centres, this.sceneCentre, this.info.up, this.stack, this.state.explode);
    this.offsets = offsets;
    this.renderer.setTransforms(offsetTransforms(transforms, offsets));
    const { instances, indices } = contactInstances(contacts, this.layout, offsets, this.state);
    this.instances = instances;
    this.instanceContacts = indices;
    this.renderer.setContacts(instances);
    const regions = this.showRegions(shown, offsets);
    if (!this.framedContacts && contactCount(contacts, this.layout) > 0) {
      this.framingFrom = null;
      this.framePending = true;
    }
    this.onContacts({ count: contactCount(contacts, this.layout), shown: indices.length, featureColours: this.state.featureColours, regions });
    this.requestDraw();
  }

  /**
   * The region outlines of the shown frame, when asked for and the method
   * finds regions; the checkbox is off for the methods that find none.
   * @param {import('../state/run-controller.js').Shown} shown
   * @param {Float32Array} offsets explode offsets, 3 floats per body
   * @returns {number | null} how many outlines are drawn, null when none are asked for or possible
   */
  showRegions(shown, offsets) {
    const method = this.methodOf(shown.config);
    const regionMethod = method?.kind === 'region';
    const { regions: box, regionsLabel } = this.elements;
    box.disabled = !regionMethod;
    regionsLabel.classList.toggle('disabled', !regionMethod);
    regionsLabel.title = regionMethod
      ? 'Outlines each contact region the method found: its contour or touching polygon, a segment, or a point (a square), one colour per region.'
      : `Only region methods find regions; ${method?.name ?? 'this method'} ${method?.kind === 'local' ? "is one of the paper's local methods (one pair of tetrahedra at a time)" : 'reports none'}.`;
    const regions = regionMethod ? readRegions(shown.frame.regions ?? new Float32Array(0), this.regionLayout) : [];
    /** @type {Map<string, number>} */
    const perPair = new Map();
    for (const { a, b } of regions) perPair.set(`${a}:${b}`, (perPair.get(`${a}:${b}`) ?? 0) + 1);
    this.regionIndex = new Map(regions.map((r, index) => [`${r.a}:${r.b}:${r.region}`, { index, of: perPair.get(`${r.a}:${r.b}`) ?? 0 }]));
    this.regionsDrawn = regionMethod && this.state.regions;
    this.renderer.setRegions(outlineVertices(this.regionsDrawn ? regions : [], offsets));
    return this.regionsDrawn ? regions.length : null;
  }

  /**
   * Contact glyph sizes: from the scene's size, larger in presentation mode,
   * but never smaller on the screen than MIN_GLYPH_PIXELS (the scene's own
   * size shrinks to a few pixels on a phone or when the camera is far).
   */
  sizeGlyphs() {
    const grow = this.presentation.glyphScale();
    const metresPerPixel = this.camera.metresPerPixel(this.canvas.clientHeight);
    this.renderer.contactLength = Math.max(this.glyphLength * grow.length, MIN_GLYPH_PIXELS.length * metresPerPixel);
    this.renderer.contactRadius = Math.max(this.glyphLength * 0.12 * grow.radius, (MIN_GLYPH_PIXELS.diameter / 2) * metresPerPixel);
    this.renderer.regionScale = this.presentation.presenting ? PRESENTING_REGION_SCALE : 1;
  }

  /**
   * Frames the scene's focus box (grown by the explode factor, so spread
   * bodies stay in view) and the shown contacts: from the direction that
   * hides the fewest contacts behind bodies (the default first), inside the
   * largest part of the view that the legend, the toolbar and the headline
   * leave free.
   */
  frameCamera() {
    const info = this.info;
    const grow = 1 + this.state.explode;
    const min = info.focus_min.map((v, i) => this.sceneCentre[i] + (v - this.sceneCentre[i]) * grow);
    const max = info.focus_max.map((v, i) => this.sceneCentre[i] + (v - this.sceneCentre[i]) * grow);
    this.renderer.resize();
    const aspect = this.renderer.aspect();
    const contacts = this.contactGlyphs();
    this.framedContacts = contacts.length > 0;
    const points = [...boxCorners(/** @type {any} */ (min), /** @type {any} */ (max)), ...contacts.flatMap(({ at, tip }) => [at, tip])];
    // The direction is chosen once per scene (and again when its first
    // contacts come); a resize or presentation mode only refits.
    this.framingFrom ??= this.clearestDirection(points, contacts, aspect);
    const from = this.framingFrom;
    const camera = this.camera;
    let best = null;
    for (const free of this.freeAreas()) {
      camera.fit(points, info.up, aspect, free, from);
      if (!best || camera.distance < best.distance) best = { distance: camera.distance, free };
    }
    camera.fit(points, info.up, aspect, best?.free, from);
  }

  /**
   * The framing direction that hides the fewest of (a sample of) the
   * contacts behind a body, then the fewest of their arrows' tips: the default unless another shows more.
   * @param {import('../render/math.js').Vec3[]} points
   * @param {Array<{at: import('../render/math.js').Vec3, tip: import('../render/math.js').Vec3}>} contacts
   * @param {number} aspect
   * @returns {{yaw: number, pitch: number}}
   */
  clearestDirection(points, contacts, aspect) {
    const [first] = FRAMING_DIRECTIONS;
    if (contacts.length === 0) return first;
    const every = Math.max(1, Math.ceil(contacts.length / VISIBILITY_SAMPLES));
    const sample = contacts.filter((_, i) => i % every === 0);
    const triangles = this.bodyTriangles.reduce((sum, list) => sum + list.length / 9, 0);
    if (triangles * sample.length * 2 * FRAMING_DIRECTIONS.length > VISIBILITY_BUDGET) return first;
    const world = worldTriangles(this.bodyTriangles, this.renderer.transforms);
    /** @param {{yaw: number, pitch: number}} from @returns {{from: {yaw: number, pitch: number}, points: number, tips: number}} */
    const hiddenFrom = (from) => {
      this.camera.fit(points, this.info.up, aspect, undefined, from);
      const eye = this.camera.eye();
      return {
        from,
        points: sample.filter(({ at }) => this.hidden(eye, at, world)).length,
        tips: sample.filter(({ tip }) => this.hidden(eye, tip, world)).length,
      };
    };
    const usual = hiddenFrom(first);
    if (usual.points === 0) return first;
    // Another direction only when it shows a good share more of the contacts
    // (the Pillar keeps its familiar view); among those, the one that hides
    // the fewest points, then the fewest arrow tips.
    let best = usual;
    for (const from of FRAMING_DIRECTIONS.slice(1)) {
      const seen = hiddenFrom(from);
      if (usual.points - seen.points < sample.length * CLEARER_SHARE) continue;
      if (best === usual || seen.points < best.points || (seen.points === best.points && seen.tips < best.tips)) best = seen;
      if (best.points === 0 && best.tips === 0) break;
    }
    return best.from;
  }

  /** @returns {number} how far behind a body surface a contact may lie and still count as seen (a glyph's width) */
  hiddenTolerance() {
    return this.glyphLength * 0.24;
  }

  /**
   * The parts of the canvas the overlays leave free, in normalised device
   * coordinates: below or beside the legend and the toolbar, above the
   * headline.
   * @returns {Array<{left: number, right: number, bottom: number, top: number}>}
   */
  freeAreas() {
    const canvas = this.canvas.getBoundingClientRect();
    if (canvas.width === 0 || canvas.height === 0) return [{ left: -1, right: 1, bottom: -1, top: 1 }];
    const boxOf = (element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 ? box : null;
    };
    const legend = boxOf(this.elements.legend);
    const tools = [...this.elements.tools.querySelectorAll('button')].map(boxOf).filter((b) => b !== null);
    const headline = boxOf(this.elements.headline);
    const obstacles = [legend, ...tools].filter((b) => b !== null);
    const bottom = headline ? headline.top - OVERLAY_GAP : canvas.bottom;
    const tops = [canvas.top, ...obstacles.map((b) => b.bottom + OVERLAY_GAP)];
    const lefts = [canvas.left, ...(legend ? [legend.right + OVERLAY_GAP] : [])];
    const rights = [canvas.right, ...tools.map((b) => b.left - OVERLAY_GAP)];
    const areas = [];
    for (const top of tops) {
      for (const left of lefts) {
        for (const right of rights) {
          const area = { left, right, top, bottom };
          if (right - left < canvas.width * 0.25 || bottom - top < canvas.height * 0.25) continue;
          if (obstacles.some((b) => b.left < right && left < b.right && b.top < bottom && top < b.bottom)) continue;
          areas.push(area);
        }
      }
    }
    const ndc = ({ left, right, top, bottom }) => ({
      left: ((left - canvas.left) / canvas.width) * 2 - 1,
      right: ((right - canvas.left) / canvas.width) * 2 - 1,
      top: 1 - ((top - canvas.top) / canvas.height) * 2,
      bottom: 1 - ((bottom - canvas.top) / canvas.height) * 2,
    });
    return areas.length > 0 ? areas.map(ndc) : [{ left: -1, right: 1, bottom: -1, top: 1 }];
  }

  /**
   * Where every contact of the shown frame is drawn (with the explode
   * offsets), whatever the View controls filter: its point and the tip of
   * its arrow at the scene's glyph length.
   * @returns {Array<{at: import('../render/math.js').Vec3, tip: import('../render/math.js').Vec3}>}
   */
  contactGlyphs() {
    const shown = this.controller.shown;
    if (!shown || !this.info) return [];
    const centres = bodyCentres(shown.frame.transforms, this.info.bodies.length);
    const offsets = explodeOffsets(centres, this.sceneCentre, this.info.up, this.stack, this.state.explode);
    const { instances } = contactInstances(shown.frame.contacts, this.layout, offsets, { onlyWrong: false, featureColours: false });
    const glyphs = [];
    for (let i = 0; i < instances.length; i += INSTANCE_STRIDE) {
      const at = /** @type {import('../render/math.js').Vec3} */ ([instances[i], instances[i + 1], instances[i + 2]]);
      const tip = /** @type {import('../render/math.js').Vec3} */ (at.map((v, k) => v + instances[i + 3 + k] * this.glyphLength));
      glyphs.push({ at, tip });
    }
    return glyphs;
  }

  /**
   * Whether a body hides a point from `eye`.
   * @param {import('../render/math.js').Vec3} eye
   * @param {import('../render/math.js').Vec3} point
   * @param {Float64Array} world the bodies' triangles as drawn, `worldTriangles()`
   */
  hidden(eye, point, world) {
    return hiddenBehind(eye, point, world, this.hiddenTolerance());
  }

  /**
   * What the last drawn frame shows where, in the page's CSS pixels (for the
   * browser tests: the legend and the toolbar must not cover a contact):
   * each contact's centre and whether a body hides it, the corners of the
   * scene's focus box, and the contact glyphs' size on the screen.
   * @returns {{contacts: Array<{x: number, y: number, hidden: boolean}>, corners: Array<{x: number, y: number}>,
   *   glyph: {diameter: number, length: number}}}
   */
  onScreen() {
    const rect = this.canvas.getBoundingClientRect();
    const project = (point) => {
      const { x, y } = this.project(point, rect);
      return { x, y };
    };
    const eye = this.camera.eye();
    const world = worldTriangles(this.bodyTriangles, this.renderer.transforms);
    const contacts = this.contactGlyphs().map(({ at }) => ({ ...project(at), hidden: this.hidden(eye, at, world) }));
    const corners = this.info ? boxCorners(this.info.focus_min, this.info.focus_max).map(project) : [];
    const metresPerPixel = this.camera.metresPerPixel(rect.height);
    return { contacts, corners, glyph: { diameter: (2 * this.renderer.contactRadius) / metresPerPixel, length: this.renderer.contactLength / metresPerPixel } };
  }

  /**
   * Where the last drawn frame puts a point, in the page's CSS pixels.
   * @param {import('../render/math.js').Vec3} point
   * @param {DOMRect} rect the canvas's box
   * @returns {{x: number, y: number, w: number}} w: the clip w, not positive behind the camera
   */
  project([x, y, z], rect) {
    const m = this.renderer.viewProjection;
    const w = m[3] * x + m[7] * y + m[11] * z + m[15];
    return {
      x: rect.left + (((m[0] * x + m[4] * y + m[8] * z + m[12]) / w) * 0.5 + 0.5) * rect.width,
      y: rect.top + (0.5 - ((m[1] * x + m[5] * y + m[9] * z + m[13]) / w) * 0.5) * rect.height,
      w,
    };
  }

  // ---- the chosen contact's ring -------------------------------------------

  /**
   * Rings a contact of the shown frame (the one the keyboard's contact list
   * chose), or none; it follows the camera at every draw.
   * @param {number | null} index into the shown frame's contacts
   */
  highlightContact(index) {
    this.highlightedContact = index;
    this.requestDraw();
  }

  /**
   * Where the ringed contact is drawn, in the page's CSS pixels (the
   * coordinates of `onScreen()`), for the browser tests; null when none is.
   * @returns {{index: number, x: number, y: number} | null}
   */
  highlighted() {
    const index = this.highlightedContact;
    const shown = this.controller.shown;
    if (index === null || !shown || index >= contactCount(shown.frame.contacts, this.layout)) return null;
    const { contacts } = shown.frame;
    const at = index * this.layout.stride;
    const a = contacts[at + this.layout.a];
    const point = /** @type {import('../render/math.js').Vec3} */ ([0, 1, 2].map((k) => contacts[at + this.layout.position + k] + (this.offsets[a * 3 + k] ?? 0)));
    const { x, y, w } = this.project(point, this.canvas.getBoundingClientRect());
    return w > 0 ? { index, x, y } : null;
  }

  /** Puts the ring over the chosen contact, or hides it (none chosen, or behind the camera or off the canvas). */
  placeContactMark() {
    const mark = this.elements.contactMark;
    const where = this.highlighted();
    const rect = this.canvas.getBoundingClientRect();
    if (!where || where.x < rect.left || where.x > rect.right || where.y < rect.top || where.y > rect.bottom) {
      mark.hidden = true;
      return;
    }
    const metresPerPixel = this.camera.metresPerPixel(rect.height);
    const radius = Math.max(MARK_MIN_PIXELS, (2 * this.renderer.contactRadius) / metresPerPixel + MARK_MARGIN_PIXELS) / 2;
    mark.style.left = `${this.canvas.offsetLeft + where.x - rect.left - radius}px`;
    mark.style.top = `${this.canvas.offsetTop + where.y - rect.top - radius}px`;
    mark.style.width = mark.style.height = `${2 * radius}px`;
    mark.hidden = false;
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
    this.frameCamera();
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
      if (!this.state.cam && this.info) this.frameCamera();
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
        onTap: (x, y) => this.showContactAt(x, y, TAP_PIXELS, true),
        onDoubleTap: (x, y) => {
          hideTooltip(tooltip);
          this.focusAt(x, y);
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
      this.focusAt(event.clientX, event.clientY);
    });
  }

  /**
   * Focuses the body under a point of the view, or frames the scene again
   * when there is none (a double click or a double tap).
   * @param {number} clientX
   * @param {number} clientY
   */
  focusAt(clientX, clientY) {
    const { canvas, camera } = this;
    if (!this.controller.shown) return;
    const rect = canvas.getBoundingClientRect();
    const ndcX = ((clientX - rect.left) / rect.width) * 2 - 1;
    const ndcY = 1 - ((clientY - rect.top) / rect.height) * 2;
    const transforms = this.renderer.transforms;
    const body = pickBody(camera.ray(ndcX, ndcY, this.renderer.aspect()), this.bodyTriangles, transforms);
    if (body < 0) {
      this.frameCamera();
    } else {
      camera.focus([transforms[body * 16 + 12], transforms[body * 16 + 13], transforms[body * 16 + 14]], this.bodyRadii[body]);
    }
    this.state.cam = camera.getState();
    this.requestDraw();
    this.onViewChange(false);
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
      this.showContactAt(event.clientX, event.clientY, HOVER_PIXELS);
    });
    // A finger leaves the view whenever it is lifted; its tap's details stay.
    canvas.addEventListener('pointerleave', (event) => {
      if (event.pointerType !== 'touch') hideTooltip(tooltip);
    });
  }

  /**
   * Shows the details of the contact glyph nearest a point of the view, or
   * hides them when none is within `radius`.
   * @param {number} clientX
   * @param {number} clientY
   * @param {number} radius in CSS pixels
   * @param {boolean} [byFinger] a tap: the details go above the finger, which hides what is below it
   */
  showContactAt(clientX, clientY, radius, byFinger = false) {
    const { canvas } = this;
    const tooltip = this.elements.tooltip;
    const shown = this.controller.shown;
    if (this.instances.length === 0 || !shown) {
      hideTooltip(tooltip);
      return;
    }
    const rect = canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    const y = clientY - rect.top;
    const hit = nearestInstance(this.instances, this.renderer.viewProjection, this.renderer.contactLength, { x, y, width: rect.width, height: rect.height }, radius);
    if (hit < 0) {
      hideTooltip(tooltip);
      return;
    }
    showContactTooltip(tooltip, shown.frame.contacts, this.layout, this.instanceContacts[hit], {
      bodyNames: this.info.bodies.map((b) => b.name),
      featureKinds: this.featureKinds,
      regionOf: (a, b, region) => {
        const found = this.regionIndex.get(`${a}:${b}:${region}`);
        return found ? { of: found.of, colour: this.regionsDrawn ? regionColour(found.index) : null } : null;
      },
      x,
      y,
      above: byFinger,
    });
  }
}
