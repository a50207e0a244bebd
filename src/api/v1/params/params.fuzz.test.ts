/**
 * Property tests: random and mutated inputs never escape as anything but a catalog-coded
 * MaphistError, and valid generated inputs parse.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseBboxes } from './bboxes.js';
import { parseBcircles } from './bcircles.js';
import { parseBoundary } from './boundary.js';
import { parseBpolys } from './bpolys.js';
import { parseFilters } from './filter.js';
import { parseGrouping } from './group-by.js';
import { parseV1Request } from './parse-v1-request.js';
import { V1_ROUTES, acceptedParameters, findV1Route } from './route-parameters.js';
import { WORLD_METADATA, onlyCatalogErrors } from './test-support.js';
import { parseTime } from './time.js';
import { parseTimeout } from './timeout.js';

const RUNS = { numRuns: 300 };
const ALPHABET = '0123456789.,:|/-+{}[]"eEPTYMDWSHZ abc\n\t;=*()';

/** A string and a few random edits of it (insert, delete, replace) from characters that matter to the parsers. */
function mutated(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.constantFrom(...ALPHABET));
  return fc.tuple(valid, fc.array(edit, { minLength: 1, maxLength: 4 })).map(([s, edits]) => {
    let out = s;
    for (const [pos, kind, c] of edits) {
      const i = out.length === 0 ? 0 : pos % (out.length + 1);
      if (kind === 'insert') out = out.slice(0, i) + c + out.slice(i);
      else if (kind === 'delete') out = out.slice(0, i) + out.slice(i + 1);
      else out = out.slice(0, i) + c + out.slice(i + 1);
    }
    return out;
  });
}

const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 60 }));
const lon = fc.double({ min: -179, max: 179, noNaN: true });
const lat = fc.double({ min: -80, max: 80, noNaN: true });
const id = fc.string({ unit: fc.constantFrom(...'abcXYZ 1_-='), minLength: 1, maxLength: 8 });

const validBbox = fc
  .tuple(lon, lat, fc.double({ min: 1e-4, max: 1, noNaN: true }), fc.double({ min: 1e-4, max: 1, noNaN: true }))
  .map(([x, y, w, h]) => [x, y, x + w, y + h].map((n) => n.toFixed(6)).join(','));
const validBboxes = fc.array(validBbox, { minLength: 1, maxLength: 4 }).map((b) => b.join('|'));
const validBcircles = fc
  .array(fc.tuple(lon, lat, fc.double({ min: 1, max: 50_000, noNaN: true })), { minLength: 1, maxLength: 3 })
  .map((cs) => cs.map((c) => c.map((n) => n.toFixed(5)).join(',')).join('|'));
/** A regular polygon (convex, so valid). */
const ring = fc.tuple(lon, lat, fc.double({ min: 0.001, max: 1, noNaN: true }), fc.integer({ min: 3, max: 12 })).map(([x, y, r, n]) => {
  const pts: [number, number][] = [];
  for (let k = 0; k < n; k++) pts.push([+(x + r * Math.cos((2 * Math.PI * k) / n)).toFixed(6), +(y + r * Math.sin((2 * Math.PI * k) / n)).toFixed(6)]);
  pts.push([pts[0]![0], pts[0]![1]]);
  return pts;
});
// Distinct ids and distinct first points (the first pair repeating as the last pair makes one ring of all, docs/reference/v1-reference-behaviour.md §1.4).
const validTextBpolys = fc
  .array(fc.tuple(id, ring), { minLength: 1, maxLength: 3 })
  .filter((items) => new Set(items.map(([i]) => i)).size === items.length && new Set(items.map(([, r]) => r[0]!.join())).size === items.length)
  .chain(([...items]) => fc.boolean().map((withIds) => items.map(([i, r]) => (withIds ? `${i}:` : '') + r.map((p) => p.join(',')).join(',')).join('|')));
const validGeoJsonBpolys = fc
  .array(ring, { minLength: 1, maxLength: 3 })
  .map((rings) =>
    JSON.stringify({ type: 'FeatureCollection', features: rings.map((r) => ({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [r] } })) }),
  );

