/**
 * Version 2 golden answers on the bundled sample, through createServer (src/api/server.ts): every
 * case of cases.ts must give its stored status, content type, contract headers and body (GeoParquet
 * bodies as an order-independent summary: columns, geo metadata, row count and a digest of the rows).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../../testing/server.js';
import { V2_GOLDEN_CASES } from './cases.js';
import { readGolden, send } from './support.js';

describe('v2 golden answers (sample/andorra.osh.pbf)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    app = await createServer(db.store);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  it('has distinct case names covering every endpoint', () => {
    assert.equal(new Set(V2_GOLDEN_CASES.map((c) => c.name)).size, V2_GOLDEN_CASES.length);
    const paths = new Set(V2_GOLDEN_CASES.map((c) => c.path));
    for (const p of [
      '/stats/features/count.json',
      '/stats/features/length.json',
      '/stats/features/area.csv',
      '/stats/contributors/count.csv',
      '/stats/contributions/count.json',
      '/stats/currentness/area.json',
      '/extraction/collections_members.parquet',
      '/extraction/contributions.parquet',
      '/metadata',
      '/health',
      '/filter/validation',
    ]) {
      assert.ok(paths.has(p), p);
    }
  });

  /** A statistics answer's total and groups, JSON or CSV. */
  const tableOf = (body: string, csv: boolean): { total: number[]; groups: Map<string, number[]> } => {
    if (!csv) {
      const r = (JSON.parse(body) as { result: { value: number[]; values?: Record<string, number[]> } }).result;
      return { total: r.value, groups: new Map(Object.entries(r.values ?? {})) };
    }
    const lines = body.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    const header = lines[0]!.split(';');
    const at = header.indexOf('value');
    const total: number[] = [];
    const groups = new Map<string, number[]>();
    for (const l of lines.slice(1)) {
      const f = l.split(';');
      const group = header.length > at + 1 ? f[at + 1]! : '';
      if (group === '') total.push(Number(f[at]));
      else groups.set(group, [...(groups.get(group) ?? []), Number(f[at])]);
    }
    return { total, groups };
  };

  it('the grouped statistics goldens (issue 22) agree with the ungrouped statistics narrowed to each group, and byType adds up', async () => {
    let checked = 0;
    for (const c of V2_GOLDEN_CASES) {
      const body = c.body as { filter?: string; groupBy?: { type: string; key?: string; values?: string[] } } | undefined;
      const g = body?.groupBy;
      if (!g || !c.path.startsWith('/stats/')) continue;
      const golden = readGolden(c);
      if (golden.status !== 200) continue;
      const csv = c.path.endsWith('.csv');
      const grouped = tableOf(golden.body, csv);
      const ungrouped = async (filter: string) => {
        const { groupBy: _, ...rest } = body as Record<string, unknown>;
        const a = await send(base, { ...c, path: c.path.replace(/\.csv$/, '.json'), body: { ...rest, filter } });
        assert.equal(a.status, 200, a.body);
        return tableOf(a.body, false).total;
      };
      const f = body!.filter!;
      const narrowed = (extra: string) => (f === '*' ? extra : `(${f}) and ${extra}`);
      assert.deepEqual(grouped.total, await ungrouped(f), `${c.name}: total`);
      const contributors = c.path.startsWith('/stats/contributors/');
      const tagOfState = c.path.startsWith('/stats/features/') || c.path.startsWith('/stats/currentness/');
      if (g.type === 'byType') {
        assert.deepEqual([...grouped.groups.keys()], ['node', 'way', 'relation'], c.name);
        for (const t of ['node', 'way', 'relation']) assert.deepEqual(grouped.groups.get(t), await ungrouped(narrowed(`type:${t}`)), `${c.name}: ${t}`);
        if (!contributors) {
          // each feature or contribution has one type: the groups add up to the total (within rounding)
          const sum = grouped.total.map((_, i) => [...grouped.groups.values()].reduce((a, v) => a + v[i]!, 0));
          sum.forEach((x, i) => assert.ok(Math.abs(x - grouped.total[i]!) <= 2, `${c.name}: sum ${sum} vs ${grouped.total}`));
        }
      } else if (tagOfState) {
        // features and currentness are grouped by the tags of the state itself: the count narrowed to key=value
        if (g.values) assert.deepEqual([...grouped.groups.keys()].sort(), [...g.values].sort(), c.name);
        for (const [v, values] of grouped.groups) assert.deepEqual(values, await ungrouped(narrowed(`${g.key}="${v}"`)), `${c.name}: ${v}`);
      } else continue; // contributions by tag (before and after): the conformance cases check them against the brute-force oracle
      checked += 1;
    }
    assert.ok(checked >= 6, `${checked} grouped goldens checked`);
  });

  for (const c of V2_GOLDEN_CASES) {
    it(c.name, async () => {
      const golden = readGolden(c);
      const a = await send(base, c);
      assert.equal(a.status, golden.status);
      assert.equal(a.contentType, golden.contentType);
      assert.deepEqual(a.headers, golden.headers);
      assert.equal(a.body, golden.body);
    });
  }
});
