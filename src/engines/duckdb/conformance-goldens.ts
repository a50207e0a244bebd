/**
 * Makes the golden answers of the engine conformance suite (testdata/conformance/<fixture>/<case>.json)
 * from independent oracles, not from the engine under test:
 *
 * - snapshots, ratio, contributions, latest, users: brute-force.ts (every row decoded, the
 *   JavaScript filter predicate, the kernel's clip; no SQL), the groupings worked out here from
 *   the documented rules (src/query/groups.ts's header, src/query/README.md): a group's series is
 *   the brute force of the case's filter narrowed by the group (`(f) and type:way`, `(f) and
 *   building="yes"`, `(f) and not building=*`, …), contributions are grouped by their own tags;
 * - version 2 statistics: stats-brute-force.ts;
 * - on the handmade history, the whole-world snapshot counts are also checked against
 *   testdata/testcases/handmade/expected.json (osmium time-filter, by its author).
 *
 * Extractions (v1 GeoJSON features, v2 GeoParquet rows) have no full oracle: their goldens are the
 * DuckDB engine's answer, **pinned**, made once and inspected by hand, and cross-checked here
 * against what the brute force does know (which elements at which times, their clipped geometry,
 * the contribution types, row counts). The golden says which checks passed.
 *
 *   npm run conformance:goldens            # all fixtures
 *   npm run conformance:goldens -- handmade
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import polygonClipping from 'polygon-clipping';
import { compilePredicate, parseFilter } from '../../filter/index.js';
import { clipToBBox, clipToPolygon } from '../../geometry/clip.js';
import type { Geometry, MultiPolygon, Polygon, Position } from '../../geometry/types.js';
import { CONTRIBUTION_TYPES, type ContributionGrouping, type ContributionType, type Measure, type SnapshotGrouping } from '../../query/model.js';
import { importHistory } from '../../store/import-history.js';
import { openStore } from '../../store/open-store.js';
import type { ImportedDb } from '../../store/test-support.js';
import { REPO_ROOT } from '../../testing/test-data.js';
import { caseArea, compareAnswers, groupedSeries, runCase, summarize, type Answer, type SeriesAnswer } from '../conformance/answers.js';
import {
  AREAS,
  CASES,
  epochOf,
  FIXTURES,
  type ConformanceCase,
  type ContributionCase,
  type ExtractCase,
  type ParquetCase,
  type StoreFixture,
} from '../conformance/cases.js';
import { goldenPath, type Golden } from '../conformance/goldens.js';
import { bruteContributions, bruteSnapshots, loadAllRows, v1Rows, v2Rows, type BruteArea, type BruteContribution, type BruteRow } from './brute-force.js';
import { createDuckDbEngines } from './engines.js';
import { bruteBins, bruteBinsGrouped, bruteCurrentness, bruteCurrentnessGrouped, bruteFeatures } from './stats-brute-force.js';

const BRUTE_V1 = 'oracle: brute force (src/engines/duckdb/brute-force.ts) over every row of the store; groups by the documented rules (conformance-goldens.ts)';
const BRUTE_V2 = 'oracle: brute force (src/engines/duckdb/stats-brute-force.ts) over every row of the store';
const PINNED =
  "pinned: the DuckDB engine's answer when this golden was made (no full oracle exists for extraction); inspected by hand and cross-checked as listed in checks";

const q = (s: string) => JSON.stringify(s);

// ---------------------------------------------------------------------------------------------
// Areas

function bruteArea(c: ConformanceCase, names: string[]): BruteArea {
  const specs = names.map((n) => AREAS[c.fixture][n]!);
  if (specs.length === 1) {
    const s = specs[0]!;
    return 'bbox' in s ? { bbox: s.bbox } : { polygon: s.polygon };
  }
  const multi = names.map((n) => {
    const g = caseArea(c, n).geometry;
    return (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as polygonClipping.MultiPolygon;
  });
  const u = polygonClipping.union(multi[0]!, ...multi.slice(1)) as Position[][][];
  return { polygon: { type: 'MultiPolygon', coordinates: u } as MultiPolygon };
}

function clipperOf(area: BruteArea): (g: Geometry) => Geometry | null {
  return 'bbox' in area ? (g) => clipToBBox(g, area.bbox) : (g) => clipToPolygon(g, area.polygon as Polygon | MultiPolygon);
}

// ---------------------------------------------------------------------------------------------
// Snapshots and ratio

function tagOf(tags: readonly string[], key: string): string | undefined {
  for (let i = 0; i < tags.length; i += 2) if (tags[i] === key) return tags[i + 1];
  return undefined;
}

const codepoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function snapshotSeries(
  rows: BruteRow[],
  c: ConformanceCase & { timestamps: string[]; measure: Measure; filter: string },
  areaNames: string[],
  grouping: SnapshotGrouping,
): SeriesAnswer[] {
  const ts = c.timestamps.map(epochOf);
  const area = bruteArea(c, areaNames);
  const run = (text: string) => bruteSnapshots(rows, area, parseFilter(text, { version: 1 }), ts);
  const f = c.filter;
  const present = (r: { count: number[] }) => r.count.some((x) => x > 0);
  switch (grouping.by) {
    case 'none':
      return [{ key: 'total', values: run(f)[c.measure] }];
    case 'type':
      return (['node', 'way', 'relation'] as const).map((t) => ({ key: `type:${t}`, values: run(`(${f}) and type:${t}`)[c.measure] }));
    case 'key': {
      const out: SeriesAnswer[] = [];
      const rest = run(`(${f}) and not (${grouping.keys.map((k) => `${q(k)}=*`).join(' or ')})`);
      if (present(rest)) out.push({ key: 'remainder', values: rest[c.measure] });
      for (const k of [...new Set(grouping.keys)]) out.push({ key: `key:${k}`, values: run(`(${f}) and ${q(k)}=*`)[c.measure] });
      return out;
    }
    case 'tag': {
      const k = grouping.key;
      const out: SeriesAnswer[] = [];
      const rest = run(grouping.values ? `(${f}) and not (${grouping.values.map((v) => `${q(k)}=${q(v)}`).join(' or ')})` : `(${f}) and not ${q(k)}=*`);
      if (present(rest)) out.push({ key: 'remainder', values: rest[c.measure] });
      const values = grouping.values
        ? [...new Set(grouping.values)]
        : [
            ...new Set(
              v1Rows(rows)
                .map((r) => tagOf(r.state.tags, k))
                .filter((v): v is string => v !== undefined),
            ),
          ].sort(codepoint);
      for (const v of values) {
        const r = run(`(${f}) and ${q(k)}=${q(v)}`);
        if (grouping.values || present(r)) out.push({ key: `tag:${k}=${v}`, values: r[c.measure] });
      }
      return out;
    }
    default:
      throw new Error(`${c.id}: grouping ${grouping.by} is done per area`);
  }
}

function snapshotsOracle(rows: BruteRow[], c: Extract<ConformanceCase, { op: 'snapshots' }>): SeriesAnswer[] {
  const g = c.grouping;
  if (g.by === 'boundary') return c.areas.map((a) => ({ key: `boundary:${a}`, values: snapshotSeries(rows, c, [a], { by: 'none' })[0]!.values }));
  if (g.by === 'boundaryAndTag') {
    const inner: SnapshotGrouping = { by: 'tag', key: g.key, ...(g.values ? { values: g.values } : {}) };
    const perArea = c.areas.map((a) => snapshotSeries(rows, c, [a], inner));
    // The tag groups of every area: those present in some area (remainder first, then values by name) + the requested.
    const labels: string[] = [];
    if (perArea.some((s) => s.some((x) => x.key === 'remainder'))) labels.push('remainder');
    if (g.values) for (const v of new Set(g.values)) labels.push(`tag:${g.key}=${v}`);
    else {
      const names = new Set(perArea.flatMap((s) => s.filter((x) => x.key.startsWith('tag:')).map((x) => x.key)));
      labels.push(...[...names].sort(codepoint));
    }
    const n = c.timestamps.length;
    return c.areas.flatMap((a, i) =>
      labels.map((l) => ({ key: `${a}|${l}`, values: perArea[i]!.find((x) => x.key === l)?.values ?? new Array<number>(n).fill(0) })),
    );
  }
  return snapshotSeries(rows, c, c.areas, g);
}

function ratioOracle(rows: BruteRow[], c: Extract<ConformanceCase, { op: 'ratio' }>): SeriesAnswer[] {
  const ts = c.timestamps.map(epochOf);
  const one = (names: string[], key: string) => {
    const area = bruteArea(c, names);
    return {
      key,
      values: bruteSnapshots(rows, area, parseFilter(c.filter, { version: 1 }), ts)[c.measure],
      values2: bruteSnapshots(rows, area, parseFilter(c.filter2, { version: 1 }), ts)[c.measure],
    };
  };
  return c.perBoundary ? c.areas.map((a) => one([a], `boundary:${a}`)) : [one(c.areas, 'total')];
}

// ---------------------------------------------------------------------------------------------
// Contributions, latest, users

function intervalOf(ts: readonly number[], x: number): number {
  for (let k = ts.length - 2; k >= 0; k--) if (ts[k]! <= x) return x < ts[ts.length - 1]! ? k : -1;
  return -1;
}

/** The group labels of a contribution (src/query/groups.ts labelsOfTags: creation → tags after, deletion → before, else both). */
function labelsOf(g: ContributionGrouping, x: BruteContribution): string[] {
  const sets = x.types.has('creation') ? [x.tags] : x.types.has('deletion') ? [x.tagsBefore] : [x.tags, x.tagsBefore];
  switch (g.by) {
    case 'none':
    case 'boundary':
      return ['total'];
    case 'type':
      return [`type:${['node', 'way', 'relation'][x.typeCode]}`];
    case 'tag': {
      const out = new Set<string>();
      for (const tags of sets) {
        const v = tagOf(tags, g.key);
        if (v === undefined) continue;
        out.add(g.values && !g.values.includes(v) ? 'remainder' : `tag:${g.key}=${v}`);
      }
      return out.size === 0 ? ['remainder'] : [...out];
    }
    case 'key': {
      const out = [...new Set(g.keys)].filter((k) => sets.some((tags) => tagOf(tags, k) !== undefined)).map((k) => `key:${k}`);
      return out.length === 0 ? ['remainder'] : out;
    }
    case 'contributionType':
      return CONTRIBUTION_TYPES.filter((t) => x.types.has(t)).map((t) => `contributionType:${t}`);
    case 'element':
      return [`element:${['node', 'way', 'relation'][x.typeCode]}/${x.id}`];
  }
}

