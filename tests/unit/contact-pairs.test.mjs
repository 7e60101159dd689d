// Unit tests of the grouping behind the view told in words: contacts are
// grouped by body pair in the core's order, the core's verdicts are counted
// (1 right, 0 wrong, NaN unjudged) and the feature kinds tallied.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contactPairs, worstPairsFirst } from '../../www/state/contact-pairs.js';

const layout = { stride: 4, correct: 0, feature: 1, a: 2, b: 3 };

/** @param {[number, number, number, number][]} rows correct, feature, a, b */
const buffer = (rows) => Float32Array.from(rows.flat());

test('contacts are grouped by body pair, in the order of their first contact', () => {
  const pairs = contactPairs(buffer([[1, 0, 2, 3], [0, 1, 0, 1], [0, 1, 2, 3], [NaN, 2, 2, 3]]), layout);
  assert.deepEqual(pairs.map((p) => [p.a, p.b, p.contacts]), [[2, 3, [0, 2, 3]], [0, 1, [1]]]);
  assert.deepEqual(pairs.map((p) => [p.right, p.wrong, p.unjudged]), [[1, 1, 1], [0, 1, 0]]);
});

test('feature kinds come most contacts first, with their wrong normals counted', () => {
  const [pair] = contactPairs(buffer([[1, 2, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1], [1, 2, 0, 1], [1, 1, 0, 1]]), layout);
  assert.deepEqual(pair.features, [{ kind: 0, count: 2, wrong: 2 }, { kind: 2, count: 2, wrong: 0 }, { kind: 1, count: 1, wrong: 0 }]);
});

test('an empty frame has no pairs, and the worst pairs come first', () => {
  assert.deepEqual(contactPairs(new Float32Array(0), layout), []);
  const pairs = contactPairs(buffer([[1, 0, 0, 1], [0, 0, 1, 2], [1, 0, 1, 2], [0, 0, 2, 3]]), layout);
  assert.deepEqual(worstPairsFirst(pairs).map((p) => [p.a, p.b]), [[1, 2], [2, 3], [0, 1]]);
});
