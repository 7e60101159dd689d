// A stand-in for the wasm core's settings registry and for the simulation
// worker, written to the facade's contract (docs/design/page.md, "The
// boundary between Rust and JavaScript"; src/web/mod.rs), so the page's state
// modules can be tested without wasm or a browser. It is deliberately small:
// a schema of the shape the facade's `settingsSchema` gives, and a
// "simulation" whose numbers depend on the scene, every setting and the step,
// so a test can tell which configuration a frame came from.

export const METHOD_IDS = ['closest-points', 'volume-sat', 'surface-sat', 'opposing', 'reference'];

/** A settings schema of the contract's shape (a subset of the real one). */
export const SCHEMA = [
  { id: 'method', label: 'Method', unit: '', kind: 'method', min: null, max: null, default: 'opposing', log: false, nullable: false, url_key: 'method' },
  { id: 'perturb', label: 'Perturbation', unit: 'm', kind: 'number', min: 0, max: 0.03, default: 0, log: false, nullable: false, url_key: 'perturb' },
  { id: 'seed', label: 'Seed', unit: '', kind: 'integer', min: 0, max: 4294967295, default: 1, log: false, nullable: false, url_key: 'seed' },
  { id: 'dt', label: 'Time step', unit: 's', kind: 'number', min: 0.0001, max: 0.1, default: null, log: true, nullable: true, url_key: 'dt' },
  { id: 'iterations', label: 'Solver iterations', unit: '', kind: 'integer', min: 1, max: 1000, default: 1000, log: false, nullable: false, url_key: 'iters' },
  { id: 'mu', label: 'Friction', unit: '', kind: 'number', min: 0, max: 1.5, default: null, log: false, nullable: true, url_key: 'mu' },
  { id: 'epsilon', label: 'Erosion', unit: 'm', kind: 'number', min: 0.001, max: 0.05, default: 0.01, log: false, nullable: false, url_key: 'eps' },
  { id: 'refine', label: 'Refinement', unit: '', kind: 'integer', min: 0, max: 2, default: 0, log: false, nullable: false, url_key: 'refine' },
  { id: 'tol_deg', label: 'Angle tolerance', unit: '°', kind: 'number', min: 0.1, max: 10, default: 1, log: false, nullable: false, url_key: 'tol', stage: 'measure' },
  { id: 'warm_start', label: 'Warm start', unit: '', kind: 'bool', min: null, max: null, default: false, log: false, nullable: false, url_key: 'warm' },
  { id: 'solver', label: 'Solver', unit: '', kind: 'choice', choices: ['accelerated', 'printed', 'paper-code'], min: null, max: null, default: 'accelerated', log: false, nullable: false, url_key: 'solver' },
];

/** @returns {Record<string, any>} */
export function defaultSettings() {
  return Object.fromEntries(SCHEMA.map((entry) => [entry.id, entry.default]));
}

/**
 * Parses one setting's text as the contract says the core does.
 * @returns {any} the value; throws an Error worded like the CLI otherwise
 */
export function checkSetting(id, text) {
  const entry = SCHEMA.find((e) => e.id === id);
  if (!entry) throw new Error(`unknown setting "${id}"`);
  const trimmed = text.trim();
  if (entry.kind === 'method') {
    if (METHOD_IDS.includes(trimmed)) return trimmed;
    throw new Error(`${entry.url_key}: no method is called "${text}" (methods: ${METHOD_IDS.join(', ')})`);
  }
  if (entry.kind === 'choice') {
    if (entry.choices.includes(trimmed)) return trimmed;
    throw new Error(`${entry.url_key}: the ${entry.label.toLowerCase()} must be one of ${entry.choices.join(', ')}, got "${text}"`);
  }
  if (entry.kind === 'bool') {
    if (trimmed === '1' || trimmed === 'true') return true;
    if (trimmed === '0' || trimmed === 'false') return false;
    throw new Error(`${entry.url_key}: expected 0 or 1, got ${text}`);
  }
  if (trimmed === '' && entry.nullable) return null;
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(value) || value < entry.min || value > entry.max || (entry.kind === 'integer' && !Number.isInteger(value))) {
    throw new Error(`${entry.url_key}: the ${entry.label.toLowerCase()} must be from ${entry.min} to ${entry.max}${entry.unit ? ` ${entry.unit}` : ''}, got ${text}`);
  }
  return value;
}

/**
 * @param {Array<[string, string]>} pairs
 * @param {boolean} [link] whether they come from a link, whose missing solver means the printed one (as the core reads it)
 */
export function settingsFromPairs(pairs, link = true) {
  const settings = { ...defaultSettings(), ...(link ? { solver: 'printed' } : {}) };
  const problems = [];
  for (const [key, text] of pairs) {
    const entry = SCHEMA.find((e) => e.url_key === key);
    if (!entry) continue;
    try {
      settings[entry.id] = checkSetting(entry.id, text);
    } catch (error) {
      problems.push(error.message);
    }
  }
  return { settings, problems };
}