function contributionSeries(rows: BruteRow[], c: ContributionCase, areaNames: string[]): SeriesAnswer[] {
  const ts = c.timestamps.map(epochOf);
  const n = ts.length - 1;
  let list = bruteContributions(rows, bruteArea(c, areaNames), parseFilter(c.filter, { version: 1 }), ts);
  if (c.op === 'latest') {
    const last = new Map<string, BruteContribution>();
    for (const x of list) last.set(`${x.typeCode}/${x.id}`, x);
    list = [...last.values()];
  }
  const types = c.contributionTypes;
  list = list.filter((x) => types === undefined || types.some((t: ContributionType) => x.types.has(t)));
  const counts = new Map<string, number[]>();
  const users = new Map<string, Set<number>[]>();
  const totalUsers: Set<number>[] = Array.from({ length: n }, () => new Set());
  for (const x of list) {
    const k = intervalOf(ts, x.time);
    if (k < 0) throw new Error('a contribution outside the intervals');
    totalUsers[k]!.add(x.userId);
    for (const l of labelsOf(c.grouping, x)) {
      if (!counts.has(l)) counts.set(l, new Array<number>(n).fill(0));
      if (!users.has(l))
        users.set(
          l,
          Array.from({ length: n }, () => new Set<number>()),
        );
      counts.get(l)![k]! += 1;
      users.get(l)![k]!.add(x.userId);
    }
  }
  const valuesOf = (l: string): number[] =>
    c.op === 'users' ? (users.get(l)?.map((s) => s.size) ?? new Array<number>(n).fill(0)) : (counts.get(l) ?? new Array<number>(n).fill(0));
  const g = c.grouping;
  const out: SeriesAnswer[] = [];
  switch (g.by) {
    case 'none':
    case 'boundary':
      return [{ key: 'total', values: valuesOf('total') }];
    case 'type':
      return ['node', 'way', 'relation'].map((t) => ({ key: `type:${t}`, values: valuesOf(`type:${t}`) }));
    case 'tag': {
      if (c.op === 'users') out.push({ key: 'total', values: totalUsers.map((s) => s.size) });
      if (counts.has('remainder')) out.push({ key: 'remainder', values: valuesOf('remainder') });
      if (g.values) for (const v of new Set(g.values)) out.push({ key: `tag:${g.key}=${v}`, values: valuesOf(`tag:${g.key}=${v}`) });
      else for (const l of [...counts.keys()].filter((l) => l.startsWith('tag:')).sort(codepoint)) out.push({ key: l, values: valuesOf(l) });
      return out;
    }
    case 'key': {
      if (c.op === 'users') out.push({ key: 'total', values: totalUsers.map((s) => s.size) });
      if (counts.has('remainder')) out.push({ key: 'remainder', values: valuesOf('remainder') });
      for (const k of new Set(g.keys)) out.push({ key: `key:${k}`, values: valuesOf(`key:${k}`) });
      return out;
    }
    case 'contributionType':
      return CONTRIBUTION_TYPES.map((t) => ({ key: `contributionType:${t}`, values: valuesOf(`contributionType:${t}`) }));
    case 'element': {
      // the elements with a contribution, by type then id
      const order = (l: string) => {
        const [t, id] = l.slice(8).split('/');
        return [['node', 'way', 'relation'].indexOf(t!), Number(id)] as const;
      };
      const labels = [...counts.keys()].filter((l) => l.startsWith('element:'));
      labels.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
      return labels.map((l) => ({ key: l, values: valuesOf(l) }));
    }
  }
}

