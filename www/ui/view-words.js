/**
 * @file The view told in words (issue 28): the sentences of the
 * description beside the canvas, from the shown frame's contacts grouped by
 * body pair (state/contact-pairs.js), the scene's bodies and the step's record.
 * DOM-free, so `node --test` checks it; ui/view-description.js puts the
 * sentences on the page, as text.
 *
 * Nothing here judges or measures: the right and wrong counts are the
 * core's verdicts counted, and the largest displacement and whether the
 * structure stands are the core's record, formatted.
 */

import { featureWords } from '../state/contact-pairs.js';
import { scientific } from './readout-table.js';

/** How many of the worst pairs the summary names. */
export const WORST_NAMED = 3;

/** The letters of the core's feature-kind labels ("(V,F)"), in words. */

/**
 * @typedef {object} WordsContext
 * @property {string[]} bodyNames the scene's bodies' names, by body index (from scene files: shown as text only)
 * @property {string[]} featureKinds the catalogue's feature-kind labels
 * @property {boolean} hasOracle whether the scene has an oracle that judges normals
 */

/** @param {number} n @param {string} one @param {string} [many] */
const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The pair's name, A – B, as the hover details and the CLI name them.
 * @param {import('./contact-pairs.js').ContactPair} pair
 * @param {string[]} bodyNames
 */
export function pairName(pair, bodyNames) {
  return `${bodyNames[pair.a] ?? `body ${pair.a}`} – ${bodyNames[pair.b] ?? `body ${pair.b}`}`;
}

/**
 * One touching pair in a sentence: "shaft-3 – capital: 19 contacts, 13
 * wrong, 6 right, all from face–face pairs". Without an oracle there is no
 * right or wrong, only the counts and the feature pairs.
 * @param {import('./contact-pairs.js').ContactPair} pair
 * @param {WordsContext} context
 * @returns {string}
 */
export function pairSentence(pair, { bodyNames, featureKinds, hasOracle }) {
  const parts = [count(pair.contacts.length, 'contact')];
  if (hasOracle) {
    parts.push(`${pair.wrong} wrong`, `${pair.right} right`);
    if (pair.unjudged > 0) parts.push(`${pair.unjudged} without a verdict`);
  }
  const kinds = pair.features.map((f) => featureWords(featureKinds[f.kind] ?? '?'));
  let from;
  if (pair.features.length === 1) {
    from = `all from ${kinds[0]} pairs`;
  } else {
    from = `from ${pair.features
      .map((f, i) => `${f.count} ${kinds[i]}${hasOracle && f.wrong > 0 ? ` (${f.wrong} wrong)` : ''}`)
      .join(', ')} pairs`;
  }
  return `${pairName(pair, bodyNames)}: ${parts.join(', ')}, ${from}`;
}

/**
 * The frame's totals over its pairs.
 * @param {import('./contact-pairs.js').ContactPair[]} pairs
 */
export function totals(pairs) {
  let contacts = 0;
  let wrong = 0;
  let unjudged = 0;
  for (const p of pairs) {
    contacts += p.contacts.length;
    wrong += p.wrong;
    unjudged += p.unjudged;
  }
  return { pairs: pairs.length, contacts, wrong, unjudged };
}

/**
 * The largest displacement and whether the structure stands, from the
 * core's record (nothing for a step without one, e.g. step 0).
 * @param {{max_displacement?: number, moved_most?: string | null, standing?: boolean | null} | null | undefined} record
 * @returns {string}
 */
export function motionSentence(record) {
  if (!record || typeof record.max_displacement !== 'number') return '';
  const standing = record.standing === true ? '; the structure stands' : record.standing === false ? '; the structure has collapsed' : '';
  const body = typeof record.moved_most === 'string' ? `, by ${record.moved_most}` : '';
  return `Largest displacement ${scientific(record.max_displacement)} m${body}${standing}.`;
}

/**
 * The short summary, announced politely as the view changes: the step,
 * the contacts and pairs, the wrong normals, the motion.
 * @param {{step: number, pairs: import('./contact-pairs.js').ContactPair[], record: any, hasOracle: boolean}} frame
 * @returns {string}
 */
export function summarySentence({ step, pairs, record, hasOracle }) {
  // Step 0 has no record: contacts are found by the first step.
  if (!record) return `Step ${step}: no contacts yet.`;
  const sum = totals(pairs);
  if (sum.contacts === 0) return `Step ${step}: no contacts. ${motionSentence(record)}`.trim();
  let text = `Step ${step}: ${count(sum.contacts, 'contact')} between ${count(sum.pairs, 'body pair')}`;
  if (!hasOracle) text += ' (no oracle judges their normals)';
  else {
    text += `, ${sum.wrong} wrong`;
    if (sum.unjudged > 0) text += `, ${sum.unjudged} without a verdict`;
  }
  text += '.';
  const motion = motionSentence(record);
  return motion ? `${text} ${motion}` : text;
}

/**
 * The scene and its bodies: every name where there are few, else how many
 * (the pairs name them).
 * @param {{title: string, bodies: {name: string, fixed: boolean}[], hasOracle: boolean}} scene
 * @param {number} [listUpTo] name each body up to this many
 * @returns {string}
 */
export function sceneSentence({ title, bodies, hasOracle }, listUpTo = 16) {
  const fixed = bodies.filter((b) => b.fixed).length;
  let text = `${title}, ${count(bodies.length, 'body', 'bodies')}`;
  if (bodies.length <= listUpTo) text += `: ${bodies.map((b) => (b.fixed ? `${b.name} (fixed)` : b.name)).join(', ')}.`;
  else text += ` (${fixed} fixed); the pairs below name them.`;
  // Right and wrong need an oracle; a scene without one says why they are missing.
  if (!hasOracle) text += ' This scene has no oracle: its contacts are counted, not judged right or wrong.';
  return text;
}

/**
 * The worst few pairs, for a reader looking for what went wrong: "Most
 * wrong normals: shaft-3 – capital (13 of 19), …". Empty when nothing is
 * wrong or there is no oracle.
 * @param {import('./contact-pairs.js').ContactPair[]} worstFirst `worstPairsFirst(pairs)`
 * @param {string[]} bodyNames
 * @param {number} [named]
 * @returns {string}
 */
export function worstSentence(worstFirst, bodyNames, named = WORST_NAMED) {
  const worst = worstFirst.filter((p) => p.wrong > 0);
  if (worst.length === 0) return '';
  const listed = worst.slice(0, named).map((p) => `${pairName(p, bodyNames)} (${p.wrong} of ${p.contacts.length})`);
  const rest = worst.length - listed.length;
  return `Most wrong normals: ${listed.join(', ')}${rest > 0 ? `, and ${count(rest, 'more pair')} with wrong normals` : ''}.`;
}
