/** The extraction text: envelope, feature layout, properties, coordinates, centroid and bbox. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ExtractedFeature } from '../../../query/extraction.js';
import { centroidOf, outputGeometry } from './geometry-output.js';
import { coordinate, FEATURE_SEPARATOR, featureText, head, NEUTRAL_PROPERTY_NAMES, propertiesOf, TAIL } from './geojson.js';

const NONE = { tags: false, metadata: false, contributionTypes: false, unclipped: false };
const way: ExtractedFeature = {
  type: 1,
  id: 42,
  version: 3,
  changeset: 99,
  time: 1451606400,
  time2: 1420070400,
  geometry: {
    type: 'LineString',
    coordinates: [
      [1.123456789, 42.5],
      [1.2, 42.60000004],
    ],
  },
  tags: [
    ['highway', 'primary'],
    ['@odd', 'x'],
    ['Name', 'N'],
  ],
};

describe('extraction GeoJSON text', () => {
  it('head + features + tail is a valid document with the envelope first', () => {
    const text =
      head({ description: 'd', requestUrl: 'http://x/' }) +
      featureText(way, { kind: 'snapshot', geometryKind: 'geometry', properties: NONE }) +
      FEATURE_SEPARATOR +
      featureText(way, { kind: 'snapshot', geometryKind: 'centroid', properties: NONE }) +
      TAIL;
    const doc = JSON.parse(text);
    assert.deepEqual(Object.keys(doc), ['attribution', 'apiVersion', 'metadata', 'type', 'features']);
    assert.equal(doc.features.length, 2);
    assert.ok(text.endsWith('}]\n}\n'));
    assert.deepEqual(JSON.parse(head() + TAIL).features, []);
  });

  it('coordinates: 7 decimals, printed as Java doubles', () => {
    assert.equal(coordinate(1.123456789), '1.1234568');
    assert.equal(coordinate(42.60000004), '42.6');
    assert.equal(coordinate(10), '10.0');
    assert.equal(coordinate(-0.00000001), '0.0');
    assert.equal(coordinate(0.0001234), '1.234E-4');
  });

  it('properties per kind, sorted, tags with an @ prefixed', () => {
    const keys = (kind: Parameters<typeof propertiesOf>[1], props = NONE) => propertiesOf(way, kind, props).map(([k]) => k);
    assert.deepEqual(keys('snapshot'), ['@osmId', '@snapshotTimestamp']);
    assert.deepEqual(keys('snapshot', { ...NONE, metadata: true }), ['@changesetId', '@lastEdit', '@osmId', '@osmType', '@snapshotTimestamp', '@version']);
    assert.deepEqual(keys('fullHistory', { ...NONE, tags: true }), ['@@odd', '@osmId', '@validFrom', '@validTo', 'Name', 'highway']);
    const c: ExtractedFeature = { ...way, contribution: { changeset: 7, creation: false, deletion: false, tagChange: true, geometryChange: true } };
    // Contributions extraction always carries version, type and changeset (the spec's property table).
    assert.deepEqual(
      propertiesOf(c, 'contributions', NONE).map(([k]) => k),
      ['@changesetId', '@contributionChangesetId', '@osmId', '@osmType', '@timestamp', '@version'],
    );
    assert.deepEqual(
      propertiesOf(c, 'latestContributions', { ...NONE, contributionTypes: true }).map(([k]) => k),
      ['@changesetId', '@contributionChangesetId', '@geometryChange', '@osmId', '@osmType', '@tagChange', '@timestamp', '@version'],
    );
    assert.deepEqual(
      propertiesOf(way, 'snapshot', NONE, new Set(['highway'])).map(([k]) => k),
      ['@osmId', '@snapshotTimestamp', 'highway'],
    );
  });

  it('the identity: "<type>/<id>" under @osmId, the type under @osmType; the neutral names behind the switch', () => {
    const meta = { ...NONE, metadata: true };
    assert.deepEqual(
      propertiesOf(way, 'snapshot', meta).filter(([k]) => k === '@osmId' || k === '@osmType'),
      [
        ['@osmId', `way/${way.id}`],
        ['@osmType', 'way'],
      ],
    );
    const neutral = propertiesOf(way, 'snapshot', meta, undefined, NEUTRAL_PROPERTY_NAMES).map(([k]) => k);
    assert.ok(neutral.includes('@mapId') && neutral.includes('@mapType'));
    assert.ok(!neutral.includes('@osmId') && !neutral.includes('@osmType'));
  });

  it('a contribution deletion has geometry null; other features without geometry are skipped', () => {
    const del: ExtractedFeature = {
      ...way,
      geometry: null,
      tags: [],
      contribution: { changeset: 7, creation: false, deletion: true, tagChange: false, geometryChange: false },
    };
    const f = JSON.parse(featureText(del, { kind: 'contributions', geometryKind: 'geometry', properties: { ...NONE, contributionTypes: true } })!);
    assert.equal(f.geometry, null);
    assert.equal(f.properties['@deletion'], true);
    assert.equal(featureText({ ...way, geometry: null }, { kind: 'snapshot', geometryKind: 'geometry', properties: NONE }), null);
  });

  it('a feature is type, geometry, properties: no top-level id, as the reference writes it (its features are built without one)', () => {
    const f = JSON.parse(featureText(way, { kind: 'snapshot', geometryKind: 'geometry', properties: NONE })!);
    assert.deepEqual(Object.keys(f), ['type', 'geometry', 'properties']);
  });

  it('bbox and centroid', () => {
    assert.deepEqual(outputGeometry(way.geometry!, 'bbox'), {
      type: 'Polygon',
      coordinates: [
        [
          [1.123456789, 42.5],
          [1.2, 42.5],
          [1.2, 42.60000004],
          [1.123456789, 42.60000004],
          [1.123456789, 42.5],
        ],
      ],
    });
    assert.deepEqual(outputGeometry({ type: 'Point', coordinates: [1, 2] }, 'bbox'), { type: 'Point', coordinates: [1, 2] });
    assert.deepEqual(
      centroidOf({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [2, 0],
            [2, 2],
            [0, 2],
            [0, 0],
          ],
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
        ],
      }),
      [(4 * 1 - 1 * 0.5) / 3, (4 * 1 - 1 * 0.5) / 3],
    );
    assert.deepEqual(
      centroidOf({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [2, 0],
          [2, 1],
        ],
      }),
      [(2 * 1 + 1 * 2) / 3, (1 * 0.5) / 3],
    );
    assert.deepEqual(
      centroidOf({
        type: 'MultiPoint',
        coordinates: [
          [0, 0],
          [2, 4],
        ],
      }),
      [1, 2],
    );
    // the polygon dominates lines and points of a collection
    assert.deepEqual(
      centroidOf({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [9, 9] },
          {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [2, 0],
                [2, 2],
                [0, 2],
                [0, 0],
              ],
            ],
          },
        ],
      }),
      [1, 1],
    );
  });
});
