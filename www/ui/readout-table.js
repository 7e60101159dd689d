/**
 * @file The live readout of the current step. Every number appears twice:
 * formatted for a person, and under "Exact values" as an element with a
 * `data-readout` attribute named like the CLI's JSON key, holding the plain
 * decimal text the CLI's JSON gives (`String(value)`; "null" where the CLI
 * writes null). The browser tests compare those texts with the CLI.
 */

/** The CLI's keys, in readout order; `min_contacts` comes from the scene. */
export const READOUT_KEYS = [
  'step', 'time', 'count', 'min_contacts', 'correct', 'quality', 'coverage', 'area_coverage', 'excess', 'penetration', 'min_depth',
  'kinetic_energy', 'max_displacement', 'standing', 'iterations', 'residual', 'indeterminate', 'ms_broad', 'ms_method', 'ms_solver',
];

/**
 * Builds the readout's elements inside `container`.
 * @param {HTMLElement} container
 */
export function buildReadout(container) {
  const rows = [
    ['step', 'Step', 'step'],
    ['time', 'Time', null],
    ['count', 'Contacts', 'count'],
    ['quality', 'Quality', 'quality'],
    ['coverage', 'Coverage', 'coverage'],
    ['excess', 'Excess', 'excess'],
    // The bodies' overlap, measured by the core apart from the method; the
    // method's own depths can be far off, so they are labelled as its.
    ['penetration', 'Deepest penetration', 'penetration'],
    ['min_depth', "Method's depth estimate", 'min_depth'],
    ['kinetic_energy', 'Kinetic energy', 'dynamics'],
    ['max_displacement', 'Largest displacement', 'dynamics'],
    ['solver', 'Solver', 'solver'],
    ['timing', 'Milliseconds', 'timing'],
  ];
  container.innerHTML = `
    <h2>Current step</h2>
    <dl class="readout-list">
      ${rows
        .map(
          ([id, label, help]) => `<div class="readout-row" id="row-${id}">
            <dt>${label}${help ? ` <button type="button" class="help-link" data-help="measure:${help}" aria-label="About ${label.toLowerCase()}">?</button>` : ''}</dt>
            <dd id="human-${id}">—</dd>
          </div>`,
        )
        .join('')}
    </dl>
    <p id="pillar-status" class="pillar-status" hidden></p>
    <details class="exact">
      <summary>Exact values (as <code>contactlab run --json</code> prints them)</summary>
      <table>
        ${READOUT_KEYS.map((key) => `<tr><th scope="row">${key}</th><td><code data-readout="${key}"></code></td></tr>`).join('')}
      </table>
    </details>`;
}

/**
 * Why a scene has no coverage number, by its oracle's type.
 * @type {Record<string, string>}
 */
const NO_COVERAGE = {
  up: 'not defined for the Pillar: every joint has one right normal (straight up), so there is nothing to cover. The paper measures coverage in the small cases (table 8).',
  none: 'this scene has no oracle: nobody knows its right normals.',
};

/**
 * "48 of 64 normals right (75.0 %)", from the record's `correct` and `count`.
 * @param {any} record
 * @returns {string | null} null when the scene has no oracle
 */
export function qualitySentence(record) {
  if (record.quality === null || record.quality === undefined) return record.count === 0 ? 'no contacts' : null;
  const correct = record.correct ?? Math.round((record.quality * record.count) / 100);
  return `${correct} of ${record.count} ${record.count === 1 ? 'normal' : 'normals'} right (${record.quality.toFixed(1)} %)`;
}

/**
 * The one line shown over the view (and kept when the panels are out of
 * sight, on a phone or in presentation mode).
 * @param {any} record the step record, null at step 0
 * @param {number} step
 * @param {{toleranceDeg?: number}} [options]
 * @returns {string}
 */
export function headlineText(record, step, { toleranceDeg = NaN } = {}) {
  if (!record) return `Step ${step} · no contacts yet`;
  const quality = qualitySentence(record);
  const parts = [`Step ${record.step}`, `${trim(record.time, 4)} s`, quality ?? `${record.count} contacts`];
  if (quality && record.count > 0 && Number.isFinite(toleranceDeg)) parts[2] += ` within ${Number(toleranceDeg.toPrecision(3))}°`;
  // A method that cannot judge a pair says why ("not applicable: <body> is not convex").
  parts.push(...(record.not_applicable ?? []));
  if (record.indeterminate > 0) parts.push(`${record.indeterminate} refused: indeterminate normal`);
  return parts.join(' · ');
}

