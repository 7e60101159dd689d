/**
 * @file The run controller: decides which requests go to the simulation
 * worker so that what the page shows is always the state its link names,
 * and says what to show. It never touches the DOM (the page listens to it;
 * `node --test` drives it with a fake worker).
 *
 * Its one rule: a shown frame is always the scene, with every setting as the
 * link names them, simulated from step 0 to the shown step. So any change of
 * the scene or of a setting is a *replay*: load afresh with the new
 * settings, then step to the step the page was at (or, for a newly opened
 * scene, to the step asked for). During a replay the old frame stays on
 * screen (the page dims and labels it) and only progress is reported; the
 * new frame is shown when the replay reaches its step. With nothing on
 * screen yet (a link just opened) and a replay still running half a second
 * after its load, its step 0 is shown, so a link to a far step draws the
 * scene while the replay runs on (a short one shows only its last frame). Cancelling stops at
 * the step reached and shows that. A newer request supersedes a replay that
 * is still running: only the latest request's result is ever shown.
 *
 * Moving forward with the same settings (play, step, run to a later step) is
 * an *advance*: every frame that arrives is shown, since each is a state the
 * link can name.
 *
 * A change of settings that only judge the contacts (the Measure stage: the
 * angle tolerance, the oracle) changes nothing that is simulated, so the
 * worker judges the step it holds again instead of replaying, and a play
 * goes on.
 *
 * One request is in flight at a time, so the worker is never flooded and a
 * superseded request costs at most one slice of work.
 */

/** A "run to step" slice: long enough to amortise messages, short enough to stop promptly. */
export const RUN_SLICE_MS = 100;

/**
 * A replay with nothing on screen that has run this long since its load
 * shows its step 0 meanwhile: long enough that a short replay (the default
 * page's three steps) shows only its last frame, short enough to count as
 * at once.
 */
export const SHOW_INITIAL_AFTER_MS = 500;

/**
 * What to simulate: a scene and its settings. The page may keep more with it
 * (a file's title); the controller reads only these two, and compares
 * configurations by identity: a new object is a new configuration.
 * @typedef {object} Config
 * @property {{id: string} | {text: string}} scene
 * @property {Record<string, any>} settings the core's flat settings object
 */

/**
 * The worker requests the controller makes (www/session.js in the page).
 * @typedef {object} RunWorker
 * @property {(scene: Config['scene'], settings: Record<string, any>) => Promise<{info: any, bodies: any[], frame: Frame}>} load
 *   a fresh simulation at step 0; on failure the worker keeps what it held
 * @property {(count: number, budgetMs: number) => Promise<{frame: Frame, history: Array<[number, number, number]>}>} step
 *   up to `count` steps, fewer when `budgetMs` (> 0) runs out
 * @property {(settings: Record<string, any>) => Promise<{frame: Frame}>} [remeasure]
 *   judges the step held again with `settings` (which differ from the loaded ones only where
 *   `remeasurable` allows) and keeps them for the steps to come
 */

/**
 * @typedef {object} Frame
 * @property {number} step
 * @property {any} record the step record, null at step 0
 * @property {Float32Array} transforms
 * @property {Float32Array} contacts
 * @property {Float32Array} [regions] the contact regions (`regionBuffer()`; empty for the paper's local methods)
 * @property {string} [ended] why the run goes no further: a contact file's run is at its file's last step, or the core refused the next step (a detection past its budget)
 */

/**
 * What is on screen: a configuration at a step, with the scene data (info
 * and meshes) of its load and the contact count of every step so far.
 * @typedef {object} Shown
 * @property {Config} config
 * @property {number} step
 * @property {Frame} frame
 * @property {{info: any, bodies: any[]}} scene
 * @property {Array<[number, number, number]>} history
 */

/**
 * The page's side. Every method is optional.
 * @typedef {object} RunListener
 * @property {(shown: Shown) => void} [scene] a new configuration is shown (meshes may differ)
 * @property {(shown: Shown) => void} [frame] a new frame of the configuration on screen
 * @property {(run: 'idle' | 'playing' | 'replaying') => void} [run] the run state changed
 * @property {(progress: {config: Config, reached: number, goal: number | null}) => void} [progress] a replay moved on
 * @property {(error: any, context: {during: 'load' | 'step', config: Config}) => void} [error]
 *   a load or a step failed; after a failed load the page goes back to what it showed
 * @property {() => void} [link] what the link should say changed (see `link()`)
 */

