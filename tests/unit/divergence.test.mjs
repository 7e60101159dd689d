// Unit tests of the run controller's side of the divergence guard: the core
// pauses a run that blew up at the step that diverged (its record carries
// `diverged`) and throws on any further step; the controller must stop
// there, whether playing, running to a later step or replaying a link.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunController } from '../../www/state/run-controller.js';
import { FakeWorker, defaultSettings } from './fake-core.mjs';

/** A fake worker whose simulation blows up at `divergeAt`, as the core does. */
class DivergingWorker extends FakeWorker {
  constructor(divergeAt) {
    super({ stepsPerSlice: 2 });
    this.divergeAt = divergeAt;
  }

  step(count, budgetMs) {
    this.calls.push({ type: 'step', count, budgetMs });
    return this.answer(() => {
      if (this.sim.step >= this.divergeAt) throw new Error('the run diverged: paused');
      const take = budgetMs > 0 ? Math.min(count, this.stepsPerSlice) : Math.max(1, count);
      const history = [];
      let record = null;
      for (let i = 0; i < take && this.sim.step < this.divergeAt; i++) {
        this.sim.step++;
        record = { step: this.sim.step, count: 1 };
        if (this.sim.step === this.divergeAt) record.diverged = 'the time step is too large';
        history.push([record.step, 1]);
      }
      return { frame: this.frame(record), history };
    });
  }
}

function setUp(divergeAt) {
  const worker = new DivergingWorker(divergeAt);
  const errors = [];
  const controller = new RunController({
    worker,
    nextFrame: () => new Promise((resolve) => setImmediate(resolve)),
    listener: { error: (error) => errors.push(error.message) },
  });
  return { worker, controller, errors };
}

const config = () => ({ scene: { id: 'pillar' }, settings: defaultSettings() });

test('playing stops at the step that diverged, without asking the core for more', async () => {
  const { controller, errors } = setUp(4);
  controller.open(config(), 0);
  await controller.settled();
  controller.play();
  await controller.settled();
  assert.equal(controller.run, 'idle');
  assert.equal(controller.shown.step, 4);
  assert.equal(controller.diverged, 'the time step is too large');
  assert.deepEqual(errors, []);
  // Play, step and run-to go nowhere from there.
  controller.play();
  controller.stepOnce();
  await controller.settled();
  controller.runTo(9);
  await controller.settled();
  assert.equal(controller.shown.step, 4);
  assert.deepEqual(errors, []);
});

test('a link past the blow-up replays to the step that diverged and shows it', async () => {
  const { controller, errors } = setUp(5);
  controller.open(config(), 12);
  await controller.settled();
  assert.equal(controller.shown.step, 5);
  assert.equal(controller.link().step, 5);
  assert.equal(controller.diverged, 'the time step is too large');
  assert.deepEqual(errors, []);
});

test('a run that did not blow up reports no divergence', async () => {
  const { controller } = setUp(100);
  controller.open(config(), 3);
  await controller.settled();
  assert.equal(controller.shown.step, 3);
  assert.equal(controller.diverged, null);
});
