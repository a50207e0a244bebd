import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameBytes } from './same-bytes.js';

/** The byte loop it replaces: the oracle. */
function byteLoop(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

describe('sameBytes', () => {
  it('agrees with a byte loop at every length, offset and position of a difference', () => {
    const backing = new Uint8Array(64).map((_, i) => (i * 37 + 11) & 255);
    for (let n = 0; n <= 24; n++) {
      for (let offA = 0; offA < 4; offA++) {
        for (let offB = 0; offB < 4; offB++) {
          const a = new Uint8Array(n + 8).subarray(offA, offA + n);
          a.set(backing.subarray(0, n));
          const b = new Uint8Array(n + 8).subarray(offB, offB + n);
          b.set(backing.subarray(0, n));
          assert.equal(sameBytes(a, b), true, `n=${n}`);
          for (let k = 0; k < n; k++) {
            b[k] ^= 0x80;
            assert.equal(sameBytes(a, b), false, `n=${n} differing at ${k}`);
            assert.equal(sameBytes(a, b), byteLoop(a, b));
            b[k] ^= 0x80;
          }
        }
      }
    }
  });

  it('tells different lengths apart, and an array equals itself', () => {
    assert.equal(sameBytes(new Uint8Array(8), new Uint8Array(9)), false);
    const a = new Uint8Array([1, 2, 3]);
    assert.equal(sameBytes(a, a), true);
  });

  it('compares bits, not numbers: the bytes of NaN and of ±0', () => {
    const f = (v: number, bits?: bigint) => {
      const b = new Uint8Array(8);
      if (bits === undefined) new DataView(b.buffer).setFloat64(0, v, true);
      else new DataView(b.buffer).setBigUint64(0, bits, true);
      return b;
    };
    assert.equal(sameBytes(f(0), f(-0)), false);
    assert.equal(sameBytes(f(Number.NaN, 0x7ff8000000000000n), f(Number.NaN, 0x7ff8000000000001n)), false);
    assert.equal(sameBytes(f(Number.NaN, 0x7ff8000000000000n), f(Number.NaN, 0x7ff8000000000000n)), true);
  });
});
