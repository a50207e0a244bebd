import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { geometry } from './testing/arbitrary-geometry.js';
import type { Geometry } from './types.js';
import { decodeWkb, encodedSize, encodeWkb, encodeWkbWithMembers } from './wkb.js';

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

describe('WKB', () => {
  it('encodes a point as little-endian ISO WKB', () => {
    // Well-known example: POINT(1 2).
    assert.equal(hex(encodeWkb({ type: 'Point', coordinates: [1, 2] })), '0101000000000000000000f03f0000000000000040');
  });

  it('encodes an empty GeometryCollection as 9 bytes', () => {
    const bytes = encodeWkb({ type: 'GeometryCollection', geometries: [] });
    assert.equal(hex(bytes), '010700000000000000');
    assert.deepEqual(decodeWkb(bytes), { type: 'GeometryCollection', geometries: [] });
  });

  it('writes the type codes 1-7 and nested headers for Multi* members', () => {
    const polygon: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    const mp: Geometry = { type: 'MultiPolygon', coordinates: [polygon.coordinates] };
    const bytes = encodeWkb(mp);
    assert.equal(bytes[1], 6);
    assert.equal(bytes[9], 1); // member byte order
    assert.equal(bytes[10], 3); // member type Polygon
    assert.equal(bytes.length, 9 + 5 + 4 + 4 + 4 * 16);
  });

  it('round-trips every geometry type bit for bit (property)', () => {
    fc.assert(
      fc.property(geometry, (g) => {
        const bytes = encodeWkb(g);
        assert.equal(bytes.length, encodedSize(g));
        assert.deepEqual(decodeWkb(bytes), g);
      }),
      { numRuns: 500 },
    );
  });

  it('encodes collections with shared members as encodeWkb does, each member once (property)', () => {
    // Collections drawn from one pool of members, as a relation's states share the unchanged ones;
    // the pool's first member is large enough to be written outside the scratch buffer.
    const big: Geometry = { type: 'LineString', coordinates: Array.from({ length: 5000 }, (_, i) => [i * 1e-3, -i * 1e-3]) };
    fc.assert(
      fc.property(
        fc.array(geometry, { minLength: 1, maxLength: 6 }),
        fc.array(fc.array(fc.nat(6), { maxLength: 8 }), { minLength: 1, maxLength: 5 }),
        (pool, picks) => {
          const members = [big, ...pool];
          const memo = new WeakMap<Geometry, Uint8Array>();
          for (const pick of picks) {
            const g: Geometry = { type: 'GeometryCollection', geometries: pick.map((i) => members[i % members.length]!) };
            assert.deepEqual(encodeWkbWithMembers(g, memo), encodeWkb(g));
          }
          for (const m of pool) assert.deepEqual(encodeWkbWithMembers(m, memo), encodeWkb(m));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads big-endian WKB', () => {
    const be = Buffer.from('00000000013ff00000000000004000000000000000', 'hex');
    assert.deepEqual(decodeWkb(be), { type: 'Point', coordinates: [1, 2] });
  });

  it('reads from a view into a larger buffer', () => {
    const inner = encodeWkb({
      type: 'LineString',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    });
    const outer = new Uint8Array(inner.length + 3);
    outer.set(inner, 3);
    assert.deepEqual(decodeWkb(outer.subarray(3)), {
      type: 'LineString',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    });
  });

  it('writes an empty point as NaN NaN', () => {
    const decoded = decodeWkb(encodeWkb({ type: 'Point', coordinates: [] as unknown as [number, number] }));
    assert.equal(decoded.type, 'Point');
    assert.ok(decoded.type === 'Point' && Number.isNaN(decoded.coordinates[0]) && Number.isNaN(decoded.coordinates[1]));
  });

  it('rejects truncated input, trailing bytes, bad byte order and 3D types with a clear message', () => {
    const point = encodeWkb({ type: 'Point', coordinates: [1, 2] });
    assert.throws(() => decodeWkb(point.subarray(0, 10)), /truncated input/);
    assert.throws(() => decodeWkb(new Uint8Array([...point, 0])), /trailing bytes/);
    assert.throws(() => decodeWkb(new Uint8Array([2, ...point.subarray(1)])), /byte order/);
    const z = point.slice();
    z[1] = 0xe9; // 1001 = ISO Point Z
    z[2] = 0x03;
    assert.throws(() => decodeWkb(z), /unsupported geometry type 1001/);
    // A count far larger than the bytes left is caught before allocating.
    const huge = Buffer.from('0102000000ffffff7f', 'hex');
    assert.throws(() => decodeWkb(huge), /truncated input/);
  });
});
