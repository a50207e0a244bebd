import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sequenceOfPath, sequencePath } from './paths.js';

it('sequence ↔ AAA/BBB/CCC path, zero-padded to nine digits', () => {
  assert.equal(sequencePath(466354), '000/466/354');
  assert.equal(sequencePath(0), '000/000/000');
  assert.equal(sequencePath(6079424), '006/079/424');
  assert.equal(sequencePath(999_999_999), '999/999/999');
  for (const s of [0, 1, 999, 1000, 466354, 123456789, 999_999_999]) assert.equal(sequenceOfPath(sequencePath(s)), s);
  assert.equal(sequenceOfPath('000/466/354.osc.gz'), 466354);
  assert.equal(sequenceOfPath('000/466/354.state.txt'), 466354);
  assert.equal(sequenceOfPath('466/354'), undefined);
  assert.equal(sequenceOfPath('000/466/3544'), undefined);
  for (const bad of [-1, 1.5, 1e9, Number.NaN]) assert.throws(() => sequencePath(bad), RangeError);
});
