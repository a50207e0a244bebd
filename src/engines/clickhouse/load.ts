/**
 * `maphist clickhouse load`: a store's tables into a ClickHouse cluster (schema.ts), atomically per
 * shard. Every table is written into `<database>_load` on each shard (states split by element id,
 * relation member lists by relation id, the small tables whole), in RowBinary batches of about 8 MB over HTTP; then each shard moves the
 * new tables over the old ones with one `RENAME TABLE` (18.16 has no RENAME DATABASE) and drops the
 * old ones; the entry node (the first URL) gets the Distributed table `states_all`. A failed load
 * leaves the previous tables serving (it drops its `_load` database). The rows come from a
 * `LoadSource` (the CLI reads them from the DuckDB store: engines/duckdb/store-export.ts).
 */
import { MaphistError } from '../../core/errors.js';
import type { ClickHouseConnection } from './connection.js';
import { ClickHouseHttp } from './http-client.js';
import { RowBinaryWriter } from './row-binary.js';
import { createDistributedSql, createTableSql, DEFAULT_CLUSTER, isPlainName, shardOf, TABLES, type ChTable } from './schema.js';

export interface LoadSource {
  /** The number of rows of a table (progress). */
  count(table: string): Promise<number>;
  /** The table's rows, each a list of values in the order of `columns`. */
  rows(table: string, columns: readonly string[]): AsyncIterable<readonly unknown[][]>;
}

export interface LoadOptions {
  /** The shards' HTTP URLs; the first is the entry node. */
  urls?: readonly string[];
  /** Or the shards' connections (chDB in the tests: one shard, no Distributed table). */
  connections?: readonly ClickHouseConnection[];
  database?: string;
  cluster?: string;
  /** Rows written so far of `total` (of every table). */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Rows per mark of the tables' primary index (`index_granularity`, default 8192; schema.ts). */
  indexGranularity?: number;
  /**
   * A partial reload (sync.ts): the loaded tables' rows of every element not in `touched` are
   * copied on each server into the new tables, and the source gives the touched elements' rows of
   * `states` and `relation_members` (every row of the other tables).
   */
  partial?: { touched: readonly (readonly [type: number, id: number])[] };
}

export interface LoadSummary {
  rows: Record<string, number>;
  /** States per shard, in the order of `urls`. */
  statesPerShard: number[];
}

const BATCH_BYTES = 8 << 20;

