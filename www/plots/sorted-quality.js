/**
 * @file The sorted quality curve of the paper's figures 21, 24, 27, 30, 32
 * and 34: every contact's q, ascending, against its rank. The further the
 * curve stays at 1, the more normals are right.
 */

import { emptyMessage, plotFrame, referenceLine } from './frame.js';
import { formatNumber, sampleNote, sampledIndices } from './table.js';

/**
 * @param {HTMLCanvasElement} canvas
 * @param {number[]} sorted q values, ascending (from the core)
 * @param {number} threshold q at which a contact counts as correct (cos of the angle tolerance)
 */
export function drawSortedQuality(canvas, sorted, threshold) {
  const lowest = sorted.length > 0 ? Math.min(0, sorted[0]) : 0;
  const frame = plotFrame(canvas, {
    xMin: 0,
    xMax: 1,
    yMin: lowest,
    yMax: 1,
    xTicks: [0, 0.25, 0.5, 0.75, 1],
    yTicks: lowest < 0 ? [-1, -0.5, 0, 0.5, 1].filter((t) => t >= lowest) : [0, 0.25, 0.5, 0.75, 1],
    xLabel: 'fraction of contacts',
    formatX: (v) => `${Math.round(v * 100)}%`,
  });
  if (sorted.length === 0) {
    emptyMessage(frame, 'no contacts at this step');
    return;
  }
  if (Number.isFinite(threshold)) referenceLine(frame, threshold, 'right above', '#1d5fa8');
  const { ctx } = frame;
  ctx.strokeStyle = '#9a5b34';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  // A step curve: contact i covers ranks [i, i+1) / n.
  const n = sorted.length;
  sorted.forEach((q, i) => {
    const x0 = frame.x(i / n);
    const x1 = frame.x((i + 1) / n);
    const y = frame.y(q);
    if (i === 0) ctx.moveTo(x0, y);
    else ctx.lineTo(x0, y);
    ctx.lineTo(x1, y);
  });
  ctx.stroke();
}

/**
 * The plot in words and numbers: every contact's rank and q, as drawn.
 * @param {number[]} sorted q values, ascending (from the core)
 * @param {number} threshold q of the "right above" line (NaN: none)
 * @returns {import('./table.js').PlotData}
 */
export function sortedQualityData(sorted, threshold) {
  const n = sorted.length;
  const line = Number.isFinite(threshold) ? `; the line "right above" is at q = ${formatNumber(threshold)}` : '';
  const summary =
    n === 0
      ? 'No contacts at this step.'
      : `${n} contacts, q ascending from ${formatNumber(sorted[0])} to ${formatNumber(sorted[n - 1])}${line}.`;
  return {
    summary,
    caption: `Every contact's q, ascending${sampleNote(n, 'contacts')}`,
    columns: ['rank', 'q'],
    rows: sampledIndices(n).map((i) => [i + 1, formatNumber(sorted[i])]),
  };
}
