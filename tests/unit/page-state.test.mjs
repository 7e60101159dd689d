// Unit tests of www/state/page-state.js: the page's own URL keys, and the
// settings handed to the (fake) core unchanged. Run with
// `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SCENE, PAGE_KEYS, UNNAMED_CONTACTS, UNNAMED_POSES, defaultPageState, formatHash, parseHash, readHash } from '../../www/state/page-state.js';
import { SCHEMA, defaultSettings, fakeCore, settingsFromPairs, settingsToPairs } from './fake-core.mjs';

const SCENE_IDS = ['pillar', 'wall', 'arch', 'spikes', 'sliding-spike'];
const SETTING_KEYS = SCHEMA.map((entry) => entry.url_key);

/** parseHash with a fake core that also records the pairs it was given. */
async function parse(hash) {
  const given = [];
  const links = [];
  const core = {
    settingsFromPairs: async (pairs, link) => {
      given.push(...pairs);
      links.push(link);
      return settingsFromPairs(pairs, link);
    },
  };
  const result = await parseHash(hash, { sceneIds: SCENE_IDS, schema: SCHEMA, core });
  return { ...result, given, links };
}

test('the core is told whether there was a link: one that names no solver meant the printed one, no link means the defaults', async () => {
  assert.deepEqual((await parse('')).links, [false]);
  assert.deepEqual((await parse('#')).links, [false]);
  assert.deepEqual((await parse('#scene=pillar&method=opposing')).links, [true]);
  assert.deepEqual((await parse('scene=wall')).links, [true]);
});

test('an empty hash is the default state, with no step given', async () => {
  const { state, problems, bench, stepGiven } = await parse('');
  assert.deepEqual(state, defaultPageState(defaultSettings()));
  assert.equal(state.scene, DEFAULT_SCENE);
  assert.deepEqual(problems, []);
  assert.equal(bench, null);
  assert.equal(stepGiven, false);
});

test("today's links parse unchanged: the page's keys here, the settings' text straight to the core", async () => {
  const link =
    '#scene=wall&method=surface-sat&perturb=0.01&seed=7&dt=0.005&iters=200&mu=0.5&eps=0.02&refine=1&tol=2' +
    '&step=12&view=wireframe&explode=0.35&wrong=1&features=1&cam=0.55,0.75,3.6,0,0.5,0';
  const { state, problems, given, stepGiven } = await parse(link);
  assert.deepEqual(problems, []);
  assert.deepEqual(given, [
    ['method', 'surface-sat'],
    ['perturb', '0.01'],
    ['seed', '7'],
    ['dt', '0.005'],
    ['iters', '200'],
    ['mu', '0.5'],
    ['eps', '0.02'],
    ['refine', '1'],
    ['tol', '2'],
  ]);
  assert.equal(stepGiven, true);
  assert.deepEqual(state, {
    version: null,
    embed: false,
    scene: 'wall',
    file: null,
    contacts: null,
    // It names no solver: it ran the printed one, and still does.
    settings: { ...defaultSettings(), method: 'surface-sat', perturb: 0.01, seed: 7, dt: 0.005, iterations: 200, mu: 0.5, epsilon: 0.02, refine: 1, tol_deg: 2, solver: 'printed' },
    step: 12,
    cam: [0.55, 0.75, 3.6, 0, 0.5, 0],
    view: 'wireframe',
    explode: 0.35,
    onlyWrong: true,
    featureColours: true,
    regions: false,
  });
});

test('the links of the README and the old page still open', async () => {
  for (const link of ['#scene=pillar&method=volume-sat', '#scene=pillar&method=opposing&step=3', '#scene=spikes&step=0', '#scene=sliding-spike&method=opposing']) {
    const { problems } = await parse(link);
    assert.deepEqual(problems, [], link);
  }
  const { state, stepGiven } = await parse('#scene=pillar&method=volume-sat');
  assert.equal(state.settings.method, 'volume-sat');
  assert.equal(stepGiven, false, 'no step: the page opens at the measure step');
});