function contributionsOracle(rows: BruteRow[], c: ContributionCase): SeriesAnswer[] {
  if (c.grouping.by === 'boundary') return c.areas.map((a) => ({ key: `boundary:${a}`, values: contributionSeries(rows, c, [a])[0]!.values }));
  return contributionSeries(rows, c, c.areas);
}

// ---------------------------------------------------------------------------------------------
// Cross-checks of the pinned extraction answers

const sameSet = (what: string, got: string[], want: string[]): string => {
  const g = [...got].sort();
  const w = [...want].sort();
  if (JSON.stringify(g) !== JSON.stringify(w)) {
    const missing = w.filter((x) => !g.includes(x)).slice(0, 5);
    const extra = g.filter((x) => !w.includes(x)).slice(0, 5);
    throw new Error(`${what}: ${g.length} instead of ${w.length}; missing ${missing.join(' ')}; extra ${extra.join(' ')}`);
  }
  return `${what}: the same ${w.length} as the brute force`;
};

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 + 1e-6 * Math.max(Math.abs(a), Math.abs(b));
}

function checkExtract(rows: BruteRow[], c: ExtractCase, answer: Answer): string[] {
  if (!('records' in answer)) throw new Error('no records');
  const recs = answer.records as {
    type: number;
    id: number;
    time: number;
    version: number;
    contribution?: Record<string, boolean>;
    geometry: ReturnType<typeof summarize>;
  }[];
  const area = bruteArea(c, c.areas);
  const clip = clipperOf(area);
  const pred = compilePredicate(parseFilter(c.filter, { version: 1 }));
  const ts = c.timestamps.map(epochOf);
  const checks: string[] = [];
  if (c.kind === 'snapshot' || c.kind === 'fullHistory') {
    const want: string[] = [];
    const geometries = new Map<string, Geometry>();
    for (const r of v1Rows(rows)) {
      if (r.deleted || r.geometry === null || !pred(r.state)) continue;
      const times =
        c.kind === 'snapshot'
          ? ts.filter((t) => r.validFrom <= t && t < r.validTo)
          : r.validFrom < ts[1]! && r.validTo > ts[0]!
            ? [Math.max(r.validFrom, ts[0]!)]
            : [];
      if (times.length === 0) continue;
      const cg = clip(r.geometry);
      if (cg === null) continue;
      for (const t of times) {
        const key = `${r.typeCode}/${r.state.id}@${t}`;
        want.push(key);
        geometries.set(key, c.clipGeometry ? cg : r.geometry);
      }
    }
    checks.push(
      sameSet(
        `features (type, id, ${c.kind === 'snapshot' ? 'timestamp' : 'clamped start'})`,
        recs.map((x) => `${x.type}/${x.id}@${x.time}`),
        want,
      ),
    );
    for (const x of recs) {
      const w = summarize(geometries.get(`${x.type}/${x.id}@${x.time}`)!)!;
      const g = x.geometry!;
      if (g.type !== w.type || !near(g.length, w.length) || !near(g.area, w.area))
        throw new Error(`${x.type}/${x.id}@${x.time}: geometry ${JSON.stringify(g)} vs ${JSON.stringify(w)}`);
    }
    checks.push(`every feature's geometry (${c.clipGeometry ? 'clipped' : 'whole'}): type, length and area equal the brute force's`);
  } else {
    let list = bruteContributions(rows, area, parseFilter(c.filter, { version: 1 }), ts);
    if (c.kind === 'latestContributions') {
      const last = new Map<string, BruteContribution>();
      for (const x of list) last.set(`${x.typeCode}/${x.id}`, x);
      list = [...last.values()];
    }
    const flags = (t: Set<string> | Record<string, boolean>) =>
      (['creation', 'deletion', 'tagChange', 'geometryChange'] as const).filter((k) => (t instanceof Set ? t.has(k) : t[k])).join('+');
    checks.push(
      sameSet(
        'contributions (type, id, time, types)',
        recs.map((x) => `${x.type}/${x.id}@${x.time}:${flags(x.contribution!)}`),
        list.map((x) => `${x.typeCode}/${x.id}@${x.time}:${flags(x.types)}`),
      ),
    );
  }
  return checks;
}

