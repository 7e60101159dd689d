/**
 * @file Contact count over the steps taken so far, with the scene's minimal
 * count as a dashed line (excess is the ratio of the two).
 */

import { emptyMessage, niceTicks, plotFrame, referenceLine } from './frame.js';
import { sampleNote, sampledIndices } from './table.js';

/**
 * @param {HTMLCanvasElement} canvas
 * @param {Array<[number, number, number?]>} history [step, count, …] entries, ascending steps
 * @param {number | null} minContacts
 */
export function drawCountHistory(canvas, history, minContacts) {
  const lastStep = history.length > 0 ? history[history.length - 1][0] : 1;
  const firstStep = history.length > 0 ? history[0][0] : 0;
  const highest = history.reduce((m, [, count]) => Math.max(m, count), Math.max(1, minContacts ?? 0));
  const frame = plotFrame(canvas, {
    xMin: Math.min(firstStep, lastStep - 1),
    xMax: lastStep,
    yMin: 0,
    yMax: highest * 1.1,
    xTicks: niceTicks(Math.min(firstStep, lastStep - 1), lastStep, 4).filter((t) => Number.isInteger(t)),
    yTicks: niceTicks(0, highest * 1.1, 3).filter((t) => Number.isInteger(t)),
    xLabel: 'step',
  });
  if (minContacts !== null) referenceLine(frame, minContacts, 'minimal', '#2e8b57');
  if (history.length === 0) {
    emptyMessage(frame, 'no steps yet');
    return;
  }
  const { ctx } = frame;
  ctx.strokeStyle = '#9a5b34';
  ctx.fillStyle = '#9a5b34';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  history.forEach(([step, count], i) => {
    if (i === 0) ctx.moveTo(frame.x(step), frame.y(count));
    else ctx.lineTo(frame.x(step), frame.y(count));
  });
  ctx.stroke();
  // A lone step would be an invisible line; a dot shows it.
  if (history.length < 40) {
    for (const [step, count] of history) ctx.fillRect(frame.x(step) - 1.5, frame.y(count) - 1.5, 3, 3);
  }
}

/**
 * The plot in words and numbers: the count at each step taken, as drawn.
 * @param {Array<[number, number, number?]>} history [step, count, …] entries, ascending steps
 * @param {number | null} minContacts
 * @returns {import('./table.js').PlotData}
 */
export function countHistoryData(history, minContacts) {
  const minimal = minContacts !== null ? ` (the scene's minimal count: ${minContacts})` : '';
  const last = history[history.length - 1];
  const summary =
    history.length === 0
      ? `No steps yet${minimal}.`
      : `${history.length} steps, ${history[0][0]} to ${last[0]}; ${last[1]} contacts at step ${last[0]}${minimal}.`;
  return {
    summary,
    caption: `Contacts at each step${sampleNote(history.length, 'steps')}`,
    columns: ['step', 'contacts'],
    rows: sampledIndices(history.length).map((i) => [history[i][0], history[i][1]]),
  };
}
