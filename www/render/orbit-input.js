/**
 * @file Pointer and wheel input for the orbit camera: drag to rotate,
 * shift-drag or right-drag to pan, wheel to zoom.
 */

/**
 * Wires pointer input on `element` to `camera`.
 * @param {HTMLElement} element the canvas
 * @param {import('./camera.js').OrbitCamera} camera
 * @param {() => void} onChange called after every camera change, to redraw
 */
export function attachOrbitControls(element, camera, onChange) {
  /** @type {{id: number, x: number, y: number, pan: boolean} | null} */
  let drag = null;

  element.addEventListener('pointerdown', (event) => {
    if (drag) return;
    // Capture so a drag that leaves the canvas keeps steering the camera.
    element.setPointerCapture(event.pointerId);
    drag = { id: event.pointerId, x: event.clientX, y: event.clientY, pan: event.button === 2 || event.shiftKey };
    element.classList.add('dragging');
  });

  element.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    drag.x = event.clientX;
    drag.y = event.clientY;
    if (drag.pan || event.shiftKey) camera.pan(dx, dy, element.clientHeight);
    else camera.rotate(dx, dy);
    onChange();
  });

  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    drag = null;
    element.classList.remove('dragging');
  };
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