function checkParquet(rows: BruteRow[], c: ParquetCase, answer: Answer): string[] {
  if (!('records' in answer)) throw new Error('no records');
  const recs = answer.records as Record<string, unknown>[];
  const area = bruteArea(c, [c.aoi]);
  const clip = clipperOf(area);
  const pred = compilePredicate(parseFilter(c.filter, { version: 2 }));
  const TYPES = ['node', 'way', 'relation'];
  const checks: string[] = [];
  if (c.kind === 'features') {
    const [t0, t1] = 'at' in c.time ? [epochOf(c.time.at), epochOf(c.time.at)] : [epochOf(c.time.start), epochOf(c.time.end)];
    const alive = (r: BruteRow) => ('at' in c.time ? r.validFrom <= t0 && t0 < r.validTo : r.validTo > t0 && r.validFrom < t1);
    const want = v2Rows(rows)
      .filter(
        (r) => !r.deleted && r.geometry !== null && r.state.geometryType !== 'GeometryCollection' && alive(r) && pred(r.state) && clip(r.geometry) !== null,
      )
      .map((r) => `${TYPES[r.typeCode]}/${r.state.id}v${r.version}.${r.minor}`);
    checks.push(
      sameSet(
        'rows (osm_type, osm_id, version, minor_version)',
        recs.map((x) => `${x.osm_type as string}/${x.osm_id as number}v${x.version as number}.${x.minor_version as number}`),
        want,
      ),
    );
  } else if (c.kind === 'contributions') {
    if ('at' in c.time) throw new Error('range expected');
    const edges = [epochOf(c.time.start), epochOf(c.time.end)];
    const { contributions } = bruteBins(rows, area, { filter: parseFilter(c.filter, { version: 2 }), edges });
    if (contributions[0] !== recs.length) throw new Error(`contributions: ${recs.length} rows, the statistics oracle counts ${contributions[0]}`);
    checks.push(`row count ${recs.length} = the contributions statistic's brute force over [start, end)`);
  } else {
    checks.push(`${recs.length} rows; relations: ${[...new Set(recs.map((x) => x.collection_osm_id ?? x.osm_id))].join(', ')}`);
  }
  return checks;
}

