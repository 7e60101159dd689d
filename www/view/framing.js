/**
 * @file Camera framing of the 3D view (wiring/view.js): until the visitor
 * moves the camera, the page frames the scene's focus box and its contacts
 * from the direction that hides the fewest contacts behind bodies, inside
 * the largest part of the canvas the overlays (legend, toolbar, headline)
 * leave free; and for a newly shown scene it frames afresh or takes the
 * link's camera.
 */

import { FRAMING_DIRECTIONS, boxCorners } from '../render/camera.js';
import { INSTANCE_STRIDE, contactInstances } from '../render/contacts.js';
import { bodyCentres, explodeOffsets } from '../render/explode.js';
import { hiddenBehind, worldTriangles } from '../render/picking.js';
import { showNotice } from '../ui/banner.js';

/**
 * The 3D view whose camera is framed: its shown scene, camera, renderer and
 * the framing's own state (`framingFrom`, `framedContacts`).
 * @typedef {any} SceneView the SceneView of wiring/view.js
 */

/** Gap kept between the framed scene and the overlays on the view, in CSS pixels. */
const OVERLAY_GAP = 8;
/** At most this many contacts are tested for being hidden when the page picks a direction to frame from. */
const VISIBILITY_SAMPLES = 24;
/** The share of the sampled contacts another direction must show more than the default one for the page to frame from there. */
const CLEARER_SHARE = 0.25;
/** Ray-triangle tests the page spends at most on that choice (some 50 ms); beyond, it keeps the default direction. */
const VISIBILITY_BUDGET = 4_000_000;

/**
 * A new scene is shown: the camera is framed for it (or takes the link's
 * camera, when that looks at the scene); new settings of the same scene
 * keep the camera where it is.
 * @param {SceneView} view
 * @param {import('../wiring/page-config.js').PageConfig} config what is shown
 * @returns {boolean} whether the camera was framed for another scene
 */
export function frameNewScene(view, config) {
  const cameraKey = config.file ? `file:${config.file.packed}` : `scene:${config.sceneId}`;
  if (cameraKey === view.cameraKey) return false;
  view.cameraKey = cameraKey;
  view.framingFrom = null;
  frameCamera(view);
  view.framePending = true;
  const pendingCam = view.pendingCam;
  if (pendingCam && view.camera.showsScene(pendingCam)) {
    view.camera.setState(pendingCam);
  } else if (pendingCam) {
    // A view that looks away from the scene would leave a blank canvas.
    showNotice(`The link's view (cam=${pendingCam.join(',')}) does not look at the scene; showing the default view.`);
    view.state.cam = null;
  }
  view.pendingCam = null;
  return true;
}

/**
 * Frames the scene's focus box (grown by the explode factor, so spread
 * bodies stay in view) and the shown contacts: from the direction that
 * hides the fewest contacts behind bodies (the default first), inside the
 * largest part of the view that the legend, the toolbar and the headline
 * leave free.
 * @param {SceneView} view
 */
export function frameCamera(view) {
  const info = view.info;
  const grow = 1 + view.state.explode;
  const min = info.focus_min.map((v, i) => view.sceneCentre[i] + (v - view.sceneCentre[i]) * grow);
  const max = info.focus_max.map((v, i) => view.sceneCentre[i] + (v - view.sceneCentre[i]) * grow);
  view.renderer.resize();
  const aspect = view.renderer.aspect();
  const contacts = contactGlyphs(view);
  view.framedContacts = contacts.length > 0;
  const points = [...boxCorners(/** @type {any} */ (min), /** @type {any} */ (max)), ...contacts.flatMap(({ at, tip }) => [at, tip])];
  // The direction is chosen once per scene (and again when its first
  // contacts come); a resize or presentation mode only refits.
  view.framingFrom ??= clearestDirection(view, points, contacts, aspect);
  const from = view.framingFrom;
  const camera = view.camera;
  let best = null;
  for (const free of freeAreas(view.canvas, view.elements)) {
    camera.fit(points, info.up, aspect, free, from);
    if (!best || camera.distance < best.distance) best = { distance: camera.distance, free };
  }
  camera.fit(points, info.up, aspect, best?.free, from);
}

