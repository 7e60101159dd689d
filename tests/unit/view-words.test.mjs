// Unit tests of the view told in words (issue 28): a pair's sentence gives
// its contacts, the core's verdicts counted and its feature pairs in words;
// a scene without an oracle gets counts without right and wrong; the summary
// gives the step, the totals and the core's displacement and standing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contactPairs, worstPairsFirst } from '../../www/state/contact-pairs.js';
import { featureWords } from '../../www/state/contact-pairs.js';
import { motionSentence, pairSentence, sceneSentence, summarySentence, worstSentence } from '../../www/ui/view-words.js';

const layout = { stride: 4, correct: 0, feature: 1, a: 2, b: 3 };
const featureKinds = ['(V,V)', '(V,E)', '(E,V)', '(V,F)', '(F,V)', '(E,E)', '(E,F)', '(F,E)', '(F,F)'];
const bodyNames = ['ground', 'shaft-3', 'capital'];
const FF = 8;
const VF = 3;

/** @param {[number, number, number, number][]} rows correct, feature, a, b */
const pairsOf = (rows) => contactPairs(Float32Array.from(rows.flat()), layout);

test("the core's feature labels are read as words", () => {
  assert.equal(featureWords('(F,F)'), 'face–face');
  assert.equal(featureWords('(V,E)'), 'vertex–edge');
  assert.equal(featureWords('something else'), 'something else');
});

test('a pair is told with its contacts, wrong and right normals and feature pairs', () => {
  const rows = /** @type {[number, number, number, number][]} */ ([]);
  for (let i = 0; i < 19; i++) rows.push([i < 13 ? 0 : 1, FF, 1, 2]);
  const [pair] = pairsOf(rows);
  assert.equal(pairSentence(pair, { bodyNames, featureKinds, hasOracle: true }), 'shaft-3 – capital: 19 contacts, 13 wrong, 6 right, all from face–face pairs');
  const [mixed] = pairsOf([[0, VF, 0, 1], [1, FF, 0, 1], [NaN, VF, 0, 1]]);
  assert.equal(
    pairSentence(mixed, { bodyNames, featureKinds, hasOracle: true }),
    'ground – shaft-3: 3 contacts, 1 wrong, 1 right, 1 without a verdict, from 2 vertex–face (1 wrong), 1 face–face pairs',
  );
});

test('without an oracle a pair has counts and feature pairs, no right or wrong', () => {
  const [pair] = pairsOf([[NaN, VF, 0, 1], [NaN, FF, 0, 1]]);
  const text = pairSentence(pair, { bodyNames, featureKinds, hasOracle: false });
  assert.equal(text, 'ground – shaft-3: 2 contacts, from 1 vertex–face, 1 face–face pairs');
  const summary = summarySentence({ step: 2, pairs: [pair], record: { max_displacement: 0.5, standing: null }, hasOracle: false });
  assert.equal(summary, 'Step 2: 2 contacts between 1 body pair (no oracle judges their normals). Largest displacement 0.5 m.');
  assert.match(sceneSentence({ title: 'Rolling spheres', bodies: [{ name: 'ground', fixed: true }], hasOracle: false }), /no oracle/);
});

test("the summary gives the totals and the core's displacement and standing", () => {
  const pairs = pairsOf([[0, FF, 0, 1], [1, FF, 0, 1], [0, FF, 1, 2]]);
  assert.equal(
    summarySentence({ step: 3, pairs, record: { max_displacement: 3.935e-5, standing: true }, hasOracle: true }),
    'Step 3: 3 contacts between 2 body pairs, 2 wrong. Largest displacement 3.94e-5 m; the structure stands.',
  );
  assert.equal(motionSentence(null), '');
  assert.equal(summarySentence({ step: 0, pairs: [], record: null, hasOracle: true }), 'Step 0: no contacts yet.');
  assert.equal(summarySentence({ step: 4, pairs: [], record: { max_displacement: 0, standing: null }, hasOracle: true }), 'Step 4: no contacts. Largest displacement 0 m.');
  assert.equal(motionSentence({ max_displacement: 1.2, standing: false }), 'Largest displacement 1.2 m; the structure has collapsed.');
  // The body that moved most is named, as text (a scene file's name may look like markup).
  assert.equal(motionSentence({ max_displacement: 1.2, moved_most: 'shaft-2', standing: false }), 'Largest displacement 1.2 m, by shaft-2; the structure has collapsed.');
  assert.equal(motionSentence({ max_displacement: 0.1, moved_most: '<b>x</b>', standing: true }), 'Largest displacement 0.1 m, by <b>x</b>; the structure stands.');
});

test('the worst pairs lead, capped, and a scene with many bodies is counted rather than listed', () => {
  const pairs = pairsOf([[0, FF, 0, 1], [0, FF, 1, 2], [0, FF, 1, 2], [1, FF, 0, 2]]);
  assert.equal(worstSentence(worstPairsFirst(pairs), bodyNames, 1), 'Most wrong normals: shaft-3 – capital (2 of 2), and 1 more pair with wrong normals.');
  assert.equal(worstSentence(worstPairsFirst(pairsOf([[1, FF, 0, 1]])), bodyNames), '');
  const bodies = Array.from({ length: 81 }, (_, i) => ({ name: `brick-${i}`, fixed: i === 0 }));
  assert.equal(sceneSentence({ title: 'Wall', bodies, hasOracle: true }), 'Wall, 81 bodies (1 fixed); the pairs below name them.');
});
