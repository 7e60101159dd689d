/**
 * @file Pointer and wheel input for the orbit camera. A mouse or a pen:
 * drag to rotate, shift-drag or right-drag to pan, wheel to zoom. Fingers
 * (Pointer Events of type "touch", so it is the same in every engine), the
 * way three.js's orbit controls and maps do it: one finger rotates, two
 * fingers pan with their midpoint and pinch to zoom about it (both at once),
 * and a tap or a double tap is handed to the view (a contact's details,
 * focusing a body).
 */

/** How far a finger may wander, in CSS px, and still tap rather than drag. */
const TAP_SLOP = 10;
/** A finger held longer than this, in ms, is no tap. */
const TAP_MS = 500;
/** Two taps at most this far apart in time (ms) and place (CSS px) are a double tap. */
const DOUBLE_TAP_MS = 400;
const DOUBLE_TAP_PX = 30;

/**
 * What a tap hands to the view, in client (page CSS) pixels.
 * @callback TapHandler
 * @param {number} clientX
 * @param {number} clientY
 * @returns {void}
 */

/**
 * Wires pointer input on `element` to `camera`: a mouse's or a pen's drag,
 * the fingers' gestures, the wheel.
 * @param {HTMLElement} element the canvas
 * @param {import('./camera.js').OrbitCamera} camera
 * @param {() => void} onChange called after every camera change, to redraw
 * @param {{onTap?: TapHandler, onDoubleTap?: TapHandler}} [touch] a finger's tap
 *   and double tap (the first tap of a double tap is a tap too)
 */
export function attachOrbitControls(element, camera, onChange, touch = {}) {
  const pointer = pointerDrag(element, camera, onChange);
  const fingers = fingerGestures(element, camera, onChange, touch);
  /** @param {(event: PointerEvent) => void} byFinger @param {(event: PointerEvent) => void} byPointer */
  const route = (byFinger, byPointer) => (/** @type {PointerEvent} */ event) => (event.pointerType === 'touch' ? byFinger(event) : byPointer(event));
  element.addEventListener('pointerdown', route(fingers.down, pointer.down));
  element.addEventListener('pointermove', route(fingers.move, pointer.move));
  const end = route((event) => fingers.up(event, event.type === 'pointerup'), pointer.end);
  element.addEventListener('pointerup', end);
  element.addEventListener('pointercancel', end);

  // Right-drag pans; the context menu would interrupt it.
  element.addEventListener('contextmenu', (event) => event.preventDefault());

  element.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      // deltaMode 1 is lines (Firefox); scale to pixel-like steps.
      const pixels = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      camera.zoom(Math.exp(pixels * 0.0015));
      onChange();
    },
    { passive: false },
  );
}

/**
 * A mouse's or a pen's drag: it rotates, or pans with shift or the right
 * button.
 * @param {HTMLElement} element
 * @param {import('./camera.js').OrbitCamera} camera
 * @param {() => void} onChange
 */
function pointerDrag(element, camera, onChange) {
  /** @type {{id: number, x: number, y: number, pan: boolean} | null} */
  let drag = null;
  return {
    /** @param {PointerEvent} event */
    down(event) {
      if (drag) return;
      // Capture so a drag that leaves the canvas keeps steering the camera.
      element.setPointerCapture(event.pointerId);
      drag = { id: event.pointerId, x: event.clientX, y: event.clientY, pan: event.button === 2 || event.shiftKey };
      element.classList.add('dragging');
    },
    /** @param {PointerEvent} event */
    move(event) {
      if (!drag || event.pointerId !== drag.id) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      drag.x = event.clientX;
      drag.y = event.clientY;
      if (drag.pan || event.shiftKey) camera.pan(dx, dy, element.clientHeight);
      else camera.rotate(dx, dy);
      onChange();
    },
    /** @param {PointerEvent} event */
    end(event) {
      if (!drag || event.pointerId !== drag.id) return;
      drag = null;
      element.classList.remove('dragging');
    },
  };
}

