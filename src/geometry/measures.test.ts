import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { areaOf, lengthOf, perimeterOf, roundnessOf, shapeCounts, squarenessOf, SQUARENESS_MAX_SEGMENTS } from './measures.js';
import type { Geometry, LineString, MultiPolygon, Polygon, Position } from './types.js';

/**
 * Asserts `actual` equals the reference value printed as `expected`: within 1e-9 relative, or
 * within half a unit of the last printed decimal when the table prints fewer digits than that
 * (e.g. "61.545360" carries only 8 significant digits).
 */
function assertReference(actual: number, expected: string, what: string): void {
  const value = Number(expected);
  const decimals = expected.includes('.') ? expected.length - expected.indexOf('.') - 1 : 0;
  const tolerance = Math.max(1e-9 * Math.abs(value), 0.5 * 10 ** -decimals);
  assert.ok(Math.abs(actual - value) <= tolerance, `${what}: got ${actual}, reference ${expected} (tolerance ${tolerance})`);
}

function polygon(...rings: number[][]): Polygon {
  return { type: 'Polygon', coordinates: rings.map(toPositions) };
}

function line(...flat: number[]): LineString {
  return { type: 'LineString', coordinates: toPositions(flat) };
}

function toPositions(flat: number[]): Position[] {
  const out: Position[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

/** The reference builds bbox polygons (min,min)→(max,min)→(max,max)→(min,max)→start. */
function bboxPolygon(minLon: number, minLat: number, maxLon: number, maxLat: number): Polygon {
  return polygon([minLon, minLat, maxLon, minLat, maxLon, maxLat, minLon, maxLat, minLon, minLat]);
}

const unitSquare = polygon([0, 0, 0, 1, 1, 1, 1, 0, 0, 0]);
const unitSquareReversed = polygon([0, 0, 1, 0, 1, 1, 0, 1, 0, 0]);
const unitSquareWithHole = polygon([0, 0, 0, 1, 1, 1, 1, 0, 0, 0], [0.5, 0.5, 0.5, 0.6, 0.6, 0.6, 0.6, 0.5, 0.5, 0.5]);
const twoSquares: MultiPolygon = {
  type: 'MultiPolygon',
  coordinates: [unitSquare.coordinates, polygon([2, 0, 2, 1, 3, 1, 3, 0, 2, 0]).coordinates],
};

// docs/reference/history-engine-semantics.md §3.4 ("verified numeric values", Java output). Two rows are not reproduced here
// because their coordinates are not given in full: the regular 32-gon (`regular32gon` in GeoTest)
// and the building polygon `example1`.
const table: Array<{ name: string; g: Geometry; area: string; length: string; roundness?: string; squareness?: string }> = [
  { name: 'unit square', g: unitSquare, area: '12308462864.332247', length: '0', roundness: '0.7858528166', squareness: '1.0' },
  { name: 'unit square reversed', g: unitSquareReversed, area: '12308462864.332247', length: '0', roundness: '0.7858528166', squareness: '1.0' },
  { name: 'unit square with hole', g: unitSquareWithHole, area: '12185377677.969742', length: '0', roundness: '0.6429687393', squareness: '1.0' },
  {
    name: 'Heidelberg square',
    g: polygon([8.67, 49.41, 8.68, 49.41, 8.68, 49.42, 8.67, 49.42, 8.67, 49.41]),
    area: '807021.0556924675',
    length: '0',
    roundness: '0.7502406263',
    squareness: '1.0',
  },
  {
    name: 'square at 60°N',
    g: polygon([0, 60, 1, 60, 1, 61, 0, 61, 0, 60]),
    area: '6123160974.337112',
    length: '0',
    roundness: '0.6943613658',
    squareness: '1.0',
  },
  { name: 'two squares', g: twoSquares, area: '24616925728.664494', length: '0', roundness: '0.3929264083', squareness: '1.0' },
  {
    name: 'hole larger than shell',
    g: polygon([0, 0, 0, 1, 1, 1, 1, 0, 0, 0], [0, 0, 0, 3, 3, 3, 3, 0, 0, 0]),
    area: '0',
    length: '0',
    roundness: '0',
    squareness: '1.0',
  },
  { name: 'diagonal line', g: line(0, 0, 1, 1), area: '0', length: '156855.8801094443', roundness: '0', squareness: '0.9997338583' },
  { name: 'east line', g: line(0, 0, 1, 0), area: '0', length: '111194.9266445587', roundness: '0', squareness: '1.0' },
  { name: 'north line', g: line(0, 0, 0, 1), area: '0', length: '110636.2849557613', roundness: '0', squareness: '1.0' },
  { name: 'Heidelberg line', g: line(8.67, 49.41, 8.68, 49.42), area: '0', length: '1328.4107042280', roundness: '0', squareness: '0.9996912167' },
  { name: 'line at 60°N', g: line(0, 60, 1, 60), area: '0', length: '55807.6557368566', roundness: '0', squareness: '0.9651789826' },
  {
    name: 'triangle',
    g: polygon([0, 0, 1e-4, 0, 1e-4, 1e-4, 0, 0]),
    area: '61.545360',
    length: '0',
    roundness: '0.5393091707',
    squareness: '0.3175892074',
  },
];

describe('measures: docs/reference/history-engine-semantics.md §3.4', () => {
  for (const row of table) {
    it(row.name, () => {
      assertReference(areaOf(row.g), row.area, 'area');
      assertReference(lengthOf(row.g), row.length, 'length');
      if (row.roundness !== undefined) assertReference(roundnessOf(row.g), row.roundness, 'roundness');
      if (row.squareness !== undefined) assertReference(squarenessOf(row.g) ?? NaN, row.squareness, 'squareness');
    });
  }

  it('hole area ratio 0.98999995', () => {
    assert.ok(Math.abs(areaOf(unitSquareWithHole) / areaOf(unitSquare) - 0.98999995) < 5e-9);
  });

  it('tiny bbox polygons (filter oracle: area and perimeter)', () => {
    const cases: Array<[number, string, string]> = [
      [1e-5, '1.230907207929', '4.436621979799'],
      [5e-6, '0.307726801982', '2.218310989900'],
      [2e-5, '4.923628831718', '8.873243959599'],
    ];
    for (const [size, area, perimeter] of cases) {
      const g = bboxPolygon(0, 0, size, size);
      assertReference(areaOf(g), area, `area of bbox ${size}`);
      assertReference(perimeterOf(g), perimeter, `perimeter of bbox ${size}`);
    }
  });

  it('bbox corners from 1e-7 fixed-point integers give the same values', () => {
    // OSHDBBoundingBox stores ints; the polygon is built from int × 1e-7 (docs/reference/history-engine-semantics.md §2.8, §7.3).
    const size = 100 * 1e-7;
    assertReference(areaOf(bboxPolygon(0, 0, size, size)), '1.230907207929', 'area');
    assertReference(perimeterOf(bboxPolygon(0, 0, size, size)), '4.436621979799', 'perimeter');
  });
});

describe('measures: real features against QGIS (GeoTest)', () => {
  // https://www.openstreetmap.org/way/25316219 as of 2020-10-29 (GeoTest.featureSmall).
  const featureSmall = toPositions([
    8.6707583, 49.4160821, 8.6707699, 49.4160822, 8.6708742, 49.4160827, 8.6710011, 49.4160836, 8.671026, 49.4160838, 8.6710753, 49.4160498, 8.6711725,
    49.4159829, 8.6711738, 49.4159529, 8.6711782, 49.415855, 8.6712243, 49.4158558, 8.6712246, 49.4157406, 8.6712255, 49.4155852, 8.6711074, 49.4155117,
    8.67111, 49.4154742, 8.6710811, 49.415452, 8.6710856, 49.4153545, 8.6710943, 49.4153034, 8.6711071, 49.4152463, 8.6710668, 49.4152173, 8.67104, 49.4151994,
    8.6708966, 49.4151038, 8.670762, 49.4151056, 8.6706808, 49.4151569, 8.6706648, 49.4151651, 8.6705213, 49.4151652, 8.6704981, 49.4151652, 8.6704477,
    49.4151342, 8.6703678, 49.4151333, 8.6702422, 49.4152155, 8.6702231, 49.415228, 8.6702239, 49.4152995, 8.6702244, 49.4153317, 8.6702457, 49.4153428,
    8.6702466, 49.4153716, 8.6702534, 49.4153978, 8.6702757, 49.4154131, 8.6703554, 49.4154569, 8.6703239, 49.4158876, 8.6706476, 49.4158871, 8.6706478,
    49.4159317, 8.670648, 49.4160138, 8.6707583, 49.4160821,
  ]);

  it('way/25316219 area within 1e-5 of QGIS, and the reference value 5797.801', () => {
    const area = areaOf({ type: 'Polygon', coordinates: [featureSmall] });
    assert.ok(Math.abs(area / 5797.767 - 1) < 1e-5, `area ${area}`);
    assertReference(area, '5797.801', 'area');
  });

  it('way/25316219 length within 1e-3 of QGIS', () => {
    const length = lengthOf({ type: 'LineString', coordinates: featureSmall });
    assert.ok(Math.abs(length / 330.201 - 1) < 1e-3, `length ${length}`);
  });
});

describe('measures: type rules', () => {
  const point: Geometry = { type: 'Point', coordinates: [1, 2] };
  const multiLine: Geometry = { type: 'MultiLineString', coordinates: [line(0, 0, 1, 1).coordinates, line(1, 1, 2, 0).coordinates] };
  const collection: Geometry = { type: 'GeometryCollection', geometries: [unitSquare, line(0, 0, 1, 1), point] };

  it('length: multilines and collections sum their linear parts; polygons count 0', () => {
    assert.equal(lengthOf(multiLine), 2 * lengthOf(line(0, 0, 1, 1)));
    assert.equal(lengthOf(collection), lengthOf(line(0, 0, 1, 1)));
    assert.equal(lengthOf(unitSquare), 0);
    assert.equal(lengthOf(point), 0);
  });

  it('area: collections sum their polygonal parts', () => {
    assert.equal(areaOf(collection), areaOf(unitSquare));
    assert.equal(areaOf({ type: 'GeometryCollection', geometries: [] }), 0);
    assert.equal(areaOf(multiLine), 0);
  });

  it('perimeter: polygons and multipolygons only; collections are not polygonal (reference)', () => {
    const ringLength = lengthOf({ type: 'LineString', coordinates: unitSquare.coordinates[0] });
    assert.equal(perimeterOf(unitSquare), ringLength);
    assert.equal(perimeterOf(twoSquares), perimeterOf(unitSquare) + perimeterOf(polygon([2, 0, 2, 1, 3, 1, 3, 0, 2, 0])));
    assert.equal(perimeterOf(collection), 0);
    assert.equal(perimeterOf(line(0, 0, 1, 1)), 0);
  });

  it('roundness and squareness of unsupported types are 0', () => {
    assert.equal(roundnessOf(collection), 0);
    assert.equal(squarenessOf(collection), 0);
    assert.equal(squarenessOf(multiLine), 0);
    assert.equal(squarenessOf(point), 0);
  });

  it('squareness declines above the segment limit', () => {
    const coords: Position[] = [];
    for (let i = 0; i <= SQUARENESS_MAX_SEGMENTS + 1; i++) coords.push([i * 1e-5, (i % 2) * 1e-5]);
    assert.equal(squarenessOf({ type: 'LineString', coordinates: coords }), null);
    assert.equal(typeof squarenessOf({ type: 'LineString', coordinates: coords.slice(0, SQUARENESS_MAX_SEGMENTS + 1) }), 'number');
    assert.equal(squarenessOf(unitSquare, 3), null);
    assert.equal(squarenessOf(unitSquare, 4), squarenessOf(unitSquare));
  });

  it('shape counts: vertices include closing coordinates; outers/inners −1 for non-polygons', () => {
    assert.deepEqual(shapeCounts(unitSquare), { vertices: 5, outers: 1, inners: 0 });
    assert.deepEqual(shapeCounts(unitSquareWithHole), { vertices: 10, outers: 1, inners: 1 });
    assert.deepEqual(shapeCounts(twoSquares), { vertices: 10, outers: 2, inners: 0 });
    assert.deepEqual(shapeCounts(line(0, 0, 1, 1, 2, 2)), { vertices: 3, outers: -1, inners: -1 });
    assert.deepEqual(shapeCounts(point), { vertices: 1, outers: -1, inners: -1 });
    assert.deepEqual(shapeCounts(collection), { vertices: 8, outers: -1, inners: -1 });
  });
});