export async function loadIntoClickHouse(source: LoadSource, options: LoadOptions): Promise<LoadSummary> {
  const database = options.database ?? 'maphist';
  const cluster = options.cluster ?? DEFAULT_CLUSTER;
  for (const [what, name] of [
    ['--database', database],
    ['--cluster', cluster],
  ] as const) {
    if (!isPlainName(name)) throw new MaphistError('CLI_USAGE', `${what} takes a plain name (letters, digits and _), not ${JSON.stringify(name)}`);
  }
  const shards: readonly ClickHouseConnection[] = options.connections ?? (options.urls ?? []).map((url) => new ClickHouseHttp({ url }));
  if (shards.length === 0) throw new MaphistError('CLI_USAGE', 'give at least one ClickHouse URL (--url)');
  // A Distributed table needs the cluster in the servers' configuration; an embedded server (chDB) has none and one shard.
  const distributed = options.connections === undefined;
  const signal = options.signal;
  const staging = `${database}_load`;
  const old = `${database}_old`;
  const q = { signal };

  for (const ch of shards) {
    await ch.text(`CREATE DATABASE IF NOT EXISTS ${database}`, q);
    await ch.text(`DROP DATABASE IF EXISTS ${staging}`, q);
    await ch.text(`CREATE DATABASE ${staging}`, q);
    for (const t of TABLES) await ch.text(createTableSql(staging, t, options.indexGranularity), q);
  }
  const summary: LoadSummary = { rows: {}, statesPerShard: shards.map(() => 0) };
  try {
    if (options.partial) await keepUntouched(options.partial.touched);
    let total = 0;
    for (const t of TABLES) total += await source.count(t.name);
    let done = 0;
    for (const t of TABLES) {
      summary.rows[t.name] = await loadTable(t, (n) => {
        done += n;
        options.onProgress?.(done, total);
      });
    }
    // The swap, shard by shard: the old tables (if any) out, the new ones in, in one RENAME.
    for (const ch of shards) {
      const existing = new Set((await ch.rows(`SELECT name FROM system.tables WHERE database = '${database}'`, q)).map((r) => String(r[0])));
      await ch.text(`DROP DATABASE IF EXISTS ${old}`, q);
      await ch.text(`CREATE DATABASE ${old}`, q);
      const moves: string[] = [];
      for (const t of TABLES) {
        if (existing.has(t.name)) moves.push(`${database}.${t.name} TO ${old}.${t.name}`);
        moves.push(`${staging}.${t.name} TO ${database}.${t.name}`);
      }
      await ch.text(`RENAME TABLE ${moves.join(', ')}`, q);
      await ch.text(`DROP DATABASE ${old}`, q);
      await ch.text(`DROP DATABASE ${staging}`, q);
    }
    await shards[0].text(`DROP TABLE IF EXISTS ${database}.states_all`, q);
    if (distributed) await shards[0].text(createDistributedSql(database, cluster), q);
    return summary;
  } catch (e) {
    // The previous tables keep serving; the half-loaded ones go (best effort: the server may be gone).
    for (const ch of shards) await ch.text(`DROP DATABASE IF EXISTS ${staging}`).catch(() => undefined);
    throw e;
  }

  /**
   * The untouched elements' rows of the per-element tables, copied from the loaded tables into the
   * new ones on each server (no transfer): `touched` is written to `<staging>.touched` first.
   */
  async function keepUntouched(touched: readonly (readonly [number, number])[]): Promise<void> {
    for (const ch of shards) {
      await ch.text(`CREATE TABLE ${staging}.touched (type UInt8, id Int64) ENGINE = MergeTree ORDER BY (type, id)`, q);
      const w = new RowBinaryWriter();
      for (const [type, id] of touched) {
        w.u8(type);
        w.i64(id);
      }
      if (w.length > 0) await ch.insertRowBinary(`${staging}.touched`, w.take(), q);
      const untouched = `(type, id) NOT IN (SELECT type, id FROM ${staging}.touched)`;
      await ch.text(`INSERT INTO ${staging}.states SELECT * FROM ${database}.states WHERE ${untouched}`, q);
      await ch.text(
        `INSERT INTO ${staging}.relation_members SELECT * FROM ${database}.relation_members WHERE relation_id NOT IN (SELECT id FROM ${staging}.touched WHERE type = 2)`,
        q,
      );
    }
  }

  async function loadTable(t: ChTable, progress: (n: number) => void): Promise<number> {
    const writers = shards.map(() => new RowBinaryWriter());
    const names = t.columns.map((c) => c.name);
    const idAt = names.indexOf(t.shardBy ?? 'id');
    let rows = 0;
    // One insert in flight per shard while the next batch is read and encoded: the server parses
    // and writes one batch while this process exports the next (4-country store, two shards:
    // 38 s → see docs/clickhouse.md). A failed insert fails the load at the next flush or at the end.
    const inFlight: (Promise<void> | undefined)[] = shards.map(() => undefined);
    const flush = async (k: number) => {
      await inFlight[k];
      inFlight[k] = undefined;
      if (writers[k].length === 0) return;
      const sent = shards[k].insertRowBinary(`${staging}.${t.name}`, writers[k].take(), q);
      sent.catch(() => undefined); // awaited at the next flush or at the end
      inFlight[k] = sent;
    };
    for await (const chunk of source.rows(t.name, names)) {
      for (const row of chunk) {
        // A sharded table's row goes to its element's shard; the others to every shard.
        const targets = t.sharded ? [shardOf(Number(row[idAt]), shards.length)] : shards.map((_, k) => k);
        for (const k of targets) {
          const w = writers[k];
          for (let c = 0; c < t.columns.length; c++) w.value(t.columns[c].type, row[c]);
          if (t.name === 'states') summary.statesPerShard[k]++;
        }
      }
      rows += chunk.length;
      progress(chunk.length);
      for (let k = 0; k < shards.length; k++) if (writers[k].length >= BATCH_BYTES) await flush(k);
    }
    for (let k = 0; k < shards.length; k++) await flush(k);
    await Promise.all(inFlight);
    return rows;
  }
}