// ---------------------------------------------------------------------------------------------

/** Handmade whole-world snapshot counts against expected.json (osmium's element lists). */
function checkHandmadeExpected(c: ConformanceCase, answer: Answer): string[] {
  if (c.op !== 'snapshots' || c.fixture !== 'handmade' || c.id !== 'snapshots-count-type-world' || !('series' in answer)) return [];
  const expected = JSON.parse(readFileSync(join(REPO_ROOT, 'testdata', 'testcases', 'handmade', 'expected.json'), 'utf8')) as {
    snapshots: { t: string; counts: Record<string, number> }[];
  };
  const ways = answer.series.find((s) => s.key === 'type:way')!.values;
  const relations = answer.series.find((s) => s.key === 'type:relation')!.values;
  expected.snapshots.forEach((s, i) => {
    if (epochOf(s.t) !== epochOf(c.timestamps[i]!)) throw new Error('expected.json times changed');
    if (ways[i] !== s.counts.ways || relations[i] !== s.counts.relations)
      throw new Error(`expected.json at ${s.t}: ways ${ways[i]} vs ${s.counts.ways}, relations ${relations[i]} vs ${s.counts.relations}`);
  });
  return ['ways and relations per timestamp equal expected.json (osmium time-filter)'];
}

/** A golden as JSON text: one line per series or record, so diffs show what changed. */
function goldenText(g: Golden): string {
  const items = 'series' in g.answer ? g.answer.series : g.answer.records;
  const kind = 'series' in g.answer ? 'series' : 'records';
  const head = JSON.stringify({ case: g.case, source: g.source, ...(g.checks ? { checks: g.checks } : {}) }, null, 1).replace(/\n}$/, '');
  const body = items.map((x) => `  ${JSON.stringify(x)}`).join(',\n');
  return `${head},\n "answer": {"${kind}": [\n${body}\n ]}\n}\n`;
}

