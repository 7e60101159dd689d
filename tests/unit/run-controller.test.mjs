// Unit tests of www/state/run-controller.js with a fake worker: whatever
// the controller shows must be the configuration the link names, simulated
// from step 0 to the shown step. Run with `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunController } from '../../www/state/run-controller.js';
import { FakeWorker, defaultSettings, fakeCount } from './fake-core.mjs';

/**
 * A controller on a fake worker, with a listener that records what the page
 * would show and keeps `dataset.run` as main.js does.
 */
function setUp(options = {}) {
  const { remeasurable, remeasure = true, ...workerOptions } = options;
  const worker = new FakeWorker(workerOptions);
  // A worker of a core that cannot judge a step again.
  if (!remeasure) /** @type {any} */ (worker).remeasure = undefined;
  const log = { shown: [], runs: [], progress: [], errors: [] };
  const dataset = { run: 'idle' };
  const controller = new RunController({
    worker,
    nextFrame: () => new Promise((resolve) => setImmediate(resolve)),
    remeasurable,
    listener: {
      scene: (shown) => log.shown.push({ kind: 'scene', config: shown.config, step: shown.step, record: shown.frame.record, history: shown.history }),
      frame: (shown) => log.shown.push({ kind: 'frame', config: shown.config, step: shown.step, record: shown.frame.record, history: shown.history }),
      run: (run) => {
        dataset.run = run;
        log.runs.push(run);
      },
      progress: (progress) => log.progress.push(progress),
      error: (error, context) => log.errors.push({ message: error.message, ...context }),
    },
  });
  return { worker, controller, log, dataset };
}

/** A configuration of a built-in scene with the defaults and `changes`. */
function config(scene, changes = {}) {
  return { scene: { id: scene }, settings: { ...defaultSettings(), ...changes } };
}

/** Asserts that a shown entry is `cfg` simulated from step 0 to its step. */
function assertFaithful(entry, cfg) {
  assert.equal(entry.config, cfg, 'shown configuration');
  if (entry.step === 0) assert.equal(entry.record, null);
  else assert.equal(entry.record.count, fakeCount(cfg.scene.id, cfg.settings, entry.step), `count at step ${entry.step}`);
}

