/**
 * Contributions by kind (issue 22): /v1/contributions/count and /contributions/latest/count grouped
 * by type, tag and contributionType (and their /density forms), through HTTP, checked against
 * (1) the hand-counted figures of an annotated tiny history (testdata/testcases/contribution-kinds,
 * its comment gives every contribution's kind) and (2) the brute-force oracle
 * (src/engines/duckdb/brute-force.ts: every geometry decoded and clipped in JavaScript, the filter
 * predicate, every contribution classified from its own facts) on the conformance cut of Andorra.
 * Plus the sums: groupBy/type adds up to the ungrouped count; the contributionType groups add up to it
 * once their overlap (tag and geometry change at once) and the contributions of neither kind are
 * accounted for; each contributionType group equals the ungrouped count filtered by that
 * contributionType.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { REPO_ROOT, TESTCASES_DIR } from '../../testing/test-data.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';
import { bruteContributions, loadAllRows, type BruteArea, type BruteContribution, type BruteRow } from '../../engines/duckdb/brute-force.js';
import { parseFilter } from '../../filter/index.js';
import { CONTRIBUTION_TYPES, type ContributionType } from '../../query/model.js';
import type { Polygon } from '../../geometry/types.js';

type Groups = Map<string, number[]>;

async function groupsOf(base: string, path: string, params: Record<string, string>): Promise<Groups> {
  const res = await fetch(`${base}/v1${path}?${new URLSearchParams(params)}`);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  const doc = JSON.parse(text) as { result?: { value: number }[]; groupByResult?: { groupByObject: string; result: { value: number }[] }[] };
  if (doc.result) return new Map([['total', doc.result.map((r) => r.value)]]);
  return new Map(doc.groupByResult!.map((g) => [String(g.groupByObject), g.result.map((r) => r.value)]));
}

const sum = (a: number[], b: number[]) => a.map((x, i) => x + b[i]!);
const minus = (a: number[], b: number[]) => a.map((x, i) => x - b[i]!);

describe('contributions by kind on a hand-counted history (contribution-kinds/history.osh)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(TESTCASES_DIR, 'contribution-kinds', 'history.osh'));
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });
  const AREA = { bboxes: '0.9,0.9,1.1,1.1' };
  const YEAR = { ...AREA, time: '2020-01-01,2021-01-01' };
  const SPLIT = { ...AREA, time: '2020-01-01,2020-04-01,2021-01-01' };

  it('groupBy/contributionType: creation 4, deletion 2 (one a move out of the area), tagChange 3, geometryChange 3; n1 v4 in two groups, n1 v5 in none', async () => {
    const g = await groupsOf(base, '/contributions/count/groupBy/contributionType', YEAR);
    assert.deepEqual([...g.keys()], ['creation', 'deletion', 'tagChange', 'geometryChange']);
    assert.deepEqual(Object.fromEntries(g), { creation: [4], deletion: [2], tagChange: [3], geometryChange: [3] });
    const total = (await groupsOf(base, '/contributions/count', YEAR)).get('total')!;
    assert.deepEqual(total, [12]);
    // 4 + 2 + 3 + 3 - 1 (n1 v4: tag and geometry) + 1 (n1 v5: neither) = 12
    const groupSum = CONTRIBUTION_TYPES.map((t) => g.get(t)!).reduce(sum);
    assert.deepEqual(sum(minus(groupSum, [1]), [1]), total);
  });

  it('per interval, and each group equals contributions/count?contributionType=<that type>', async () => {
    const g = await groupsOf(base, '/contributions/count/groupBy/contributionType', SPLIT);
    assert.deepEqual(Object.fromEntries(g), { creation: [4, 0], deletion: [0, 2], tagChange: [1, 2], geometryChange: [2, 1] });
    for (const t of CONTRIBUTION_TYPES) {
      assert.deepEqual((await groupsOf(base, '/contributions/count', { ...SPLIT, contributionType: t })).get('total'), g.get(t), t);
    }
    assert.deepEqual((await groupsOf(base, '/contributions/count', SPLIT)).get('total'), [7, 5]);
    // before April no contribution is both a tag and a geometry change, none is neither: the four groups add up to the count
    assert.equal(
      CONTRIBUTION_TYPES.map((t) => g.get(t)![0]!).reduce((a, b) => a + b),
      7,
    );
  });

  it('with contributionType, the groups count only the contributions that pass it (filter, then group)', async () => {
    const g = await groupsOf(base, '/contributions/count/groupBy/contributionType', { ...YEAR, contributionType: 'tagChange' });
    // the three tag changes; n1 v4 is also a geometry change
    assert.deepEqual(Object.fromEntries(g), { creation: [0], deletion: [0], tagChange: [3], geometryChange: [1] });
  });

  it('groupBy/type: node 10, way 2, relation 0, adding up to the ungrouped count', async () => {
    const g = await groupsOf(base, '/contributions/count/groupBy/type', SPLIT);
    assert.deepEqual(Object.fromEntries(g), { node: [5, 5], way: [2, 0], relation: [0, 0] });
    assert.deepEqual([...g.values()].reduce(sum), (await groupsOf(base, '/contributions/count', SPLIT)).get('total'));
  });

  it('groupBy/tag: by the tags before and after; the change of a value (n1 v4) is in both groups', async () => {
    const g = await groupsOf(base, '/contributions/count/groupBy/tag', { ...YEAR, groupByKey: 'amenity' });
    assert.deepEqual(
      [...g.entries()],
      [
        ['remainder', [4]],
        ['amenity=bench', [6]],
        ['amenity=waste_basket', [3]],
      ],
    );
    const v = await groupsOf(base, '/contributions/count/groupBy/tag', { ...YEAR, groupByKey: 'amenity', groupByValues: 'bench,picnic_table' });
    // remainder: n2 (2), w1 (2), n1 v5 and v6 (waste_basket), n1 v4 (bench and waste_basket → bench and remainder)
    assert.deepEqual(
      [...v.entries()],
      [
        ['remainder', [7]],
        ['amenity=bench', [6]],
        ['amenity=picnic_table', [0]],
      ],
    );
    // shop: n2 v2 changes bakery → butcher, in both
    const shop = await groupsOf(base, '/contributions/count/groupBy/tag', { ...YEAR, groupByKey: 'shop' });
    assert.deepEqual(Object.fromEntries(shop), { remainder: [10], 'shop=bakery': [2], 'shop=butcher': [1] });
  });

  it('contributions/latest/count grouped: the last contribution of each element', async () => {
    const t = await groupsOf(base, '/contributions/latest/count/groupBy/contributionType', YEAR);
    assert.deepEqual(Object.fromEntries(t), { creation: [0], deletion: [2], tagChange: [1], geometryChange: [1] });
    const y = await groupsOf(base, '/contributions/latest/count/groupBy/type', YEAR);
    assert.deepEqual(Object.fromEntries(y), { node: [3], way: [1], relation: [0] });
    const a = await groupsOf(base, '/contributions/latest/count/groupBy/tag', { ...YEAR, groupByKey: 'amenity' });
    assert.deepEqual(Object.fromEntries(a), { remainder: [2], 'amenity=bench': [1], 'amenity=waste_basket': [1] });
    assert.deepEqual((await groupsOf(base, '/contributions/latest/count', YEAR)).get('total'), [4]);
  });

  it('the density forms divide each group by the area in km²', async () => {
    const km2 =
      (await groupsOf(base, '/contributions/count', YEAR)).get('total')![0]! / (await groupsOf(base, '/contributions/count/density', YEAR)).get('total')![0]!;
    for (const g of ['type', 'contributionType']) {
      for (const latest of ['', '/latest']) {
        const counts = await groupsOf(base, `/contributions${latest}/count/groupBy/${g}`, YEAR);
        const density = await groupsOf(base, `/contributions${latest}/count/density/groupBy/${g}`, YEAR);
        assert.deepEqual([...density.keys()], [...counts.keys()]);
        for (const [k, v] of counts) assert.ok(Math.abs(density.get(k)![0]! - v[0]! / km2) < 0.01, `${latest} ${g} ${k}`);
      }
    }
  });

  it('users/count/groupBy/element: the distinct users of each element (n1 3, n2 1, n3 1, w1 2), by type then id', async () => {
    const g = await groupsOf(base, '/users/count/groupBy/element', YEAR);
    assert.deepEqual(
      [...g.entries()],
      [
        ['node/1', [3]],
        ['node/2', [1]],
        ['node/3', [1]],
        ['way/1', [2]],
      ],
    );
    // per interval: n1 by users 1 and 2 before April (v1–v3), 3, 2, 1 after (v4–v6)
    const split = await groupsOf(base, '/users/count/groupBy/element', SPLIT);
    assert.deepEqual(Object.fromEntries(split), { 'node/1': [2, 3], 'node/2': [1, 1], 'node/3': [1, 1], 'way/1': [2, 0] });
    // with contributionType and a filter: only the tag changes of benches and waste baskets
    const tags = await groupsOf(base, '/users/count/groupBy/element', { ...YEAR, filter: 'amenity=*', contributionType: 'tagChange' });
    assert.deepEqual(Object.fromEntries(tags), { 'node/1': [2] });
    const res = await fetch(`${base}/v1/users/count/groupBy/element?${new URLSearchParams({ ...YEAR, format: 'csv' })}`);
    const lines = (await res.text()).split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    assert.deepEqual(lines, ['fromTimestamp;toTimestamp;node/1;node/2;node/3;way/1', '2020-01-01T00:00:00Z;2021-01-01T00:00:00Z;3.0;1.0;1.0;2.0']);
  });

  it('CSV and POST give the same groups', async () => {
    const res = await fetch(`${base}/v1/contributions/count/groupBy/contributionType?${new URLSearchParams({ ...YEAR, format: 'csv' })}`);
    const csv = await res.text();
    assert.equal(res.status, 200, csv);
    const lines = csv.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    assert.deepEqual(lines, [
      'fromTimestamp;toTimestamp;creation;deletion;tagChange;geometryChange',
      '2020-01-01T00:00:00Z;2021-01-01T00:00:00Z;4.0;2.0;3.0;3.0',
    ]);
    const posted = await fetch(`${base}/v1/contributions/latest/count/groupBy/type`, { method: 'POST', body: new URLSearchParams(YEAR) });
    const doc = (await posted.json()) as { groupByResult: { groupByObject: string; result: { value: number }[] }[] };
    assert.deepEqual(
      doc.groupByResult.map((g) => [g.groupByObject, g.result[0]!.value]),
      [
        ['node', 3],
        ['way', 1],
        ['relation', 0],
      ],
    );
  });
});

/** The brute-force answer of a grouped contributions request. */
function bruteGroups(
  list: BruteContribution[],
  ts: number[],
  grouping: 'type' | 'contributionType' | { key: string; values?: string[] },
  latest: boolean,
  types?: ContributionType[],
): Groups {
  if (latest) {
    const last = new Map<string, BruteContribution>();
    for (const x of list) last.set(`${x.typeCode}/${x.id}`, x);
    list = [...last.values()];
  }
  list = list.filter((x) => types === undefined || types.some((t) => x.types.has(t)));
  const n = ts.length - 1;
  const out: Groups = new Map();
  const order: string[] = [];
  if (grouping === 'type') order.push('node', 'way', 'relation');
  else if (grouping === 'contributionType') order.push(...CONTRIBUTION_TYPES);
  for (const l of order) out.set(l, new Array<number>(n).fill(0));
  const tagOf = (tags: readonly string[], key: string) => {
    for (let i = 0; i < tags.length; i += 2) if (tags[i] === key) return tags[i + 1];
    return undefined;
  };
  for (const x of list) {
    let k = -1;
    for (let i = 0; i < n; i++) if (ts[i]! <= x.time && x.time < ts[i + 1]!) k = i;
    assert.ok(k >= 0);
    let labels: string[];
    if (grouping === 'type') labels = [['node', 'way', 'relation'][x.typeCode]!];
    else if (grouping === 'contributionType') labels = CONTRIBUTION_TYPES.filter((t) => x.types.has(t));
    else {
      const sets = x.types.has('creation') ? [x.tags] : x.types.has('deletion') ? [x.tagsBefore] : [x.tags, x.tagsBefore];
      const set = new Set<string>();
      for (const tags of sets) {
        const v = tagOf(tags, grouping.key);
        if (v !== undefined) set.add(grouping.values && !grouping.values.includes(v) ? 'remainder' : `${grouping.key}=${v}`);
      }
      labels = set.size === 0 ? ['remainder'] : [...set];
    }
    for (const l of labels) {
      if (!out.has(l)) out.set(l, new Array<number>(n).fill(0));
      out.get(l)![k]! += 1;
    }
  }
  if (typeof grouping === 'object') {
    // remainder (if present), requested values in order (always), else the values found, sorted.
    const sorted: Groups = new Map();
    if (out.has('remainder')) sorted.set('remainder', out.get('remainder')!);
    const values =
      grouping.values ??
      [...out.keys()]
        .filter((l) => l !== 'remainder')
        .map((l) => l.slice(grouping.key.length + 1))
        .sort();
    for (const v of values) sorted.set(`${grouping.key}=${v}`, out.get(`${grouping.key}=${v}`) ?? new Array<number>(n).fill(0));
    return sorted;
  }
  return out;
}

