// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file Compare mode: every method on the current scene and settings, from
 * step 0 to the chosen step, one method at a time in the worker (so Cancel
 * takes effect between methods), then a table like the paper's tables 7 and
 * 8, sortable by any column, as Markdown or CSV. A column that is blank
 * for every method is left out (with the reason under the table), and
 * while the page shows exactly one of the paper's presets the paper's own
 * numbers stand beside ours.
 *
 * A table says what made it: when the page's scene, a setting or the step
 * to compare at changes afterwards it is marked stale (dimmed, with what
 * changed and a Rerun button), and its Markdown and CSV name the release,
 * the scene, the step and every setting of the core's registry (the
 * catalogue's schema) that made the numbers.
 */

import { copyText, downloadText } from './export.js';

/**
 * @typedef {object} CompareRow
 * @property {string} id method id
 * @property {string} name
 * @property {any} record the method's record at the step, null on failure
 * @property {string | null} error
 */

/**
 * @typedef {object} Column
 * @property {string} title
 * @property {string} csv CSV header
 * @property {(row: CompareRow) => (number | string | null)} value sort key and CSV value
 * @property {(row: CompareRow) => string} text shown text
 * @property {boolean} [paper] the paper's number, not ours
 */

/**
 * What a comparison runs on besides the methods: the page's configuration.
 * @typedef {object} CompareInputs
 * @property {string} scene the scene's name
 * @property {string} sceneKey the built-in scene's id, or the scene file itself
 * @property {Record<string, any>} settings the core's flat settings object
 * @property {string} version the release
 */

