// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file The `#bench` mode that `cargo xtask bench` drives:
 * `#bench&scene=pillar&method=opposing&steps=20&iters=1000&solver=printed` runs, in the
 * worker, 2 untimed warm-up steps and then `steps` timed ones, and writes
 *
 *   {scene, method, mesher, solver, steps, ms_broad: [..], ms_method: [..], ms_solver: [..], first_frame_ms}
 *
 * into `<pre id="bench-result" data-done="true">` (with an `error` key
 * instead of the arrays when the run fails).
 */

const WARMUP_STEPS = 2;

/**
 * @param {{session: import('./session.js').Session,
 *   state: import('./state/page-state.js').PageState,
 *   bench: import('./state/page-state.js').BenchRequest,
 *   firstFrame: Promise<void>}} options
 */
export async function runBench({ session, state, bench, firstFrame }) {
  const pre = document.createElement('pre');
  pre.id = 'bench-result';
  pre.className = 'bench-result';
  pre.dataset.done = 'false';
  pre.textContent = `Benchmark: ${state.scene}, ${state.settings.method}, ${bench.steps} steps…`;
  document.querySelector('.readout-panel')?.prepend(pre);

  await firstFrame;
  const result = { scene: state.scene, method: state.settings.method, mesher: state.settings.mesher ?? '', solver: state.settings.solver, steps: bench.steps };
  try {
    const timings = await session.bench({ scene: state.scene, settings: state.settings, steps: bench.steps, warmup: WARMUP_STEPS });
    Object.assign(result, timings);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  result.first_frame_ms = Number(document.body.dataset.firstFrameMs);
  pre.textContent = JSON.stringify(result);
  pre.dataset.done = 'true';
}