/**
 * Shows one step.
 * @param {HTMLElement} container
 * @param {any} record the step record, null at step 0
 * @param {number} step the simulation's step index
 * @param {{min_contacts: number | null, oracle: string} | null} info
 * @param {{toleranceDeg?: number, dt?: number | null}} [options] the angle
 *   tolerance for "right" and the time step every step of this run took
 */
export function showReadout(container, record, step, info, { toleranceDeg = NaN, dt = null } = {}) {
  const exact = (key, value) => {
    const element = container.querySelector(`[data-readout="${key}"]`);
    if (element) element.textContent = value === undefined ? '' : String(value);
  };
  const human = (id, text, why = '') => {
    const element = container.querySelector(`#human-${id}`);
    element.textContent = text;
    if (why) {
      const note = document.createElement('span');
      note.className = 'why';
      note.textContent = why;
      element.append(note);
    }
  };
  const oracle = info?.oracle ?? 'none';
  const minContacts = info?.min_contacts ?? null;

  exact('min_contacts', minContacts);
  if (!record) {
    for (const key of READOUT_KEYS) if (key !== 'min_contacts') exact(key, undefined);
    exact('step', step);
    human('step', String(step));
    for (const id of ['time', 'count', 'quality', 'coverage', 'excess', 'penetration', 'min_depth', 'kinetic_energy', 'max_displacement', 'solver', 'timing']) human(id, '—');
    container.querySelector('#pillar-status').hidden = true;
    return;
  }
  for (const key of READOUT_KEYS) if (key !== 'min_contacts') exact(key, record[key]);

  human('step', String(record.step));
  // Every change of a setting replays from step 0, so all the steps of the
  // shown run took the same time step: the time is their sum.
  human('time', `${trim(record.time, 4)} s`, dt ? `the sum of ${record.step} ${record.step === 1 ? 'step' : 'steps'} of ${trim(dt, 6)} s` : '');
  human('count', minContacts === null ? String(record.count) : `${record.count} (minimal ${minContacts})`);
  const quality = qualitySentence(record);
  const tolerance = Number.isFinite(toleranceDeg) ? `right: within ${Number(toleranceDeg.toPrecision(3))}° of a true normal (q ≥ ${Math.cos((toleranceDeg * Math.PI) / 180).toFixed(5)})` : '';
  if (oracle === 'none') human('quality', '—', NO_COVERAGE.none);
  else human('quality', quality ?? '—', record.count > 0 ? tolerance : '');
  const coverageLabel = container.querySelector('#row-coverage dt');
  if (oracle === 'wall' || oracle === 'arch') {
    coverageLabel.firstChild.textContent = 'Area coverage P ';
    human('coverage', record.area_coverage === null ? '— (no contacts)' : record.area_coverage.toFixed(3));
  } else {
    coverageLabel.firstChild.textContent = 'Coverage ';
    if (record.coverage === null) human('coverage', '—', NO_COVERAGE[oracle] ?? 'not defined for this scene.');
    else human('coverage', `${record.coverage.toFixed(1)} %`);
  }
  human('excess', record.excess === null ? '—' : `${record.excess.toFixed(2)} ×`);
  human('penetration', record.penetration === undefined ? '—' : `${scientific(record.penetration)} m`, "the bodies' own overlap, measured apart from the method");
  human('min_depth', record.min_depth === null ? '—' : `${scientific(-record.min_depth)} m`, "its deepest contact depth: not a measure of the bodies");
  human('kinetic_energy', `${scientific(record.kinetic_energy)} J`);
  human('max_displacement', `${scientific(record.max_displacement)} m`);
  human('solver', `${record.iterations} iterations, residual ${scientific(record.residual)}`);
  human('timing', `broad ${ms(record.ms_broad)} · method ${ms(record.ms_method)} · solver ${ms(record.ms_solver)}`);

  // The core decides (the same rule as `contactlab table counts`); it says
  // nothing for scenes that are meant to move.
  const status = container.querySelector('#pillar-status');
  const standing = record.standing;
  status.hidden = standing === null || standing === undefined;
  if (!status.hidden) {
    const what = oracle === 'up' ? 'Pillar' : 'Structure';
    status.textContent = standing ? `${what} still standing` : 'Collapsed';
    status.classList.toggle('bad', !standing);
  }
}

/** @param {number | null} value */
function ms(value) {
  return value === null || value === undefined ? '—' : value.toFixed(2);
}

/**
 * Three significant digits, in exponent form when small or large.
 * @param {number} value
 * @returns {string}
 */
export function scientific(value) {
  if (value === 0) return '0';
  const size = Math.abs(value);
  return size < 1e-3 || size >= 1e5 ? value.toExponential(2) : String(Number(value.toPrecision(3)));
}

/** @param {number} value @param {number} digits */
function trim(value, digits) {
  return String(Number(value.toFixed(digits)));
}
