/**
 * @file Picking in the 3D view (wiring/view.js): the body under a double
 * click or a double tap (focused, or none: the scene framed again), the
 * contact glyph under the pointer or a finger (its details in the tooltip),
 * and, for the browser tests, where the last drawn frame put every contact.
 */

import { boxCorners } from '../render/camera.js';
import { nearestInstance, pickBody, worldTriangles } from '../render/picking.js';
import { regionColour } from '../render/regions.js';
import { hideTooltip, showContactTooltip } from '../ui/tooltip.js';
import { project } from './drawing.js';
import { contactGlyphs, frameCamera, hidden } from './framing.js';

/** @typedef {any} SceneView the SceneView of wiring/view.js: its shown scene, camera, renderer and elements */

/**
 * Focuses the body under a point of the view, or frames the scene again
 * when there is none (a double click or a double tap).
 * @param {SceneView} view
 * @param {number} clientX
 * @param {number} clientY
 */
export function focusAt(view, clientX, clientY) {
  const { canvas, camera } = view;
  if (!view.controller.shown) return;
  const rect = canvas.getBoundingClientRect();
  const ndcX = ((clientX - rect.left) / rect.width) * 2 - 1;
  const ndcY = 1 - ((clientY - rect.top) / rect.height) * 2;
  const transforms = view.renderer.transforms;
  const body = pickBody(camera.ray(ndcX, ndcY, view.renderer.aspect()), view.bodyTriangles, transforms);
  if (body < 0) {
    frameCamera(view);
  } else {
    camera.focus([transforms[body * 16 + 12], transforms[body * 16 + 13], transforms[body * 16 + 14]], view.bodyRadii[body]);
  }
  view.state.cam = camera.getState();
  view.requestDraw();
  view.onViewChange(false);
}

/**
 * Shows the details of the contact glyph nearest a point of the view, or
 * hides them when none is within `radius`.
 * @param {SceneView} view
 * @param {number} clientX
 * @param {number} clientY
 * @param {number} radius in CSS pixels
 * @param {boolean} [byFinger] a tap: the details go above the finger, which hides what is below it
 */
export function showContactAt(view, clientX, clientY, radius, byFinger = false) {
  const { canvas } = view;
  const tooltip = view.elements.tooltip;
  const shown = view.controller.shown;
  if (view.instances.length === 0 || !shown) {
    hideTooltip(tooltip);
    return;
  }
  const rect = canvas.getBoundingClientRect();
  const x = clientX - rect.left;
  const y = clientY - rect.top;
  const hit = nearestInstance(view.instances, view.renderer.viewProjection, view.renderer.contactLength, { x, y, width: rect.width, height: rect.height }, radius);
  if (hit < 0) {
    hideTooltip(tooltip);
    return;
  }
  showContactTooltip(tooltip, shown.frame.contacts, view.layout, view.instanceContacts[hit], {
    bodyNames: view.info.bodies.map((b) => b.name),
    featureKinds: view.featureKinds,
    regionOf: (a, b, region) => {
      const found = view.regionIndex.get(`${a}:${b}:${region}`);
      return found ? { of: found.of, colour: view.regionsDrawn ? regionColour(found.index) : null } : null;
    },
    x,
    y,
    above: byFinger,
  });
}

/**
 * What the last drawn frame shows where, in the page's CSS pixels (for the
 * browser tests: the legend and the toolbar must not cover a contact):
 * each contact's centre and whether a body hides it, the corners of the
 * scene's focus box, and the contact glyphs' size on the screen.
 * @param {SceneView} view
 * @returns {{contacts: Array<{x: number, y: number, hidden: boolean}>, corners: Array<{x: number, y: number}>,
 *   glyph: {diameter: number, length: number}}}
 */
export function onScreen(view) {
  const rect = view.canvas.getBoundingClientRect();
  const at = (point) => {
    const { x, y } = project(view.renderer, point, rect);
    return { x, y };
  };
  const eye = view.camera.eye();
  const world = worldTriangles(view.bodyTriangles, view.renderer.transforms);
  const contacts = contactGlyphs(view).map(({ at: point }) => ({ ...at(point), hidden: hidden(view, eye, point, world) }));
  const corners = view.info ? boxCorners(view.info.focus_min, view.info.focus_max).map(at) : [];
  const metresPerPixel = view.camera.metresPerPixel(rect.height);
  return { contacts, corners, glyph: { diameter: (2 * view.renderer.contactRadius) / metresPerPixel, length: view.renderer.contactLength / metresPerPixel } };
}
