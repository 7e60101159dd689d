/**
 * @file What the 3D view (wiring/view.js) draws of what the run controller
 * shows: the scene's meshes and its glyph sizes, each frame's poses with
 * the explode offsets, the contact glyphs and the region outlines, and the
 * ring over the contact chosen in the keyboard's contact list
 * (ui/contact-browser.js); one draw per animation frame.
 */

import { contactCount, contactInstances } from '../render/contacts.js';
import { bodyCentres, explodeOffsets, isStack, offsetTransforms } from '../render/explode.js';
import { outlineVertices, readRegions } from '../render/regions.js';
import { frameCamera } from './framing.js';

/** @typedef {any} SceneView the SceneView of wiring/view.js: its shown scene, camera, renderer and elements */

/** Width of the region outlines in presentation mode, relative to the normal. */
const PRESENTING_REGION_SCALE = 2;
/** The smallest contact glyph on the screen, in CSS pixels: a ball's diameter and an arrow's length. */
const MIN_GLYPH_PIXELS = { diameter: 8, length: 22 };
/** The ring over the chosen contact: at least this wide, in CSS pixels, and this much wider than its glyph. */
const MARK_MIN_PIXELS = 26;
const MARK_MARGIN_PIXELS = 12;

/**
 * Draws on the next animation frame; several requests before it make one draw.
 * @param {SceneView} view
 */
export function requestDraw(view) {
  if (view.drawPending) return;
  view.drawPending = true;
  view.onDrawPending();
  requestAnimationFrame(() => {
    view.drawPending = false;
    view.renderer.resize();
    // Until the visitor moves it, the camera keeps the scene and its
    // contacts framed in the part of the view the overlays leave free.
    if (view.framePending && view.info && !view.state.cam) frameCamera(view);
    view.framePending = false;
    sizeGlyphs(view);
    view.renderer.draw(view.camera);
    placeContactMark(view);
    if (view.controller.shown && !view.firstFrameDrawn) {
      view.firstFrameDrawn = true;
      view.onFirstFrame();
    }
    view.onDrawPending();
  });
}

/**
 * A new configuration is shown: its meshes, and the glyph sizes from the
 * scene's size.
 * @param {SceneView} view
 * @param {import('../state/run-controller.js').Shown} shown
 */
export function showMeshes(view, shown) {
  const { info, bodies } = shown.scene;
  view.info = info;
  view.bodyTriangles = bodies.map((b) => b.triangles);
  view.bodyRadii = bodies.map((b) => {
    let r = 0;
    for (let i = 0; i < b.triangles.length; i += 3) r = Math.max(r, Math.hypot(b.triangles[i], b.triangles[i + 1], b.triangles[i + 2]));
    return r;
  });
  view.renderer.setScene(bodies, shown.frame.transforms);
  view.renderer.resize();
  const fixed = info.bodies.map((b) => b.fixed);
  view.stack = isStack(bodyCentres(shown.frame.transforms, bodies.length), fixed, info.up);
  view.sceneCentre = info.focus_min.map((v, i) => (v + info.focus_max[i]) / 2);
  // Glyphs scale with the scene, but stay shorter than a typical free
  // body, or the wall's thousand contacts would hide its bricks.
  const size = Math.hypot(...info.focus_max.map((v, i) => v - info.focus_min[i]));
  const freeRadii = view.bodyRadii.filter((_, i) => !fixed[i]).sort((a, b) => a - b);
  const typical = freeRadii.length > 0 ? freeRadii[Math.floor(freeRadii.length / 2)] : size;
  view.glyphLength = Math.min(size * 0.05, typical * 0.6);
  sizeGlyphs(view);
}

/**
 * Body poses, explode offsets and contact glyphs from the shown frame.
 * @param {SceneView} view
 * @returns {void}
 */
export function showFrame(view) {
  const shown = view.controller.shown;
  if (!shown || !view.info) return;
  const { transforms, contacts } = shown.frame;
  const centres = bodyCentres(transforms, view.info.bodies.length);
  const offsets = explodeOffsets(centres, view.sceneCentre, view.info.up, view.stack, view.state.explode);
  view.offsets = offsets;
  view.renderer.setTransforms(offsetTransforms(transforms, offsets));
  const { instances, indices } = contactInstances(contacts, view.layout, offsets, view.state);
  view.instances = instances;
  view.instanceContacts = indices;
  view.renderer.setContacts(instances);
  const regions = showRegions(view, shown, offsets);
  if (!view.framedContacts && contactCount(contacts, view.layout) > 0) {
    view.framingFrom = null;
    view.framePending = true;
  }
  view.onContacts({ count: contactCount(contacts, view.layout), shown: indices.length, featureColours: view.state.featureColours, regions });
  view.requestDraw();
}

/**
 * The region outlines of the shown frame, when asked for and the method
 * finds regions; the checkbox is off for the methods that find none.
 * @param {SceneView} view
 * @param {import('../state/run-controller.js').Shown} shown
 * @param {Float32Array} offsets explode offsets, 3 floats per body
 * @returns {number | null} how many outlines are drawn, null when none are asked for or possible
 */