const day = fc
  .date({ min: new Date('2008-01-01T00:00:00Z'), max: new Date('2023-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const validTime = fc.oneof(
  day,
  fc.array(day, { minLength: 1, maxLength: 5 }).map((d) => d.join(',')),
  fc.tuple(day, day).map(([a, b]) => `${a}/${b}`),
  fc.tuple(day, day, fc.constantFrom('P1Y', 'P1M', 'P3M', 'P2W', 'P10D')).map(([a, b, p]) => `${a}/${b}/${p}`),
  fc.tuple(day, fc.constantFrom('P1Y', 'P6M')).map(([a, p]) => `${a}//${p}`),
  fc.constantFrom('/', '//P1Y', '/2015-01-01', '2015-01-01/'),
);
const validFilter = fc.constantFrom(
  'building=*',
  'type:way and highway=residential',
  'not (a=b or c!=*)',
  'id:(1..5)',
  'geometry:polygon and area:(1..100)',
  'name="x y"',
  '',
);

test('bboxes: valid inputs parse, mutated and random ones fail only with catalog errors', () => {
  fc.assert(
    fc.property(validBboxes, (v) => assert.ok(parseBboxes(v).length >= 1)),
    RUNS,
  );
  fc.assert(
    fc.property(fc.oneof(mutated(validBboxes), anyText), (v) => onlyCatalogErrors(() => parseBboxes(v))),
    RUNS,
  );
});

test('bcircles', () => {
  fc.assert(
    fc.property(validBcircles, (v) => assert.ok(parseBcircles(v).every((a) => a.geometry.coordinates[0]!.length === 33))),
    RUNS,
  );
  fc.assert(
    fc.property(fc.oneof(mutated(validBcircles), anyText), (v) => onlyCatalogErrors(() => parseBcircles(v))),
    RUNS,
  );
});

test('bpolys (text and GeoJSON)', () => {
  fc.assert(
    fc.property(validTextBpolys, (v) => assert.ok(parseBpolys(v).areas.length >= 1)),
    RUNS,
  );
  fc.assert(
    fc.property(validGeoJsonBpolys, (v) => assert.ok(parseBpolys(v).areas.length >= 1)),
    RUNS,
  );
  fc.assert(
    fc.property(
      fc.oneof(
        mutated(validTextBpolys),
        mutated(validGeoJsonBpolys),
        anyText,
        fc.json().map((j) => `{"features":[${j}]}`),
      ),
      (v) => onlyCatalogErrors(() => parseBoundary({ bpolys: v })),
    ),
    RUNS,
  );
});

test('time', () => {
  fc.assert(
    fc.property(validTime, (v) => {
      const ts = parseTime(v, { metadata: WORLD_METADATA, use: 'snapshot' });
      assert.ok(ts.length >= 1);
      for (let i = 1; i < ts.length; i++) assert.ok(ts[i - 1]! < ts[i]!);
    }),
    RUNS,
  );
  fc.assert(
    fc.property(fc.oneof(mutated(validTime), anyText), fc.constantFrom('snapshot', 'intervals', 'exactlyTwo') as fc.Arbitrary<'snapshot'>, (v, use) =>
      onlyCatalogErrors(() => parseTime(v, { metadata: WORLD_METADATA, use })),
    ),
    RUNS,
  );
});

test('filter and deprecated parameters', () => {
  fc.assert(
    fc.property(validFilter, (v) => assert.ok(parseFilters({ filter: v }, { allowChangeset: false, ratio: false }).filter)),
    RUNS,
  );
  fc.assert(
    fc.property(fc.oneof(mutated(validFilter.filter((s) => s !== '')), anyText), anyText, anyText, fc.boolean(), (f, types, keys, ratio) => {
      onlyCatalogErrors(() => parseFilters({ filter: f }, { allowChangeset: false, ratio }));
      onlyCatalogErrors(() => parseFilters({ types, keys, values: keys, filter2: f }, { allowChangeset: true, ratio }));
    }),
    RUNS,
  );
});

test('groupBy and timeout', () => {
  const routes = V1_ROUTES.filter((r) => r.groupBy.length > 0);
  fc.assert(
    fc.property(fc.constantFrom(...routes), anyText, anyText, anyText, (route, a, b, c) =>
      onlyCatalogErrors(() =>
        parseGrouping(
          route,
          new Map([
            ['groupByKey', a],
            ['groupByKeys', b],
            ['groupByValues', c],
          ]),
        ),
      ),
    ),
    RUNS,
  );
  fc.assert(
    fc.property(anyText, (v) => onlyCatalogErrors(() => parseTimeout(v, 100))),
    RUNS,
  );
});

test('whole requests: random parameter lists fail only with catalog errors', () => {
  const data = V1_ROUTES.filter((r) => r.family !== 'metadata');
  const value = fc.oneof(anyText, validBboxes, validTime, validFilter, fc.constantFrom('csv', 'geojson', 'yes', 'tags', 'creation', 'building'));
  fc.assert(
    fc.property(fc.constantFrom(...data), fc.array(fc.tuple(fc.nat(), value), { maxLength: 6 }), fc.option(validBboxes), (route, raw, bbox) => {
      const names = [...acceptedParameters(route.path), 'bogus'];
      const pairs: [string, string][] = raw.map(([i, v]) => [names[i % names.length]!, v]);
      if (bbox !== null) pairs.unshift(['bboxes', bbox]);
      onlyCatalogErrors(() => parseV1Request(route, pairs, { metadata: WORLD_METADATA, defaultTimeoutSeconds: 100 }));
    }),
    { numRuns: 500 },
  );
  assert.ok(findV1Route('/elements/count'));
});
