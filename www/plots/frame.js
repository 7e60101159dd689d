/**
 * @file What the four readout plots share: a canvas sized to its CSS box at
 * the device's pixel ratio, a plot area with axes, ticks and labels, and
 * the mapping from data to pixels.
 */

const INK = '#23201d';
const MUTED = '#6b655e';
const GRID = '#e6e2dc';
const FONT = '10px system-ui, sans-serif';

/**
 * @typedef {object} PlotFrame
 * @property {CanvasRenderingContext2D} ctx drawing in CSS pixels
 * @property {number} left @property {number} top @property {number} width @property {number} height plot area
 * @property {(x: number) => number} x data → pixel
 * @property {(y: number) => number} y data → pixel
 */

/**
 * Clears `canvas`, draws the axes for the given ranges and returns the
 * mapping from data to pixels.
 * @param {HTMLCanvasElement} canvas
 * @param {{xMin: number, xMax: number, yMin: number, yMax: number, xTicks: number[], yTicks: number[], xLabel: string, formatX?: (v: number) => string, formatY?: (v: number) => string}} axes
 * @returns {PlotFrame}
 */
export function plotFrame(canvas, axes) {
  const ratio = Math.min(window.devicePixelRatio || 1, 2);
  const cssWidth = Math.max(canvas.clientWidth, 50);
  const cssHeight = Math.max(canvas.clientHeight, 50);
  if (canvas.width !== Math.round(cssWidth * ratio) || canvas.height !== Math.round(cssHeight * ratio)) {
    canvas.width = Math.round(cssWidth * ratio);
    canvas.height = Math.round(cssHeight * ratio);
  }
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, cssWidth, cssHeight);
  ctx.font = FONT;

  const formatX = axes.formatX ?? String;
  const formatY = axes.formatY ?? String;
  const labelWidth = Math.max(...axes.yTicks.map((t) => ctx.measureText(formatY(t)).width), 8);
  const left = Math.ceil(labelWidth) + 8;
  // Room above for a reference line's label at the top, and on the right
  // for the last x tick's label.
  const top = 12;
  const width = cssWidth - left - 16;
  const height = cssHeight - top - 30;
  const spanX = axes.xMax - axes.xMin || 1;
  const spanY = axes.yMax - axes.yMin || 1;
  const x = (v) => left + ((v - axes.xMin) / spanX) * width;
  const y = (v) => top + height - ((v - axes.yMin) / spanY) * height;

  ctx.lineWidth = 1;
  ctx.fillStyle = MUTED;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const tick of axes.yTicks) {
    ctx.strokeStyle = GRID;
    line(ctx, left, y(tick), left + width, y(tick));
    ctx.fillText(formatY(tick), left - 4, y(tick));
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const tick of axes.xTicks) ctx.fillText(formatX(tick), x(tick), top + height + 3);
  ctx.fillText(axes.xLabel, left + width / 2, top + height + 16);
  ctx.strokeStyle = MUTED;
  line(ctx, left, top, left, top + height);
  line(ctx, left, top + height, left + width, top + height);
  ctx.strokeStyle = INK;
  return { ctx, left, top, width, height, x, y };
}

/** @param {CanvasRenderingContext2D} ctx */
function line(ctx, x0, y0, x1, y1) {
  ctx.beginPath();
  // Half-pixel offsets keep one-pixel lines crisp.
  ctx.moveTo(Math.round(x0) + 0.5, Math.round(y0) + 0.5);
  ctx.lineTo(Math.round(x1) + 0.5, Math.round(y1) + 0.5);
  ctx.stroke();
}

/**
 * A dashed horizontal reference line with a label at its right end.
 * @param {PlotFrame} frame
 * @param {number} value
 * @param {string} label
 * @param {string} colour
 */
export function referenceLine(frame, value, label, colour) {
  const { ctx, left, width } = frame;
  const py = Math.round(frame.y(value)) + 0.5;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  ctx.moveTo(left, py);
  ctx.lineTo(left + width, py);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = colour;
  ctx.textAlign = 'right';
  // Below the line when it runs along the top of the plot.
  const above = py - frame.top > 10;
  ctx.textBaseline = above ? 'bottom' : 'top';
  ctx.fillText(label, left + width - 2, above ? py - 1 : py + 2);
  ctx.restore();
}

/**
 * A message in the middle of the plot area (no data yet).
 * @param {PlotFrame} frame
 * @param {string} text
 */
export function emptyMessage(frame, text) {
  const { ctx, left, top, width, height } = frame;
  ctx.save();
  ctx.fillStyle = MUTED;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, left + width / 2, top + height / 2);
  ctx.restore();
}

/**
 * Up to about `count` round tick values covering [min, max].
 * @param {number} min
 * @param {number} max
 * @param {number} count
 * @returns {number[]}
 */
export function niceTicks(min, max, count) {
  const span = max - min;
  if (!(span > 0)) return [min];
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}