/**
 * What the controller is working toward.
 * @typedef {object} Target
 * @property {Config} config
 * @property {number | 'measure' | 'reached'} step 'measure': the scene's
 *   measure step, known after the load; 'reached': wherever the worker is
 *   once the request in flight returns (a pause or a cancel)
 * @property {'replay' | 'advance'} mode
 * @property {boolean} playing step on, one frame at a time, until paused
 */

/** Drives the worker toward the state the link names and reports what to show. */
export class RunController {
  /**
   * @param {{worker: RunWorker, listener?: RunListener, nextFrame?: () => Promise<void>, sliceMs?: number,
   *   showInitialAfterMs?: number, now?: () => number,
   *   remeasurable?: (from: Record<string, any>, to: Record<string, any>) => boolean}} options
   *   nextFrame: resolves when the display can take the next frame while playing;
   *   now: a clock in milliseconds;
   *   remeasurable: whether settings `to` differ from `from` only in settings that judge the
   *   contacts (the worker's `remeasure` takes them without a replay)
   */
  constructor({
    worker,
    listener = {},
    nextFrame = () => new Promise((resolve) => setTimeout(resolve, 0)),
    sliceMs = RUN_SLICE_MS,
    showInitialAfterMs = SHOW_INITIAL_AFTER_MS,
    now = () => performance.now(),
    remeasurable = () => false,
  }) {
    this.worker = worker;
    this.remeasurable = remeasurable;
    this.listener = listener;
    this.nextFrame = nextFrame;
    this.sliceMs = sliceMs;
    this.showInitialAfterMs = showInitialAfterMs;
    this.now = now;
    /** @type {Target | null} */
    this.target = null;
    /** What the worker holds. @type {{config: Config | null, step: number, frame: Frame | null, scene: any, history: Array<[number, number, number]>}} */
    this.held = { config: null, step: 0, frame: null, scene: null, history: [] };
    /** @type {Shown | null} */
    this.shown = null;
    /** Bumped when the worker is replaced: answers of the old one are void. */
    this.generation = 0;
    /** @type {Promise<void> | null} */
    this.loop = null;
    this.dirty = false;
    /** @type {'idle' | 'playing' | 'replaying'} */
    this.reportedRun = 'idle';
    /** Step 0 of the last load and when it arrived, while nothing is shown. */
    this.initial = null;
  }

  // ---- requests -------------------------------------------------------

  /**
   * Shows a configuration from scratch at `step`: a newly picked scene, a
   * newly opened file, a link.
   * @param {Config} config
   * @param {number | 'measure'} step 'measure': the scene's measure step
   */
  open(config, step) {
    this.retarget({ config, step, mode: 'replay', playing: false });
  }

  /**
   * Shows another configuration (usually new settings) at the step the page
   * is at, replaying from step 0 and stopping a play; settings that only
   * judge the contacts are judged again at the step on screen, and a play
   * goes on.
   * @param {Config} config
   */
  change(config) {
    const t = this.target;
    const from = this.config;
    if (this.shown && this.run !== 'replaying' && from && this.canRemeasure(from, config)) {
      const step = t && t.mode === 'advance' ? t.step : this.shown.step;
      this.retarget({ config, step, mode: 'advance', playing: t?.playing ?? false });
      return;
    }
    this.retarget({ config, step: this.currentStep(), mode: 'replay', playing: false });
  }

  /**
   * @param {Config} from
   * @param {Config} to
   * @returns {boolean} whether the worker can turn a simulation of `from` into one of `to` by judging its contacts again
   */
  canRemeasure(from, to) {
    return Boolean(this.worker.remeasure) && from.scene === to.scene && this.remeasurable(from.settings, to.settings);
  }

  /** @returns {string | null} why the shown run stopped, when the core found it diverged */
  get diverged() {
    return this.shown?.frame.record?.diverged ?? null;
  }

  /** @returns {string | null} why the shown run goes no further, when it is at its contact file's last step */
  get ended() {
    return this.shown?.frame.ended ?? null;
  }

  /** Plays from the shown step until paused. Ignored during a replay or before anything is shown. */
  play() {
    if (!this.shown || this.run === 'replaying') return;
    this.retarget({ config: this.shown.config, step: this.shown.step, mode: 'advance', playing: true });
  }

  /** Stops playing or running forward after the step in hand; the page stays at the step reached. */
  pause() {
    const t = this.target;
    if (!t || t.mode !== 'advance') return;
    t.playing = false;
    t.step = 'reached';
    this.kick();
  }

