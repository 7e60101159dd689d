/**
 * @file The histogram of contact qualities q: the core's 20 equal bins over
 * [0, 1] (a q below 0 is counted in the first bin).
 */

import { emptyMessage, niceTicks, plotFrame } from './frame.js';
import { formatNumber } from './table.js';

/**
 * @param {HTMLCanvasElement} canvas
 * @param {number[]} bins counts per bin (from the core)
 */
export function drawHistogram(canvas, bins) {
  const highest = Math.max(1, ...bins);
  const frame = plotFrame(canvas, {
    xMin: 0,
    xMax: 1,
    yMin: 0,
    yMax: highest,
    xTicks: [0, 0.25, 0.5, 0.75, 1],
    yTicks: niceTicks(0, highest, 3).filter((t) => Number.isInteger(t)),
    xLabel: 'quality q',
  });
  if (bins.every((count) => count === 0)) {
    emptyMessage(frame, 'no contacts at this step');
    return;
  }
  const { ctx } = frame;
  const width = 1 / bins.length;
  bins.forEach((count, i) => {
    if (count === 0) return;
    const x0 = frame.x(i * width);
    const x1 = frame.x((i + 1) * width);
    const y = frame.y(count);
    // One colour: "correct" depends on the angle tolerance, not on a bin
    // (q = 0.97 is in the last bin and still 14° off).
    ctx.fillStyle = '#c08a5f';
    ctx.fillRect(x0 + 0.5, y, Math.max(1, x1 - x0 - 1), frame.y(0) - y);
  });
}

/**
 * The plot in words and numbers: each bin's range and count, as drawn.
 * @param {number[]} bins counts per bin (from the core)
 * @returns {import('./table.js').PlotData}
 */
export function histogramData(bins) {
  const width = 1 / bins.length;
  const range = (i) => `${i === 0 ? 'below ' : `${formatNumber(i * width)} to `}${formatNumber((i + 1) * width)}`;
  const total = bins.reduce((sum, count) => sum + count, 0);
  const fullest = bins.reduce((best, count, i) => (count > bins[best] ? i : best), 0);
  const summary =
    total === 0
      ? 'No contacts at this step.'
      : `${total} contacts in ${bins.length} bins of q; the fullest, q ${range(fullest)}, holds ${bins[fullest]}.`;
  return {
    summary,
    caption: `Contacts per bin of q (the first bin also holds q below 0)`,
    columns: ['q', 'contacts'],
    rows: bins.map((count, i) => [range(i), count]),
  };
}
