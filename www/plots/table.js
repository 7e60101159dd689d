/**
 * @file A plot's text equivalent: one summary sentence under the canvas and
 * its numbers as a real table in a "Data as a table" disclosure, for a
 * reader who cannot see the canvas. The numbers are the ones the plot
 * draws, formatted, never measured again here. A plot of thousands of
 * points gets an evenly spaced sample of them (its first and last
 * included), and the table's caption says so.
 */

/** The most rows a table shows; past it, an evenly spaced sample. */
export const MAX_ROWS = 200;

/**
 * @typedef {object} PlotData
 * @property {string} summary one sentence: what the plot shows now
 * @property {string} caption what the table holds
 * @property {string[]} columns the column headers
 * @property {Array<Array<string | number>>} rows every row's cells, at most MAX_ROWS
 */

/**
 * Which of `count` points a table shows: all of them, or MAX_ROWS evenly
 * spaced ones, the first and the last included.
 * @param {number} count
 * @returns {number[]} indices, ascending
 */
export function sampledIndices(count) {
  if (count <= MAX_ROWS) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: MAX_ROWS }, (_, i) => Math.round((i * (count - 1)) / (MAX_ROWS - 1)));
}

/**
 * The caption's note on a sample, or '' when every point is shown.
 * @param {number} count
 * @param {string} noun plural, e.g. "contacts"
 * @returns {string}
 */
export function sampleNote(count, noun) {
  return count > MAX_ROWS ? ` (${MAX_ROWS} of ${count} ${noun}, evenly spaced, the first and last included)` : '';
}

/**
 * A number as a person reads it off a table: six significant digits.
 * @param {number} value
 * @returns {string}
 */
export function formatNumber(value) {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  // Very small and very large values (energies of 1e-6 … 1e6 J) in powers of ten.
  if (value !== 0 && (magnitude < 1e-3 || magnitude >= 1e6)) return value.toExponential(5).replace(/\.?0+e/, 'e');
  return String(Number(value.toPrecision(6)));
}

/**
 * Keeps `figure`'s summary and data table showing `data`. The summary is
 * written at once; the table's rows only while its disclosure is open (and
 * when it opens), so a playing run does not rebuild hidden tables.
 * @param {HTMLElement} figure the plot's <figure>
 * @param {PlotData} data
 */
export function showPlotData(figure, data) {
  const parts = plotParts(figure);
  parts.summary.textContent = data.summary;
  parts.data = data;
  if (parts.details.open) fillTable(parts);
}

/**
 * @typedef {{summary: HTMLElement, details: HTMLDetailsElement, table: HTMLTableElement, data: PlotData | null}} PlotParts
 */

/** @type {WeakMap<HTMLElement, PlotParts>} */
const partsOf = new WeakMap();

/**
 * The figure's summary and table, made on first use.
 * @param {HTMLElement} figure
 * @returns {PlotParts}
 */
function plotParts(figure) {
  const known = partsOf.get(figure);
  if (known) return known;
  const summary = document.createElement('p');
  summary.className = 'plot-summary';
  const details = document.createElement('details');
  details.className = 'plot-data';
  const label = document.createElement('summary');
  label.textContent = 'Data as a table';
  const table = document.createElement('table');
  details.append(label, table);
  figure.append(summary, details);
  /** @type {PlotParts} */
  const parts = { summary, details, table, data: null };
  details.addEventListener('toggle', () => {
    if (details.open) fillTable(parts);
  });
  partsOf.set(figure, parts);
  return parts;
}

/** @param {PlotParts} parts */
function fillTable({ table, data }) {
  if (!data) return;
  const caption = document.createElement('caption');
  caption.textContent = data.caption;
  const head = document.createElement('thead');
  const headRow = head.insertRow();
  for (const column of data.columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = column;
    headRow.append(th);
  }
  const body = document.createElement('tbody');
  for (const cells of data.rows) {
    const row = body.insertRow();
    cells.forEach((cell, i) => {
      // The first column names the row (a rank, a bin, a step).
      const element = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) /** @type {HTMLTableCellElement} */ (element).scope = 'row';
      element.textContent = String(cell);
      row.append(element);
    });
  }
  table.replaceChildren(caption, head, body);
}