  /** One step forward. Ignored during a replay. */
  stepOnce() {
    if (!this.shown || this.run === 'replaying') return;
    const t = this.target;
    // A second click before the first step arrived asks for one more.
    const from = t && t.mode === 'advance' && !t.playing && typeof t.step === 'number' ? Math.max(t.step, this.shown.step) : this.shown.step;
    this.retarget({ config: this.shown.config, step: from + 1, mode: 'advance', playing: false });
  }

  /**
   * Runs to `step`: forward frame by frame when it lies ahead, else a replay
   * from step 0. During a replay, it changes the replay's goal.
   * @param {number} step
   */
  runTo(step) {
    const t = this.target;
    if (t && t.mode === 'replay') {
      this.retarget({ ...t, step });
      return;
    }
    if (!this.shown) return;
    const forward = step >= this.shown.step;
    this.retarget({ config: this.shown.config, step, mode: forward ? 'advance' : 'replay', playing: false });
  }

  /** Back to step 0 of the configuration on screen (a replay, though a short one). */
  reset() {
    this.runTo(0);
  }

  /** Stops a replay (or a run forward) at the step reached, which is then shown. */
  cancel() {
    const t = this.target;
    if (!t) return;
    t.playing = false;
    t.step = 'reached';
    this.kick();
  }

  /**
   * The worker was replaced after the core trapped: rebuild what was on
   * screen (a replay to the shown step).
   */
  workerRestarted() {
    this.generation++;
    this.held = { config: null, step: 0, frame: null, scene: null, history: [] };
    if (this.shown) this.retarget({ config: this.shown.config, step: this.shown.step, mode: 'replay', playing: false });
    else this.retarget(null);
  }

  // ---- state ----------------------------------------------------------

  /** @returns {'idle' | 'playing' | 'replaying'} */
  get run() {
    const t = this.target;
    if (!t) return 'idle';
    if (t.mode === 'replay') return 'replaying';
    if (t.playing || t.step === 'reached') return 'playing';
    if (!this.shown || this.shown.config !== t.config || this.shown.step !== t.step) return 'playing';
    return 'idle';
  }

  /** @returns {Config | null} the latest configuration asked for (the one the controls show) */
  get config() {
    return this.target?.config ?? this.shown?.config ?? null;
  }

  /**
   * What the link should say: during a replay its configuration and goal
   * (step null while a 'measure' goal is not known yet), otherwise what is
   * shown.
   * @returns {{config: Config, step: number | null} | null}
   */
  link() {
    const t = this.target;
    if (t && t.mode === 'replay') return { config: t.config, step: typeof t.step === 'number' ? t.step : null };
    return this.shown ? { config: this.shown.config, step: this.shown.step } : null;
  }

  /** @returns {Promise<void>} resolves once the worker has nothing more to do */
  async settled() {
    while (this.loop) await this.loop;
  }

  // ---- the loop -------------------------------------------------------

  /** @param {Target | null} target */
  retarget(target) {
    this.target = target;
    this.report();
    this.listener.link?.();
    this.kick();
  }

  /**
   * The step the page is at, for a replay of new settings: a replay's goal,
   * else the step on screen (a run forward stops there).
   * @returns {number | 'measure'}
   */
  currentStep() {
    const t = this.target;
    if (t && t.mode === 'replay') return t.step === 'reached' ? (this.held.config === t.config ? this.held.step : 0) : t.step;
    return this.shown?.step ?? 0;
  }

  kick() {
    this.dirty = true;
    if (this.loop) return;
    this.loop = this.drive().finally(() => {
      this.loop = null;
      this.report();
    });
  }

  async drive() {
    for (;;) {
      this.dirty = false;
      const more = await this.work();
      if (!more && !this.dirty) return;
    }
  }

