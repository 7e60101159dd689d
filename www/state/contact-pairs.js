/**
 * @file The last step's contacts grouped by the pair of bodies they join,
 * for what tells the view in words (the description beside the canvas and
 * the keyboard's contact list). DOM-free, so `node --test` checks it.
 *
 * Nothing here judges a contact: each contact's verdict is the core's
 * (`correct` in `contactBuffer()`: 1 right, 0 wrong, NaN where the scene
 * has no oracle), and this file only counts verdicts and feature pairs.
 */

/**
 * One touching body pair of a frame.
 * @typedef {object} ContactPair
 * @property {number} a body index of A (the contact normal points from A to B)
 * @property {number} b body index of B
 * @property {number[]} contacts indices into the frame's contacts, in the core's order
 * @property {number} right contacts whose normal the oracle judges right
 * @property {number} wrong contacts whose normal the oracle judges wrong
 * @property {number} unjudged contacts without a verdict (the scene has no oracle there)
 * @property {{kind: number, count: number, wrong: number}[]} features the feature-pair kinds
 *   (indices into `featureKinds()`) of the pair's contacts, most contacts first, with how many
 *   of each are wrong
 */

/**
 * Groups a frame's contacts by body pair. Pairs come in the order of
 * their first contact in the buffer, which is the core's order and the
 * same from run to run.
 * @param {Float32Array} contacts `contactBuffer()`
 * @param {import('../render/contacts.js').ContactLayout} layout `contactLayout()`
 * @returns {ContactPair[]}
 */
export function contactPairs(contacts, layout) {
  /** @type {Map<string, ContactPair & {byKind: Map<number, {kind: number, count: number, wrong: number}>}>} */
  const pairs = new Map();
  const count = Math.floor(contacts.length / layout.stride);
  for (let i = 0; i < count; i++) {
    const at = i * layout.stride;
    const a = contacts[at + layout.a];
    const b = contacts[at + layout.b];
    const key = `${a}:${b}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = { a, b, contacts: [], right: 0, wrong: 0, unjudged: 0, features: [], byKind: new Map() };
      pairs.set(key, pair);
    }
    pair.contacts.push(i);
    const correct = contacts[at + layout.correct];
    const isWrong = correct === 0;
    if (correct === 1) pair.right++;
    else if (isWrong) pair.wrong++;
    else pair.unjudged++;
    const kind = contacts[at + layout.feature];
    let feature = pair.byKind.get(kind);
    if (!feature) {
      feature = { kind, count: 0, wrong: 0 };
      pair.byKind.set(kind, feature);
    }
    feature.count++;
    if (isWrong) feature.wrong++;
  }
  return Array.from(pairs.values(), ({ byKind, ...pair }) => ({
    ...pair,
    // Most contacts first; equal counts in feature-kind order, so the text is stable.
    features: Array.from(byKind.values()).sort((x, y) => y.count - x.count || x.kind - y.kind),
  }));
}

/**
 * The pairs with the most wrong normals first (then the most contacts),
 * the order a reader looking for what went wrong wants.
 * @param {ContactPair[]} pairs
 * @returns {ContactPair[]} a sorted copy
 */
export function worstPairsFirst(pairs) {
  return [...pairs].sort((x, y) => y.wrong - x.wrong || y.contacts.length - x.contacts.length || x.a - y.a || x.b - y.b);
}

/** The words for the letters of a feature kind's label ("(V,F)"). */
const FEATURE_WORDS = /** @type {Record<string, string>} */ ({ V: 'vertex', E: 'edge', F: 'face' });

/**
 * A feature kind in words: the core's label "(V,F)" read as "vertex–face",
 * which a screen reader says as words rather than as brackets and letters.
 * A label of another form is kept as it is.
 * @param {string} label one of the catalogue's `featureKinds`
 * @returns {string}
 */
export function featureWords(label) {
  const match = /^\(([VEF]),([VEF])\)$/.exec(label);
  return match ? `${FEATURE_WORDS[match[1]]}–${FEATURE_WORDS[match[2]]}` : label;
}
