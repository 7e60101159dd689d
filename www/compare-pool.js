// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file Compare's pool of workers: the methods of a comparison run in
 * workers of their own, one per core but one (at least one), so that the
 * page's worker, which holds the view, runs none and several methods run at
 * once where there are cores for them. Each pool worker is the page's
 * worker script with its own core; it loads the scene and settings the page
 * last loaded (`Session.loaded`), then takes methods from one shared queue
 * until it is empty. Cancel terminates every pool worker at once; the next
 * comparison starts fresh ones.
 */

import { CoreError, Session } from './session.js';

/** One answer of the pool: a method's record, or why it has none. */
/** @typedef {{id: string, record: any, error: string | null}} PoolRow */

export class ComparePool {
  /**
   * @param {Session} page the page's session: its worker script and what it last loaded
   * @param {number} [size] workers; by default one per core but one
   */
  constructor(page, size = ComparePool.defaultSize()) {
    this.page = page;
    this.size = size;
    /** @type {{session: Session, loaded: string | null}[]} */
    this.workers = [];
    this.cancelled = false;
  }

  /** One worker per core but one, and at least one. */
  static defaultSize() {
    const cores = Number(globalThis.navigator?.hardwareConcurrency) || 2;
    return Math.max(1, cores - 1);
  }

  /**
   * Runs `methods` to `steps` from step 0 of the page's loaded scene and
   * settings; resolves with a row per method in their order (those not run
   * before a cancel are left out).
   * @param {string[]} methods
   * @param {number} steps
   * @param {(done: number) => void} onProgress called as each row arrives
   * @returns {Promise<PoolRow[]>}
   */
  async run(methods, steps, onProgress) {
    const load = this.page.loaded;
    if (!load) throw new Error('no scene is loaded to compare on');
    this.cancelled = false;
    // A request the page made reaches here as its own copy: it is compared
    // as JSON, so an unchanged scene is not loaded again.
    const key = JSON.stringify(load);
    while (this.workers.length < Math.min(this.size, methods.length)) this.workers.push(this.spawn());
    /** @type {(PoolRow | undefined)[]} */
    const rows = new Array(methods.length);
    let next = 0;
    let done = 0;
    const work = async (/** @type {{session: Session, loaded: string | null}} */ worker) => {
      while (!this.cancelled && next < methods.length) {
        const index = next++;
        const id = methods[index];
        try {
          if (worker.loaded !== key) {
            await worker.session.load(load.scene, load.settings);
            worker.loaded = key;
          }
          rows[index] = { id, record: await worker.session.compareRow(id, steps), error: null };
        } catch (error) {
          if (this.cancelled) return;
          rows[index] = { id, record: null, error: error instanceof Error ? error.message : String(error) };
        }
        done += 1;
        onProgress(done);
      }
    };
    await Promise.all(this.workers.map(work));
    return /** @type {PoolRow[]} */ (rows.filter((row) => row !== undefined));
  }

  /** Stops every pool worker at once; their rows in progress are dropped. */
  cancel() {
    this.cancelled = true;
    for (const worker of this.workers) worker.session.close(new CoreError('cancelled'));
    this.workers = [];
  }

  /** @returns {{session: Session, loaded: string | null}} */
  spawn() {
    const worker = { session: new Session(this.page.workerUrl, { adopt: false }), loaded: /** @type {string | null} */ (null) };
    // A trapped core is replaced by a fresh one, which holds no scene.
    worker.session.onRestart = () => {
      worker.loaded = null;
    };
    return worker;
  }
}