/** The compare section: runs, progress, table, staleness, exports. */
export class ComparePanel {
  /**
   * @param {{session: import('../session.js').Session, beforeRun: () => void, onDone: (cancelled: boolean) => void,
   *   schema: import('./slider.js').SchemaEntry[], inputs: () => CompareInputs | null}} options
   *   schema: the core's settings registry; inputs: what the page shows (asked for) now
   */
  constructor({ session, beforeRun, onDone, schema, inputs }) {
    this.session = session;
    this.schema = schema;
    this.inputs = inputs;
    /** What the table's numbers were made with. @type {(CompareInputs & {steps: number}) | null} */
    this.madeWith = null;
    this.staleBox = /** @type {HTMLElement} */ (document.getElementById('compare-stale'));
    this.staleText = /** @type {HTMLElement} */ (document.getElementById('compare-stale-text'));
    this.beforeRun = beforeRun;
    this.onDone = onDone;
    this.form = /** @type {HTMLFormElement} */ (document.getElementById('compare-form'));
    this.stepsField = /** @type {HTMLInputElement} */ (document.getElementById('compare-steps'));
    // The engines run only when asked for: each is a download of its own.
    this.enginesBox = /** @type {HTMLInputElement | null} */ (document.getElementById('compare-engines'));
    this.button = /** @type {HTMLButtonElement} */ (document.getElementById('compare'));
    this.running = document.getElementById('compare-running');
    this.progress = /** @type {HTMLProgressElement} */ (document.getElementById('compare-progress'));
    this.note = document.getElementById('compare-status');
    this.result = document.getElementById('compare-result');
    this.table = document.getElementById('compare-table');
    this.cancelled = false;
    this.busy = false;
    /**
     * The workers the rows run in (../compare-pool.js), made at the first
     * run: the module is imported then, not with the page.
     * @type {import('../compare-pool.js').ComparePool | null}
     */
    this.pool = null;
    /** @type {CompareRow[]} */
    this.rows = [];
    /** @type {Column[]} */
    this.columns = [];
    this.sort = { column: -1, descending: false };
    this.caption = '';
    /** @type {{methods: any[], oracle: string, title: string} | null} */
    this.context = null;
    /** @type {import('./presets.js').Preset | null} the preset whose paper numbers are shown */
    this.paper = null;
    /** @type {number | null} a preset's step, for the scene it is loading */
    this.presetSteps = null;
    /** The preset the last run matched (its scene, settings and step). */
    this.runPreset = /** @type {import('./presets.js').Preset | null} */ (null);
    /** Says when the run's configuration matches a preset. @type {() => import('./presets.js').Preset | null} */
    this.presetOfRun = () => null;
    this.footnotes = document.createElement('div');
    this.footnotes.className = 'note';
    this.footnotes.id = 'compare-notes';
    this.table.parentElement.after(this.footnotes);

    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.run();
    });
    document.getElementById('compare-rerun').addEventListener('click', () => this.run());
    this.stepsField.addEventListener('input', () => this.checkStale());
    document.getElementById('compare-cancel').addEventListener('click', () => {
      this.cancelled = true;
      this.pool?.cancel();
    });
    document.getElementById('compare-copy').addEventListener('click', async () => {
      this.note.textContent = (await copyText(this.markdown())) ? 'The table is on the clipboard as Markdown.' : 'The browser refused the clipboard; select the table and copy it instead.';
    });
    document.getElementById('compare-csv').addEventListener('click', () => {
      downloadText(`contactlab-compare-${this.context?.id ?? 'scene'}.csv`, this.csv(), 'text/csv');
    });
  }

  /**
   * Sets what a comparison runs on: the methods, and the loaded scene.
   * @param {{methods: any[], oracle: string, title: string, id: string, measureStep: number}} context
   */
  setScene(context) {
    const changed = this.context?.id !== context.id;
    this.context = context;
    if (changed || !this.stepsField.value) this.stepsField.value = String(this.presetSteps ?? context.measureStep);
    this.presetSteps = null;
    this.button.disabled = this.busy;
    this.checkStale();
  }

  /**
   * Sets the step to compare at, for a preset (kept when its scene loads).
   * @param {number} steps
   */
  setSteps(steps) {
    this.presetSteps = steps;
    this.stepsField.value = String(steps);
    this.checkStale();
  }

  /** Runs the comparison, one method per worker request. */
  async run() {
    if (this.busy || !this.context) return;
    const steps = Number(this.stepsField.value);
    if (!Number.isInteger(steps) || steps < 1 || steps > 100000) {
      this.note.textContent = `"${this.stepsField.value}" is not a whole number of steps from 1 to 100000.`;
      return;
    }
    const { oracle, title } = this.context;
    const methods = this.context.methods.filter((m) => m.kind !== 'engine' || this.enginesBox?.checked);
    this.beforeRun();
    const inputs = this.inputs();
    this.busy = true;
    this.cancelled = false;
    this.button.disabled = true;
    this.running.hidden = false;
    this.progress.max = methods.length;
    this.progress.value = 0;
    if (!this.pool) {
      const { ComparePool } = await import('../compare-pool.js');
      this.pool = new ComparePool(this.session);
    }
    const workers = this.cancelled ? 0 : Math.min(this.pool.size, methods.length);
    const running = (/** @type {number} */ done) => `Running ${methods.length} methods to step ${steps} in ${workers} worker${workers === 1 ? '' : 's'}… (${done} of ${methods.length} done)`;
    this.note.textContent = running(0);
    /** @type {CompareRow[]} */
    let rows = [];
    try {
      const names = new Map(methods.map((m) => [m.id, m.name]));
      const done = this.cancelled ? [] : await this.pool.run(
        methods.map((m) => m.id),
        steps,
        (count) => {
          this.progress.value = count;
          this.note.textContent = running(count);
        },
      );
      rows = done.map((row) => ({ ...row, name: names.get(row.id) ?? row.id }));
    } catch (error) {
      this.note.textContent = error instanceof Error ? error.message : String(error);
    }
    this.busy = false;
    this.button.disabled = false;
    this.running.hidden = true;
    this.note.textContent = this.cancelled ? `Cancelled after ${rows.length} of ${methods.length} methods.` : '';
    this.rows = rows;
    this.columns = columnsFor(oracle);
    this.sort = { column: -1, descending: false };
    this.caption = `${title}, step ${steps}`;
    this.madeWith = inputs ? { ...inputs, steps } : null;
    this.runPreset = this.presetOfRun(steps);
    this.paper = this.runPreset?.paper ? this.runPreset : null;
    this.render();
    this.checkStale();
    this.onDone(this.cancelled);
  }

  /**
   * Shows the paper's numbers of `preset` beside ours, or none: the page
   * calls this whenever what it shows changes. They appear only when the
   * last comparison ran that preset's scene, settings and step.
   * @param {import('./presets.js').Preset | null} preset
   */
  setPaper(preset) {
    const paper = preset && preset === this.runPreset && preset.paper ? preset : null;
    if (paper === this.paper) return;
    this.paper = paper;
    if (this.rows.length > 0) this.render();
  }

  /**
   * Marks the table stale, saying what changed, when the page's scene or
   * settings or the step to compare at differ from what made it: the page
   * calls this whenever what it shows (or asks for) changes.
   */
  checkStale() {
    const made = this.madeWith;
    const now = this.inputs();
    const changes = [];
    if (made && now && this.rows.length > 0) {
      if (now.sceneKey !== made.sceneKey) changes.push(`the scene (${made.scene} → ${now.scene})`);
      for (const entry of this.settingEntries()) {
        const [was, is] = [made.settings[entry.id], now.settings[entry.id]];
        if (JSON.stringify(was) !== JSON.stringify(is)) changes.push(`${entry.label.toLowerCase()} (${this.settingText(entry, was)} → ${this.settingText(entry, is)})`);
      }
      const steps = Number(this.stepsField.value);
      if (steps !== made.steps) changes.push(`the step (${made.steps} → ${this.stepsField.value || 'none'})`);
    }
    const stale = changes.length > 0;
    this.result.classList.toggle('stale', stale);
    this.staleBox.hidden = !stale;
    this.staleText.textContent = stale ? `Stale — these numbers are for other settings than the page's: ${changes.join(', ')} changed since. Rerun to update them.` : '';
  }

  /** @returns {import('./slider.js').SchemaEntry[]} the settings that make a comparison's numbers (all but the method: every method is run) */
  settingEntries() {
    return this.schema.filter((entry) => entry.kind !== 'method');
  }

  /**
   * @param {import('./slider.js').SchemaEntry} entry
   * @param {any} value
   * @returns {string} the value as the exports and the stale note write it
   */
  settingText(entry, value) {
    if (value === null || value === undefined) return entry.nullable ? "the scene's own" : '—';
    return entry.unit ? `${value} ${entry.unit}` : String(value);
  }

  /** @returns {string[]} what made the numbers, a line each, for the Markdown */
  provenance() {
    const made = this.madeWith;
    if (!made) return [];
    return [
      `Made with ContactLab ${made.version}: every method from step 0 to step ${made.steps} of ${made.scene}, with these settings:`,
      '',
      ...this.settingEntries().map((entry) => `- ${entry.label}: ${this.settingText(entry, made.settings[entry.id])}`),
    ];
  }

  /** @returns {Column[]} our columns that say something, then the paper's */
  shownColumns() {
    const ok = this.rows.filter((row) => !row.error);
    const ours = this.columns.filter((column, i) => i === 0 || ok.length === 0 || ok.some((row) => column.value(row) !== null && column.value(row) !== undefined));
    if (!this.paper?.paper) return ours;
    const { columns, rows } = this.paper.paper;
    const paperValue = (row, i) => rows.find(([id]) => id === row.id)?.[1][i] ?? null;
    return [
      ...ours,
      ...columns.map((title, i) => ({
        title,
        csv: title.replace(/[^a-z0-9]+/gi, '_').toLowerCase(),
        paper: true,
        value: (row) => paperValue(row, i),
        text: (row) => {
          const value = paperValue(row, i);
          return value === null ? '' : String(value);
        },
      })),
    ];
  }

  /** Notes under the table: columns left out, and methods that agree on every number. */
  explain() {
    const notes = [];
    const ok = this.rows.filter((row) => !row.error);
    const dropped = this.columns.filter((column) => ok.length > 0 && ok.every((row) => column.value(row) === null || column.value(row) === undefined));
    for (const column of dropped) {
      notes.push(
        column.csv === 'coverage'
          ? `No coverage column: coverage is defined only in the small cases, where a contact may have several right normals (${this.context?.oracle === 'up' ? 'on the Pillar every joint has one, straight up' : 'this scene has none to cover'}).`
          : `No ${column.title} column: no method has a value here.`,
      );
    }
    // Methods with the same numbers everywhere: say so, and where to read why.
    const key = (row) => this.columns.slice(1).map((column) => String(column.value(row))).join('|');
    const groups = new Map();
    for (const row of ok) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      const names = group.map((row) => row.name);
      notes.push(`${names.slice(0, -1).join(', ')} and ${names.at(-1)} give the same numbers here; the help of each method says why.`);
    }
    if (this.paper) notes.push(`Paper columns: ${this.paper.source}.`);
    this.footnotes.replaceChildren(...notes.map((text) => Object.assign(document.createElement('p'), { textContent: text })));
  }

  /** Draws the table in the current sort order. */
  render() {
    this.result.hidden = this.rows.length === 0;
    const columns = this.shownColumns();
    // A sort by a column that is not shown any more falls back to the run's order.
    if (this.sort.column >= columns.length) this.sort = { column: -1, descending: false };
    const rows = this.sortedRows(columns);
    const head = columns
      .map((column, i) => {
        const order = this.sort.column === i ? (this.sort.descending ? 'descending' : 'ascending') : 'none';
        return `<th scope="col" aria-sort="${order}"><button type="button" data-column="${i}">${column.title}</button></th>`;
      })
      .join('');
    this.table.innerHTML = `<caption>${escapeHtml(this.caption)}</caption><thead><tr>${head}</tr></thead><tbody></tbody>`;
    const body = this.table.querySelector('tbody');
    for (const row of rows) {
      const tr = document.createElement('tr');
      tr.dataset.method = row.id;
      if (row.error) {
        tr.innerHTML = `<th scope="row">${escapeHtml(row.name)}</th><td colspan="${columns.length - 1}" class="error-cell"></td>`;
        tr.querySelector('td').textContent = row.error;
      } else {
        tr.innerHTML = columns
          .map((column, i) => (i === 0 ? `<th scope="row">${escapeHtml(column.text(row))}</th>` : `<td${column.paper ? ' class="paper"' : ''}>${escapeHtml(column.text(row))}</td>`))
          .join('');
      }
      body.append(tr);
    }
    this.explain();
    for (const button of this.table.querySelectorAll('thead button')) {
      button.addEventListener('click', () => {
        const column = Number(/** @type {HTMLElement} */ (button).dataset.column);
        this.sort = { column, descending: this.sort.column === column ? !this.sort.descending : column !== 0 };
        this.render();
      });
    }
  }

  /**
   * @param {Column[]} columns the shown columns (the sort names one by index)
   * @returns {CompareRow[]} rows in the chosen order; failed rows last
   */
  sortedRows(columns) {
    if (this.sort.column < 0) return this.rows;
    const column = columns[this.sort.column];
    const sign = this.sort.descending ? -1 : 1;
    return [...this.rows].sort((a, b) => {
      const x = a.error ? null : column.value(a);
      const y = b.error ? null : column.value(b);
      if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
      return (typeof x === 'string' ? x.localeCompare(String(y)) : x - Number(y)) * sign;
    });
  }

  /** @returns {string} the table as shown, in Markdown */
  markdown() {
    const columns = this.shownColumns();
    const rows = this.sortedRows(columns);
    const lines = [
      `| ${columns.map((c) => c.title).join(' | ')} |`,
      `| --- | ${columns.slice(1).map(() => '---:').join(' | ')} |`,
      ...rows.map((row) =>
        row.error ? `| ${row.name} | ${row.error.replace(/\|/g, '\\|')} |` : `| ${columns.map((c) => c.text(row)).join(' | ')} |`,
      ),
    ];
    return [this.caption, '', ...this.provenance(), '', ...lines].join('\n') + '\n';
  }

  /** @returns {string} full-precision values, one row per method */
  csv() {
    const columns = this.shownColumns();
    // Every row repeats what made it (named by the link's keys), so a row
    // pasted elsewhere still says which settings it belongs to.
    const made = this.madeWith;
    const entries = made ? this.settingEntries() : [];
    const context = made ? [made.version, made.scene, String(made.steps), ...entries.map((entry) => String(made.settings[entry.id] ?? 'scene'))] : [];
    const contextHeader = made ? ['version', 'scene', 'step', ...entries.map((entry) => entry.url_key)] : [];
    const header = ['method_id', ...columns.map((c) => c.csv), 'error', ...contextHeader];
    const rows = this.sortedRows(columns).map((row) => [
      row.id,
      ...columns.map((c) => (row.error ? '' : String(c.value(row) ?? ''))),
      row.error ?? '',
      ...context,
    ]);
    return [header, ...rows].map((cells) => cells.map(csvCell).join(',')).join('\n') + '\n';
  }
}

/**
 * The table's columns; the third is coverage for the fundamental cases and
 * the area coverage P for the wall and the arch, as in the paper.
 * @param {string} oracle
 * @returns {Column[]}
 */
function columnsFor(oracle) {
  const fixed = (digits) => (v) => (v === null || v === undefined ? '—' : v.toFixed(digits));
  const areas = oracle === 'wall' || oracle === 'arch';
  return [
    { title: 'Method', csv: 'method', value: (r) => r.name, text: (r) => r.name },
    { title: 'Count', csv: 'count', value: (r) => r.record.count, text: (r) => String(r.record.count) },
    { title: 'Quality %', csv: 'quality', value: (r) => r.record.quality, text: (r) => fixed(1)(r.record.quality) },
    areas
      ? { title: 'P', csv: 'area_coverage', value: (r) => r.record.area_coverage, text: (r) => fixed(3)(r.record.area_coverage) }
      : { title: 'Coverage %', csv: 'coverage', value: (r) => r.record.coverage, text: (r) => fixed(1)(r.record.coverage) },
    { title: 'Excess', csv: 'excess', value: (r) => r.record.excess, text: (r) => fixed(2)(r.record.excess) },
  ];
}

/** @param {string} text */
function csvCell(text) {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
