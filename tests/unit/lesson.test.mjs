// Lesson files (www/state/lesson.js, docs/lessons.md): the shipped lessons
// and the documented example read cleanly; every malformed part is named by
// its step and key; a step's link may hold only the page's own keys; the
// links' values are judged as any link's are.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { LESSON_FORMAT, checkLessonLinks, readLesson } from '../../www/state/lesson.js';
import { SCHEMA, fakeCore } from './fake-core.mjs';

const ROOT = new URL('../../', import.meta.url);
const settingKeys = SCHEMA.map((entry) => entry.url_key);
const READOUT_ROWS = ['step', 'quality', 'coverage', 'solver', 'standing'];

/** @param {object} lesson */
const read = (lesson) => readLesson(JSON.stringify(lesson), { settingKeys });

const GOOD = {
  format: LESSON_FORMAT,
  title: 'A lesson',
  steps: [{ link: 'scene=pillar&method=opposing&step=3', text: 'One.\n\nTwo.', highlight: { at: [0, 3.2, 0], radius: 0.3 }, look: ['quality'] }],
};

test('the shipped lessons, listed in one place, and the documented example read cleanly', async () => {
  const list = JSON.parse(await readFile(new URL('www/lessons/index.json', ROOT), 'utf8'));
  assert.deepEqual(list.lessons, ['cliff-edge', 'point-in-crack', 'wrong-solver']);
  for (const id of list.lessons) {
    const { lesson, errors } = readLesson(await readFile(new URL(`www/lessons/${id}.json`, ROOT), 'utf8'), { settingKeys });
    assert.deepEqual(errors, [], id);
    assert.ok(lesson && lesson.steps.length >= 3, id);
  }
  const docs = await readFile(new URL('docs/lessons.md', ROOT), 'utf8');
  const example = docs.match(/```json\n([\s\S]*?)```/);
  assert.ok(example, 'docs/lessons.md has a JSON example');
  assert.deepEqual(readLesson(example[1], { settingKeys }).errors, []);
});

test('a good lesson reads into its steps, with defaults for what it leaves out', () => {
  const { lesson, errors } = read(GOOD);
  assert.deepEqual(errors, []);
  assert.deepEqual(lesson, {
    title: 'A lesson',
    summary: '',
    steps: [{ title: '', link: 'scene=pillar&method=opposing&step=3', text: 'One.\n\nTwo.', highlight: { at: [0, 3.2, 0], radius: 0.3, label: '' }, look: ['quality'] }],
  });
  // A leading '#' is allowed, as copied from an address bar's hash.
  assert.equal(read({ ...GOOD, steps: [{ ...GOOD.steps[0], link: '#scene=wall' }] }).lesson.steps[0].link, 'scene=wall');
});

test('each problem names the step and the key', () => {
  const cases = [
    ['{', /^the lesson is not JSON/],
    ['[]', /must be a JSON object/],
    [JSON.stringify({ ...GOOD, format: 'x' }), /"format" must be "contactlab-lesson\/1", not "x"/],
    [JSON.stringify({ ...GOOD, titel: 'x' }), /the lesson has an unknown key "titel"/],
    [JSON.stringify({ ...GOOD, steps: [] }), /"steps" must hold from 1 to 40 steps, not 0/],
    [JSON.stringify({ ...GOOD, steps: [GOOD.steps[0], 'x'] }), /step 2 must be an object/],
    [JSON.stringify({ ...GOOD, steps: [GOOD.steps[0], { link: 'scene=pillar' }] }), /step 2, "text" must be a non-empty string \(it is missing\)/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], link: 'method=opposing' }] }), /step 1, "link" names no scene/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], link: 'scene=pillar&embed=1' }] }), /step 1, "link" has the key "embed", which a lesson may not use/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], link: 'scene=pillar&lesson=x' }] }), /step 1, "link" has the key "lesson"/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], link: 'javascript:alert(1)' }] }), /step 1, "link" must be only the part after "#"/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], link: '//evil.example/#scene=pillar' }] }), /step 1, "link" must be only the part after "#"/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], link: 'scene=pillar&step=1&step=2' }] }), /step 1, "link" names "step" more than once/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], highlight: { at: [0, 0], radius: 0 } }] }), /step 1, "highlight", "at" must be three numbers.*step 1, "highlight", "radius" must be a number above 0/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], look: 'solver' }] }), /step 1, "look" must be a list of at most 4 readout rows/],
    [JSON.stringify({ ...GOOD, steps: [{ ...GOOD.steps[0], text: 'x'.repeat(3001) }] }), /step 1, "text" is 3001 characters long; at most 3000/],
    ['x'.repeat(100_001), /at most 100000 are read/],
  ];
  for (const [text, message] of cases) {
    const { lesson, errors } = readLesson(text, { settingKeys });
    assert.equal(lesson, null, text.slice(0, 60));
    assert.match(errors.join('; '), message);
  }
});

test('the steps\' links are judged as any link is, and their readout rows against the page\'s', async () => {
  const { lesson } = read({
    ...GOOD,
    steps: [
      GOOD.steps[0],
      { link: 'scene=nowhere&method=nonsense&cam=1,2', text: 'x', look: ['residue'] },
    ],
  });
  const errors = await checkLessonLinks(lesson, { sceneIds: ['pillar', 'wall'], schema: SCHEMA, core: fakeCore, readoutRows: READOUT_ROWS });
  assert.equal(errors.length, 4, errors.join('\n'));
  assert.ok(errors.every((error) => error.startsWith('step 2, ')), errors.join('\n'));
  const all = errors.join('\n');
  assert.match(all, /scene="nowhere" is not a built-in scene/);
  assert.match(all, /cam="1,2" is not six numbers/);
  assert.match(all, /method.*nonsense/);
  assert.match(all, /"look": "residue" is not a row of the readout/);
});
