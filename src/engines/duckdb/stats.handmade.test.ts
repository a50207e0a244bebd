/**
 * The v2 statistics engine on small histories: the handmade history (testdata/testcases/
 * handmade, expected.json), hand-written edge cases (a tiny history written here), and the
 * brute-force oracle (stats-brute-force.ts) on fast-check generated aoi/time/filter combinations.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseFilter } from '../../filter/index.js';
import type { BBox, Polygon, Position } from '../../geometry/types.js';
import type { StatsMeasure } from '../../query/stats.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { loadAllRows, polyArea, rectArea, type BruteArea, type BruteRow } from './brute-force.js';
import { bruteBins, bruteCurrentness, bruteFeatures } from './stats-brute-force.js';
import { inV2, typeCount } from '../../testing/handmade.js';
import { createDuckDbStatsEngine, type DuckDbStatsEngine } from './stats.js';

const DIR = join(TEST_DATA, 'testcases', 'handmade');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
const f = (text: string) => parseFilter(text, { version: 2 });
const WORLD = rectArea([-180, -90, 180, 90], 'world');
const day = (d: string) => epoch(`${d}T00:00:00Z`);

/** Equal up to floating-point summation order (relative 1e-9, absolute 1e-6). */
function near(got: readonly number[], want: readonly number[], what: string): void {
  assert.equal(got.length, want.length, what);
  got.forEach((g, i) =>
    assert.ok(
      Math.abs(g - want[i]) <= 1e-6 + 1e-9 * Math.abs(want[i]),
      `${what} [${i}]: ${g} vs ${want[i]} (got ${JSON.stringify(got)}, want ${JSON.stringify(want)})`,
    ),
  );
}

