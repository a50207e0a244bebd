import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { countBelow, DiffSeries, intervalOf } from '../../query/time-plan.js';
import { countBelowSql, countBelowTreeSql } from './time.js';

describe('time plan', () => {
  it('countBelowSql (lookup and CASE tree) equals a binary search, also at and between the timestamps', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const con = await instance.connect();
    const series = [
      [100],
      [100, 200],
      [0, 10, 11, 30, 1000],
      Array.from({ length: 121 }, (_, i) => Date.UTC(2008, i, 1) / 1000),
      [5, 6, 7, 1_000_000_000], // too close for the lookup: CASE tree
    ];
    for (const ts of series) {
      const xs = [...new Set(ts.flatMap((t) => [t - 1, t, t + 1]).concat([-5, ts[ts.length - 1] + 1e6, Math.floor((ts[0] + ts[ts.length - 1]) / 2)]))];
      for (const sqlOf of [countBelowSql, countBelowTreeSql]) {
        const rows = (await con.runAndReadAll(`SELECT x, ${sqlOf('x', ts)} AS c FROM unnest([${xs.join(',')}]::BIGINT[]) AS u(x)`)).getRowsJS();
        for (const [x, c] of rows) assert.equal(Number(c), countBelow(ts, Number(x)), `${ts.length} timestamps, x=${x}`);
      }
    }
    con.closeSync();
    instance.closeSync();
  });

  it('DiffSeries prefix sums and zero where nothing is counted', () => {
    const s = new DiffSeries(4);
    s.add(0.1, 1, 0, 2);
    s.add(0.2, 1, 1, 4);
    assert.deepEqual(
      s.values().values.map((v) => Math.round(v * 10) / 10),
      [0.1, 0.3, 0.2, 0.2],
    );
    const z = new DiffSeries(3);
    z.add(0.1, 1, 0, 1);
    assert.deepEqual(z.values(), { values: [0.1, 0, 0], present: true });
  });

  it('intervalOf', () => {
    assert.equal(intervalOf([10, 20, 30], 10), 0);
    assert.equal(intervalOf([10, 20, 30], 20), 1);
    assert.equal(intervalOf([10, 20, 30], 30), -1);
    assert.equal(intervalOf([10, 20, 30], 9), -1);
  });
});
