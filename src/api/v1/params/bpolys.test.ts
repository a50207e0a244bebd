import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBpolys } from './bpolys.js';
import { MSG } from './messages.js';
import { throwsCode } from './test-support.js';

const TRI1 = [
  [8.68494, 49.41951],
  [8.67902, 49.4146],
  [8.69009, 49.41527],
  [8.68494, 49.41951],
];
const TRI2 = [
  [8.68812, 49.40466],
  [8.68091, 49.40058],
  [8.69121, 49.40069],
  [8.68812, 49.40466],
];
const flat = (ring: number[][]) => ring.map((p) => p.join(',')).join(',');

test('text form: one ring, several rings, ids', () => {
  const one = parseBpolys(flat(TRI1));
  assert.equal(one.areas.length, 1);
  assert.equal(one.areas[0]!.id, 'boundary1');
  assert.deepEqual(one.areas[0]!.geometry.coordinates, [TRI1]);
  const two = parseBpolys(`${flat(TRI1)}|${flat(TRI2)}`);
  assert.deepEqual(
    two.areas.map((a) => a.id),
    ['boundary1', 'boundary2'],
  );
  const named = parseBpolys(`Region 1:${flat(TRI1)}|Region 2:${flat(TRI2)}`);
  assert.deepEqual(named.outputIds, ['Region 1', 'Region 2']);
  // Rings are cut by closure; `|` does not matter for the rings.
  assert.equal(parseBpolys(`${flat(TRI1)},${flat(TRI2)}`).areas.length, 2);
  // A trailing unclosed ring is dropped.
  assert.equal(parseBpolys(`${flat(TRI1)},1,2,3,4`).areas.length, 1);
});

test('text form errors', () => {
  throwsCode(() => parseBpolys('8.65821,49.41129'), 'BOUNDARY_INVALID', MSG.BPOLYS_FORMAT);
  throwsCode(() => parseBpolys('8.65821,49.41129,8.7'), 'BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  throwsCode(() => parseBpolys(`${flat(TRI1)}|a:${flat(TRI2)}`), 'BOUNDARY_INVALID', MSG.BPOLYS_FORMAT);
  throwsCode(() => parseBpolys(`a:${flat(TRI1)}|${flat(TRI2)}`), 'BOUNDARY_INVALID', MSG.BOUNDARY_IDS_FORMAT);
  throwsCode(() => parseBpolys(`a:${flat(TRI1)},b:1,2`), 'BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  throwsCode(() => parseBpolys('1,2,3,4,5,6,7,8'), 'BOUNDARY_INVALID', MSG.BPOLYS_FORMAT);
});

test('a self-intersecting ring is a 400 that says where', () => {
  // The reference's topology test: three parts, the last repeating the first, a bow tie.
  const bowTie = '8.68,49.41,8.69,49.42|8.69,49.41,8.68,49.42|8.68,49.41';
  const e = throwsCode(() => parseBpolys(bowTie), 'BOUNDARY_INVALID');
  assert.ok(e.message.startsWith(MSG.BPOLYS_INVALID_PREFIX), e.message);
  assert.match(e.message, /crosses itself near \(8\.685, 49\.415/);
});

test('GeoJSON form: ids from feature.id, properties.id, or feature<n>', () => {
  const fc = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: { type: 'Polygon', coordinates: [TRI1] } },
      { type: 'Feature', id: 7, properties: { id: 'ignored' }, geometry: { type: 'Polygon', coordinates: [TRI2] } },
      { type: 'Feature', properties: { id: 'p' }, geometry: { type: 'MultiPolygon', coordinates: [[TRI2.map(([x, y]) => [x! + 0.1, y!])]] } },
    ],
  };
  const b = parseBpolys('  ' + JSON.stringify(fc));
  assert.deepEqual(b.outputIds, ['feature1', 7, 'p']);
  assert.deepEqual(
    b.areas.map((a) => a.id),
    ['feature1', '7', 'p'],
  );
  assert.equal(b.areas[2]!.geometry.type, 'MultiPolygon');
});

test('GeoJSON errors', () => {
  throwsCode(() => parseBpolys('{"type":"Feature"}'), 'BOUNDARY_INVALID', MSG.GEOJSON_NOT_FC);
  throwsCode(() => parseBpolys('{not json'), 'BOUNDARY_INVALID', MSG.GEOJSON_NOT_FC);
  const fc = (f: unknown) => JSON.stringify({ type: 'FeatureCollection', features: [f] });
  throwsCode(() => parseBpolys(fc({ geometry: { type: 'Point', coordinates: [1, 2] } })), 'BOUNDARY_INVALID', MSG.GEOJSON_CONVERT);
  throwsCode(() => parseBpolys(fc({ geometry: { type: 'Polygon', coordinates: [[[1, 'a']]] } })), 'BOUNDARY_INVALID', MSG.GEOJSON_CONVERT);
  throwsCode(() => parseBpolys(fc({ id: 1.5, geometry: { type: 'Polygon', coordinates: [TRI1] } })), 'BOUNDARY_INVALID', MSG.GEOJSON_ID);
  throwsCode(() => parseBpolys(fc({ id: {}, geometry: { type: 'Polygon', coordinates: [TRI1] } })), 'BOUNDARY_INVALID', MSG.GEOJSON_ID);
  throwsCode(() => parseBpolys(fc({ geometry: { type: 'Polygon', coordinates: [[...TRI1.slice(0, 3), [8.6, 49.4]]] } })), 'BOUNDARY_INVALID', /is not closed/);
  throwsCode(() => parseBpolys(JSON.stringify({ features: [] })), 'BOUNDARY_INVALID', /no features/);
});
