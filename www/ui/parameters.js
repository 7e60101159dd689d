/**
 * @file The simulation settings a visitor can change, described once: their
 * range, their key in the URL hash and where they live in the settings
 * object the core takes (`Playground.defaultSettings()`). The sliders and the
 * hash both read this table, so a link can hold exactly what a slider can.
 */

/**
 * @typedef {object} Parameter
 * @property {string} key short name in the URL hash
 * @property {string} id element id stem of the control
 * @property {string} label
 * @property {string} unit shown after the value
 * @property {number} min
 * @property {number} max
 * @property {number} step slider step (ignored when `log`)
 * @property {boolean} [log] logarithmic slider
 * @property {boolean} [integer]
 * @property {boolean} [nullable] null means "the scene's value"
 * @property {string} help one sentence under the slider's title attribute
 * @property {(settings: any) => (number | null)} get
 * @property {(settings: any, value: number | null) => void} set
 */

/** @type {Parameter[]} */
export const PARAMETERS = [
  {
    key: 'perturb',
    id: 'perturb',
    label: 'Perturbation',
    unit: 'm',
    min: 0,
    max: 0.03,
    step: 0.001,
    help: 'Moves every free body sideways by this much, in a seeded random direction (paper section 8.5). Resets the scene.',
    get: (s) => s.perturb,
    set: (s, v) => {
      s.perturb = v;
    },
  },
  {
    key: 'dt',
    id: 'dt',
    label: 'Time step',
    unit: 's',
    min: 0.001,
    max: 0.1,
    step: 0,
    log: true,
    nullable: true,
    help: 'Length of one simulation step (paper section 8.7). Applies from the next step.',
    get: (s) => s.dt,
    set: (s, v) => {
      s.dt = v;
    },
  },
  {
    key: 'iters',
    id: 'iterations',
    label: 'Solver iterations',
    unit: '',
    min: 1,
    max: 1000,
    step: 1,
    integer: true,
    help: 'Gauss–Seidel sweeps per step; the paper forces 1000. Applies from the next step.',
    get: (s) => s.solver.iterations,
    set: (s, v) => {
      s.solver.iterations = v;
    },
  },
  {
    key: 'mu',
    id: 'friction',
    label: 'Friction μ',
    unit: '',
    min: 0,
    max: 1.5,
    step: 0.01,
    nullable: true,
    help: 'Coulomb friction coefficient of every contact. Applies from the next step.',
    get: (s) => s.solver.friction,
    set: (s, v) => {
      s.solver.friction = v;
    },
  },
  {
    key: 'eps',
    id: 'epsilon',
    label: 'Erosion ε (Closest points)',
    unit: 'm',
    min: 0.001,
    max: 0.05,
    step: 0.001,
    help: 'How far the Closest points method shrinks every body (paper section 6). Resets the scene when that method is on.',
    get: (s) => s.epsilon,
    set: (s, v) => {
      s.epsilon = v;
    },
  },
  {
    key: 'refine',
    id: 'refine',
    label: 'Refinement',
    unit: '',
    min: 0,
    max: 2,
    step: 1,
    integer: true,
    help: 'Splits every tetrahedron into 8, this many times (paper section 8.6). Resets the scene.',
    get: (s) => s.refine,
    set: (s, v) => {
      s.refine = v;
    },
  },
  {
    key: 'tol',
    id: 'tolerance',
    label: 'Angle tolerance',
    unit: '°',
    min: 0.1,
    max: 10,
    step: 0.1,
    help: 'A contact normal counts as correct when it is within this angle of a right normal. Applies from the next step.',
    get: (s) => s.angle_tolerance_deg,
    set: (s, v) => {
      s.angle_tolerance_deg = v;
    },
  },
];

/** The seed of the perturbation, a whole number (kept apart: it is a field, not a slider). */
export const SEED = { key: 'seed', min: 0, max: 4294967295 };

/**
 * Whether `value` is allowed for `parameter` (a finite number in range, a
 * whole number where required).
 * @param {Parameter} parameter
 * @param {number} value
 * @returns {boolean}
 */
export function isValid(parameter, value) {
  return Number.isFinite(value) && value >= parameter.min && value <= parameter.max && (!parameter.integer || Number.isInteger(value));
}

/**
 * A deep copy of a settings object (it is plain data).
 * @template T
 * @param {T} settings
 * @returns {T}
 */
export function cloneSettings(settings) {
  return JSON.parse(JSON.stringify(settings));
}
