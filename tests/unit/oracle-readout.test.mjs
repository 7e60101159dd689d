// Unit tests of how the page names the oracle its measures come from and
// offers the other one (www/ui/readout-table.js), of the help entry on the
// two oracles (www/ui/help.js), and of which setting changes the page may
// judge again without a replay (www/wiring/page-config.js). Run with
// `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MEASURE_HELP } from '../../www/ui/help.js';
import { READOUT_KEYS, headlineMinContacts, headlineText, oracleTerms } from '../../www/ui/readout-table.js';
import { ConfigTerms } from '../../www/wiring/page-config.js';
import { SCHEMA } from './fake-core.mjs';

const WALL = { oracle: 'wall', scene_oracle: true, min_contacts: 852 };
const FILE = { oracle: 'none', scene_oracle: false, min_contacts: null };

test("a scene with its own oracle names the headline's and offers the other", () => {
  const scene = oracleTerms({ oracle: 'scene' }, WALL, 'scene');
  assert.deepEqual(scene, { headline: 'scene', name: "scene's oracle: wall", offer: { value: 'geometric', label: 'use the geometric oracle' } });
  const geometric = oracleTerms({ oracle: 'geometric' }, WALL, 'geometric');
  assert.deepEqual(geometric, { headline: 'geometric', name: 'geometric oracle', offer: { value: 'scene', label: "use the scene's oracle (wall)" } });
  // The record says which oracle its headline keys come from; the setting only decides before the first step.
  assert.equal(oracleTerms({ oracle: 'scene' }, WALL, 'geometric').headline, 'scene');
  assert.equal(oracleTerms(null, WALL, 'geometric').headline, 'geometric');
  assert.equal(oracleTerms(null, WALL, 'scene').headline, 'scene');
});

test('a scene without an oracle of its own is judged by the geometric one and offers nothing', () => {
  for (const choice of ['scene', 'geometric']) {
    const terms = oracleTerms({ oracle: 'geometric' }, FILE, choice);
    assert.deepEqual(terms, { headline: 'geometric', name: 'geometric oracle', offer: null });
    assert.deepEqual(oracleTerms(null, FILE, choice), terms);
  }
});

test("the minimal count is the headline oracle's", () => {
  const record = { oracle: 'geometric', scene_min_contacts: 852, geo_min_contacts: 850 };
  assert.equal(headlineMinContacts(record, WALL, 'geometric'), 850);
  assert.equal(headlineMinContacts(record, WALL, 'scene'), 852);
  assert.equal(headlineMinContacts(null, WALL, 'scene'), 852);
  assert.equal(headlineMinContacts({ oracle: 'geometric', scene_min_contacts: null, geo_min_contacts: 2 }, FILE, 'geometric'), 2);
});

test('the headline over the view names the oracle after the quality, never for no contacts', () => {
  const record = { step: 1, time: 0.01, count: 1259, correct: 1259, quality: 100, indeterminate: 0 };
  assert.equal(headlineText(record, 1, { toleranceDeg: 1, oracleName: 'geometric oracle' }), 'Step 1 · 0.01 s · 1259 of 1259 normals right (100.0 %) within 1° · geometric oracle');
  const none = { step: 1, time: 0.01, count: 0, correct: null, quality: null, indeterminate: 0 };
  assert.equal(headlineText(none, 1, { toleranceDeg: 1, oracleName: 'geometric oracle' }), 'Step 1 · 0.01 s · no contacts');
});

test('the exact values hold both oracles\' measures and the oracle timing', () => {
  for (const key of ['oracle', 'scene_quality', 'scene_coverage', 'scene_area_coverage', 'scene_min_contacts', 'scene_excess', 'scene_correct']) assert.ok(READOUT_KEYS.includes(key), key);
  for (const key of ['geo_right', 'geo_indeterminate_right', 'geo_wrong', 'geo_quality', 'geo_coverage', 'geo_area_coverage', 'geo_min_contacts', 'geo_excess', 'ms_oracle']) assert.ok(READOUT_KEYS.includes(key), key);
  assert.equal(new Set(READOUT_KEYS).size, READOUT_KEYS.length);
});

test('the help explains both oracles in a sentence or two', () => {
  const entry = MEASURE_HELP.oracle;
  assert.match(entry.text, /scene's oracle/);
  assert.match(entry.text, /geometric oracle/);
  assert.ok(entry.text.split(/\. (?=[A-Z])/).length <= 2, entry.text);
  assert.match(entry.paper, /docs\/design\/oracle\.md/);
});

test('only changes of Measure-stage settings may be judged again without a replay', () => {
  const terms = new ConfigTerms({ scenes: [], methods: [], schema: SCHEMA });
  const settings = Object.fromEntries(SCHEMA.map((e) => [e.id, e.default]));
  assert.ok(terms.onlyMeasuresChange(settings, { ...settings, tol_deg: 5 }));
  assert.ok(terms.onlyMeasuresChange(settings, { ...settings }));
  assert.ok(!terms.onlyMeasuresChange(settings, { ...settings, tol_deg: 5, iterations: 10 }));
  assert.ok(!terms.onlyMeasuresChange(settings, { ...settings, method: 'volume-sat' }));
  // A schema without stages (an older core) never skips a replay.
  const unstaged = new ConfigTerms({ scenes: [], methods: [], schema: SCHEMA.map(({ stage, ...entry }) => entry) });
  assert.ok(!unstaged.onlyMeasuresChange(settings, { ...settings, tol_deg: 5 }));
});
