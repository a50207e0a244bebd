/**
 * The conformance suite itself, without an engine: the cases cover every plan shape of the
 * contracts, every case has its golden (made for the same definition), and the comparison fails
 * where it must (a count off by one, a measure off by more than 0.5 %, groups out of order, a
 * missing or different record).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { compareAnswers, type Answer } from './answers.js';
import { AREAS, CASES, FIXTURES, type ConformanceCase } from './cases.js';
import { goldenPath, readGolden } from './goldens.js';

const shapes = (c: ConformanceCase): string[] => {
  switch (c.op) {
    case 'snapshots':
      return [
        `snapshots:${c.measure}`,
        `snapshots:${c.grouping.by}`,
        ...c.areas.map((a) => `area:${'bbox' in AREAS[c.fixture][a]! ? 'bbox' : 'polygon'}`),
        ...(c.areas.length > 1 ? ['snapshots:several-areas'] : []),
        ...(c.grouping.by === 'tag' || c.grouping.by === 'boundaryAndTag' ? [`snapshots:${c.grouping.by}:${c.grouping.values ? 'values' : 'no-values'}`] : []),
      ];
    case 'ratio':
      return [`ratio:${c.perBoundary ? 'boundary' : 'union'}`];
    case 'contributions':
    case 'latest':
    case 'users':
      return [
        `${c.op}:${c.grouping.by}`,
        ...(c.contributionTypes ? [`${c.op}:contributionTypes`, ...c.contributionTypes.map((t) => `contributionType:${t}`)] : []),
      ];
    case 'extract':
      return [`extract:${c.kind}`];
    case 'stats.features':
      return [
        `stats.features:${c.measure}`,
        ...(c.clip ? ['stats.features:clip'] : []),
        ...(c.groupByKey ? ['stats.features:groupBy'] : []),
        ...(c.groupBy ? [`${c.op}:groupBy:${c.groupBy.by}${c.groupBy.by === 'tag' && c.groupBy.values ? ':values' : ''}`] : []),
      ];
    case 'stats.currentness':
      return [`stats.currentness:${c.measure}`, ...(c.groupBy ? [`${c.op}:groupBy:${c.groupBy.by}`] : [])];
    case 'stats.contributions':
    case 'stats.contributors':
      return [c.op, ...(c.groupBy ? [`${c.op}:groupBy:${c.groupBy.by}`] : [])];
    case 'parquet':
      return [`parquet:${c.kind}`];
  }
};

it('the cases cover every plan shape of the contracts', () => {
  const covered = new Set(CASES.flatMap(shapes));
  const hasHole = Object.values(AREAS).some((areas) =>
    Object.values(areas).some((a) => 'polygon' in a && a.polygon.type === 'Polygon' && a.polygon.coordinates.length > 1),
  );
  assert.ok(hasHole, 'a polygon with a hole');
  const required = [
    ...['count', 'length', 'area', 'perimeter'].map((m) => `snapshots:${m}`),
    ...['none', 'boundary', 'type', 'tag', 'key', 'boundaryAndTag'].map((g) => `snapshots:${g}`),
    'snapshots:tag:values',
    'snapshots:tag:no-values',
    'snapshots:boundaryAndTag:values',
    'snapshots:boundaryAndTag:no-values',
    'snapshots:several-areas',
    'area:bbox',
    'area:polygon',
    'ratio:union',
    'ratio:boundary',
    ...['contributions', 'latest', 'users'].flatMap((op) => ['none', 'boundary', 'type', 'tag', 'key'].map((g) => `${op}:${g}`)),
    'contributions:contributionType',
    'latest:contributionType',
    'users:element',
    'contributions:contributionTypes',
    'latest:contributionTypes',
    'users:contributionTypes',
    ...['creation', 'deletion', 'tagChange', 'geometryChange'].map((t) => `contributionType:${t}`),
    'extract:snapshot',
    'extract:fullHistory',
    'extract:contributions',
    'extract:latestContributions',
    'stats.features:count',
    'stats.features:length',
    'stats.features:area',
    'stats.features:clip',
    'stats.features:groupBy',
    'stats.features:groupBy:type',
    'stats.features:groupBy:tag:values',
    ...['stats.contributions', 'stats.contributors', 'stats.currentness'].flatMap((op) => [`${op}:groupBy:tag`, `${op}:groupBy:type`]),
    'stats.currentness:count',
    'stats.currentness:length',
    'stats.currentness:area',
    'stats.contributions',
    'stats.contributors',
    'parquet:features',
    'parquet:contributions',
    'parquet:collections',
    'parquet:collections_members',
  ];
  assert.deepEqual(
    required.filter((s) => !covered.has(s)),
    [],
  );
});

it('every case has a golden made for its definition, and ids are unique per fixture', () => {
  for (const fixture of Object.keys(FIXTURES)) {
    const ids = CASES.filter((c) => c.fixture === fixture).map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, fixture);
  }
  for (const c of CASES) {
    assert.ok(existsSync(goldenPath(c)), goldenPath(c));
    const g = readGolden(c);
    assert.match(g.source, /^(oracle|pinned): /);
    if (g.source.startsWith('pinned')) assert.ok((g.checks ?? []).length > 0, `${c.id}: a pinned golden lists what was checked`);
  }
  // Most answers come from an oracle; only the extractions are pinned.
  const pinned = CASES.filter((c) => readGolden(c).source.startsWith('pinned'));
  assert.deepEqual([...new Set(pinned.map((c) => c.op))].sort(), ['extract', 'parquet']);
});

it('the goldens are not trivial: most series and record lists hold something', () => {
  let empty = 0;
  for (const c of CASES) {
    const a = readGolden(c).answer;
    const nothing = 'series' in a ? a.series.every((s) => s.values.every((v) => v === 0)) : a.records.length === 0;
    if (nothing) empty += 1;
  }
  assert.equal(empty, 0);
});

const byCount = CASES.find((c) => c.op === 'snapshots' && c.measure === 'count')!;
const byArea = CASES.find((c) => c.op === 'snapshots' && c.measure === 'area')!;
const series = (...s: [string, number[]][]): Answer => ({ series: s.map(([key, values]) => ({ key, values })) });

it('comparison: counts exactly, measures within 0.5 %, groups in order', () => {
  assert.deepEqual(compareAnswers(byCount, series(['total', [1, 2]]), series(['total', [1, 2]])), []);
  assert.equal(compareAnswers(byCount, series(['total', [1, 3]]), series(['total', [1, 2]])).length, 1);
  assert.equal(compareAnswers(byCount, series(['total', [1]]), series(['total', [1, 2]])).length, 1);
  assert.deepEqual(compareAnswers(byArea, series(['total', [100.4, 0]]), series(['total', [100, 0]])), []);
  assert.equal(compareAnswers(byArea, series(['total', [100.6, 0]]), series(['total', [100, 0]])).length, 1);
  assert.equal(compareAnswers(byArea, series(['total', [1e-3]]), series(['total', [0]])).length, 1);
  const ab = series(['a', [1]], ['b', [2]]);
  const ba = series(['b', [2]], ['a', [1]]);
  assert.ok(compareAnswers(byCount, ba, ab).some((d) => d.startsWith('groups')));
  assert.ok(compareAnswers(byCount, series(['a', [1]]), ab).length > 0);
});

it('comparison of records: fields exactly, geometry measures within 0.5 %, bbox within 1e-6°', () => {
  const x = CASES.find((c) => c.op === 'extract')!;
  const rec = (over: Record<string, unknown> = {}, geometry: Record<string, unknown> = {}) => ({
    type: 1,
    id: 7,
    version: 2,
    changeset: 9,
    time: 100,
    tags: [['building', 'yes']],
    geometry: { type: 'Polygon', bbox: [1, 2, 3, 4], length: 0, area: 1000, ...geometry },
    ...over,
  });
  const want: Answer = { records: [rec()] };
  assert.deepEqual(compareAnswers(x, { records: [rec({}, { area: 1004, bbox: [1, 2, 3, 4 + 5e-7] })] }, want), []);
  assert.ok(compareAnswers(x, { records: [rec({}, { area: 1010 })] }, want).length > 0);
  assert.ok(compareAnswers(x, { records: [rec({}, { bbox: [1, 2, 3, 4.001] })] }, want).length > 0);
  assert.ok(compareAnswers(x, { records: [rec({}, { type: 'MultiPolygon' })] }, want).length > 0);
  assert.ok(compareAnswers(x, { records: [rec({ changeset: 8 })] }, want).length > 0);
  assert.ok(compareAnswers(x, { records: [rec({ tags: [['building', 'house']] })] }, want).length > 0);
  assert.ok(compareAnswers(x, { records: [] }, want).length > 0);
  assert.ok(compareAnswers(x, { records: [{ ...rec(), extra: 1 }] }, want).length > 0);
});
