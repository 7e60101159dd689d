// The page's readers of untrusted text, fuzzed (issue 25): links (the hash
// parser, the packed scene and contact texts a link carries) and lesson
// files, fed random and mutated input from a seeded generator. They may
// refuse, with a message; they never throw anything else, never hang, and
// what they accept reads back to itself. Seeded, so a failure names the
// seed and replays; CONTACTLAB_FUZZ_SEED picks another.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { formatHash, parseHash, readHash } from '../../www/state/page-state.js';
import { readLesson } from '../../www/state/lesson.js';
import { MAX_LINKED_TEXT_BYTES, packSceneText, sceneTitle, unpackSceneText } from '../../www/ui/scene-file.js';
import { SCHEMA, settingsFromPairs, settingsToPairs } from './fake-core.mjs';

const SEED = Number(process.env.CONTACTLAB_FUZZ_SEED ?? 25);
const ROUNDS = 3000;
const SCENE_IDS = ['pillar', 'wall', 'arch', 'spikes', 'sliding-spike'];
const SETTING_KEYS = SCHEMA.map((entry) => entry.url_key);
const ROOT = new URL('../../', import.meta.url);

/** mulberry32: a small seeded generator, enough to pick mutations. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (items) => items[int(items.length)];
  return { next, int, pick };
}

const PIECES = [
  '&', '=', '#', '%', '%zz', '%00', '+', ' ', '<script>alert(1)</script>', '"', "'", '\u0000', '\uffff', '😀',
  'scene=', 'step=', 'step=-1', 'step=1e300', 'step=99999999999999999999', 'cam=', 'cam=1,2,3,4,5,6', 'cam=NaN,0,0,0,0,0',
  'explode=2', 'view=x', 'file=', 'file=@@@', 'contacts=AAAA', 'contactsname=<b>x</b>', 'v=0.0.1', 'v=99.0.0',
  'embed=1', 'bench', 'method=growth', 'method=<img>', 'refine=18446744073709551616', 'mu=1e300', 'dt=0', 'lesson=../../etc',
  ...SETTING_KEYS.map((k) => `${k}=`), ...SCENE_IDS.map((id) => `scene=${id}`),
];

/** A hash built from pieces, then mutated character by character. */
function randomHash(rng) {
  let hash = '#' + Array.from({ length: rng.int(8) }, () => rng.pick(PIECES)).join(rng.pick(['&', '', '&&']));
  for (let i = rng.int(4); i > 0; i--) {
    const at = rng.int(hash.length + 1);
    hash = hash.slice(0, at) + String.fromCharCode(rng.int(0x3000)) + hash.slice(at + rng.int(3));
  }
  return hash;
}

const core = { settingsFromPairs: async (pairs, link) => settingsFromPairs(pairs, link) };

test(`the link reader takes any hash without throwing, and what it reads writes back to itself (seed ${SEED})`, async () => {
  const rng = generator(SEED);
  for (let round = 0; round < ROUNDS; round++) {
    const hash = randomHash(rng);
    let read;
    try {
      read = readHash(hash, { sceneIds: SCENE_IDS, settingKeys: SETTING_KEYS });
    } catch (error) {
      assert.fail(`readHash threw on ${JSON.stringify(hash)} (seed ${SEED}, round ${round}): ${error}`);
    }
    assert.ok(read.problems.every((p) => typeof p === 'string' && p.length > 0), hash);
    assert.ok(read.settingPairs.every(([k, v]) => typeof k === 'string' && typeof v === 'string'), hash);
    // Parsed with the (fake) core, written and read again: a fixed point.
    const { state } = await parseHash(hash, { sceneIds: SCENE_IDS, schema: SCHEMA, core });
    const written = formatHash(state, settingsToPairs(state.settings));
    const again = (await parseHash(written, { sceneIds: SCENE_IDS, schema: SCHEMA, core })).state;
    // A link with a file shows the file: its `scene` is not written.
    const shown = (s) => (s.file ? { ...s, scene: null } : s);
    assert.deepEqual(shown(again), shown(state), `${JSON.stringify(hash)} → ${written}`);
  }
});

test(`a link's packed text unpacks or is refused with a message naming its key, never more than the cap (seed ${SEED})`, async () => {
  const rng = generator(SEED + 1);
  const scene = await readFile(new URL('scenes/spikes.json', ROOT), 'utf8');
  const packed = await packSceneText(scene);
  assert.equal(await unpackSceneText(packed), scene);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=!';
  for (let round = 0; round < 300; round++) {
    let text = packed;
    for (let i = 1 + rng.int(6); i > 0; i--) {
      const at = rng.int(text.length);
      text = rng.next() < 0.2 ? text.slice(0, at) : text.slice(0, at) + rng.pick([...alphabet]) + text.slice(at + 1);
    }
    try {
      const out = await unpackSceneText(text, 'file');
      assert.equal(typeof out, 'string');
      assert.equal(typeof sceneTitle(out, 'fallback'), 'string');
    } catch (error) {
      assert.ok(error instanceof Error && error.message.includes('"file"'), `${text}: ${error}`);
    }
  }
  // A deflate bomb: 80 MB of spaces packs into a short link and is refused.
  const bomb = await packSceneText(' '.repeat(MAX_LINKED_TEXT_BYTES + 16e6));
  assert.ok(bomb.length < 200_000, `${bomb.length}`);
  await assert.rejects(unpackSceneText(bomb, 'file'), /unpacks to more than 64 MB/);
});

test(`the lesson reader takes mutated lesson files without throwing (seed ${SEED})`, async () => {
  const rng = generator(SEED + 2);
  const original = await readFile(new URL('www/lessons/cliff-edge.json', ROOT), 'utf8');
  for (let round = 0; round < 1000; round++) {
    let text = original;
    for (let i = 1 + rng.int(5); i > 0; i--) {
      const at = rng.int(text.length);
      text = text.slice(0, at) + rng.pick(['{', '}', '[', ']', '"', ',', ':', 'null', '1e300', '<b>', '']) + text.slice(at + rng.int(4));
    }
    let result;
    try {
      result = readLesson(text, { settingKeys: SETTING_KEYS });
    } catch (error) {
      assert.fail(`readLesson threw (seed ${SEED}, round ${round}): ${error}\n${text}`);
    }
    assert.ok(result.lesson !== undefined || result.errors.length > 0, text);
    assert.ok(result.errors.every((e) => typeof e === 'string' && e.length > 0));
  }
});