describe('v2 stats on the handmade history', () => {
  let db: ImportedDb;
  let engine: DuckDbStatsEngine;
  let rows: BruteRow[];
  before(async () => {
    db = await importToTemp(join(DIR, 'history-small.osh.pbf'));
    engine = await createDuckDbStatsEngine(db.store);
    rows = await loadAllRows(db);
  });
  after(() => db.dispose());

  it('features count at the snapshots of expected.json, without never-tagged elements', async () => {
    const snaps = expected.snapshots as { t: string; visible: string[]; counts: Record<string, number> }[];
    const timestamps = snaps.map((s) => epoch(s.t));
    const names = [...new Set(snaps.flatMap((s) => Object.keys(s.counts)))];
    const text = (name: string) => ({ nodes: 'type:node', ways: 'type:way', relations: 'type:relation' })[name] ?? name;
    for (const name of names) {
      const r = await engine.features({ aoi: WORLD, timestamps, filter: f(text(name)), measure: 'count', clip: false });
      const type = ({ nodes: 'n', ways: 'w', relations: 'r' } as const)[name as 'nodes'];
      snaps.forEach((s, k) => {
        // expected.json counts every element (osmium); version 2 only those that ever had a tag (handmade.ts).
        const want = type === undefined ? s.counts[name] : typeCount(s.visible, type, inV2);
        if (name in s.counts) assert.equal(r.total[k], want, `${name} at ${s.t}`);
      });
    }
  });

  it('contributions and contributors per bin equal expected.json', async () => {
    const year = [day('2019-12-31'), day('2020-12-31')];
    const q = (filter: string, edges: number[]) => ({ aoi: WORLD, edges, filter: f(filter) });
    // "building=* ways: creation + geometry + tag + deletion of w10"; the deletion matches by tags_before.
    assert.deepEqual(await engine.contributions(q('type:way and building=*', year)), [4]);
    assert.deepEqual(await engine.contributions(q('type:node and amenity=*', year)), [4]);
    // "all versions with timestamp in 2020-02": 10 (every kept state is one contribution; none of them is
    // minor or collapsed), of which version 2 sees 3: n5 v2, r20 v1 and w11 v1 (not the never-tagged
    // n6, n7, n9–n12 and w12).
    assert.deepEqual(await engine.contributions(q('', [day('2020-02-01'), day('2020-03-01')])), [3]);
    assert.deepEqual(await engine.contributors(q('', [day('2020-01-01'), day('2020-12-31')])), [3]);
    assert.deepEqual(await engine.contributors(q('', [day('2020-02-01'), day('2020-03-01')])), [1]);
    // per element, monthly bins: the listed contributions land in their months
    const edges = [
      '2019-12-01',
      '2020-01-01',
      '2020-02-01',
      '2020-03-01',
      '2020-04-01',
      '2020-05-01',
      '2020-06-01',
      '2020-07-01',
      '2020-08-01',
      '2020-09-01',
      '2020-10-01',
    ].map(day);
    for (const [element, list] of Object.entries(expected.contributions_by_element as Record<string, [string, string][]>)) {
      const type = { n: 'node', w: 'way', r: 'relation' }[element[0]]!;
      const want = new Array(edges.length - 1).fill(0);
      if (inV2(element)) for (const [t] of list) want[edges.filter((e) => e <= epoch(t)).length - 1] += 1;
      assert.deepEqual(await engine.contributions(q(`type:${type} and id:${element.slice(1)}`, edges)), want, element);
    }
  });

  it('currentness: n5 (last edit 2020-06-01), w11 (2020-08-01), r20 (2020-09-01); the never-tagged w12 (2020-02-01) is not a feature', async () => {
    const edges = ['2020-01-01', '2020-06-01', '2020-08-01', '2020-09-01', '2021-01-01'].map(day);
    assert.deepEqual(
      await engine.currentness({ aoi: WORLD, edges, filter: f('type:way or type:relation or amenity=*'), measure: 'count', clip: false }),
      [0, 1, 1, 1],
    );
    // the first edge after everything: nothing
    assert.deepEqual(
      await engine.currentness({ aoi: WORLD, edges: [day('2021-01-01'), day('2022-01-01')], filter: f(''), measure: 'count', clip: false }),
      [0],
    );
  });

  it('groupBy key: total over all matching features, one series per value', async () => {
    const timestamps = [day('2020-02-20'), day('2020-05-15')];
    const r = await engine.features({ aoi: WORLD, timestamps, filter: f(''), measure: 'count', clip: false, groupByKey: 'building' });
    // n5, w10, w11, r20, then w10, w11, r20 (n5 deleted); never-tagged nodes and w12 are not features.
    assert.deepEqual(r.total, [4, 3]);
    assert.deepEqual([...r.groups!].sort(), [
      ['house', [0, 1]],
      ['yes', [1, 0]],
    ]);
    const none = await engine.features({ aoi: WORLD, timestamps, filter: f(''), measure: 'count', clip: false, groupByKey: 'nosuchkey' });
    assert.deepEqual(none.groups!.size, 0);
  });

  it('agrees with the brute-force oracle on generated queries (all four statistics, clip, groupBy)', async () => {
    const T0 = day('2019-12-15');
    const T1 = day('2020-10-15');
    const coord = (lo: number, hi: number) => fc.double({ min: lo, max: hi, noNaN: true });
    const areaArb = fc.oneof(
      fc.tuple(coord(7.995, 8.013), coord(48.995, 49.013), coord(0.0002, 0.01), coord(0.0002, 0.01)).map(([x, y, w, h]) => {
        const b: BBox = [x, y, x + w, y + h];
        return { area: rectArea(b, 'r'), brute: { bbox: b } as BruteArea };
      }),
      fc
        .tuple(coord(7.998, 8.012), coord(48.998, 49.012), coord(0.0005, 0.008), fc.integer({ min: 3, max: 9 }), fc.double({ min: 0, max: 6, noNaN: true }))
        .map(([cx, cy, r, n, rot]) => {
          const ring: Position[] = [];
          for (let i = 0; i < n; i++) ring.push([cx + r * Math.cos(rot + (2 * Math.PI * i) / n), cy + r * 0.8 * Math.sin(rot + (2 * Math.PI * i) / n)]);
          ring.push(ring[0]);
          const g: Polygon = { type: 'Polygon', coordinates: [ring] };
          return { area: polyArea(g, 'p'), brute: { polygon: g } as BruteArea };
        }),
    );
    const timesArb = fc.uniqueArray(fc.integer({ min: T0, max: T1 }), { minLength: 2, maxLength: 8 }).map((a) => a.sort((x, y) => x - y));
    const filterArb = fc.constantFrom(
      '',
      'type:node',
      'type:way',
      'building=*',
      'amenity=*',
      'amenity=bench',
      'geometry:polygon',
      'geometry:line or geometry:point',
      'not highway=*',
      'landuse=grass',
      'type:relation',
    );
    const measureArb = fc.constantFrom<StatsMeasure>('count', 'length', 'area');
    const keyArb = fc.constantFrom(undefined, 'building', 'amenity', 'highway', 'landuse');
    await fc.assert(
      fc.asyncProperty(areaArb, timesArb, filterArb, measureArb, fc.boolean(), keyArb, async ({ area, brute }, ts, filterText, measure, clip, key) => {
        const filter = f(filterText);
        const what = `${JSON.stringify(area.geometry)} ${ts} ${filterText} ${measure} clip=${clip} key=${key}`;
        const fe = await engine.features({ aoi: area, timestamps: ts, filter, measure, clip, groupByKey: key });
        const bf = bruteFeatures(rows, brute, { filter, timestamps: ts, measure, clip, groupByKey: key });
        near(fe.total, bf.total, `features ${what}`);
        if (key !== undefined) {
          assert.deepEqual([...fe.groups!.keys()].sort(), [...bf.groups!.keys()].sort(), `groups ${what}`);
          for (const [v, s] of bf.groups!) near(fe.groups!.get(v)!, s, `group ${v} ${what}`);
        }
        const bins = bruteBins(rows, brute, { filter, edges: ts });
        assert.deepEqual(await engine.contributions({ aoi: area, edges: ts, filter }), bins.contributions, `contributions ${what}`);
        assert.deepEqual(await engine.contributors({ aoi: area, edges: ts, filter }), bins.contributors, `contributors ${what}`);
        const cur = await engine.currentness({ aoi: area, edges: ts, filter, measure, clip });
        near(cur, bruteCurrentness(rows, brute, { filter, edges: ts, measure, clip }), `currentness ${what}`);
      }),
      { numRuns: 150, seed: 20240506 },
    );
  });
});

