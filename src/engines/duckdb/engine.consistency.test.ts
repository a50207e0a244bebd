/**
 * Interior/boundary consistency on the Andorra store: for random bboxes and polygons, the
 * engine's count/length/area/perimeter (SQL for interior rows, exact clipping for boundary rows,
 * one pass over the timestamps) equal a brute-force TypeScript evaluation over every row; and
 * contributions/latest/users equal the brute-force docs/reference/v1-reference-behaviour.md §3.5 evaluation on small areas.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import polygonClipping from 'polygon-clipping';
import { compilePredicate, parseFilter } from '../../filter/index.js';
import { placedRowids } from '../../query/empty-placement.js';
import { EMPTY_GEOMETRY_STATES_SQL } from './empty-geometry.js';
import { emptyGeometryStatesOf } from '../common/empty-geometry.js';
import { readAllRows } from './statements.js';
import type { BBox, MultiPolygon, Polygon, Position } from '../../geometry/types.js';
import type { ContributionType, Measure } from '../../query/model.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import {
  assertCloseSeries,
  bruteContributions,
  bruteCounts,
  bruteSnapshots,
  loadAllRows,
  polyArea,
  randomAreas,
  randomBBox,
  rectArea,
  rng,
  type BruteRow,
} from './brute-force.js';
import { BOX_SCAN_MIN_AREAS } from '../common/engine.js';
import { createDuckDbQueryEngine, type DuckDbQueryEngine } from './engine.js';

const TIMESTAMPS = ['2010-01-01', '2013-06-01', '2016-01-01', '2019-01-01', '2022-01-01'].map((d) => epoch(`${d}T00:00:00Z`));
const FILTERS = ['building=*', 'highway=* or waterway=*', 'type:relation', 'natural=* or landuse=*', 'amenity=*'];

describe('engine vs brute force on the Andorra store', () => {
  let db: ImportedDb;
  let engine: DuckDbQueryEngine;
  let rows: BruteRow[];
  before(async () => {
    db = await importToTemp(join(TEST_DATA, 'history', 'andorra.osh.pbf'));
    engine = await createDuckDbQueryEngine(db.store);
    rows = await loadAllRows(db);
  });
  after(() => db.dispose());

  const r = rng(42);
  const areas = randomAreas(r);

  for (const { area, brute } of areas) {
    it(`snapshots in ${area.id}: count, length, area, perimeter equal brute force for ${FILTERS.length} filters`, async () => {
      for (const text of FILTERS) {
        const filter = parseFilter(text, { version: 1 });
        const want = bruteSnapshots(rows, brute, filter, TIMESTAMPS);
        for (const measure of ['count', 'length', 'area', 'perimeter'] as Measure[]) {
          const got = await engine.aggregateSnapshots({ areas: [area], timestamps: TIMESTAMPS, filter, measure, grouping: { by: 'none' } });
          if (measure === 'count') assert.deepEqual(got.groups[0].values, want.count, `${area.id} ${text} count`);
          else assertCloseSeries(got.groups[0].values, want[measure], `${area.id} ${text} ${measure}`);
        }
      }
    });
  }

  it('the polygon areas do use the interior fast path (some full grid cells)', async () => {
    const { planArea } = await import('../../query/area-plan.js');
    for (const { area } of areas.filter((a) => !a.area.id.startsWith('bbox'))) {
      const plan = planArea(area);
      assert.ok(plan.grid && plan.grid.full.some((x) => x === 1), area.id);
    }
  });

  it('union of two overlapping areas and groupBy boundary equal brute force', async () => {
    const [a, b] = [areas[5], areas[0]];
    const toMulti = (g: Polygon | MultiPolygon) => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as polygonClipping.MultiPolygon;
    const u = polygonClipping.union(toMulti(a.area.geometry), toMulti(b.area.geometry)) as Position[][][];
    const union: MultiPolygon = { type: 'MultiPolygon', coordinates: u };
    const filter = parseFilter('building=* or highway=*', { version: 1 });
    for (const measure of ['count', 'area', 'length'] as Measure[]) {
      const got = await engine.aggregateSnapshots({ areas: [a.area, b.area], timestamps: TIMESTAMPS, filter, measure, grouping: { by: 'none' } });
      const want = bruteSnapshots(rows, { polygon: union }, filter, TIMESTAMPS);
      assertCloseSeries(got.groups[0].values, want[measure], `union ${measure}`);
      const per = await engine.aggregateSnapshots({ areas: [a.area, b.area], timestamps: TIMESTAMPS, filter, measure, grouping: { by: 'boundary' } });
      assertCloseSeries(per.groups[0].values, bruteSnapshots(rows, a.brute, filter, TIMESTAMPS)[measure], `boundary a ${measure}`);
      assertCloseSeries(per.groups[1].values, bruteSnapshots(rows, b.brute, filter, TIMESTAMPS)[measure], `boundary b ${measure}`);
    }
  });

  it('groupBy tag and key sum up as documented', async () => {
    const filter = parseFilter('type:way', { version: 1 });
    const { area } = areas[1];
    const total = await engine.aggregateSnapshots({ areas: [area], timestamps: TIMESTAMPS, filter, measure: 'length', grouping: { by: 'none' } });
    const byTag = await engine.aggregateSnapshots({
      areas: [area],
      timestamps: TIMESTAMPS,
      filter,
      measure: 'length',
      grouping: { by: 'tag', key: 'highway' },
    });
    assert.equal(byTag.groups[0].key.kind, 'remainder');
    const names = byTag.groups.slice(1).map((g) => (g.key.kind === 'tag' ? g.key.value : ''));
    assert.deepEqual(names, [...names].sort());
    const sum = TIMESTAMPS.map((_, k) => byTag.groups.reduce((s, g) => s + g.values[k], 0));
    assertCloseSeries(sum, total.groups[0].values, 'sum over tag groups');
    const hw = bruteSnapshots(rows, areas[1].brute, parseFilter('type:way and highway=residential', { version: 1 }), TIMESTAMPS);
    assertCloseSeries(byTag.groups.find((g) => g.key.kind === 'tag' && g.key.value === 'residential')!.values, hw.length, 'highway=residential');
    const byKey = await engine.aggregateSnapshots({
      areas: [area],
      timestamps: TIMESTAMPS,
      filter,
      measure: 'count',
      grouping: { by: 'key', keys: ['building', 'highway', 'name'] },
    });
    for (const [i, key] of ['building', 'highway', 'name'].entries()) {
      assert.deepEqual(
        byKey.groups[i + 1].values,
        bruteSnapshots(rows, areas[1].brute, parseFilter(`type:way and ${key}=*`, { version: 1 }), TIMESTAMPS).count,
        key,
      );
    }
    assert.deepEqual(
      byKey.groups[0].values,
      bruteSnapshots(rows, areas[1].brute, parseFilter('type:way and building!=* and highway!=* and name!=*', { version: 1 }), TIMESTAMPS).count,
      'remainder',
    );
  });

  it('ratio equals two brute-force evaluations', async () => {
    const { area, brute } = areas[6];
    const got = await engine.ratio({
      areas: [area],
      timestamps: TIMESTAMPS,
      filter: parseFilter('highway=*', { version: 1 }),
      filter2: parseFilter('highway=residential or building=*', { version: 1 }),
      measure: 'length',
      perBoundary: false,
    });
    assertCloseSeries(got.groups[0].values, bruteSnapshots(rows, brute, parseFilter('highway=*', { version: 1 }), TIMESTAMPS).length, 'value');
    assertCloseSeries(
      got.groups[0].values2,
      bruteSnapshots(rows, brute, parseFilter('highway=residential or building=*', { version: 1 }), TIMESTAMPS).length,
      'value2',
    );
  });

  const YEARLY = Array.from({ length: 13 }, (_, i) => epoch(`${2009 + i}-01-01T00:00:00Z`));
  const TYPES: (ContributionType[] | undefined)[] = [undefined, ['creation'], ['deletion'], ['tagChange'], ['geometryChange']];
  for (const k of [0, 5, 7, 9]) {
    it(`contributions, latest and users in ${areas[k].area.id} equal brute force`, async () => {
      const { area, brute } = areas[k];
      for (const text of ['building=*', 'highway=*', 'amenity=* or shop=*']) {
        const filter = parseFilter(text, { version: 1 });
        const list = bruteContributions(rows, brute, filter, YEARLY);
        for (const types of TYPES) {
          const want = bruteCounts(list, YEARLY, types);
          const q = { areas: [area], timestamps: YEARLY, filter, contributionTypes: types, grouping: { by: 'none' as const } };
          const what = `${area.id} ${text} ${types?.join('+') ?? 'all'}`;
          assert.deepEqual((await engine.countContributions(q)).groups[0].values, want.count, `${what} count`);
          assert.deepEqual((await engine.countLatestContributions(q)).groups[0].values, want.latest, `${what} latest`);
          assert.deepEqual((await engine.countUsers(q)).groups[0].values, want.users, `${what} users`);
        }
      }
    });
  }

  it('grouped contributions and users (SQL aggregation of interior rows) equal the per-contribution list', async () => {
    const { labelsOfTags } = await import('../../query/groups.js');
    const { passesTypes } = await import('../../query/contributions.js');
    const { intervalOf } = await import('../../query/time-plan.js');
    const groupings = [
      { by: 'type' as const },
      { by: 'tag' as const, key: 'building' },
      { by: 'tag' as const, key: 'highway', values: ['residential', 'track', 'nonexistent'] },
      { by: 'key' as const, keys: ['building', 'highway', 'name'] },
    ];
    const labelOf = (key: import('../../query/model.js').GroupKey, keys?: string[]): string =>
      key.kind === 'tag' ? `tag:${key.value}` : key.kind === 'key' ? `key:${keys!.indexOf(key.key)}` : key.kind === 'type' ? `type:${key.type}` : key.kind;
    for (const k of [1, 7, 9]) {
      const { area } = areas[k];
      for (const text of ['building=* or highway=*', 'type:way']) {
        const filter = parseFilter(text, { version: 1 });
        for (const types of [undefined, ['creation', 'deletion'], ['geometryChange']] as (ContributionType[] | undefined)[]) {
          const list = await engine.listContributions({ areas: [area], timestamps: YEARLY, filter, grouping: { by: 'none' } });
          for (const grouping of groupings) {
            const counts = new Map<string, number[]>();
            const users = new Map<string, Set<number>[]>();
            const total: Set<number>[] = Array.from({ length: YEARLY.length - 1 }, () => new Set());
            for (const c of list) {
              if (!passesTypes(c, types)) continue;
              const i = intervalOf(YEARLY, c.time);
              total[i].add(c.userId);
              for (const label of labelsOfTags(grouping, engine.dictionary, c.tagSets, c.type)) {
                if (!counts.has(label)) counts.set(label, new Array(YEARLY.length - 1).fill(0));
                if (!users.has(label))
                  users.set(
                    label,
                    Array.from({ length: YEARLY.length - 1 }, () => new Set()),
                  );
                counts.get(label)![i] += 1;
                users.get(label)![i].add(c.userId);
              }
            }
            const q = { areas: [area], timestamps: YEARLY, filter, contributionTypes: types, grouping };
            const what = `${area.id} ${text} ${types?.join('+') ?? 'all'} ${JSON.stringify(grouping)}`;
            const zero = new Array(YEARLY.length - 1).fill(0);
            const keys = grouping.by === 'key' ? grouping.keys : undefined;
            for (const g of (await engine.countContributions(q)).groups)
              assert.deepEqual(g.values, counts.get(labelOf(g.key, keys)) ?? zero, `${what} count ${JSON.stringify(g.key)}`);
            for (const g of (await engine.countUsers(q)).groups) {
              const want = g.key.kind === 'total' ? total.map((s) => s.size) : (users.get(labelOf(g.key, keys))?.map((s) => s.size) ?? zero);
              assert.deepEqual(g.values, want, `${what} users ${JSON.stringify(g.key)}`);
            }
          }
        }
      }
    }
  });

  it("elements without geometry placed by their history (the sample's route relations) equal brute force, through the placed branch only where the filter can match them", async () => {
    // The whole country as a rectangle and the benchmarks' border polygon: both contain the
    // history bboxes of some route relations left with only relation members (src/query/README.md).
    const box: [number, number, number, number] = [1.41, 42.42, 1.79, 42.66];
    const border: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [1.42, 42.43],
          [1.6, 42.43],
          [1.79, 42.48],
          [1.79, 42.6],
          [1.65, 42.66],
          [1.42, 42.62],
          [1.42, 42.43],
        ],
      ],
    };
    const cases = [
      { area: rectArea(box, 'country'), brute: { bbox: box } },
      { area: polyArea(border, 'border'), brute: { polygon: border } },
    ];
    const states = emptyGeometryStatesOf(await readAllRows(db.store, EMPTY_GEOMETRY_STATES_SQL, undefined));
    for (const { area, brute } of cases) {
      // building=* places nothing (the engine runs the statements without the rule)
      for (const snapshot of [true, false])
        assert.deepEqual(placedRowids(states, area.geometry, compilePredicate(parseFilter('building=*', { version: 1 })), snapshot), []);
      for (const text of ['geometry:other', 'route=hiking']) {
        const filter = parseFilter(text, { version: 1 });
        const want = bruteSnapshots(rows, brute, filter, TIMESTAMPS);
        for (const measure of ['count', 'length'] as Measure[]) {
          const got = await engine.aggregateSnapshots({ areas: [area], timestamps: TIMESTAMPS, filter, measure, grouping: { by: 'none' } });
          assertCloseSeries(got.groups[0].values, want[measure], `${area.id} ${text} ${measure}`);
        }
        // the rule is exercised: the engine adds the placed branch
        for (const snapshot of [true, false])
          assert.ok(placedRowids(states, area.geometry, compilePredicate(filter), snapshot).length > 0, `${area.id} ${text} snapshot=${snapshot}`);
        const list = bruteContributions(rows, brute, filter, YEARLY);
        for (const types of [undefined, ['geometryChange']] as (ContributionType[] | undefined)[]) {
          const expected = bruteCounts(list, YEARLY, types);
          const q = { areas: [area], timestamps: YEARLY, filter, contributionTypes: types, grouping: { by: 'none' as const } };
          const what = `${area.id} ${text} ${types?.join('+') ?? 'all'}`;
          assert.deepEqual((await engine.countContributions(q)).groups[0].values, expected.count, `${what} count`);
          assert.deepEqual((await engine.countLatestContributions(q)).groups[0].values, expected.latest, `${what} latest`);
          assert.deepEqual((await engine.countUsers(q)).groups[0].values, expected.users, `${what} users`);
        }
      }
    }
  });

  it(`groupBy/boundary over ${BOX_SCAN_MIN_AREAS} boxes or more (one scan for all) equals brute force per box, and boundaryAndTag each box's own tag groups`, async () => {
    const r2 = rng(7);
    const country: BBox = [1.41, 42.42, 1.79, 42.66];
    const boxes: BBox[] = [...Array.from({ length: BOX_SCAN_MIN_AREAS + 4 }, () => randomBBox(r2)), country, country, [10, 10, 10.1, 10.1]];
    const areas = boxes.map((b, i) => rectArea(b, `box${i}`));
    // route=hiking: relations without geometry, placed in the country box by their history (the placed branch).
    for (const text of ['building=* or highway=*', 'route=hiking']) {
      const filter = parseFilter(text, { version: 1 });
      const want = boxes.map((b) => bruteSnapshots(rows, { bbox: b }, filter, TIMESTAMPS));
      for (const measure of ['count', 'length'] as Measure[]) {
        const got = await engine.aggregateSnapshots({ areas, timestamps: TIMESTAMPS, filter, measure, grouping: { by: 'boundary' } });
        assert.deepEqual(
          got.groups.map((g) => (g.key.kind === 'boundary' ? g.key.id : '')),
          areas.map((a) => a.id),
        );
        boxes.forEach((_, i) => assertCloseSeries(got.groups[i].values, want[i][measure], `${text} ${measure} box${i}`));
      }
    }
    const filter = parseFilter('type:way', { version: 1 });
    const grouping = { by: 'boundaryAndTag' as const, key: 'highway', values: ['residential', 'track', 'primary'] };
    const got = await engine.aggregateSnapshots({ areas, timestamps: TIMESTAMPS, filter, measure: 'length', grouping });
    for (const area of areas) {
      const own = await engine.aggregateSnapshots({
        areas: [area],
        timestamps: TIMESTAMPS,
        filter,
        measure: 'length',
        grouping: { by: 'tag', key: grouping.key, values: grouping.values },
      });
      // Every boundary has the tag groups present in any (zero where it has none of the tag).
      const label = (tag: { key: string; value: string } | 'remainder') => (tag === 'remainder' ? 'remainder' : tag.value);
      const ownValues = new Map(own.groups.map((g) => [g.key.kind === 'tag' ? g.key.value : 'remainder', g.values]));
      const mine = got.groups.flatMap((g) => (g.key.kind === 'boundaryAndTag' && g.key.id === area.id ? [{ label: label(g.key.tag), values: g.values }] : []));
      for (const [l, values] of ownValues) assert.ok(mine.some((m) => m.label === l) || values.every((v) => v === 0), `${area.id} ${l}`);
      for (const m of mine) assertCloseSeries(m.values, ownValues.get(m.label) ?? TIMESTAMPS.map(() => 0), `${area.id} ${m.label}`);
    }
    assert.ok(
      got.groups.some((g) => g.values.some((v) => v > 0)),
      'some box has highways',
    );
  });

  it('an abort during a running query interrupts it and rejects with the reason', async () => {
    const ac = new AbortController();
    const monthly = Array.from({ length: 400 }, (_, i) => Date.UTC(2000 + Math.floor(i / 12), i % 12, 1) / 1000);
    const p = engine.countContributions({
      areas: [areas[9].area],
      timestamps: monthly,
      filter: parseFilter('', { version: 1 }),
      grouping: { by: 'tag', key: 'highway' },
      signal: ac.signal,
    });
    setTimeout(() => ac.abort(new Error('request timed out')), 5);
    await assert.rejects(p, /request timed out/);
  });
});