/**
 * The fingers on the view: one rotates, two pan and pinch, a lone finger's
 * tap and double tap go to the view.
 * @param {HTMLElement} element
 * @param {import('./camera.js').OrbitCamera} camera
 * @param {() => void} onChange
 * @param {{onTap?: TapHandler, onDoubleTap?: TapHandler}} touch
 */
function fingerGestures(element, camera, onChange, { onTap = () => {}, onDoubleTap = () => {} }) {
  /** The fingers on the view by pointer id, where each was last seen, in the order they came down. @type {Map<number, {x: number, y: number}>} */
  const fingers = new Map();
  /** The lone finger that may still be a tap: where and when it came down. @type {{id: number, x: number, y: number, time: number} | null} */
  let tapping = null;
  /** The last tap, for a double tap. @type {{x: number, y: number, time: number} | null} */
  let lastTap = null;

  /** @param {PointerEvent} event */
  function fingerDown(event) {
    element.setPointerCapture(event.pointerId);
    fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    // Only a lone finger taps; a second one makes it a gesture.
    tapping = fingers.size === 1 ? { id: event.pointerId, x: event.clientX, y: event.clientY, time: event.timeStamp } : null;
    element.classList.add('dragging');
  }

  /** @param {PointerEvent} event */
  function fingerMove(event) {
    const finger = fingers.get(event.pointerId);
    if (!finger) return;
    const [first, second] = [...fingers.values()];
    const before = second ? [{ ...first }, { ...second }] : null;
    const from = { x: finger.x, y: finger.y };
    finger.x = event.clientX;
    finger.y = event.clientY;
    if (!second) {
      if (tapping) {
        // Still a tap until the finger wanders off; then the drag rotates from where it came down.
        if (Math.hypot(finger.x - tapping.x, finger.y - tapping.y) <= TAP_SLOP) return;
        from.x = tapping.x;
        from.y = tapping.y;
        tapping = null;
      }
      camera.rotate(finger.x - from.x, finger.y - from.y);
      onChange();
      return;
    }
    // Two fingers (a third is ignored): the midpoint's motion pans, the change of their spread zooms about the midpoint.
    if (!before || (finger !== first && finger !== second)) return;
    const rect = element.getBoundingClientRect();
    const mid = (a, b) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
    const [was, now] = [mid(before[0], before[1]), mid(first, second)];
    camera.pan(now.x - was.x, now.y - was.y, rect.height);
    const spreadBefore = Math.hypot(before[1].x - before[0].x, before[1].y - before[0].y);
    const spreadNow = Math.hypot(second.x - first.x, second.y - first.y);
    if (spreadBefore > 0 && spreadNow > 0 && rect.width > 0 && rect.height > 0) {
      const ndcX = ((now.x - rect.left) / rect.width) * 2 - 1;
      const ndcY = 1 - ((now.y - rect.top) / rect.height) * 2;
      camera.zoomAt(spreadBefore / spreadNow, ndcX, ndcY, rect.width / rect.height);
    }
    onChange();
  }

  /**
   * @param {PointerEvent} event
   * @param {boolean} lifted the finger was lifted (not cancelled by the browser)
   */
  function fingerUp(event, lifted) {
    if (!fingers.delete(event.pointerId)) return;
    if (fingers.size === 0) element.classList.remove('dragging');
    const tap = tapping;
    if (!tap || tap.id !== event.pointerId) return;
    tapping = null;
    if (!lifted || event.timeStamp - tap.time > TAP_MS) return;
    const double = lastTap && event.timeStamp - lastTap.time <= DOUBLE_TAP_MS && Math.hypot(tap.x - lastTap.x, tap.y - lastTap.y) <= DOUBLE_TAP_PX;
    if (double) {
      lastTap = null;
      onDoubleTap(tap.x, tap.y);
    } else {
      lastTap = { x: tap.x, y: tap.y, time: event.timeStamp };
      onTap(tap.x, tap.y);
    }
  }

  return { down: fingerDown, move: fingerMove, up: fingerUp };
}