/**
 * The framing direction that hides the fewest of (a sample of) the
 * contacts behind a body, then the fewest of their arrows' tips: the default unless another shows more.
 * @param {SceneView} view
 * @param {import('../render/math.js').Vec3[]} points
 * @param {Array<{at: import('../render/math.js').Vec3, tip: import('../render/math.js').Vec3}>} contacts
 * @param {number} aspect
 * @returns {{yaw: number, pitch: number}}
 */
function clearestDirection(view, points, contacts, aspect) {
  const [first] = FRAMING_DIRECTIONS;
  if (contacts.length === 0) return first;
  const every = Math.max(1, Math.ceil(contacts.length / VISIBILITY_SAMPLES));
  const sample = contacts.filter((_, i) => i % every === 0);
  const triangles = view.bodyTriangles.reduce((sum, list) => sum + list.length / 9, 0);
  if (triangles * sample.length * 2 * FRAMING_DIRECTIONS.length > VISIBILITY_BUDGET) return first;
  const world = worldTriangles(view.bodyTriangles, view.renderer.transforms);
  /** @param {{yaw: number, pitch: number}} from @returns {{from: {yaw: number, pitch: number}, points: number, tips: number}} */
  const hiddenFrom = (from) => {
    view.camera.fit(points, view.info.up, aspect, undefined, from);
    const eye = view.camera.eye();
    return {
      from,
      points: sample.filter(({ at }) => hidden(view, eye, at, world)).length,
      tips: sample.filter(({ tip }) => hidden(view, eye, tip, world)).length,
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

/**
 * Whether a body hides a point from `eye`; a contact may lie a glyph's
 * width behind a body surface and still count as seen.
 * @param {SceneView} view
 * @param {import('../render/math.js').Vec3} eye
 * @param {import('../render/math.js').Vec3} point
 * @param {Float64Array} world the bodies' triangles as drawn, `worldTriangles()`
 */
export function hidden(view, eye, point, world) {
  return hiddenBehind(eye, point, world, view.glyphLength * 0.24);
}

/**
 * The parts of the canvas the overlays leave free, in normalised device
 * coordinates: below or beside the legend and the toolbar, above the
 * headline.
 * @param {HTMLCanvasElement} canvasElement
 * @param {import('../wiring/elements.js').ViewElements} elements
 * @returns {Array<{left: number, right: number, bottom: number, top: number}>}
 */
function freeAreas(canvasElement, elements) {
  const canvas = canvasElement.getBoundingClientRect();
  if (canvas.width === 0 || canvas.height === 0) return [{ left: -1, right: 1, bottom: -1, top: 1 }];
  const boxOf = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 ? box : null;
  };
  const legend = boxOf(elements.legend);
  const tools = [...elements.tools.querySelectorAll('button')].map(boxOf).filter((b) => b !== null);
  const headline = boxOf(elements.headline);
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
 * @param {SceneView} view
 * @returns {Array<{at: import('../render/math.js').Vec3, tip: import('../render/math.js').Vec3}>}
 */
export function contactGlyphs(view) {
  const shown = view.controller.shown;
  if (!shown || !view.info) return [];
  const centres = bodyCentres(shown.frame.transforms, view.info.bodies.length);
  const offsets = explodeOffsets(centres, view.sceneCentre, view.info.up, view.stack, view.state.explode);
  const { instances } = contactInstances(shown.frame.contacts, view.layout, offsets, { onlyWrong: false, featureColours: false });
  const glyphs = [];
  for (let i = 0; i < instances.length; i += INSTANCE_STRIDE) {
    const at = /** @type {import('../render/math.js').Vec3} */ ([instances[i], instances[i + 1], instances[i + 2]]);
    const tip = /** @type {import('../render/math.js').Vec3} */ (at.map((v, k) => v + instances[i + 3 + k] * view.glyphLength));
    glyphs.push({ at, tip });
  }
  return glyphs;
}
