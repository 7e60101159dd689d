// Unit test of the help dialog's link to ContactLab's own method's
// write-up (www/ui/help.js): a mention of docs/method.md becomes a link to
// the copy the build serves beside the wasm. Run with `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkWriteUp } from '../../www/ui/help.js';

test('a mention of docs/method.md links the copy served beside the wasm', () => {
  const html = linkWriteUp('ContactLab (docs/method.md): region analysis');
  const served = new URL('../../www/pkg/method.txt', import.meta.url).href;
  assert.equal(html, `ContactLab (<a href="${served}" target="_blank" rel="noopener">docs/method.md</a>): region analysis`);
});

test('text without the mention is left alone', () => {
  assert.equal(linkWriteUp('Erleben 2018, section 6'), 'Erleben 2018, section 6');
});
