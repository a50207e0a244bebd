import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { countBelow, DiffSeries, intervalOf } from '../../query/time-plan.js';
import { OPEN_END } from '../../store/schema.js';
import { countBelowSql, countBelowTreeSql } from './time.js';

describe('time plan', () => {
  it('countBelowSql (arithmetic, calendar, lookup and CASE tree) equals a binary search, also at and between the timestamps', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const con = await instance.connect();
    const utc = (y: number, m: number, d = 1, h = 0) => Date.UTC(y, m, d, h) / 1000;
    // Each series with the form countBelowSql must choose for it (the SQL function it uses).
    const series: [number[], RegExp][] = [
      [[100], /^\(x > 100\)/],
      [[100, 200], /\/\/ 100/], // one step: arithmetic
      [Array.from({ length: 49 }, (_, i) => utc(2015, 0, 1, i)), /\/\/ 3600/], // hourly
      [Array.from({ length: 121 }, (_, i) => utc(2008, i)), /datediff\('month', TIMESTAMP '2008-01-01'/], // monthly: calendar
      [Array.from({ length: 11 }, (_, i) => utc(2007 + i, 0)), /datediff.* \/\/ 12/], // yearly
      [Array.from({ length: 9 }, (_, i) => utc(1969, 10 + 3 * i)), /datediff\('month', TIMESTAMP '1969-11-01'.* \/\/ 3/], // quarterly, before 1970
      [Array.from({ length: 13 }, (_, i) => utc(2010, i, 15)), /bin_edges|\[/], // the 15th of each month: lookup
      [[utc(2010, 0), utc(2010, 1), utc(2010, 3)], /\[/], // month gaps of 1 and 2: lookup
      [[0, 10, 11, 30, 1000], /\[/],
      [[5, 6, 7, 1_000_000_000], /^CASE WHEN x > 7 THEN CASE/], // too close for the lookup: CASE tree
    ];
    for (const [ts, form] of series) {
      assert.match(countBelowSql('x', ts), form, `the form for ${ts.length} timestamps from ${ts[0]}`);
      const mid = (a: number, b: number) => Math.floor((a + b) / 2);
      const between = ts.slice(1).map((t, k) => mid(ts[k], t));
      const xs = [...new Set(ts.flatMap((t) => [t - 1, t, t + 1]).concat(between, [-5, ts[ts.length - 1] + 1e6, OPEN_END, 2 ** 53 - 1]))];
      for (const sqlOf of [countBelowSql, countBelowTreeSql]) {
        const rows = (await con.runAndReadAll(`SELECT x, ${sqlOf('x', ts)} AS c FROM unnest([${xs.join(',')}]::BIGINT[]) AS u(x)`)).getRowsJS();
        for (const [x, c] of rows) assert.equal(Number(c), countBelow(ts, Number(x)), `${ts.length} timestamps from ${ts[0]}, x=${x}`);
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
