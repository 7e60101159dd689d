/**
 * @file The contact region areas of the wall and the arch, one per body
 * pair, sorted (paper figures 25 and 28), with the areas an exact method
 * would give marked as dashed plateaus.
 */

import { emptyMessage, niceTicks, plotFrame, referenceLine } from './frame.js';
import { formatNumber, sampleNote, sampledIndices } from './table.js';

/**
 * @param {HTMLCanvasElement} canvas
 * @param {number[]} areas sorted ascending (from the core)
 * @param {number[]} plateaus expected areas (the exact regions', from the core)
 */
export function drawRegionAreas(canvas, areas, plateaus) {
  // reduce, not Math.max(...): a scene can have more regions than a call has arguments.
  const highest = [plateaus, areas].flat().reduce((m, a) => Math.max(m, a), 0.1) * 1.15;
  const frame = plotFrame(canvas, {
    xMin: 0,
    xMax: Math.max(areas.length, 1),
    yMin: 0,
    yMax: highest,
    xTicks: niceTicks(0, Math.max(areas.length, 1), 4).filter((t) => Number.isInteger(t)),
    yTicks: niceTicks(0, highest, 3),
    xLabel: 'body pair (sorted)',
  });
  // The areas come from exact geometry in floating point (0.9999999999999991
  // for the arch's 1 m²): six significant digits are what a person reads.
  for (const plateau of plateaus) referenceLine(frame, plateau, `${Number(plateau.toPrecision(6))} m²`, '#2e8b57');
  if (areas.length === 0) {
    emptyMessage(frame, 'no contact regions at this step');
    return;
  }
  const { ctx } = frame;
  ctx.strokeStyle = '#9a5b34';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  areas.forEach((area, i) => {
    const y = frame.y(area);
    if (i === 0) ctx.moveTo(frame.x(i), y);
    else ctx.lineTo(frame.x(i), y);
    ctx.lineTo(frame.x(i + 1), y);
  });
  ctx.stroke();
}

/**
 * The plot in words and numbers: each body pair's region area, as drawn.
 * @param {number[]} areas sorted ascending (from the core)
 * @param {number[]} plateaus expected areas (the exact regions', from the core)
 * @returns {import('./table.js').PlotData}
 */
export function regionAreasData(areas, plateaus) {
  const n = areas.length;
  const exact = plateaus.length > 0 ? `; an exact method gives ${plateaus.map((p) => `${formatNumber(p)} m²`).join(' or ')}` : '';
  const summary =
    n === 0
      ? `No contact regions at this step${exact}.`
      : `${n} body pairs, region areas ascending from ${formatNumber(areas[0])} m² to ${formatNumber(areas[n - 1])} m²${exact}.`;
  return {
    summary,
    caption: `Each body pair's contact region area, ascending${sampleNote(n, 'body pairs')}`,
    columns: ['body pair (sorted)', 'area (m²)'],
    rows: sampledIndices(n).map((i) => [i + 1, formatNumber(areas[i])]),
  };
}