function showRegions(view, shown, offsets) {
  const method = view.methodOf(shown.config);
  const regionMethod = method?.kind === 'region';
  const { regions: box, regionsLabel } = view.elements;
  box.disabled = !regionMethod;
  regionsLabel.classList.toggle('disabled', !regionMethod);
  regionsLabel.title = regionMethod
    ? 'Outlines each contact region the method found: its contour or touching polygon, a segment, or a point (a square), one colour per region.'
    : `Only region methods find regions; ${method?.name ?? 'this method'} ${method?.kind === 'local' ? "is one of the paper's local methods (one pair of tetrahedra at a time)" : 'reports none'}.`;
  const regions = regionMethod ? readRegions(shown.frame.regions ?? new Float32Array(0), view.regionLayout) : [];
  /** @type {Map<string, number>} */
  const perPair = new Map();
  for (const { a, b } of regions) perPair.set(`${a}:${b}`, (perPair.get(`${a}:${b}`) ?? 0) + 1);
  view.regionIndex = new Map(regions.map((r, index) => [`${r.a}:${r.b}:${r.region}`, { index, of: perPair.get(`${r.a}:${r.b}`) ?? 0 }]));
  view.regionsDrawn = regionMethod && view.state.regions;
  view.renderer.setRegions(outlineVertices(view.regionsDrawn ? regions : [], offsets));
  return view.regionsDrawn ? regions.length : null;
}

/**
 * Contact glyph sizes: from the scene's size, larger in presentation mode,
 * but never smaller on the screen than MIN_GLYPH_PIXELS (the scene's own
 * size shrinks to a few pixels on a phone or when the camera is far).
 * @param {SceneView} view
 */
function sizeGlyphs(view) {
  const { renderer, presentation } = view;
  const grow = presentation.glyphScale();
  const metresPerPixel = view.camera.metresPerPixel(view.canvas.clientHeight);
  renderer.contactLength = Math.max(view.glyphLength * grow.length, MIN_GLYPH_PIXELS.length * metresPerPixel);
  renderer.contactRadius = Math.max(view.glyphLength * 0.12 * grow.radius, (MIN_GLYPH_PIXELS.diameter / 2) * metresPerPixel);
  renderer.regionScale = presentation.presenting ? PRESENTING_REGION_SCALE : 1;
}

/**
 * Where the last drawn frame puts a point, in the page's CSS pixels.
 * @param {import('../render/renderer.js').Renderer} renderer
 * @param {import('../render/math.js').Vec3} point
 * @param {DOMRect} rect the canvas's box
 * @returns {{x: number, y: number, w: number}} w: the clip w, not positive behind the camera
 */
export function project(renderer, [x, y, z], rect) {
  const m = renderer.viewProjection;
  const w = m[3] * x + m[7] * y + m[11] * z + m[15];
  return {
    x: rect.left + (((m[0] * x + m[4] * y + m[8] * z + m[12]) / w) * 0.5 + 0.5) * rect.width,
    y: rect.top + (0.5 - ((m[1] * x + m[5] * y + m[9] * z + m[13]) / w) * 0.5) * rect.height,
    w,
  };
}

/**
 * Where the ringed contact is drawn, in the page's CSS pixels (the
 * coordinates of `onScreen()`), for the browser tests; null when none is.
 * @param {SceneView} view
 * @returns {{index: number, x: number, y: number} | null}
 */
export function highlighted(view) {
  const index = view.highlightedContact;
  const shown = view.controller.shown;
  const layout = view.layout;
  if (index === null || !shown || index >= contactCount(shown.frame.contacts, layout)) return null;
  const { contacts } = shown.frame;
  const at = index * layout.stride;
  const a = contacts[at + layout.a];
  const point = /** @type {import('../render/math.js').Vec3} */ ([0, 1, 2].map((k) => contacts[at + layout.position + k] + (view.offsets[a * 3 + k] ?? 0)));
  const { x, y, w } = project(view.renderer, point, view.canvas.getBoundingClientRect());
  return w > 0 ? { index, x, y } : null;
}

/**
 * Puts the ring over the chosen contact, or hides it (none chosen, or behind the camera or off the canvas).
 * @param {SceneView} view
 */
function placeContactMark(view) {
  const { canvas } = view;
  const mark = view.elements.contactMark;
  const where = highlighted(view);
  const rect = canvas.getBoundingClientRect();
  if (!where || where.x < rect.left || where.x > rect.right || where.y < rect.top || where.y > rect.bottom) {
    mark.hidden = true;
    return;
  }
  const metresPerPixel = view.camera.metresPerPixel(rect.height);
  const radius = Math.max(MARK_MIN_PIXELS, (2 * view.renderer.contactRadius) / metresPerPixel + MARK_MARGIN_PIXELS) / 2;
  mark.style.left = `${canvas.offsetLeft + where.x - rect.left - radius}px`;
  mark.style.top = `${canvas.offsetTop + where.y - rect.top - radius}px`;
  mark.style.width = mark.style.height = `${2 * radius}px`;
  mark.hidden = false;
}
