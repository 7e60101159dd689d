/**
 * @file Where a point of the scene lands on the canvas: for overlays drawn
 * in HTML over the view (a lesson's highlight) and for checking that a
 * camera shows the contacts.
 */

/**
 * Projects a point with a column-major projection × view matrix.
 * @param {ArrayLike<number>} viewProjection 16 numbers, column-major (the renderer's)
 * @param {ArrayLike<number>} point x, y, z in the scene
 * @param {number} width the canvas's width in CSS pixels
 * @param {number} height
 * @returns {{x: number, y: number} | null} CSS pixels from the canvas's top left; null behind the eye
 */
export function projectToScreen(viewProjection, point, width, height) {
  const m = viewProjection;
  const [x, y, z] = [point[0], point[1], point[2]];
  const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
  const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
  const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
  if (!(cw > 1e-9)) return null;
  return { x: ((cx / cw + 1) / 2) * width, y: ((1 - cy / cw) / 2) * height };
}
