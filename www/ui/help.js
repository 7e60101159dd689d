// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file Short explanations for a student: one per contact method (its
 * paragraph and source come from the core's method registry,
 * `Playground.methods()`) and one per measure (written here, since measures
 * are about the page's readout), each pointing to the section of the paper
 * (Erleben, "Methodology for Assessing Mesh-Based Contact Point Methods",
 * ACM TOG 37(3), 2018) where it is treated in full. Opened from the "?"
 * buttons.
 */

const PAPER = 'Erleben 2018';

/** @type {Record<string, {title: string, text: string, paper: string}>} */
export const MEASURE_HELP = {
  step: {
    title: 'Step and time',
    text: 'The number of time steps taken since the scene started, and the simulated time. A link to the page remembers the step and re-runs the simulation up to it.',
    paper: 'section 6 (the simulator)',
  },
  count: {
    title: 'Contact count',
    text: 'How many contacts the method produced at this step, after removing duplicates (same position and normal). The scene\'s minimal count is how many an ideal method needs: one per corner of each contact area, for the Pillar 4 under the square plinth and 6 for each hexagonal joint, 40 in all.',
    paper: 'section 5 (figure 6) and section 8.1 (post-filter)',
  },
  oracle: {
    title: "The scene's oracle and the geometric oracle",
    text: "The scene's oracle lists the right normals by hand, as the paper does (straight up for the Pillar, the joints of the Wall and the Arch, each small case's listed normals). The geometric oracle derives them from the two bodies' surfaces at the pose the contacts were found at (a face's normal, or a cone of valid normals, counted as indeterminate-right, where the shapes single out none; a contact far from where the bodies touch is wrong), so it judges every scene, your own files too, at every step.",
    paper: 'section 5 (the scenes\' oracles); the geometric oracle is not in the paper: docs/design/oracle.md',
  },
  quality: {
    title: 'Quality',
    text: 'Each contact gets a score q: how closely its normal matches a right normal (1 = exactly right). A contact is correct when its normal is within the angle tolerance of a right one. Quality is the percentage of correct contacts. 100 % means every normal is right.',
    paper: 'section 5 (the Pillar) and section 8',
  },
  coverage: {
    title: 'Coverage and area coverage P',
    text: 'For the small cases: the percentage of the right normals that at least one correct contact found (a method can be "right" but miss a direction). For the Wall and the Arch: P, the area of the contact regions the method spans (convex hulls of its contacts, per body pair) divided by the area there really is. P = 1 is ideal.',
    paper: 'section 5 (coverage) and section 5.1, equations 3–5 and 8 (P)',
  },
  excess: {
    title: 'Excess',
    text: 'The contact count divided by the minimal count. 1 is ideal; above 1 the solver gets more constraints than needed (slower, and the contact forces are not unique); below 1 information is missing.',
    paper: 'section 5',
  },
  penetration: {
    title: 'Deepest penetration',
    text: 'How far the bodies really overlap, for the deepest pair: measured from the bodies\' shapes and positions by ContactLab\'s own geometry, apart from the contact method, so a method cannot flatter itself. For two convex bodies it is exact (the shortest move that pulls them apart); otherwise it is the deepest a corner, edge midpoint or face centre of one body lies inside the other, a lower bound. In an accurate simulation it stays tiny: micrometres for the resting Pillar or Wall.',
    paper: 'not in the paper: docs/design/measures.md, "Penetration"',
  },
  min_depth: {
    title: "Method's depth estimate",
    text: 'The deepest contact depth the method itself reported: its own estimate of how far the bodies overlap, which the solver uses to push them apart. A method with a wrong normal can report a depth far larger than any real overlap (Opposing gives the untouched Wall depths of 0.31 m); compare it with the deepest penetration above.',
    paper: 'section 6',
  },
  dynamics: {
    title: 'Kinetic energy and largest displacement',
    text: 'Scenes like the Pillar should stay at rest. Kinetic energy that keeps growing, or a stone drifting more than a centimetre from where it started, shows that wrong normals push the bodies around. But beware: wrong normals can also hold a structure up like invisible walls.',
    paper: 'section 5 and section 8.1 (table 6)',
  },
  kinetic_energy: {
    title: 'Kinetic energy per step',
    text: 'The kinetic energy of the free bodies at every step taken, and the first step\'s as a dashed line. A structure at rest should stay near zero. In the sphere benchmarks (Spinning sphere, Rolling spheres) it is the measure that matters: a sphere spinning on one point of its axis without slipping keeps its energy, so a curve that sinks below the dashed line shows contacts off the axis braking it; a rolling sphere trades kinetic for potential energy, so there only the curve\'s ends compare. Rolling spheres has no oracle of its own, so its quality and coverage come from the geometric oracle.',
    paper: 'not in the paper: Cheng Yi and Drumwright, Determining Contact Data for Time Stepping Rigid Body Simulations with Convex Polyhedral Geometries, section V-B and figure 5',
  },
  solver: {
    title: 'Solver iterations and residual',
    text: 'The contact forces come from a projected Gauss–Seidel solver. The paper forces 1000 sweeps per step; the residual says how far from converged the forces still are.',
    paper: 'section 6',
  },
  timing: {
    title: 'Milliseconds',
    text: 'Time spent in this step on finding candidate pairs (broad phase), on the contact method, and on the solver, measured in your browser.',
    paper: '(not in the paper)',
  },
  sorted_quality: {
    title: 'Sorted quality curve',
    text: 'Every contact\'s q, from the worst to the best. A good method stays at 1 almost all the way; a step down shows a group of contacts with the same wrong normal. The dashed line is where "correct" starts.',
    paper: 'section 8, figures 21, 24, 27, 30, 32 and 34',
  },
  histogram: {
    title: 'Quality histogram',
    text: 'How many contacts have q in each twentieth of [0, 1]. All contacts in the last bar is what you want.',
    paper: 'section 5 and section 8',
  },
  region_areas: {
    title: 'Region areas',
    text: 'The area each body pair\'s contacts span, sorted. An exact method gives flat plateaus at the true areas (dashed): for the Wall 0.15625 m² (half-brick overlaps), 0.2 m² (side joints) and 0.3125 m² (bricks on the ground); for the Arch 1 m² for every joint.',
    paper: 'section 8.2 (figure 25) and section 8.3 (figure 28)',
  },
};

/**
 * Where the build serves `docs/method.md`, the write-up of ContactLab's own
 * method: beside the wasm, relative to this module (a published page's
 * files live in a folder of their own), and as .txt, which every host
 * serves as text a browser shows (many send .md as a download).
 */
const WRITE_UP = new URL('../pkg/method.txt', import.meta.url).href;

/**
 * The methods' and engines' help paragraphs and sources by id, which the
 * build writes beside the wasm (`pkg/help.json`): the lean core leaves
 * them out of its catalogue to keep the default page small. Fetched once.
 * @type {Promise<Record<string, {help: string, source: string}>> | null}
 */
let helpTexts = null;

function fetchHelpTexts() {
  helpTexts ??= fetch(new URL('../pkg/help.json', import.meta.url))
    .then((response) => {
      if (!response.ok) throw new Error(`pkg/help.json: HTTP ${response.status}`);
      return response.json();
    })
    .catch((error) => {
      helpTexts = null;
      throw error;
    });
  return helpTexts;
}

/**
 * Turns a mention of `docs/method.md` in (escaped) help text into a link to
 * the copy served beside the wasm.
 * @param {string} html
 * @returns {string}
 */
export function linkWriteUp(html) {
  return html.replaceAll('docs/method.md', `<a href="${WRITE_UP}" target="_blank" rel="noopener">docs/method.md</a>`);
}

/**
 * Fills the help dialog with every method and measure and opens it at
 * `topic` ("method:opposing", "measure:quality").
 * @param {HTMLDialogElement} dialog
 * @param {string} topic
 * @param {Array<{id: string, name: string, help: string, source: string}>} methods `Playground.methods()`
 */
export async function openHelp(dialog, topic, methods) {
  const content = dialog.querySelector('#help-content');
  if (!content.hasChildNodes()) {
    const texts = methods.some((m) => !m.help || !m.source) ? await fetchHelpTexts() : {};
    const help = (/** @type {{id: string, help: string}} */ m) => m.help || (texts[m.id]?.help ?? '');
    const source = (/** @type {{id: string, source: string}} */ m) => m.source || (texts[m.id]?.source ?? '');
    const entry = (kind, id, title, text, readMore) =>
      `<section id="help-${kind}-${escapeHtml(id)}" class="help-entry"><h3>${escapeHtml(title)}</h3><p>${linkWriteUp(escapeHtml(text))}</p><p class="paper">Read more: ${linkWriteUp(escapeHtml(readMore))}.</p></section>`;
    content.innerHTML = `
      <h1>Help</h1>
      <p>ContactLab runs the experiments of Kenny Erleben, <cite>Methodology for Assessing Mesh-Based Contact Point Methods</cite>, ACM Transactions on Graphics 37(3), 2018. Pick a scene and a method, step the simulation and watch whether the contact normals (arrows) are right: blue balls where they are, orange cubes where they are not. The paper's methods look at one pair of tetrahedra at a time; the region methods look at whole contact regions between two bodies, and "Contact regions" (under View) outlines the regions they found, one colour per region.</p>
      <h2>Contact methods</h2>
      ${methods.map((m) => entry('method', m.id, m.name, help(m), source(m))).join('')}
      <h2>Measures</h2>
      ${Object.entries(MEASURE_HELP)
        .map(([id, e]) => entry('measure', id, e.title, e.text, `${PAPER}, ${e.paper}`))
        .join('')}`;
  }
  for (const element of content.querySelectorAll('.help-entry')) element.classList.remove('current');
  const [kind, id] = topic.split(':');
  const target = content.querySelector(`#help-${kind}-${CSS.escape(id ?? '')}`);
  if (!dialog.open) dialog.showModal();
  if (target) {
    target.classList.add('current');
    target.scrollIntoView({ block: 'start' });
  } else {
    content.scrollTop = 0;
  }
}

/** @param {string} text */
function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
