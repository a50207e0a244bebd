import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extentSortKey, hilbertKey, hilbertRanges, SIZE_CLASS_HALF_EXTENTS, sizeClassRanges, type KeyRange } from './hilbert.js';

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

const holds = (ranges: readonly KeyRange[], key: number) => ranges.some(([a, b]) => key >= a && key <= b);

describe('hilbertRanges', () => {
  const box = fc
    .tuple(
      fc.double({ min: -185, max: 185, noNaN: true }),
      fc.double({ min: -95, max: 95, noNaN: true }),
      fc.double({ min: 0, max: 60, noNaN: true }),
      fc.double({ min: 0, max: 30, noNaN: true }),
      fc.integer({ min: 0, max: 6 }),
    )
    .map(([x, y, w, h, shrink]) => [x, y, x + w / 10 ** shrink, y + h / 10 ** shrink] as const);

  it('hold the key of every position in the box, sorted, disjoint, at most maxRanges (property)', () => {
    fc.assert(
      fc.property(
        box,
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 20 }),
        (b, max, at) => {
          const ranges = hilbertRanges(b, max);
          assert.ok(ranges.length >= 1 && ranges.length <= max);
          for (let i = 0; i < ranges.length; i++) {
            assert.ok(ranges[i]![0] <= ranges[i]![1]);
            if (i > 0) assert.ok(ranges[i]![0] > ranges[i - 1]![1] + 1, 'sorted, disjoint and not adjacent');
          }
          const points = [...at.map(([u, v]) => [b[0] + u * (b[2] - b[0]), b[1] + v * (b[3] - b[1])]), [b[0], b[1]], [b[2], b[3]], [b[0], b[3]], [b[2], b[1]]];
          for (const [lon, lat] of points) assert.ok(holds(ranges, hilbertKey(lon!, lat!)), `key of ${lon},${lat} in the ranges of ${b}`);
        },
      ),
    );
  });

  it('cover exactly the cells of the box when the budget allows', () => {
    // 5 × 3 cells around (8.67, 49.41): 15 keys, and no other.
    const cx = Math.floor(((8.67 + 180) / 360) * SIDE);
    const cy = Math.floor(((49.41 + 90) / 180) * SIDE);
    const [lon0, lat0] = centreOfCell(cx, cy);
    const [lon1, lat1] = centreOfCell(cx + 4, cy + 2);
    const ranges = hilbertRanges([lon0, lat0, lon1, lat1], 1000);
    assert.equal(
      ranges.reduce((n, [a, b]) => n + b - a + 1, 0),
      15,
    );
    for (let x = cx; x <= cx + 4; x++) for (let y = cy; y <= cy + 2; y++) assert.ok(holds(ranges, hilbertKey(...centreOfCell(x, y))));
    assert.deepEqual(hilbertRanges([lon0, lat0, lon0, lat0]), [[hilbertKey(lon0, lat0), hilbertKey(lon0, lat0)]]);
  });

  it('the whole plane is one range; an empty box none', () => {
    assert.deepEqual(hilbertRanges([-180, -90, 180, 90]), [[0, 2 ** 32 - 1]]);
    assert.deepEqual(hilbertRanges([10, 10, 9, 11]), []);
  });
});

describe('extentSortKey', () => {
  it('puts an element without a bbox in the last class, which no range bounds', () => {
    assert.deepEqual(extentSortKey(null), { sizeClass: SIZE_CLASS_HALF_EXTENTS.length, key: 0 });
  });

  it("keys an element by its extent's centre and size (worked example)", () => {
    // 0.02° wide (half extent 0.01): class 1 (≤ 0.05), centre (1.5, 2.5).
    assert.deepEqual(extentSortKey([1.49, 2.49, 1.51, 2.51]), { sizeClass: 1, key: hilbertKey(1.5, 2.5) });
  });

  it("any box meeting the extent has the extent's key in its class's ranges (property)", () => {
    const coord = fc.double({ min: -170, max: 170, noNaN: true });
    const size = fc.double({ min: 0, max: 8, noNaN: true });
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(coord, coord, size, size, unit, unit, size, unit, unit, (x, y, w, h, u, v, q, a, b) => {
        const extent = [x, y / 2, x + w, y / 2 + h] as const;
        // A box of side q holding the point (u, v) of the extent, at (a, b) of the box.
        const [px, py] = [extent[0] + u * w, extent[1] + v * h];
        const box = [px - a * q, py - b * q, px - a * q + q, py - b * q + q] as const;
        const { sizeClass, key } = extentSortKey(extent);
        if (sizeClass === SIZE_CLASS_HALF_EXTENTS.length) return;
        assert.ok(
          sizeClassRanges(box)[sizeClass]!.some(([a, b]) => key >= a && key <= b),
          `key ${key} (class ${sizeClass}) of ${extent} in the ranges of ${box}`,
        );
      }),
    );
  });
});