describe('contributions by kind equal the brute-force oracle (conformance cut of Andorra)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  let rows: BruteRow[];
  before(async () => {
    db = await importToTemp(join(REPO_ROOT, 'testdata', 'conformance', 'andorra-small.osh.pbf'));
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    rows = await loadAllRows(db);
  });
  after(async () => {
    await app.close();
    db.dispose();
  });
  const TIME = ['2008-01-01', '2010-01-01', '2012-01-01', '2014-01-01', '2016-01-01', '2017-01-01'];
  const ts = TIME.map((t) => Date.parse(`${t}T00:00:00Z`) / 1000);
  // A bbox, and a polygon whose edge cuts many ways (the exact geometry comparison of clipped sides).
  const tri: Polygon = {
    type: 'Polygon',
    coordinates: [
      [
        [1.516, 42.503],
        [1.529, 42.504],
        [1.521, 42.512],
        [1.516, 42.503],
      ],
    ],
  };
  const AREAS: { name: string; params: Record<string, string>; brute: BruteArea }[] = [
    { name: 'bbox', params: { bboxes: '1.518,42.504,1.527,42.51' }, brute: { bbox: [1.518, 42.504, 1.527, 42.51] } },
    {
      name: 'polygon',
      params: { bpolys: JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: tri }] }) },
      brute: { polygon: tri },
    },
  ];
  const FILTER = 'highway=* or building=*';

  for (const area of AREAS) {
    for (const latest of [false, true]) {
      const route = latest ? '/contributions/latest/count' : '/contributions/count';
      it(`${route} groupBy type, contributionType and tag, ${area.name}`, async () => {
        const list = bruteContributions(rows, area.brute, parseFilter(FILTER, { version: 1 }), ts);
        const params = { ...area.params, time: TIME.join(','), filter: FILTER };
        const total = (await groupsOf(base, route, params)).get('total')!;
        const type = await groupsOf(base, `${route}/groupBy/type`, params);
        assert.deepEqual(type, bruteGroups(list, ts, 'type', latest));
        assert.deepEqual([...type.values()].reduce(sum), total, 'the types add up to the ungrouped count');
        const kinds = await groupsOf(base, `${route}/groupBy/contributionType`, params);
        assert.deepEqual(kinds, bruteGroups(list, ts, 'contributionType', latest));
        assert.ok(kinds.get('geometryChange')!.some((v) => v > 0) && kinds.get('tagChange')!.some((v) => v > 0), 'the case has tag and geometry changes');
        // creation + deletion + (tag or geometry change) + neither = all, per interval
        const last = new Map<string, BruteContribution>();
        for (const x of list) last.set(`${x.typeCode}/${x.id}`, x);
        const counted = latest ? [...last.values()] : list;
        const per = (pred: (x: BruteContribution) => boolean) => {
          const out = new Array<number>(ts.length - 1).fill(0);
          for (const x of counted) if (pred(x)) out[ts.filter((t) => t <= x.time).length - 1]! += 1;
          return out;
        };
        const both = per((x) => x.types.has('tagChange') && x.types.has('geometryChange'));
        const neither = per((x) => x.types.size === 0);
        const groupSum = CONTRIBUTION_TYPES.map((t) => kinds.get(t)!).reduce(sum);
        assert.deepEqual(sum(minus(groupSum, both), neither), total, 'creation + deletion + tagChange + geometryChange - both + neither = all');
        for (const values of [undefined, ['residential', 'service', 'no_such_value']]) {
          const tag = await groupsOf(base, `${route}/groupBy/tag`, {
            ...params,
            groupByKey: 'highway',
            ...(values ? { groupByValues: values.join(',') } : {}),
          });
          assert.deepEqual(tag, bruteGroups(list, ts, { key: 'highway', ...(values ? { values } : {}) }, latest));
        }
        // creation and deletion never overlap: with contributionType=creation,deletion the two groups add up to the count
        const cd = await groupsOf(base, `${route}/groupBy/contributionType`, { ...params, contributionType: 'creation,deletion' });
        assert.deepEqual(
          sum(cd.get('creation')!, cd.get('deletion')!),
          (await groupsOf(base, route, { ...params, contributionType: 'creation,deletion' })).get('total'),
        );
        assert.ok(cd.get('deletion')!.some((v) => v > 0));
        const typed = await groupsOf(base, `${route}/groupBy/contributionType`, { ...params, contributionType: 'creation,geometryChange' });
        assert.deepEqual(typed, bruteGroups(list, ts, 'contributionType', latest, ['creation', 'geometryChange']));
      });
    }
  }
});
