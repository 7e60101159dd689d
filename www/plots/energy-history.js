/**
 * @file Kinetic energy of the free bodies over the steps taken so far, with
 * the first step's value as a dashed line: the measure of Cheng Yi & Drumwright's sphere
 * benchmarks (an ideal spinning sphere keeps its energy), readable on any
 * scene, with or without an oracle.
 */

import { emptyMessage, niceTicks, plotFrame, referenceLine } from './frame.js';
import { formatNumber, sampleNote, sampledIndices } from './table.js';

/** Tick labels of a few significant digits (energies span 1e-6 … 1e6 J). */
function compact(value) {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  return magnitude >= 1e4 || magnitude < 1e-2 ? value.toExponential(1) : String(Number(value.toPrecision(3)));
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {Array<[number, number, number]>} history [step, count, kinetic energy J] triples, ascending steps
 */
export function drawEnergyHistory(canvas, history) {
  const points = history.filter((h) => Number.isFinite(h[2]));
  const lastStep = points.length > 0 ? points[points.length - 1][0] : 1;
  const firstStep = points.length > 0 ? points[0][0] : 0;
  const highest = points.reduce((m, h) => Math.max(m, h[2]), 0);
  const top = highest > 0 ? highest * 1.1 : 1;
  const frame = plotFrame(canvas, {
    xMin: Math.min(firstStep, lastStep - 1),
    xMax: lastStep,
    yMin: 0,
    yMax: top,
    xTicks: niceTicks(Math.min(firstStep, lastStep - 1), lastStep, 4).filter((t) => Number.isInteger(t)),
    yTicks: niceTicks(0, top, 3),
    xLabel: 'step',
    formatY: compact,
  });
  if (points.length === 0) {
    emptyMessage(frame, 'no steps yet');
    return;
  }
  referenceLine(frame, points[0][2], 'first step', '#2e8b57');
  const { ctx } = frame;
  ctx.strokeStyle = '#3b5b92';
  ctx.fillStyle = '#3b5b92';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  points.forEach(([step, , energy], i) => {
    if (i === 0) ctx.moveTo(frame.x(step), frame.y(energy));
    else ctx.lineTo(frame.x(step), frame.y(energy));
  });
  ctx.stroke();
  if (points.length < 40) {
    for (const [step, , energy] of points) ctx.fillRect(frame.x(step) - 1.5, frame.y(energy) - 1.5, 3, 3);
  }
}

/**
 * The plot in words and numbers: the kinetic energy at each step, as drawn.
 * @param {Array<[number, number, number]>} history [step, count, kinetic energy J] triples, ascending steps
 * @returns {import('./table.js').PlotData}
 */
export function energyHistoryData(history) {
  const points = history.filter((h) => Number.isFinite(h[2]));
  const first = points[0];
  const last = points[points.length - 1];
  const summary =
    points.length === 0
      ? 'No steps yet.'
      : `${points.length} steps, ${first[0]} to ${last[0]}; ${formatNumber(last[2])} J at step ${last[0]}, ${formatNumber(first[2])} J at step ${first[0]}.`;
  return {
    summary,
    caption: `Kinetic energy at each step, in joules${sampleNote(points.length, 'steps')}`,
    columns: ['step', 'kinetic energy (J)'],
    rows: sampledIndices(points.length).map((i) => [points[i][0], formatNumber(points[i][2])]),
  };
}