  /**
   * Makes at most one worker request toward the target.
   * @returns {Promise<boolean>} false when the target is reached
   */
  async work() {
    const t = this.target;
    if (!t) return false;
    const held = this.held;
    const generation = this.generation;
    if (held.config === t.config && (t.step === 'measure' || t.step === 'reached')) {
      t.step = t.step === 'measure' ? held.scene.info.measure_step : held.step;
      this.listener.link?.();
    }
    if (held.config !== null && held.config !== t.config && held.frame && this.canRemeasure(held.config, t.config)) {
      let result;
      try {
        result = await /** @type {NonNullable<RunWorker['remeasure']>} */ (this.worker.remeasure)(t.config.settings);
      } catch (error) {
        return this.failed(error, t, 'step', generation);
      }
      if (generation !== this.generation) return true;
      held.config = t.config;
      held.frame = result.frame;
      if (this.target === t && t.mode === 'advance') this.show();
      return true;
    }
    if (held.config !== t.config || (!t.playing && typeof t.step === 'number' && held.step > t.step)) {
      this.report();
      this.progress();
      let result;
      try {
        result = await this.worker.load(t.config.scene, t.config.settings);
      } catch (error) {
        return this.failed(error, t, 'load', generation);
      }
      if (generation !== this.generation) return true;
      this.held = { config: t.config, step: result.frame.step, frame: result.frame, scene: { info: result.info, bodies: result.bodies }, history: [] };
      // Kept while nothing is on screen: a replay that takes long shows it
      // meanwhile.
      this.initial = this.shown ? null : { held: { ...this.held }, at: this.now() };
      return true;
    }
    // The core pauses a run that blew up at the step that diverged (its
    // record says why) and refuses to go on: so does the controller; and
    // the same at a contact file's last step (the worker says why).
    if ((held.frame?.record?.diverged || held.frame?.ended) && (t.playing || (typeof t.step === 'number' && t.step > held.step))) {
      t.playing = false;
      t.step = held.step;
    }
    const goal = t.playing ? held.step + 1 : /** @type {number} */ (t.step);
    if (held.step < goal) {
      let result;
      try {
        result = await this.worker.step(goal - held.step, t.playing ? 0 : this.sliceMs);
      } catch (error) {
        return this.failed(error, t, 'step', generation);
      }
      if (generation !== this.generation) return true;
      held.step = result.frame.step;
      held.frame = result.frame;
      held.history = [...held.history, ...result.history];
      // A contact file with its own poses has only its own steps: one step
      // may go past the goal (from step 0 to the file's step 3). The step
      // reached is the goal then; loading again to reach the one asked for
      // would land there again.
      if (this.target === t && !t.playing && typeof t.step === 'number' && held.step > t.step) {
        t.step = held.step;
        this.listener.link?.();
      }
      if (this.target === t && t.mode === 'advance') {
        this.show();
        if (t.playing) await this.nextFrame();
      } else {
        // Step 0 of the configuration asked for is a state its link names:
        // better than a blank view for the length of a long replay.
        const initial = this.initial;
        if (!this.shown && this.target === t && initial?.held.config === held.config && held.step < goal && this.now() - initial.at >= this.showInitialAfterMs) {
          this.show(initial.held);
          this.initial = null;
        }
        this.progress();
      }
      return true;
    }
    if (this.target !== t) return true;
    const shown = this.shown;
    if (!shown || shown.config !== held.config || shown.step !== held.step || shown.frame !== held.frame) this.show();
    t.mode = 'advance';
    this.report();
    this.listener.link?.();
    return false;
  }

  /**
   * @param {any} error
   * @param {Target} t the target the failed request worked for
   * @param {'load' | 'step'} during
   * @param {number} generation
   * @returns {boolean} whether the loop goes on
   */
  failed(error, t, during, generation) {
    this.listener.error?.(error, { during, config: t.config });
    // A trapped core: the restart already set the target to rebuild.
    if (generation !== this.generation || this.target !== t) return true;
    if (during === 'load') {
      // The worker keeps what it held; the page goes back to what it showed.
      if (this.shown) this.retarget({ config: this.shown.config, step: this.shown.step, mode: 'replay', playing: false });
      else this.retarget(null);
      return true;
    }
    // After a failed step the worker's state is unknown: rebuild the last
    // step that worked, and stay there.
    const lastGood = this.held.step;
    this.held = { config: null, step: 0, frame: null, scene: null, history: [] };
    this.retarget({ config: t.config, step: lastGood, mode: 'replay', playing: false });
    return true;
  }

  /**
   * Puts what the worker holds on screen (or an earlier state of its
   * configuration, kept from its load).
   */
  show(held = this.held) {
    const sceneChanged = !this.shown || this.shown.config !== held.config || this.shown.scene !== held.scene;
    this.shown = { config: /** @type {Config} */ (held.config), step: held.step, frame: /** @type {Frame} */ (held.frame), scene: held.scene, history: held.history };
    if (sceneChanged) this.listener.scene?.(this.shown);
    else this.listener.frame?.(this.shown);
    this.report();
    this.listener.link?.();
  }

  progress() {
    const t = this.target;
    if (!t || t.mode !== 'replay') return;
    const reached = this.held.config === t.config ? this.held.step : 0;
    this.listener.progress?.({ config: t.config, reached, goal: typeof t.step === 'number' ? t.step : null });
  }

  /** Tells the listener when the run state changed. */
  report() {
    const run = this.run;
    if (run === this.reportedRun) return;
    this.reportedRun = run;
    this.listener.run?.(run);
  }
}
