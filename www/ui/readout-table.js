/**
 * @file The live readout of the current step. Every number appears twice:
 * formatted for a person, and under "Exact values" as an element with a
 * `data-readout` attribute named like the CLI's JSON key, holding the plain
 * decimal text the CLI's JSON gives (`String(value)`; "null" where the CLI
 * writes null). The browser tests compare those texts with the CLI.
 */

/**
 * The CLI's keys, in readout order: the headline's measures (those of the
 * oracle `oracle` names), then the scene's oracle's and the geometric
 * oracle's, each set in full. `min_contacts` is the headline oracle's
 * minimal count (the record carries it per oracle, the scene's also in
 * the scene's info); the CLI's record has none of its own.
 */
export const READOUT_KEYS = [
  'step', 'time', 'count', 'min_contacts', 'correct', 'quality', 'coverage', 'area_coverage', 'excess', 'oracle',
  'scene_correct', 'scene_quality', 'scene_coverage', 'scene_area_coverage', 'scene_min_contacts', 'scene_excess',
  'geo_right', 'geo_indeterminate_right', 'geo_wrong', 'geo_quality', 'geo_coverage', 'geo_area_coverage', 'geo_min_contacts', 'geo_excess',
  'penetration', 'min_depth', 'kinetic_energy', 'max_displacement', 'moved_most', 'standing', 'iterations', 'residual', 'indeterminate',
  'ms_broad', 'ms_method', 'ms_oracle', 'ms_solver',
];

/**
 * The oracle the headline measures come from, in words, and the other one
 * the readout offers (its value for the `oracle` setting). A scene without
 * an oracle of its own is measured by the geometric one and offers none.
 * @param {any} record the step record (its `oracle` names the headline's), null at step 0
 * @param {{oracle: string, scene_oracle?: boolean} | null} info the scene's info
 * @param {string | null} choice the `oracle` setting ("scene" or "geometric"), for step 0
 * @returns {{headline: 'scene' | 'geometric', name: string, offer: {value: 'scene' | 'geometric', label: string} | null}}
 */
export function oracleTerms(record, info, choice) {
  const own = info?.oracle ?? 'none';
  const sceneHasOne = info?.scene_oracle ?? own !== 'none';
  const headline = !sceneHasOne ? 'geometric' : (record?.oracle ?? choice) === 'geometric' ? 'geometric' : 'scene';
  if (headline === 'geometric') {
    return { headline, name: 'geometric oracle', offer: sceneHasOne ? { value: 'scene', label: `use the scene's oracle (${own})` } : null };
  }
  return { headline, name: `scene's oracle: ${own}`, offer: { value: 'geometric', label: 'use the geometric oracle' } };
}

/**
 * The headline oracle's minimal contact count: the record's for the
 * geometric oracle (it follows the pose), the scene's own otherwise.
 * @param {any} record
 * @param {{min_contacts: number | null} | null} info
 * @param {'scene' | 'geometric'} headline
 * @returns {number | null}
 */
export function headlineMinContacts(record, info, headline) {
  if (headline === 'geometric') return record?.geo_min_contacts ?? null;
  return record?.scene_min_contacts ?? info?.min_contacts ?? null;
}

/**
 * Builds the readout's elements inside `container`.
 * @param {HTMLElement} container
 */