/** A tiny history of edge cases (lon 10.0–10.1, lat 10.0–10.1). */
const EDGE_CASES = `<?xml version='1.0' encoding='UTF-8'?>
<osm version="0.6" generator="v2-stats-test">
  <node id="101" version="1" timestamp="2021-01-01T00:00:00Z" uid="1" user="a" changeset="1" visible="true" lat="10.0" lon="10.0"/>
  <node id="102" version="1" timestamp="2021-01-01T00:00:00Z" uid="1" user="a" changeset="1" visible="true" lat="10.1" lon="10.1"/>
  <node id="200" version="1" timestamp="2021-01-01T00:00:00Z" uid="1" user="a" changeset="2" visible="true" lat="10.01" lon="10.01"><tag k="amenity" v="bench"/></node>
  <node id="200" version="2" timestamp="2021-03-01T00:00:00Z" uid="2" user="b" changeset="3" visible="false"/>
  <node id="300" version="1" timestamp="2021-01-01T00:00:00Z" uid="1" user="a" changeset="10" visible="true" lat="10.01" lon="10.02"><tag k="amenity" v="cafe"/></node>
  <node id="300" version="2" timestamp="2021-01-01T00:10:00Z" uid="1" user="a" changeset="10" visible="true" lat="10.01" lon="10.02"><tag k="amenity" v="restaurant"/></node>
  <node id="500" version="1" timestamp="2021-01-01T00:00:00Z" uid="1" user="a" changeset="20" visible="true" lat="10.01" lon="10.03"><tag k="shop" v="bakery"/></node>
  <node id="500" version="2" timestamp="2021-05-01T00:00:00Z" uid="3" user="c" changeset="21" visible="true" lat="10.01" lon="10.03"/>
  <way id="100" version="1" timestamp="2021-01-01T00:00:00Z" uid="1" user="a" changeset="1" visible="true">
    <nd ref="101"/><nd ref="102"/><tag k="highway" v="track"/>
  </way>
  <relation id="400" version="1" timestamp="2021-02-01T00:00:00Z" uid="4" user="d" changeset="30" visible="true">
    <member type="way" ref="100" role=""/><tag k="type" v="route"/><tag k="route" v="hiking"/>
  </relation>
</osm>
`;

