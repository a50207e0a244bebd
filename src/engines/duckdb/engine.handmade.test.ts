/**
 * The engine on the handmade history (testdata/testcases/handmade): snapshot counts,
 * contributions per element, users, and measures against expected.json and hand computation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFilter } from '../../filter/index.js';
import { areaOf, lengthOf, perimeterOf } from '../../geometry/measures.js';
import { clipToBBox } from '../../geometry/clip.js';
import type { BBox, Polygon } from '../../geometry/types.js';
import type { AreaOfInterest, ContributionType } from '../../query/model.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { createDuckDbQueryEngine, type DuckDbQueryEngine } from './engine.js';
import { inV1, typeCount } from '../../testing/handmade.js';

const DIR = join(TEST_DATA, 'testcases', 'handmade');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));

export function bboxArea(bbox: BBox, id = 'b1'): AreaOfInterest {
  const [a, b, c, d] = bbox;
  const geometry: Polygon = {
    type: 'Polygon',
    coordinates: [
      [
        [a, b],
        [c, b],
        [c, d],
        [a, d],
        [a, b],
      ],
    ],
  };
  return { id, geometry, bbox };
}
const WORLD = bboxArea([-180, -90, 180, 90]);
const f = (text: string) => parseFilter(text, { version: 1 });

function lastAtOrBefore(ts: number[], t: number): number {
  let k = -1;
  ts.forEach((x, i) => {
    if (x <= t) k = i;
  });
  return k;
}

function filterFor(name: string): string {
  if (name === 'nodes') return 'type:node';
  if (name === 'ways') return 'type:way';
  if (name === 'relations') return 'type:relation';
  return name;
}

describe('DuckDB engine on the handmade history', () => {
  let db: ImportedDb;
  let engine: DuckDbQueryEngine;
  before(async () => {
    db = await importToTemp(join(DIR, 'history-small.osh.pbf'));
    engine = await createDuckDbQueryEngine(db.store);
  });
  after(() => db.dispose());

  it('snapshot counts at every timestamp of expected.json, without never-tagged nodes (one query for all timestamps)', async () => {
    const snaps = expected.snapshots as { t: string; visible: string[]; counts: Record<string, number> }[];
    const names = [...new Set(snaps.flatMap((s) => Object.keys(s.counts)))];
    const timestamps = snaps.map((s) => epoch(s.t));
    for (const name of names) {
      const r = await engine.aggregateSnapshots({ areas: [WORLD], timestamps, filter: f(filterFor(name)), measure: 'count', grouping: { by: 'none' } });
      snaps.forEach((s, k) => {
        // expected.json counts every node (osmium); version 1 only those that ever had a tag (handmade.ts).
        const want = name === 'nodes' ? typeCount(s.visible, 'n', inV1) : s.counts[name];
        if (name in s.counts) assert.equal(r.groups[0].values[k], want, `${name} at ${s.t}`);
      });
    }
  });

  it('contributions per element: the right number in the right interval', async () => {
    const ts = [
      '2019-12-31',
      '2020-01-15',
      '2020-02-10',
      '2020-02-20',
      '2020-03-15',
      '2020-04-15',
      '2020-05-15',
      '2020-06-15',
      '2020-07-15',
      '2020-08-15',
      '2020-09-15',
      '2020-12-31',
    ].map((d) => epoch(`${d}T00:00:00Z`));
    for (const [element, list] of Object.entries(expected.contributions_by_element as Record<string, [string, string][]>)) {
      const type = { n: 'node', w: 'way', r: 'relation' }[element[0]]!;
      const filter = f(`type:${type} and id:${element.slice(1)}`);
      const want = new Array(ts.length - 1).fill(0);
      // A never-tagged node (n3, a building corner that moved) has no contribution in version 1.
      if (inV1(element)) for (const [t] of list) want[lastAtOrBefore(ts, epoch(t))] += 1;
      const r = await engine.countContributions({ areas: [WORLD], timestamps: ts, filter, grouping: { by: 'none' } });
      assert.deepEqual(r.groups[0].values, want, element);
      // by type: the first word of the annotation
      const kinds: Record<string, ContributionType> = {
        creation: 'creation',
        deletion: 'deletion',
        tag_change: 'tagChange',
        geometry_change: 'geometryChange',
      };
      for (const [word, type2] of Object.entries(kinds)) {
        const wantT = new Array(ts.length - 1).fill(0);
        if (inV1(element)) for (const [t, what] of list) if (what.split(' ')[0] === word) wantT[lastAtOrBefore(ts, epoch(t))] += 1;
        const rt = await engine.countContributions({ areas: [WORLD], timestamps: ts, filter, grouping: { by: 'none' }, contributionTypes: [type2] });
        assert.deepEqual(rt.groups[0].values, wantT, `${element} ${word}`);
      }
    }
  });

  it('contributions count examples', async () => {
    const ts = [epoch('2019-12-31T00:00:00Z'), epoch('2020-12-31T00:00:00Z')];
    const b = await engine.countContributions({ areas: [WORLD], timestamps: ts, filter: f('type:way and building=*'), grouping: { by: 'none' } });
    assert.deepEqual(b.groups[0].values, [4]);
    const a = await engine.countContributions({ areas: [WORLD], timestamps: ts, filter: f('type:node and amenity=*'), grouping: { by: 'none' } });
    assert.deepEqual(a.groups[0].values, [4]);
    const latest = await engine.countLatestContributions({ areas: [WORLD], timestamps: ts, filter: f('type:node and amenity=*'), grouping: { by: 'none' } });
    assert.deepEqual(latest.groups[0].values, [1]);
  });

  it('users: 3 distinct in 2020, 1 in [2020-02-01, 2020-03-01)', async () => {
    const all = await engine.countUsers({
      areas: [WORLD],
      timestamps: [epoch('2020-01-01T00:00:00Z'), epoch('2020-12-31T00:00:00Z')],
      filter: f(''),
      grouping: { by: 'none' },
    });
    assert.deepEqual(all.groups[0].values, [3]);
    const feb = await engine.countUsers({
      areas: [WORLD],
      timestamps: [epoch('2020-02-01T00:00:00Z'), epoch('2020-03-01T00:00:00Z')],
      filter: f(''),
      grouping: { by: 'none' },
    });
    assert.deepEqual(feb.groups[0].values, [1]);
    const byTag = await engine.countUsers({
      areas: [WORLD],
      timestamps: [epoch('2020-01-01T00:00:00Z'), epoch('2020-12-31T00:00:00Z')],
      filter: f(''),
      grouping: { by: 'tag', key: 'building' },
    });
    // building=yes: alice creates w10 (and deletes nothing with yes); building=house: bob's change (yes→house, both groups) and alice's deletion
    assert.deepEqual(
      byTag.groups.map((g) => [g.key, g.values[0]]),
      [
        [{ kind: 'total' }, 3],
        [{ kind: 'remainder' }, 3],
        [{ kind: 'tag', key: 'building', value: 'house' }, 2],
        [{ kind: 'tag', key: 'building', value: 'yes' }, 2],
      ],
    );
  });

  it('lengths and areas within 0.5 % of the reference values', async () => {
    const g = expected.geometry_reference_values_tolerance_1_percent as Record<string, number>;
    const val = async (filter: string, measure: 'length' | 'area', t: string) =>
      (await engine.aggregateSnapshots({ areas: [WORLD], timestamps: [epoch(t)], filter: f(filter), measure, grouping: { by: 'none' } })).groups[0].values[0];
    const close = (got: number, want: number, what: string) => assert.ok(Math.abs(got - want) <= 0.005 * want, `${what}: ${got} vs ${want}`);
    close(await val('type:way and id:11', 'length', '2020-03-01T00:00:00Z'), g['w11 v1 length m (haversine, R=6371008.8)'], 'w11 v1');
    close(await val('type:way and id:11', 'length', '2020-08-15T00:00:00Z'), g['w11 v2 length m'], 'w11 v2');
    close(await val('type:way and id:10', 'area', '2020-02-15T00:00:00Z'), g['w10 area m2 before 2020-03-01 (spherical ring area, R=6378137)'], 'w10 before');
    close(await val('type:way and id:10', 'area', '2020-03-15T00:00:00Z'), g['w10 area m2 from 2020-03-01 until deletion'], 'w10 after');
    close(await val('type:relation and id:20', 'area', '2020-03-15T00:00:00Z'), g['r20 multipolygon area m2'], 'r20');
  });

  it('clipped measures of single features equal the geometry kernel on hand-built geometries', async () => {
    const t = epoch('2020-02-20T00:00:00Z');
    // the left half of building w10 (8.000..8.001 × 49.000..49.001), cut at lon 8.0005
    const cut: BBox = [7.99, 48.99, 8.0005, 49.01];
    const square: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [8, 49],
          [8.001, 49],
          [8.001, 49.001],
          [8, 49.001],
          [8, 49],
        ],
      ],
    };
    const half = clipToBBox(square, cut)!;
    const q = (measure: 'count' | 'area' | 'perimeter' | 'length', filter: string, bbox: BBox) =>
      engine
        .aggregateSnapshots({ areas: [bboxArea(bbox)], timestamps: [t], filter: f(filter), measure, grouping: { by: 'none' } })
        .then((r) => r.groups[0].values[0]);
    assert.equal(await q('count', 'type:way and id:10', cut), 1);
    assert.ok(Math.abs((await q('area', 'type:way and id:10', cut)) - areaOf(half)) < 1e-6);
    assert.ok(Math.abs((await q('perimeter', 'type:way and id:10', cut)) - perimeterOf(half)) < 1e-6);
    // hand: the half square is 0.0005° × 0.001°; its area is half the square's
    assert.ok(Math.abs(areaOf(half) - areaOf(square) / 2) < 0.01 * areaOf(square));
    // street w11 (8.000..8.002 at lat 49.002), cut at 8.0005: a quarter of it
    const line = {
      type: 'LineString' as const,
      coordinates: [
        [8, 49.002],
        [8.0005, 49.002],
      ] as [number, number][],
    };
    const len = await q('length', 'type:way and id:11', [7.99, 48.99, 8.0005, 49.01]);
    assert.ok(Math.abs(len - lengthOf(line)) < 1e-6, `${len} vs ${lengthOf(line)}`);
    // a polygon area (triangle) instead of a bbox gives the kernel's clip too
    const tri: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [7.99, 48.99],
          [8.0005, 48.99],
          [8.0005, 49.01],
          [7.99, 48.99],
        ],
      ],
    };
    const r = await engine.aggregateSnapshots({
      areas: [{ id: 'tri', geometry: tri, bbox: [7.99, 48.99, 8.0005, 49.01] }],
      timestamps: [t],
      filter: f('type:way and id:10'),
      measure: 'count',
      grouping: { by: 'none' },
    });
    assert.equal(r.groups[0].values[0], 1);
    // outside everything
    assert.equal(await q('count', '', [10, 10, 11, 11]), 0);
  });

  it('groupings: type, tag with and without values, key, boundary', async () => {
    // Version 1 sees n5, w10, w11, w12, r20 on 2020-02-20 and w10, w11, w12, r20 on 2020-05-15 (n5 is
    // deleted then); the never-tagged nodes n1–n4, n6, n7, n9–n12 are in no group.
    const t = [epoch('2020-02-20T00:00:00Z'), epoch('2020-05-15T00:00:00Z')];
    const base = { areas: [WORLD], timestamps: t, filter: f(''), measure: 'count' as const };
    const byType = await engine.aggregateSnapshots({ ...base, filter: f('type:way'), grouping: { by: 'type' } });
    assert.deepEqual(
      byType.groups.map((g) => g.values),
      [
        [0, 0],
        [3, 3],
        [0, 0],
      ],
    );
    const byTag = await engine.aggregateSnapshots({ ...base, grouping: { by: 'tag', key: 'building' } });
    assert.deepEqual(
      byTag.groups.map((g) => [g.key.kind === 'tag' ? g.key.value : g.key.kind, g.values]),
      [
        ['remainder', [4, 3]],
        ['house', [0, 1]],
        ['yes', [1, 0]],
      ],
    );
    const byTagValues = await engine.aggregateSnapshots({ ...base, grouping: { by: 'tag', key: 'building', values: ['yes', 'nope'] } });
    assert.deepEqual(
      byTagValues.groups.map((g) => [g.key.kind === 'tag' ? g.key.value : g.key.kind, g.values]),
      [
        ['remainder', [4, 4]],
        ['yes', [1, 0]],
        ['nope', [0, 0]],
      ],
    );
    const byKey = await engine.aggregateSnapshots({ ...base, grouping: { by: 'key', keys: ['highway', 'building', 'unknownkey'] } });
    assert.deepEqual(
      byKey.groups.map((g) => [g.key.kind === 'key' ? g.key.key : g.key.kind, g.values]),
      [
        ['remainder', [3, 2]],
        ['highway', [1, 1]],
        ['building', [1, 1]],
        ['unknownkey', [0, 0]],
      ],
    );
    const two = [bboxArea([7.9, 48.9, 8.0015, 49.0015], 'a'), bboxArea([8.005, 49.005, 8.02, 49.02], 'b')];
    const byBoundary = await engine.aggregateSnapshots({ ...base, areas: two, grouping: { by: 'boundary' } });
    // a: w10 (its never-tagged corners n1..n4 are not counted; n5 at lon 8.002 and w11 at lat 49.002
    // are outside); b: w12, r20 (not the ring's nodes n9..n12)
    assert.deepEqual(byBoundary.groups, [
      { key: { kind: 'boundary', id: 'a' }, values: [1, 1] },
      { key: { kind: 'boundary', id: 'b' }, values: [2, 2] },
    ]);
    const union = await engine.aggregateSnapshots({ ...base, areas: two, grouping: { by: 'none' } });
    assert.deepEqual(union.groups[0].values, [3, 3]);
    const ratio = await engine.ratio({ ...base, filter: f('type:way'), filter2: f('building=*'), perBoundary: false });
    assert.deepEqual(ratio.groups[0], { key: { kind: 'total' }, values: [3, 3], values2: [1, 1] });
  });

  it('an aborted signal rejects with its reason', async () => {
    const ac = new AbortController();
    ac.abort(new Error('time limit'));
    await assert.rejects(
      engine.aggregateSnapshots({ areas: [WORLD], timestamps: [0], filter: f(''), measure: 'count', grouping: { by: 'none' }, signal: ac.signal }),
      /time limit/,
    );
  });
});