export function buildReadout(container) {
  const rows = [
    ['step', 'Step', 'step'],
    ['time', 'Time', null],
    ['count', 'Contacts', 'count'],
    ['oracle', 'Oracle', 'oracle'],
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
            ${
              // The oracle's name, with a button for the other one when the scene has two.
              id === 'oracle'
                ? '<dd><span id="human-oracle">—</span> <button type="button" id="oracle-switch" class="small oracle-switch" hidden></button></dd>'
                : `<dd id="human-${id}">—</dd>`
            }
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
 * Why the scene's oracle gives no coverage number, by its type.
 * @type {Record<string, string>}
 */
const NO_COVERAGE = {
  up: 'not defined for the Pillar: every joint has one right normal (straight up), so there is nothing to cover. The paper measures coverage in the small cases (table 8).',
};

/**
 * "48 of 64 normals right (75.0 %)", from the record's `correct` and `count`.
 * @param {any} record
 * @returns {string | null} null when the record has no quality (a core without the geometric oracle)
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
 * @param {{toleranceDeg?: number, oracleName?: string}} [options] oracleName: the
 *   headline oracle's name (`oracleTerms`), said after the quality
 * @returns {string}
 */
export function headlineText(record, step, options = {}) {
  return headlineParts(record, step, options).map((part) => part.text).join(' · ');
}

/**
 * Shows the headline's parts in `element`, as text (a body name from a
 * user's file is in them); the oracle's name in its own span with its
 * separator, so a tiny presenting window can leave it out.
 * @param {HTMLElement} element
 * @param {{text: string, oracle: boolean}[]} parts
 */
export function showHeadline(element, parts) {
  element.replaceChildren(...parts.map((part, i) => {
    const text = `${i > 0 ? ' · ' : ''}${part.text}`;
    if (!part.oracle) return document.createTextNode(text);
    const span = document.createElement('span');
    span.className = 'headline-oracle';
    span.textContent = text;
    return span;
  }));
}

/**
 * The headline's parts, in order; `oracle` marks the oracle's name, which a
 * tiny presenting window leaves out (the legend and the readout say it).
 * @param {any} record the step record, null at step 0
 * @param {number} step
 * @param {{toleranceDeg?: number, oracleName?: string}} [options]
 * @returns {{text: string, oracle: boolean}[]}
 */
export function headlineParts(record, step, { toleranceDeg = NaN, oracleName = '' } = {}) {
  const part = (text, oracle = false) => ({ text, oracle });
  if (!record) return [part(`Step ${step}`), part('no contacts yet')];
  const quality = qualitySentence(record);
  let measured = quality ?? `${record.count} contacts`;
  if (quality && record.count > 0 && Number.isFinite(toleranceDeg)) measured += ` within ${Number(toleranceDeg.toPrecision(3))}°`;
  const parts = [part(`Step ${record.step}`), part(`${trim(record.time, 4)} s`), part(measured)];
  if (quality && record.count > 0 && oracleName) parts.push(part(oracleName, true));
  // A method that cannot judge a pair says why ("not applicable: <body> is not convex").
  parts.push(...(record.not_applicable ?? []).map((text) => part(text)));
  if (record.indeterminate > 0) parts.push(part(`${record.indeterminate} refused: indeterminate normal`));
  return parts;
}

/**
 * Shows one step.
 * @param {HTMLElement} container
 * @param {any} record the step record, null at step 0
 * @param {number} step the simulation's step index
 * @param {{min_contacts: number | null, oracle: string, scene_oracle?: boolean} | null} info
 * @param {{toleranceDeg?: number, dt?: number | null, oracleChoice?: string | null}} [options] the angle
 *   tolerance for "right", the time step every step of this run took, and the `oracle` setting
 */
export function showReadout(container, record, step, info, { toleranceDeg = NaN, dt = null, oracleChoice = null } = {}) {
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
  const sceneOracle = info?.oracle ?? 'none';
  const terms = oracleTerms(record, info, oracleChoice);
  const minContacts = headlineMinContacts(record, info, terms.headline);
  human('oracle', terms.name);
  const offer = /** @type {HTMLButtonElement} */ (container.querySelector('#oracle-switch'));
  // Offered only where the core has the setting to switch.
  offer.hidden = terms.offer === null || oracleChoice === null;
  offer.textContent = terms.offer?.label ?? '';
  offer.dataset.oracle = terms.offer?.value ?? '';

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
  // Worded as the legend words it: the geometric oracle's right normals are those the surfaces allow.
  const truth = terms.headline === 'geometric' ? 'a normal the surfaces allow' : 'a true normal';
  const tolerance = Number.isFinite(toleranceDeg) ? `right: within ${Number(toleranceDeg.toPrecision(3))}° of ${truth} (q ≥ ${Math.cos((toleranceDeg * Math.PI) / 180).toFixed(5)})` : '';
  // The geometric oracle also accepts a normal inside a cone of valid ones.
  const indeterminate = terms.headline === 'geometric' && record.geo_indeterminate_right > 0 ? `, ${record.geo_indeterminate_right} of them in a cone of valid normals` : '';
  human('quality', quality ?? '—', record.count > 0 ? `${tolerance}${indeterminate}` : '');
  const coverageLabel = container.querySelector('#row-coverage dt');
  const area = record.area_coverage === null || record.area_coverage === undefined ? null : record.area_coverage.toFixed(3);
  if (terms.headline === 'geometric') {
    // Both are defined on every scene: the required directions found, and the regions' area spanned.
    coverageLabel.firstChild.textContent = 'Coverage ';
    if (record.coverage === null) human('coverage', '— (no contacts)');
    else human('coverage', `${record.coverage.toFixed(1)} %`, area === null ? '' : `area coverage P ${area}`);
  } else if (sceneOracle === 'wall' || sceneOracle === 'arch') {
    coverageLabel.firstChild.textContent = 'Area coverage P ';
    human('coverage', area ?? '— (no contacts)');
  } else {
    coverageLabel.firstChild.textContent = 'Coverage ';
    if (record.coverage === null) human('coverage', '—', NO_COVERAGE[sceneOracle] ?? 'not defined for this scene.');
    else human('coverage', `${record.coverage.toFixed(1)} %`);
  }
  human('excess', record.excess === null ? '—' : `${record.excess.toFixed(2)} ×`);
  human('penetration', record.penetration === undefined ? '—' : `${scientific(record.penetration)} m`, "the bodies' own overlap, measured apart from the method");
  human('min_depth', record.min_depth === null ? '—' : `${scientific(-record.min_depth)} m`, "its deepest contact depth: not a measure of the bodies");
  // A record the core measured without simulating (a contact file's step 0,
  // or a step at a file's own poses) has no energy, solver or solver time.
  human('kinetic_energy', present(record.kinetic_energy) ? `${scientific(record.kinetic_energy)} J` : '—');
  // The body's name comes from the scene (perhaps someone else's file): text only.
  const movedMost = typeof record.moved_most === 'string' ? record.moved_most : null;
  human('max_displacement', present(record.max_displacement) ? `${scientific(record.max_displacement)} m${movedMost === null ? '' : ` (${movedMost})`}` : '—', movedMost === null ? '' : 'the body that moved most');
  human('solver', present(record.iterations) ? `${record.iterations} iterations, residual ${present(record.residual) ? scientific(record.residual) : '—'}` : '—');
  const oracleMs = record.ms_oracle === undefined ? '' : ` · oracle ${ms(record.ms_oracle)}`;
  human('timing', `broad ${ms(record.ms_broad)} · method ${ms(record.ms_method)} · solver ${ms(record.ms_solver)}${oracleMs}`);

  // The core decides (the same rule as `contactlab table counts`); it says
  // nothing for scenes that are meant to move.
  const status = container.querySelector('#pillar-status');
  const standing = record.standing;
  status.hidden = standing === null || standing === undefined;
  if (!status.hidden) {
    const what = sceneOracle === 'up' ? 'Pillar' : 'Structure';
    const fell = movedMost === null ? '' : `: ${movedMost} moved ${scientific(record.max_displacement)} m`;
    status.textContent = standing ? `${what} still standing` : `Collapsed${fell}`;
    status.classList.toggle('bad', !standing);
  }
}

/** @param {unknown} value @returns {value is number} whether the record has the value */
function present(value) {
  return value !== null && value !== undefined;
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
