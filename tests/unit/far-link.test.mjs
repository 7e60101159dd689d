// Unit test of www/state/run-controller.js for a link to a far step (issue
// 20, item 9): with nothing on screen, a replay that runs long shows its
// step 0 meanwhile, then only its last frame; a short one shows only its
// last frame. Run with `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunController } from '../../www/state/run-controller.js';
import { FakeWorker, defaultSettings } from './fake-core.mjs';

/** A controller whose clock moves `msPerRequest` with every worker answer. */
function setUp(msPerRequest) {
  const worker = new FakeWorker();
  let clock = 0;
  const load = worker.load.bind(worker);
  const step = worker.step.bind(worker);
  worker.load = async (...args) => {
    const result = await load(...args);
    clock += msPerRequest;
    return result;
  };
  worker.step = async (...args) => {
    const result = await step(...args);
    clock += msPerRequest;
    return result;
  };
  const shown = [];
  const progress = [];
  const controller = new RunController({
    worker,
    now: () => clock,
    listener: {
      scene: (s) => shown.push({ step: s.step, run: controller.run }),
      frame: (s) => shown.push({ step: s.step, run: controller.run }),
      progress: (p) => progress.push(p.reached),
    },
  });
  return { controller, shown, progress };
}

const pillar = () => ({ scene: { id: 'pillar' }, settings: defaultSettings() });

test('a link to a far step shows step 0 while it replays, then the step', async () => {
  const { controller, shown, progress } = setUp(200);
  controller.open(pillar(), 20);
  await controller.settled();
  assert.deepEqual(shown[0], { step: 0, run: 'replaying' }, 'the initial pose is shown during the replay');
  assert.equal(controller.run, 'idle');
  assert.deepEqual(
    shown.map((s) => s.step),
    [0, 20],
    'no intermediate step is shown',
  );
  assert.ok(progress.includes(10), 'progress is reported');
});

test('a short replay shows only its last frame', async () => {
  const { controller, shown } = setUp(10);
  controller.open(pillar(), 20);
  await controller.settled();
  assert.deepEqual(
    shown.map((s) => s.step),
    [20],
  );
});

test('cancelling a far replay shows the step reached', async () => {
  const { controller, shown } = setUp(200);
  controller.open(pillar(), 1000);
  while (shown.length === 0) await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  controller.cancel();
  await controller.settled();
  const last = shown.at(-1);
  assert.ok(last.step > 0 && last.step < 1000, `stopped at ${last.step}`);
  assert.deepEqual(controller.link(), { config: controller.shown.config, step: last.step });
});