/** @param {Record<string, any>} settings @returns {Array<[string, string]>} */
export function settingsToPairs(settings) {
  const pairs = [];
  for (const entry of SCHEMA) {
    const value = settings[entry.id];
    // The method and the solver always, as the core writes them.
    if (entry.id !== 'method' && entry.id !== 'solver' && value === entry.default) continue;
    if (value === null) continue;
    pairs.push([entry.url_key, entry.kind === 'bool' ? (value ? '1' : '0') : String(value)]);
  }
  return pairs;
}

/** The fake core as the page's worker offers it: every answer a promise. */
export const fakeCore = {
  settingsFromPairs: async (pairs) => settingsFromPairs(pairs),
  settingsToPairs: async (settings) => settingsToPairs(settings),
  checkSetting: async (id, text) => checkSetting(id, text),
};

/** Each scene's measure step, as `sceneInfo()` reports it. */
export const MEASURE_STEPS = { pillar: 3, wall: 5, spikes: 2 };

/**
 * The contact count the fake simulation reports: a function of the scene,
 * every setting and the step, so a frame names what produced it.
 */
export function fakeCount(sceneId, settings, step) {
  const text = `${sceneId}|${JSON.stringify(settings, Object.keys(settings).sort())}|${step}`;
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash % 1000;
}

/**
 * A fake simulation worker with the `load` / `step` requests of
 * www/session.js. Answers arrive asynchronously, one request at a time, and
 * a budgeted `step` takes at most `stepsPerSlice` steps, so a replay spans
 * several requests and a test can act in the middle of it.
 */
export class FakeWorker {
  constructor({ stepsPerSlice = 1 } = {}) {
    this.stepsPerSlice = stepsPerSlice;
    /** @type {Array<{type: string, [key: string]: any}>} */
    this.calls = [];
    this.sim = null;
    /** Scene ids whose load fails (as a broken scene file does). */
    this.broken = new Set();
    /** A step index at which stepping fails once, or null. */
    this.failAtStep = null;
    /** The last step of a contact file the run plays, or null: past it no step is taken and the frame says why (as www/worker/worker.js). */
    this.lastFileStep = null;
    /** The steps of a contact file with its own poses, or null: a step goes to the file's next one (as the core does). */
    this.fileSteps = null;
    this.inFlight = 0;
    this.maxInFlight = 0;
  }

  async answer(work) {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    this.inFlight--;
    return work();
  }

  load(scene, settings) {
    this.calls.push({ type: 'load', scene, settings: { ...settings } });
    return this.answer(() => {
      const id = scene.id ?? 'file';
      if (this.broken.has(id)) throw new Error(`the scene "${id}" is broken`);
      this.sim = { id, settings: { ...settings }, step: 0 };
      return { info: { id, measure_step: MEASURE_STEPS[id] ?? 1 }, bodies: [{ id }], frame: this.frame(null) };
    });
  }

  step(count, budgetMs) {
    this.calls.push({ type: 'step', count, budgetMs });
    return this.answer(() => {
      const take = budgetMs > 0 ? Math.min(count, this.stepsPerSlice) : Math.max(1, count);
      const history = [];
      let record = null;
      for (let i = 0; i < take; i++) {
        if (this.lastFileStep !== null && this.sim.step >= this.lastFileStep) {
          const frame = this.frame(this.sim.step === 0 ? null : { step: this.sim.step, count: fakeCount(this.sim.id, this.sim.settings, this.sim.step), method: this.sim.settings.method });
          return { frame: { ...frame, ended: `the file has no contacts after step ${this.sim.step}` }, history };
        }
        if (this.failAtStep === this.sim.step + 1) {
          this.failAtStep = null;
          throw new Error(`step ${this.sim.step + 1} failed`);
        }
        this.sim.step = this.fileSteps ? (this.fileSteps.find((step) => step > this.sim.step) ?? this.sim.step + 1) : this.sim.step + 1;
        record = { step: this.sim.step, count: fakeCount(this.sim.id, this.sim.settings, this.sim.step), method: this.sim.settings.method };
        history.push([record.step, record.count]);
      }
      return { frame: this.frame(record), history };
    });
  }

  /**
   * Judges the step held again with `settings` (the page sends only
   * changes of the Measure stage): the record a replay with them would end
   * at, the step unchanged; later steps use them.
   */
  remeasure(settings) {
    this.calls.push({ type: 'remeasure', settings: { ...settings } });
    return this.answer(() => {
      this.sim.settings = { ...settings };
      const step = this.sim.step;
      const record = step === 0 ? null : { step, count: fakeCount(this.sim.id, this.sim.settings, step), method: this.sim.settings.method };
      return { frame: this.frame(record) };
    });
  }

  frame(record) {
    return { step: this.sim.step, record, transforms: new Float32Array(0), contacts: new Float32Array(0) };
  }
}
