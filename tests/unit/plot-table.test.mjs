// Unit tests of the plots' text equivalents: every point up to the cap,
// an evenly spaced sample (first and last included) past it and the caption
// saying so, and summaries that name what the plot draws.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countHistoryData } from '../../www/plots/count-history.js';
import { energyHistoryData } from '../../www/plots/energy-history.js';
import { histogramData } from '../../www/plots/histogram.js';
import { regionAreasData } from '../../www/plots/region-areas.js';
import { sortedQualityData } from '../../www/plots/sorted-quality.js';
import { MAX_ROWS, formatNumber, sampledIndices } from '../../www/plots/table.js';

test('up to the cap every point is a row; past it an evenly spaced sample with both ends', () => {
  assert.deepEqual(sampledIndices(3), [0, 1, 2]);
  assert.equal(sampledIndices(MAX_ROWS).length, MAX_ROWS);
  const sample = sampledIndices(5000);
  assert.equal(sample.length, MAX_ROWS);
  assert.equal(sample[0], 0);
  assert.equal(sample.at(-1), 4999);
  assert.ok(sample.every((index, i) => i === 0 || index > sample[i - 1]));
});

test('numbers read as a person reads them: six significant digits, powers of ten when tiny or huge', () => {
  assert.equal(formatNumber(0.999847695), '0.999848');
  assert.equal(formatNumber(0.000494689123), '4.94689e-4');
  assert.equal(formatNumber(0), '0');
  assert.equal(formatNumber(2.5e7), '2.5e+7');
});

test('the sorted-quality table has a row per contact, and its summary names the count', () => {
  const data = sortedQualityData([0.5, 0.9, 1], Math.cos(Math.PI / 180));
  assert.deepEqual(data.rows, [[1, '0.5'], [2, '0.9'], [3, '1']]);
  assert.match(data.summary, /^3 contacts, q ascending from 0\.5 to 1; the line "right above" is at q = 0\.999848\.$/);
  assert.doesNotMatch(data.caption, /evenly spaced/);
  const many = sortedQualityData(Array.from({ length: 1000 }, (_, i) => i / 999), NaN);
  assert.equal(many.rows.length, MAX_ROWS);
  assert.match(many.caption, /200 of 1000 contacts, evenly spaced/);
  assert.equal(sortedQualityData([], NaN).summary, 'No contacts at this step.');
});

test('the histogram, count, energy and region tables hold what their plots draw', () => {
  const bins = new Array(20).fill(0);
  bins[19] = 5;
  bins[0] = 2;
  const histogram = histogramData(bins);
  assert.equal(histogram.rows.length, 20);
  assert.deepEqual(histogram.rows[0], ['below 0.05', 2]);
  assert.deepEqual(histogram.rows[19], ['0.95 to 1', 5]);
  assert.match(histogram.summary, /7 contacts in 20 bins of q; the fullest, q 0\.95 to 1, holds 5\./);
  const history = [[1, 60, 1e-4], [2, 64, 2e-4], [3, 64, NaN]];
  assert.deepEqual(countHistoryData(history, 40).rows, [[1, 60], [2, 64], [3, 64]]);
  assert.match(countHistoryData(history, 40).summary, /64 contacts at step 3 \(the scene's minimal count: 40\)/);
  assert.deepEqual(energyHistoryData(history).rows, [[1, '1e-4'], [2, '2e-4']]);
  const regions = regionAreasData([0.25, 1], [1]);
  assert.deepEqual(regions.rows, [[1, '0.25'], [2, '1']]);
  assert.match(regions.summary, /2 body pairs.*an exact method gives 1 m²/);
});