describe('v2 stats edge cases (a tiny history written here)', () => {
  let dir: string;
  let db: ImportedDb;
  let engine: DuckDbStatsEngine;
  let rows: BruteRow[];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-v2stats-'));
    writeFileSync(join(dir, 'edge.osh'), EDGE_CASES);
    db = await importToTemp(join(dir, 'edge.osh'));
    engine = await createDuckDbStatsEngine(db.store);
    rows = await loadAllRows(db);
  });
  after(() => {
    db.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  const ts = ['2021-01-01T00:05:00Z', '2021-02-15T00:00:00Z', '2021-04-01T00:00:00Z', '2021-06-01T00:00:00Z'].map(epoch);
  const edges = ['2021-01-01', '2021-02-01', '2021-03-01', '2021-04-01', '2021-05-01', '2021-06-01'].map(day);
  const whole = rectArea([9.9, 9.9, 10.2, 10.2], 'whole');

  it('a line whose bbox meets the aoi but not the line itself counts nowhere', async () => {
    // the diagonal w100 runs from (10.0, 10.0) to (10.1, 10.1); this box is in its bbox's lower right corner
    const corner = rectArea([10.08, 10.0, 10.1, 10.02], 'corner');
    const tri = polyArea(
      {
        type: 'Polygon',
        coordinates: [
          [
            [10.06, 9.99],
            [10.11, 9.99],
            [10.11, 10.04],
            [10.06, 9.99],
          ],
        ],
      },
      'tri',
    );
    for (const aoi of [corner, tri]) {
      assert.deepEqual((await engine.features({ aoi, timestamps: ts, filter: f('highway=*'), measure: 'count', clip: false })).total, [0, 0, 0, 0]);
      assert.deepEqual((await engine.features({ aoi, timestamps: ts, filter: f('highway=*'), measure: 'length', clip: false })).total, [0, 0, 0, 0]);
      assert.deepEqual(await engine.contributions({ aoi, edges, filter: f('') }), [0, 0, 0, 0, 0]);
      assert.deepEqual(await engine.contributors({ aoi, edges, filter: f('') }), [0, 0, 0, 0, 0]);
      assert.deepEqual(await engine.currentness({ aoi, edges, filter: f(''), measure: 'count', clip: false }), [0, 0, 0, 0, 0]);
    }
    // a box the line crosses: counted, unclipped length = the whole line's, clipped = a part
    const crossed = rectArea([10.04, 10.04, 10.06, 10.06], 'crossed');
    const full = (await engine.features({ aoi: whole, timestamps: ts, filter: f('highway=*'), measure: 'length', clip: false })).total;
    const unclipped = (await engine.features({ aoi: crossed, timestamps: ts, filter: f('highway=*'), measure: 'length', clip: false })).total;
    const clipped = (await engine.features({ aoi: crossed, timestamps: ts, filter: f('highway=*'), measure: 'length', clip: true })).total;
    assert.ok(full[1] > 15000 && full[1] < 16000, `${full}`);
    assert.deepEqual(unclipped, full);
    assert.ok(Math.abs(clipped[1] - full[1] / 5) < 1, `${clipped} vs ${full}`);
  });

  it('a deleted state: not a feature, but its deletion is a contribution (by its tags before and last geometry)', async () => {
    assert.deepEqual((await engine.features({ aoi: whole, timestamps: ts, filter: f('amenity=bench'), measure: 'count', clip: false })).total, [1, 1, 0, 0]);
    assert.deepEqual(await engine.contributions({ aoi: whole, edges, filter: f('amenity=bench') }), [1, 0, 1, 0, 0]);
    assert.deepEqual(await engine.contributors({ aoi: whole, edges, filter: f('amenity=bench') }), [1, 0, 1, 0, 0]);
    const at = rectArea([10.009, 10.009, 10.011, 10.011], 'at');
    // (the line w100 passes here too; its route r400 is not a version 2 feature: no contribution)
    assert.deepEqual(await engine.contributions({ aoi: at, edges, filter: f('') }), [2, 0, 1, 0, 0]);
    assert.deepEqual(await engine.contributions({ aoi: at, edges, filter: f('type:node') }), [1, 0, 1, 0, 0]);
  });

  it('a collapsed state: seen by snapshots, not a contribution', async () => {
    assert.deepEqual((await engine.features({ aoi: whole, timestamps: ts, filter: f('amenity=cafe'), measure: 'count', clip: false })).total, [1, 0, 0, 0]);
    assert.deepEqual(await engine.contributions({ aoi: whole, edges, filter: f('id:300') }), [1, 0, 0, 0, 0]);
    assert.deepEqual(await engine.contributions({ aoi: whole, edges, filter: f('amenity=cafe') }), [0, 0, 0, 0, 0]);
  });

  it('a route relation (neither multipolygon nor boundary): no feature and no contribution', async () => {
    assert.deepEqual((await engine.features({ aoi: whole, timestamps: ts, filter: f('type:relation'), measure: 'count', clip: false })).total, [0, 0, 0, 0]);
    assert.deepEqual(await engine.currentness({ aoi: whole, edges, filter: f('type:relation'), measure: 'count', clip: false }), [0, 0, 0, 0, 0]);
    assert.deepEqual(await engine.contributions({ aoi: whole, edges, filter: f('type:relation') }), [0, 0, 0, 0, 0]);
    assert.deepEqual(await engine.contributors({ aoi: whole, edges, filter: f('type:relation') }), [0, 0, 0, 0, 0]);
  });

  it('tags before matching, tags not: a contribution, not a feature', async () => {
    assert.deepEqual(await engine.contributions({ aoi: whole, edges, filter: f('shop=*') }), [1, 0, 0, 0, 1]);
    assert.deepEqual(await engine.contributors({ aoi: whole, edges, filter: f('shop=bakery') }), [1, 0, 0, 0, 1]);
    assert.deepEqual((await engine.features({ aoi: whole, timestamps: ts, filter: f('shop=*'), measure: 'count', clip: false })).total, [1, 1, 1, 0]);
    assert.deepEqual(await engine.currentness({ aoi: whole, edges, filter: f('shop=*'), measure: 'count', clip: false }), [0, 0, 0, 0, 0]);
    // non-tag conditions test the state itself: the untagged v2 is a point
    assert.deepEqual(await engine.contributions({ aoi: whole, edges, filter: f('shop=* and geometry:point') }), [1, 0, 0, 0, 1]);
  });

  it('every edge-case query agrees with the brute-force oracle', async () => {
    for (const aoi of [whole, rectArea([10.08, 10.0, 10.1, 10.02], 'corner'), rectArea([10.04, 10.04, 10.06, 10.06], 'crossed')]) {
      const brute: BruteArea = { bbox: aoi.bbox };
      for (const text of ['', 'amenity=*', 'shop=*', 'type:relation', 'highway=*']) {
        const filter = f(text);
        const bins = bruteBins(rows, brute, { filter, edges });
        assert.deepEqual(await engine.contributions({ aoi, edges, filter }), bins.contributions, `${aoi.id} ${text}`);
        assert.deepEqual(await engine.contributors({ aoi, edges, filter }), bins.contributors, `${aoi.id} ${text}`);
        for (const clip of [false, true]) {
          near(
            (await engine.features({ aoi, timestamps: ts, filter, measure: 'length', clip })).total,
            bruteFeatures(rows, brute, { filter, timestamps: ts, measure: 'length', clip }).total,
            `${aoi.id} ${text}`,
          );
          near(
            await engine.currentness({ aoi, edges, filter, measure: 'count', clip }),
            bruteCurrentness(rows, brute, { filter, edges, measure: 'count', clip }),
            `${aoi.id} ${text}`,
          );
        }
      }
    }
  });
});