async function importFixture(fixture: StoreFixture, dir: string) {
  const db = join(dir, `${fixture.name}.duckdb`);
  await importHistory({ input: fixture.history, db, workers: 1, ...(fixture.changesets ? { changesets: fixture.changesets } : {}) });
  const store = await openStore(db);
  const con = await store.connect();
  const imported: ImportedDb = {
    store,
    result: undefined as never,
    async query<T>(sql: string) {
      return (await con.runAndReadAll(sql)).getRowObjectsJS() as T[];
    },
    dispose() {
      con.closeSync();
      store.close();
    },
  };
  return imported;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const dir = mkdtempSync(join(tmpdir(), 'maphist-conformance-goldens-'));
  try {
    for (const fixture of Object.values(FIXTURES)) {
      if (only.length > 0 && !only.includes(fixture.name)) continue;
      const db = await importFixture(fixture, dir);
      const rows = await loadAllRows(db);
      const engines = await createDuckDbEngines(db.store);
      let agreeing = 0;
      for (const c of CASES.filter((x) => x.fixture === fixture.name)) {
        let golden: Golden;
        switch (c.op) {
          case 'snapshots': {
            const answer: Answer = { series: snapshotsOracle(rows, c) };
            golden = { case: c, source: BRUTE_V1, answer };
            const extra = checkHandmadeExpected(c, answer);
            if (extra.length > 0) golden.checks = extra;
            break;
          }
          case 'ratio':
            golden = { case: c, source: BRUTE_V1, answer: { series: ratioOracle(rows, c) } };
            break;
          case 'contributions':
          case 'latest':
          case 'users':
            golden = { case: c, source: BRUTE_V1, answer: { series: contributionsOracle(rows, c) } };
            break;
          case 'stats.features': {
            if (c.groupBy !== undefined) {
              const g = bruteFeatures(rows, bruteArea(c, [c.aoi]), {
                filter: parseFilter(c.filter, { version: 2 }),
                timestamps: c.timestamps.map(epochOf),
                measure: c.measure,
                clip: c.clip,
                groupBy: c.groupBy,
              });
              golden = { case: c, source: BRUTE_V2, answer: { series: groupedSeries(g.total, g.groups!) } };
              break;
            }
            const r = bruteFeatures(rows, bruteArea(c, [c.aoi]), {
              filter: parseFilter(c.filter, { version: 2 }),
              timestamps: c.timestamps.map(epochOf),
              measure: c.measure,
              clip: c.clip,
              ...(c.groupByKey !== undefined ? { groupByKey: c.groupByKey } : {}),
            });
            const series: SeriesAnswer[] = [{ key: 'total', values: r.total }];
            for (const v of [...(r.groups?.keys() ?? [])].sort(codepoint)) series.push({ key: `tag:${c.groupByKey}=${v}`, values: r.groups!.get(v)! });
            golden = { case: c, source: BRUTE_V2, answer: { series } };
            break;
          }
          case 'stats.contributions':
          case 'stats.contributors': {
            if (c.groupBy !== undefined) {
              const g = bruteBinsGrouped(rows, bruteArea(c, [c.aoi]), {
                filter: parseFilter(c.filter, { version: 2 }),
                edges: c.edges.map(epochOf),
                groupBy: c.groupBy,
              });
              const r = c.op === 'stats.contributions' ? g.contributions : g.contributors;
              golden = { case: c, source: BRUTE_V2, answer: { series: groupedSeries(r.total, r.groups) } };
              break;
            }
            const r = bruteBins(rows, bruteArea(c, [c.aoi]), { filter: parseFilter(c.filter, { version: 2 }), edges: c.edges.map(epochOf) });
            golden = {
              case: c,
              source: BRUTE_V2,
              answer: { series: [{ key: 'total', values: c.op === 'stats.contributions' ? r.contributions : r.contributors }] },
            };
            break;
          }
          case 'stats.currentness': {
            if (c.groupBy !== undefined) {
              const g = bruteCurrentnessGrouped(rows, bruteArea(c, [c.aoi]), {
                filter: parseFilter(c.filter, { version: 2 }),
                edges: c.edges.map(epochOf),
                measure: c.measure,
                clip: c.clip,
                groupBy: c.groupBy,
              });
              golden = { case: c, source: BRUTE_V2, answer: { series: groupedSeries(g.total, g.groups) } };
              break;
            }
            const values = bruteCurrentness(rows, bruteArea(c, [c.aoi]), {
              filter: parseFilter(c.filter, { version: 2 }),
              edges: c.edges.map(epochOf),
              measure: c.measure,
              clip: c.clip,
            });
            golden = { case: c, source: BRUTE_V2, answer: { series: [{ key: 'total', values }] } };
            break;
          }
          case 'extract': {
            const answer = await runCase(engines, c);
            golden = { case: c, source: PINNED, checks: checkExtract(rows, c, answer), answer };
            break;
          }
          case 'parquet': {
            const answer = await runCase(engines, c);
            golden = { case: c, source: PINNED, checks: checkParquet(rows, c, answer), answer };
            break;
          }
        }
        const path = goldenPath(c);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, goldenText(golden));
        // Report (not fail on) where DuckDB disagrees with an oracle: the suite will fail there.
        if (!golden.source.startsWith('pinned')) {
          const d = compareAnswers(c, await runCase(engines, c), golden.answer);
          if (d.length > 0) console.log(`DuckDB differs from the oracle on ${fixture.name}/${c.id}:\n  ${d.join('\n  ')}`);
          else agreeing += 1;
        }
      }
      console.log(`${fixture.name}: goldens written; DuckDB agrees with the oracle on ${agreeing} cases`);
      db.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
