/**
 * @file The main thread's side of the simulation worker: promise-based
 * requests, and recovery from a trapped core. The worker answers in request
 * order, so applying answers as they arrive always shows the worker's state
 * at that moment. A wasm panic leaves the
 * module in an undefined state (borrow flags held, memory half-updated), so
 * the worker is replaced by a fresh one and the caller rebuilds its state.
 */

/** An error from the core; `panic` tells a trapped module from a refusal. */
export class CoreError extends Error {
  /**
   * @param {string} message
   * @param {{panic?: boolean, fatal?: boolean}} [flags]
   */
  constructor(message, { panic = false, fatal = false } = {}) {
    super(message);
    this.name = 'CoreError';
    this.panic = panic;
    this.fatal = fatal;
  }
}

/** Owns the simulation worker; one instance per page. */
export class Session {
  /**
   * @param {URL} workerUrl
   * @param {{adopt?: boolean}} [options] adopt: take over the worker start-worker.js started (the page's own session)
   */
  constructor(workerUrl, { adopt = true } = {}) {
    this.workerUrl = workerUrl;
    this.adopt = adopt;
    this.nextId = 1;
    /**
     * The scene and settings of the last successful `load` (with the
     * settings of a later `remeasure`): what Compare's pool loads.
     * @type {{scene: object, settings: object} | null}
     */
    this.loaded = null;
    /** @type {Map<number, {resolve: (value: any) => void, reject: (error: Error) => void}>} */
    this.pending = new Map();
    /** Called after a panic replaced the worker; the caller reloads. */
    this.onRestart = () => {};
    this.spawn();
  }

  /**
   * Starts a worker (the first time, takes over the one start-worker.js
   * started while the page loaded) and routes its answers.
   */
  spawn() {
    const early = this.adopt ? adoptEarlyWorker(this.workerUrl) : null;
    this.worker = early?.worker ?? new Worker(this.workerUrl, { type: 'module' });
    this.worker.addEventListener('message', (event) => this.receive(event.data));
    /** @param {ErrorEvent} event */
    const failed = (event) => {
      // A module worker that cannot load (usually www/pkg/ not built yet)
      // reports here, without details.
      event.preventDefault();
      this.startFailure = new CoreError(
        `The simulation worker could not start${event.message ? ` (${event.message})` : ''}. ` +
          'If you opened www/ directly, build it first with "cargo xtask serve".',
        { fatal: true },
      );
      this.failAll(this.startFailure);
    };
    this.worker.addEventListener('error', failed);
    this.startFailure = null;
    if (early?.failure) failed(early.failure);
  }

  /** @param {any} message */
  receive(message) {
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    if (message.ok) {
      waiter.resolve(message.result);
      return;
    }
    const error = new CoreError(message.message, { panic: message.panic, fatal: message.fatal });
    waiter.reject(error);
    if (message.panic) this.restart();
  }

  /** @param {Error} error */
  failAll(error) {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  /**
   * Ends the worker for good; requests still waiting on it fail with `error`.
   * @param {Error} error
   */
  close(error) {
    this.worker.terminate();
    this.startFailure = error;
    this.failAll(error);
  }

  /** Replaces a trapped worker; requests still waiting on it fail. */
  restart() {
    this.worker.terminate();
    this.failAll(new CoreError('the simulation core was restarted after an internal error'));
    this.spawn();
    this.onRestart();
  }

  /**
   * Sends a request and resolves with the worker's answer.
   * @param {string} type
   * @param {object} [payload]
   * @returns {Promise<any>}
   */
  call(type, payload = {}) {
    const id = this.nextId++;
    if (this.startFailure) return Promise.reject(this.startFailure);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, type, ...payload });
    });
  }

  /**
   * The core's lists: scenes, methods, default settings, the settings
   * schema, feature kinds and the layouts of the contact and region buffers.
   * @returns {Promise<{scenes: any[], methods: any[], defaults: any, schema: any[], featureKinds: string[], contactLayout: Record<string, number>, regionLayout: Record<string, number>, presets: any[]}>}
   */
  catalogue() {
    return this.call('catalogue');
  }

  /**
   * A link's settings, read by the core.
   * @param {Array<[string, string]>} pairs [url_key, text]
   * @param {boolean} [link] false for a page opened without a link: the defaults, rather than what a link that names no solver meant
   * @returns {Promise<{settings: any, problems: string[]}>}
   */
  settingsFromPairs(pairs, link = true) {
    return this.call('settingsFromPairs', { pairs, link });
  }

  /**
   * @param {object} settings
   * @returns {Promise<Array<[string, string]>>} the pairs a link holds for `settings`
   */
  settingsToPairs(settings) {
    return this.call('settingsToPairs', { settings });
  }

  /**
   * Checks a typed value of one setting.
   * @param {string} id setting id
   * @param {string} text
   * @returns {Promise<{value: any} | {problem: string}>}
   */
  checkSetting(id, text) {
    // `id` names the request itself, so the setting travels as `setting`.
    return this.call('checkSetting', { setting: id, text });
  }

  /**
   * Loads a built-in scene ({id}) or a user's file ({text}) with `settings`,
   * at step 0. On failure the worker keeps the previous scene.
   * @param {{id?: string, text?: string}} scene
   * @param {object} settings
   */
  async load(scene, settings) {
    const result = await this.call('load', { scene, settings });
    this.loaded = { scene, settings };
    return result;
  }

  /**
   * @param {number} count
   * @param {number} budgetMs stop after this long (0: take every step)
   */
  step(count, budgetMs) {
    return this.call('step', { count, budgetMs });
  }

  /**
   * Judges the step held again with `settings`, which differ from the
   * loaded ones only in settings of the Measure stage, and keeps them.
   * @param {object} settings
   */
  async remeasure(settings) {
    const result = await this.call('remeasure', { settings });
    if (this.loaded) this.loaded = { ...this.loaded, settings };
    return result;
  }

  /** @returns {Promise<any[]>} the last step's contacts in full precision */
  contacts() {
    return this.call('contacts');
  }

  /** @param {string} method @param {number} steps */
  compareRow(method, steps) {
    return this.call('compareRow', { method, steps });
  }

  /** @param {{scene: string, settings: object, steps: number, warmup: number}} request */
  bench(request) {
    return this.call('bench', request);
  }
}

/**
 * The worker www/start-worker.js started for this page, once, if it runs
 * the same script.
 * @param {URL} workerUrl
 * @returns {{worker: Worker, failure: ErrorEvent | null} | null}
 */
function adoptEarlyWorker(workerUrl) {
  const scope = /** @type {any} */ (globalThis);
  const early = scope.contactlabEarlyWorker;
  scope.contactlabEarlyWorker = undefined;
  if (!early) return null;
  if (early.url !== workerUrl.href) {
    early.worker.terminate();
    return null;
  }
  return early;
}
