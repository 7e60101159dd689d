// Unit tests of what the page says about one contact: the hover tooltip and
// the keyboard's contact list (issue 28) word it from one DOM-free function.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { featureWords } from '../../www/state/contact-pairs.js';
import { contactDetails, contactSentence, detailRows } from '../../www/ui/tooltip.js';

const layout = { stride: 15, position: 0, normal: 3, q: 6, correct: 7, depth: 8, feature: 9, a: 10, b: 11, region: 12, kept_normal: 13, geo: 14 };
const featureKinds = ['(V,V)', '(V,E)', '(E,V)', '(V,F)', '(F,V)', '(E,E)', '(E,F)', '(F,E)', '(F,F)'];

/** @param {{q?: number, correct?: number, region?: number}} fields */
const contact = ({ q = -0.12, correct = 0, region = NaN } = {}) => Float32Array.from([1, 2, 3, 0, 1, 0, q, correct, 1.2e-4, 8, 1, 2, region, 0]);

test('a wrong contact: its bodies, feature pair, normal, depth and verdict', () => {
  const details = contactDetails(contact(), layout, 0, { bodyNames: ['ground', 'shaft-3', 'capital'], featureKinds });
  assert.equal(details.bodies, 'shaft-3 → capital');
  assert.equal(details.featureWords, 'face–face');
  assert.equal(details.verdict, 'wrong');
  assert.equal(details.q, '-0.1200 (wrong normal)');
  assert.equal(contactSentence(details, 3, 19), 'contact 3 of 19: shaft-3 → capital, face–face, wrong normal (q -0.1200), depth 1.20e-4 m, normal A→B (0.000, 1.000, 0.000)');
  assert.deepEqual(detailRows(details).map((r) => r.term), ['feature pair', 'normal A→B', 'depth', 'q']);
});

test('no oracle, a region, unnamed bodies and an unknown feature label', () => {
  const details = contactDetails(contact({ q: NaN, correct: NaN, region: 1 }), layout, 0, { bodyNames: [], featureKinds });
  assert.equal(details.verdict, null);
  assert.equal(details.bodies, 'body 1 → body 2');
  assert.match(contactSentence(details, 1, 1), /^contact 1 of 1: body 1 → body 2, face–face, no oracle, /);
  assert.deepEqual(detailRows(details, { of: 3 }).slice(4).map((r) => r.value), ['2 of 3 between these bodies', 'from the current geometry']);
  assert.equal(featureWords('(E,V)'), 'edge–vertex');
  assert.equal(featureWords('odd'), 'odd');
});

test("the geometric oracle's verdict: a row, and in the sentence where it says more than the headline's", () => {
  const withGeo = (fields, geo) => Float32Array.from([...contact(fields), geo]);
  const names = { bodyNames: ['ground', 'a', 'b'], featureKinds };
  const cone = contactDetails(withGeo({ q: 0.9999, correct: 1 }, 0.5), layout, 0, names);
  assert.equal(cone.geo, 'indeterminate-right');
  assert.deepEqual(detailRows(cone).at(-1), { term: 'geometric oracle', value: 'indeterminate-right' });
  assert.match(contactSentence(cone, 1, 2), /^contact 1 of 2: a → b, face–face, right normal \(q 0\.9999\), geometric oracle: indeterminate-right, depth /);
  const agreed = contactDetails(withGeo({ q: -0.12, correct: 0 }, 0), layout, 0, names);
  assert.equal(agreed.geo, 'wrong');
  assert.doesNotMatch(contactSentence(agreed, 1, 2), /geometric/);
  // The scene's oracle says right where the geometric one finds nothing touching.
  const disagree = contactDetails(withGeo({ q: 1, correct: 1 }, 0), layout, 0, names);
  assert.match(contactSentence(disagree, 1, 2), /right normal \(q 1\.0000\), geometric oracle: wrong,/);
});