/** Waits until `predicate()` holds, checking after every worker answer. */
async function until(predicate) {
  for (let i = 0; i < 10000 && !predicate(); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(predicate(), 'the condition never held');
}

test('a newly opened scene replays to its measure step and shows only that frame', async () => {
  const { controller, log, dataset, worker } = setUp();
  const volume = config('pillar', { method: 'volume-sat' });
  controller.open(volume, 'measure');
  assert.equal(dataset.run, 'replaying');
  await controller.settled();
  assert.equal(dataset.run, 'idle');
  assert.deepEqual(log.runs, ['replaying', 'idle']);
  assert.equal(log.shown.length, 1, 'intermediate steps of a replay must not be shown');
  assert.equal(log.shown[0].kind, 'scene');
  assert.equal(log.shown[0].step, 3);
  assertFaithful(log.shown[0], volume);
  assert.deepEqual(controller.link(), { config: volume, step: 3 });
  assert.deepEqual(log.shown[0].history.map(([step]) => step), [1, 2, 3]);
  assert.equal(worker.maxInFlight, 1, 'one request at a time');
});

test('a picked scene goes to its own measure step', async () => {
  const { controller, log } = setUp({ stepsPerSlice: 2 });
  controller.open(config('pillar'), 'measure');
  await controller.settled();
  const wall = config('wall');
  controller.open(wall, 'measure');
  await controller.settled();
  const last = log.shown.at(-1);
  assert.equal(last.step, 5);
  assertFaithful(last, wall);
});

test('a method change replays from step 0 to the current step and never shows the old numbers as the new method', async () => {
  const { controller, log, dataset, worker } = setUp();
  const volume = config('pillar', { method: 'volume-sat' });
  controller.open(volume, 'measure');
  await controller.settled();
  const before = log.shown.length;
  worker.calls.length = 0;
  log.runs.length = 0;

  const surface = { ...volume, settings: { ...volume.settings, method: 'surface-sat' } };
  controller.change(surface);
  assert.equal(dataset.run, 'replaying');
  // While replaying, the link already names the new method at step 3, and
  // the screen still holds the old frame (nothing new was shown).
  assert.deepEqual(controller.link(), { config: surface, step: 3 });
  assert.equal(log.shown.length, before);
  await controller.settled();

  assert.deepEqual(log.runs, ['replaying', 'idle']);
  assert.equal(dataset.run, 'idle');
  const shownAfter = log.shown.slice(before);
  assert.equal(shownAfter.length, 1);
  assert.equal(shownAfter[0].step, 3);
  assertFaithful(shownAfter[0], surface);
  assert.notEqual(shownAfter[0].record.count, fakeCount('pillar', volume.settings, 3), 'the fake must tell the methods apart');
  // A fresh load with the new settings, then steps that add up to 3.
  assert.equal(worker.calls[0].type, 'load');
  assert.equal(worker.calls[0].settings.method, 'surface-sat');
  assert.equal(worker.calls.filter((c) => c.type === 'load').length, 1);
  assert.deepEqual(controller.link(), { config: surface, step: 3 });
});

test('a perturbation change replays too, and so does a change back', async () => {
  const { controller, log } = setUp();
  const plain = config('pillar');
  controller.open(plain, 4);
  await controller.settled();
  const perturbed = { ...plain, settings: { ...plain.settings, perturb: 0.01 } };
  controller.change(perturbed);
  await controller.settled();
  assertFaithful(log.shown.at(-1), perturbed);
  assert.equal(log.shown.at(-1).step, 4);
  const back = { ...plain, settings: { ...plain.settings } };
  controller.change(back);
  await controller.settled();
  assertFaithful(log.shown.at(-1), back);
  assert.equal(log.shown.at(-1).record.count, fakeCount('pillar', plain.settings, 4));
});

test('a change during a replay supersedes it: only the latest request is shown', async () => {
  const { controller, log, dataset } = setUp();
  controller.open(config('pillar'), 10);
  await controller.settled();
  const base = controller.config;
  const first = { ...base, settings: { ...base.settings, method: 'volume-sat' } };
  const second = { ...base, settings: { ...base.settings, method: 'surface-sat' } };
  const third = { ...base, settings: { ...base.settings, method: 'surface-sat', perturb: 0.02 } };
  const shownBefore = log.shown.length;
  controller.change(first);
  await until(() => log.progress.some((p) => p.config === first && p.reached >= 2));
  controller.change(second);
  await until(() => log.progress.some((p) => p.config === second && p.reached >= 1));
  controller.change(third);
  assert.equal(dataset.run, 'replaying');
  await controller.settled();
  const shown = log.shown.slice(shownBefore);
  assert.equal(shown.length, 1, `shown: ${shown.map((s) => s.config.settings.method)}`);
  assertFaithful(shown[0], third);
  assert.equal(shown[0].step, 10);
  assert.equal(dataset.run, 'idle');
  assert.deepEqual(controller.link(), { config: third, step: 10 });
});

test('cancelling a replay stays at the step reached, and the link says that step', async () => {
  const { controller, log, dataset } = setUp();
  controller.open(config('pillar'), 3);
  await controller.settled();
  const changed = { ...controller.config, settings: { ...controller.config.settings, method: 'opposing', perturb: 0.01 } };
  controller.runTo(3);
  controller.change(changed);
  // Run far, then cancel part of the way.
  controller.runTo(50);
  await until(() => log.progress.some((p) => p.reached >= 6));
  controller.cancel();
  await controller.settled();
  const last = log.shown.at(-1);
  assert.ok(last.step >= 6 && last.step < 50, `stopped at ${last.step}`);
  assertFaithful(last, changed);
  assert.deepEqual(controller.link(), { config: changed, step: last.step });
  assert.equal(dataset.run, 'idle');
});

test('cancelling before the load answered shows the new configuration at step 0', async () => {
  const { controller, log } = setUp();
  controller.open(config('pillar'), 3);
  await controller.settled();
  const changed = { ...controller.config, settings: { ...controller.config.settings, method: 'surface-sat' } };
  controller.change(changed);
  controller.cancel();
  await controller.settled();
  assert.equal(log.shown.at(-1).step, 0);
  assert.equal(log.shown.at(-1).config, changed);
  assert.deepEqual(controller.link(), { config: changed, step: 0 });
});

test('play shows every step until paused; the link follows the frames', async () => {
  const { controller, log, dataset } = setUp();
  const cfg = config('spikes');
  controller.open(cfg, 0);
  await controller.settled();
  controller.play();
  assert.equal(dataset.run, 'playing');
  await until(() => (log.shown.at(-1)?.step ?? 0) >= 4);
  controller.pause();
  await controller.settled();
  assert.equal(dataset.run, 'idle');
  const steps = log.shown.map((s) => s.step);
  assert.deepEqual(steps, steps.map((_, i) => i), 'every step shown in order');
  for (const entry of log.shown) assertFaithful(entry, cfg);
  assert.deepEqual(controller.link(), { config: cfg, step: steps.at(-1) });
});

test('a settings change while playing replays to the step reached and stops', async () => {
  const { controller, log, dataset } = setUp();
  const cfg = config('spikes');
  controller.open(cfg, 0);
  await controller.settled();
  controller.play();
  await until(() => (log.shown.at(-1)?.step ?? 0) >= 3);
  const reached = log.shown.at(-1).step;
  const changed = { ...cfg, settings: { ...cfg.settings, iterations: 10 } };
  controller.change(changed);
  assert.equal(dataset.run, 'replaying');
  await controller.settled();
  assert.equal(dataset.run, 'idle');
  assertFaithful(log.shown.at(-1), changed);
  assert.equal(log.shown.at(-1).step, reached);
});

test('run to a later step shows the frames on the way; to an earlier one replays from 0', async () => {
  const { controller, log, worker } = setUp({ stepsPerSlice: 2 });
  const cfg = config('pillar');
  controller.open(cfg, 0);
  await controller.settled();
  controller.runTo(6);
  await controller.settled();
  assert.deepEqual(log.shown.map((s) => s.step), [0, 2, 4, 6]);
  worker.calls.length = 0;
  controller.runTo(3);
  await controller.settled();
  assert.equal(worker.calls[0].type, 'load', 'going back loads afresh');
  assert.equal(log.shown.at(-1).step, 3);
  assertFaithful(log.shown.at(-1), cfg);
  controller.stepOnce();
  controller.stepOnce();
  await controller.settled();
  assert.equal(log.shown.at(-1).step, 5, 'two clicks, two steps');
  controller.reset();
  await controller.settled();
  assert.equal(log.shown.at(-1).step, 0);
  assert.equal(log.shown.at(-1).record, null);
});

test('a scene that fails to load leaves the page on what it showed', async () => {
  const { controller, log, worker, dataset } = setUp();
  const good = config('pillar');
  controller.open(good, 3);
  await controller.settled();
  worker.broken.add('wall');
  controller.open(config('wall'), 'measure');
  await controller.settled();
  assert.equal(log.errors.length, 1);
  assert.equal(log.errors[0].during, 'load');
  assert.match(log.errors[0].message, /broken/);
  assert.equal(log.shown.at(-1).config, good);
  assert.deepEqual(controller.link(), { config: good, step: 3 });
  assert.equal(dataset.run, 'idle');
  // The page still works.
  controller.stepOnce();
  await controller.settled();
  assertFaithful(log.shown.at(-1), good);
  assert.equal(log.shown.at(-1).step, 4);
});

test('a failed first load leaves nothing shown and nothing running', async () => {
  const { controller, log, worker, dataset } = setUp();
  worker.broken.add('wall');
  controller.open(config('wall'), 'measure');
  await controller.settled();
  assert.equal(log.errors.length, 1);
  assert.equal(log.shown.length, 0);
  assert.equal(controller.link(), null);
  assert.equal(dataset.run, 'idle');
});

test('a failed step stays at the last good step, rebuilt', async () => {
  const { controller, log, worker, dataset } = setUp();
  const cfg = config('pillar');
  controller.open(cfg, 0);
  await controller.settled();
  worker.failAtStep = 3;
  controller.runTo(6);
  await controller.settled();
  assert.equal(log.errors.length, 1);
  assert.equal(log.errors[0].during, 'step');
  assert.equal(log.shown.at(-1).step, 2);
  assertFaithful(log.shown.at(-1), cfg);
  assert.equal(dataset.run, 'idle');
});

test('after the worker was replaced, the shown step is rebuilt', async () => {
  const { controller, log, worker, dataset } = setUp();
  const cfg = config('pillar', { method: 'surface-sat' });
  controller.open(cfg, 'measure');
  await controller.settled();
  worker.calls.length = 0;
  worker.sim = null;
  controller.workerRestarted();
  assert.equal(dataset.run, 'replaying');
  await controller.settled();
  assert.equal(worker.calls[0].type, 'load');
  assert.equal(log.shown.at(-1).step, 3);
  assertFaithful(log.shown.at(-1), cfg);
  // Rebuilt state is a new frame of the same configuration.
  assert.equal(dataset.run, 'idle');
});

test('play and step are ignored during a replay', async () => {
  const { controller, dataset } = setUp();
  controller.open(config('pillar'), 3);
  await controller.settled();
  controller.change(config('pillar', { method: 'surface-sat' }));
  controller.play();
  controller.stepOnce();
  assert.equal(dataset.run, 'replaying');
  await controller.settled();
  assert.equal(dataset.run, 'idle');
  assert.equal(controller.shown.step, 3);
});

/** The fake schema's rule: only the angle tolerance judges the contacts (the page reads it from the schema's `stage`). */
const onlyTolerance = (from, to) => Object.keys(to).every((id) => from[id] === to[id] || id === 'tol_deg');

test('a change of a setting that only judges the contacts is judged again at the step shown, without a replay', async () => {
  const { controller, log, dataset, worker } = setUp({ remeasurable: onlyTolerance });
  const cfg = config('pillar');
  controller.open(cfg, 'measure');
  await controller.settled();
  worker.calls.length = 0;
  log.runs.length = 0;
  const before = log.shown.length;

  const looser = { ...cfg, settings: { ...cfg.settings, tol_deg: 5 } };
  controller.change(looser);
  assert.notEqual(dataset.run, 'replaying');
  await controller.settled();
  assert.equal(dataset.run, 'idle');
  assert.ok(!log.runs.includes('replaying'), `run states: ${log.runs}`);
  assert.deepEqual(worker.calls.map((c) => c.type), ['remeasure'], 'no load, no step');
  assert.equal(worker.calls[0].settings.tol_deg, 5);
  const shownAfter = log.shown.slice(before);
  assert.equal(shownAfter.length, 1);
  assert.equal(shownAfter[0].step, 3);
  // What a replay with the new settings would show, and the history kept.
  assertFaithful(shownAfter[0], looser);
  assert.notEqual(shownAfter[0].record.count, fakeCount('pillar', cfg.settings, 3), 'the fake must tell the tolerances apart');
  assert.deepEqual(shownAfter[0].history.map(([step]) => step), [1, 2, 3]);
  assert.deepEqual(controller.link(), { config: looser, step: 3 });

  // Stepping on uses the new settings.
  controller.stepOnce();
  await controller.settled();
  assert.equal(log.shown.at(-1).step, 4);
  assertFaithful(log.shown.at(-1), looser);
});

test('a play goes on through a change that only judges the contacts', async () => {
  const { controller, log, worker } = setUp({ remeasurable: onlyTolerance });
  const cfg = config('spikes');
  controller.open(cfg, 0);
  await controller.settled();
  controller.play();
  await until(() => (log.shown.at(-1)?.step ?? 0) >= 2);
  const looser = { ...cfg, settings: { ...cfg.settings, tol_deg: 5 } };
  controller.change(looser);
  const reached = log.shown.at(-1).step;
  await until(() => (log.shown.at(-1)?.step ?? 0) >= reached + 2);
  assert.equal(controller.run, 'playing');
  controller.pause();
  await controller.settled();
  assert.equal(worker.calls.filter((c) => c.type === 'load').length, 1, 'only the first load');
  // Every step in order, the play going on; the step the change came at is
  // shown twice, judged the old way and the new.
  const first = log.shown.findIndex((s) => s.config === looser);
  assert.ok(first > 0);
  const steps = log.shown.map((s) => s.step);
  assert.deepEqual(steps, steps.map((_, i) => (i < first ? i : i - 1)), `steps shown: ${steps}`);
  for (const entry of log.shown.slice(first)) assertFaithful(entry, looser);
  for (const entry of log.shown.slice(0, first)) assertFaithful(entry, cfg);
});

test('other settings, and a core that cannot judge again, still replay', async () => {
  for (const [options, changes] of [
    [{ remeasurable: onlyTolerance }, { iterations: 10 }],
    [{ remeasurable: onlyTolerance, remeasure: false }, { tol_deg: 5 }],
  ]) {
    const { controller, log, worker } = setUp(options);
    const cfg = config('pillar');
    controller.open(cfg, 'measure');
    await controller.settled();
    worker.calls.length = 0;
    const changed = { ...cfg, settings: { ...cfg.settings, ...changes } };
    controller.change(changed);
    assert.equal(controller.run, 'replaying');
    await controller.settled();
    assert.equal(worker.calls[0].type, 'load');
    assert.ok(!worker.calls.some((c) => c.type === 'remeasure'));
    assertFaithful(log.shown.at(-1), changed);
    assert.equal(log.shown.at(-1).step, 3);
  }
});

test('a change that only judges the contacts during a replay judges the step reached again and replays on', async () => {
  const { controller, log, worker } = setUp({ remeasurable: onlyTolerance });
  const cfg = config('pillar');
  controller.open(cfg, 'measure');
  await controller.settled();
  const perturbed = { ...cfg, settings: { ...cfg.settings, perturb: 0.01 } };
  controller.change(perturbed);
  await until(() => worker.calls.some((c) => c.type === 'step' && worker.sim.settings.perturb === 0.01));
  worker.calls.length = 0;
  const looser = { ...perturbed, settings: { ...perturbed.settings, tol_deg: 5 } };
  controller.change(looser);
  assert.equal(controller.run, 'replaying');
  await controller.settled();
  assert.ok(!worker.calls.some((c) => c.type === 'load'), 'the replay under way is not started again');
  assert.equal(log.shown.at(-1).step, 3);
  assertFaithful(log.shown.at(-1), looser);
});

test("a contact file's run stops at its last step, playing, stepping or replaying a link past it", async () => {
  const { controller, log, dataset, worker } = setUp({ stepsPerSlice: 3 });
  worker.lastFileStep = 2;
  const file = config('pillar');
  controller.open(file, 0);
  await controller.settled();
  controller.play();
  await controller.settled();
  assert.equal(dataset.run, 'idle', 'the play stopped by itself');
  assert.equal(controller.shown?.step, 2);
  assert.equal(controller.ended, 'the file has no contacts after step 2');
  assert.equal(controller.diverged, null, 'an end is no blow-up');
  assert.deepEqual(log.errors, []);
  assertFaithful(log.shown.at(-1), file);
  // A step or a run further asks the worker for nothing more.
  const calls = worker.calls.length;
  controller.stepOnce();
  controller.runTo(9);
  await controller.settled();
  assert.equal(controller.shown?.step, 2);
  assert.equal(worker.calls.length, calls);
  assert.deepEqual(controller.link(), { config: file, step: 2 });
  // A link to a step past the file's end replays to its last step and says so.
  const linked = config('pillar');
  controller.open(linked, 7);
  await controller.settled();
  assert.deepEqual(controller.link(), { config: linked, step: 2 });
  assert.equal(controller.ended, 'the file has no contacts after step 2');
  assert.deepEqual(log.errors, []);
});

test("a contact file with its own poses steps from one of its steps to the next, and a goal between them is the next", async () => {
  const { controller, log, dataset, worker } = setUp({ stepsPerSlice: 3 });
  worker.fileSteps = [0, 3, 5];
  worker.lastFileStep = 5;
  const posed = config('pillar');
  controller.open(posed, 0);
  await controller.settled();
  controller.stepOnce();
  await controller.settled();
  assert.equal(dataset.run, 'idle');
  assert.equal(controller.shown?.step, 3, 'one step goes to the file\'s next step');
  assert.deepEqual(controller.link(), { config: posed, step: 3 });
  const loads = worker.calls.filter((call) => call.type === 'load').length;
  assert.equal(loads, 1, 'no replay to reach step 1, which the file does not have');
  // A link to step 4 shows the file's step 5; Play stops at the last.
  const linked = config('pillar');
  controller.open(linked, 4);
  await controller.settled();
  assert.deepEqual(controller.link(), { config: linked, step: 5 });
  controller.play();
  await controller.settled();
  assert.equal(controller.shown?.step, 5);
  assert.equal(controller.ended, 'the file has no contacts after step 5');
  assert.deepEqual(log.errors, []);
});