test('every key survives a round trip through the hash', async () => {
  const state = {
    version: '0.2.0-rc.1',
    embed: true,
    scene: 'arch',
    file: null,
    contacts: null,
    settings: { ...defaultSettings(), method: 'closest-points', perturb: 0.02, seed: 4294967295, dt: 0.001, iterations: 37, mu: 0, epsilon: 0.05, refine: 2, tol_deg: 0.1, warm_start: true },
    step: 100000,
    cam: [-1.25, 0.5, 12, 1e-7, -3, 4.5],
    view: 'tetrahedra',
    explode: 1,
    onlyWrong: true,
    featureColours: true,
    regions: true,
  };
  const hash = formatHash(state, settingsToPairs(state.settings));
  for (const key of ['v', 'embed', 'scene', 'step', 'cam', 'view', 'explode', 'wrong', 'features', 'regions', ...SETTING_KEYS]) assert.match(hash, new RegExp(`[#&]${key}=`), `${key} missing from ${hash}`);
  assert.match(hash, /^#v=0\.2\.0-rc\.1&/, 'the release comes first, so a reader sees it');
  const { state: read, problems } = await parse(hash);
  assert.deepEqual(problems, []);
  assert.deepEqual(read, state);

  // A scene file instead of a scene, and the defaults left out.
  const file = { ...defaultPageState(defaultSettings()), file: 'H4sIAAAA_packed-text', step: 5 };
  const fileHash = formatHash(file, settingsToPairs(file.settings));
  assert.doesNotMatch(fileHash, /[#&]scene=/);
  assert.doesNotMatch(fileHash, /[#&](v|embed|view|explode|wrong|features|regions|cam|perturb)=/);
  assert.match(fileHash, /[#&]method=opposing(&|$)/, 'the method is always written');
  assert.deepEqual((await parse(fileHash)).state, file);
});

test('a contact file travels in four keys, its poses file only with it, and the names as written', async () => {
  const contacts = { packed: 'xVnbbts4EH3P_packed-contacts', name: 'my engine, step 3.csv', poses: 'y1Rdb9owFH3n_packed-poses', posesName: 'poses 3.csv' };
  const state = { ...defaultPageState(defaultSettings()), contacts, step: 2 };
  const hash = formatHash(state, settingsToPairs(state.settings));
  for (const key of ['contacts', 'contactsname', 'poses', 'posesname']) assert.match(hash, new RegExp(`[#&]${key}=`), `${key} missing from ${hash}`);
  assert.match(hash, /[#&]scene=pillar(&|$)/, 'the scene the contacts are on is named too');
  const { state: read, problems } = await parse(hash);
  assert.deepEqual(problems, []);
  assert.deepEqual(read, state);

  // Without poses, no poses keys; without a name, words say whose it is.
  const plain = { ...state, contacts: { ...contacts, poses: null, posesName: null } };
  const plainHash = formatHash(plain, settingsToPairs(plain.settings));
  assert.doesNotMatch(plainHash, /[#&]poses(name)?=/);
  assert.deepEqual((await parse(plainHash)).state, plain);
  assert.equal((await parse('#contacts=abc')).state.contacts?.name, UNNAMED_CONTACTS);
  assert.equal((await parse('#contacts=abc&poses=def')).state.contacts?.posesName, UNNAMED_POSES);

  // A name or poses without the contacts is named and ignored.
  const { state: orphan, problems: orphanProblems } = await parse('#scene=pillar&contactsname=a.csv&poses=abc&posesname=p.csv');
  assert.equal(orphan.contacts, null);
  for (const key of ['contactsname', 'poses', 'posesname']) assert.ok(orphanProblems.some((p) => p.includes(`"${key}"`)), `${key} not named in ${orphanProblems}`);
  const { problems: noPoses } = await parse('#contacts=abc&posesname=p.csv');
  assert.ok(noPoses.some((p) => p.includes('"posesname"')), String(noPoses));
  assert.deepEqual(PAGE_KEYS.filter((key) => /contacts|poses/.test(key)), ['contacts', 'contactsname', 'poses', 'posesname']);
});

test('the regions toggle is off by default, in the link only when on, and a link with it on opens with it on', async () => {
  const off = { ...defaultPageState(defaultSettings()), step: 3 };
  assert.equal(off.regions, false);
  const offHash = formatHash(off, settingsToPairs(off.settings));
  assert.doesNotMatch(offHash, /[#&]regions=/);
  assert.equal((await parse(offHash)).state.regions, false);

  const on = { ...off, settings: { ...off.settings, method: 'volume-sat' }, regions: true };
  const onHash = formatHash(on, settingsToPairs(on.settings));
  assert.match(onHash, /[#&]regions=1(&|$)/);
  const { state, problems } = await parse(onHash);
  assert.deepEqual(problems, []);
  assert.deepEqual(state, on);
  // Written by hand: 0 is off, and the key is the page's, never a setting's.
  assert.equal((await parse('#regions=0')).state.regions, false);
  const { given } = await parse('#method=opposing&regions=1');
  assert.deepEqual(given, [['method', 'opposing']]);
});

test("the hash holds the core's pairs in the core's order, and cam's commas unescaped", () => {
  const state = { ...defaultPageState(defaultSettings()), cam: [1, 2, 3, 4, 5, 6], step: 3 };
  const hash = formatHash(state, [['method', 'growth'], ['iters', '10'], ['tol', '2.5']]);
  assert.equal(hash, '#scene=pillar&method=growth&iters=10&tol=2.5&step=3&cam=1,2,3,4,5,6');
});

test('bad setting values give exactly the problems the core returns, and keep the defaults', async () => {
  const { state, problems } = await parse('#scene=pillar&dt=2&method=nope&iters=1.5&perturb=abc&seed=7');
  const expected = settingsFromPairs([['dt', '2'], ['method', 'nope'], ['iters', '1.5'], ['perturb', 'abc']]).problems;
  assert.equal(expected.length, 4);
  assert.deepEqual(problems, expected);
  assert.equal(problems[0], 'dt: the time step must be from 0.0001 to 0.1 s, got 2');
  assert.deepEqual(state.settings, { ...defaultSettings(), seed: 7, solver: 'printed' });
});

test("bad page keys are named and fall back to their defaults", async () => {
  const { state, problems, stepGiven } = await parse('#scene=no-such-scene&step=-2&cam=1,2&view=x-ray&explode=3&wrong=yes&regions=on&bogus=1&steps=5');
  assert.equal(state.scene, DEFAULT_SCENE);
  assert.equal(state.step, 0);
  assert.equal(state.cam, null);
  assert.equal(state.view, 'solid');
  assert.equal(state.explode, 0);
  assert.equal(state.onlyWrong, false);
  assert.equal(state.regions, false);
  assert.equal(stepGiven, true, 'a malformed step opens at step 0, not at the measure step');
  for (const name of ['no-such-scene', 'step', 'cam', 'view', 'explode', 'wrong', 'regions', 'bogus', 'steps']) {
    assert.ok(problems.some((p) => p.includes(name)), `no problem names ${name}: ${problems.join(' | ')}`);
  }
  assert.equal(problems.length, 9);
});

test('a key given twice is read once, and named', async () => {
  const { state, problems, given } = await parse('#method=surface-sat&method=opposing&step=2&step=9');
  assert.deepEqual(given, [['method', 'surface-sat']]);
  assert.equal(state.settings.method, 'surface-sat');
  assert.equal(state.step, 2);
  assert.equal(problems.length, 2);
  assert.match(problems[0], /"method" appears more than once/);
});

test('#bench reads its step count, and the settings as any link does', async () => {
  const { bench, state, problems } = await parse('#bench&scene=sliding-spike&method=opposing&steps=4&iters=100');
  assert.deepEqual(problems, []);
  assert.deepEqual(bench, { steps: 4 });
  assert.equal(state.scene, 'sliding-spike');
  assert.equal(state.settings.iterations, 100);
  assert.deepEqual((await parse('#bench')).bench, { steps: 20 });
  assert.match((await parse('#bench&steps=0')).problems[0], /steps/);
});

test('readHash leaves setting keys to the core and never reads a page key as a setting', () => {
  const { settingPairs, problems } = readHash('#scene=pillar&warm=1&tol=3&step=1', { sceneIds: SCENE_IDS, settingKeys: [...SETTING_KEYS, 'step'] });
  assert.deepEqual(settingPairs, [['warm', '1'], ['tol', '3']]);
  assert.deepEqual(problems, []);
  assert.ok(PAGE_KEYS.includes('step'));
});

test('the fake core used here agrees with itself (a round trip of every default and value)', async () => {
  const settings = { ...defaultSettings(), warm_start: true, dt: 0.01 };
  const { settings: back, problems } = await fakeCore.settingsFromPairs(await fakeCore.settingsToPairs(settings));
  assert.deepEqual(problems, []);
  assert.deepEqual(back, settings);
  await assert.rejects(fakeCore.checkSetting('dt', '2'), /dt: the time step must be from 0.0001 to 0.1 s, got 2/);
});
