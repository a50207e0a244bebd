import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hilbertKey } from './hilbert.js';

const SIDE = 65536;

/** Inverse of the curve (classic d2xy), to check adjacency. */
function cellOfKey(d: number): [number, number] {
  let x = 0;
  let y = 0;
  let t = d;
  for (let s = 1; s < SIDE; s *= 2) {
    const rx = 1 & Math.floor(t / 2);
    const ry = 1 & (Math.floor(t) ^ rx);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
    x += s * rx;
    y += s * ry;
    t = Math.floor(t / 4);
  }
  return [x, y];
}

function centreOfCell(x: number, y: number): [number, number] {
  return [((x + 0.5) / SIDE) * 360 - 180, ((y + 0.5) / SIDE) * 180 - 90];
}

describe('hilbertKey', () => {
  it('maps corners to the ends of the curve and stays below 2^32', () => {
    assert.equal(hilbertKey(-180, -90), 0);
    assert.equal(hilbertKey(180, -90), 2 ** 32 - 1);
    assert.ok(hilbertKey(180, 90) < 2 ** 32);
    assert.ok(Number.isInteger(hilbertKey(8.67, 49.41)));
  });

  it('clamps out-of-range and NaN input', () => {
    assert.equal(hilbertKey(-200, -100), 0);
    assert.equal(hilbertKey(NaN, NaN), 0);
    assert.equal(hilbertKey(999, -91), 2 ** 32 - 1);
  });

  it('is the inverse of d2xy: the key of a cell centre decodes to that cell (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: SIDE - 1 }), fc.integer({ min: 0, max: SIDE - 1 }), (x, y) => {
        const [lon, lat] = centreOfCell(x, y);
        assert.deepEqual(cellOfKey(hilbertKey(lon, lat)), [x, y]);
      }),
    );
  });

  it('consecutive keys are neighbouring cells (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 2 }), (d) => {
        const [x1, y1] = cellOfKey(d);
        const [x2, y2] = cellOfKey(d + 1);
        assert.equal(Math.abs(x1 - x2) + Math.abs(y1 - y2), 1);
        assert.equal(hilbertKey(...centreOfCell(x1, y1)), d);
      }),
    );
  });
});
