/**
 * `maphist clickhouse sync`: brings a loaded ClickHouse store up to date with its DuckDB store after
 * updates (issue 10: `maphist update`, the follower), by reloading only the touched elements' rows.
 * The DuckDB store numbers its updates (`meta.updates`) and records each one's rebuilt elements
 * (`touched_elements`, docs/store.md); the ClickHouse store's `meta` says how many it holds. A sync
 * builds new tables on each shard as a load does (load.ts: staging database, one RENAME per shard,
 * the previous tables serving until then and kept when anything fails): the untouched elements'
 * rows copied on the server, the touched elements' rows (every state and member list of each)
 * sent from DuckDB, and the small tables sent whole.
 *
 * Row ids: a state's `rid` is its DuckDB rowid at load time, which an update may not keep. The
 * reloaded states get `rid = base + rowid` with `base` above every rid loaded (and their `p_rid`
 * likewise: an element's states are reloaded together), and `empty_states` (which names states by
 * rid) is mapped: a touched state by the same rule, an untouched one to the rid it has in
 * ClickHouse, found by (type, id, version, minor_version, valid_from).
 */
import { MaphistError } from '../../core/errors.js';
import type { Store } from '../../store/open-store.js';
import { storeExport } from '../duckdb/store-export.js';
import type { ClickHouseConnection } from './connection.js';
import { checkStateColumns } from './engine.js';
import { ClickHouseHttp } from './http-client.js';
import { loadIntoClickHouse, type LoadOptions, type LoadSource, type LoadSummary } from './load.js';
import { EMPTY_STATE_COLUMNS, isPlainName } from './schema.js';

export interface SyncSummary {
  /** Updates the ClickHouse store held before, and holds now. */
  from: number;
  to: number;
  /** Elements reloaded (none when it was up to date). */
  elements: number;
  load?: LoadSummary;
}

/** One `meta` value of the loaded store (JSON), or undefined. */
async function chMeta(ch: ClickHouseConnection, database: string, key: string, signal: AbortSignal | undefined): Promise<unknown> {
  const rows = await ch.rows(`SELECT value FROM ${database}.meta WHERE key = '${key}'`, { signal });
  return rows.length === 0 ? undefined : JSON.parse(String(rows[0]![0]));
}

export async function syncClickHouse(store: Store, options: Omit<LoadOptions, 'partial'>): Promise<SyncSummary> {
  const database = options.database ?? 'maphist';
  if (!isPlainName(database)) throw new MaphistError('CLI_USAGE', `--database takes a plain name (letters, digits and _), not ${JSON.stringify(database)}`);
  const shards: readonly ClickHouseConnection[] = options.connections ?? (options.urls ?? []).map((url) => new ClickHouseHttp({ url }));
  if (shards.length === 0) throw new MaphistError('CLI_USAGE', 'give at least one ClickHouse URL (--url)');
  const signal = options.signal;
  const entry = shards[0]!;
  const loaded = (await entry.rows(`SELECT count() FROM system.tables WHERE database = '${database}' AND name = 'meta'`, { signal }))[0]![0];
  if (Number(loaded) === 0)
    throw new MaphistError('CLI_USAGE', `ClickHouse at ${entry.url} holds no store in ${database}: load one first (maphist clickhouse load)`);
  await checkStateColumns(entry, database, signal);
  // The same import: a store imported again starts its update numbers again.
  for (const key of ['sourceFile', 'importTime'] as const) {
    const there = await chMeta(entry, database, key, signal);
    if (there !== store.metadata[key]) {
      throw new MaphistError(
        'CLI_USAGE',
        `ClickHouse ${database} holds another import (${key} ${JSON.stringify(there)}, the store's ${JSON.stringify(store.metadata[key])}): load the store instead (maphist clickhouse load)`,
      );
    }
  }
  const from = Number((await chMeta(entry, database, 'updates', signal)) ?? 0);
  const to = store.metadata.updates ?? 0;
  if (to < from)
    throw new MaphistError('CLI_USAGE', `ClickHouse ${database} holds ${from} updates, the store ${to}: load the store instead (maphist clickhouse load)`);
  if (to === from) return { from, to, elements: 0 };

  const touched = await storeExport(store, signal).touched(from);
  const isTouched = new Set(touched.map(([type, id]) => `${type}/${id}`));
  let base = 0;
  const ridOf = new Map<string, number>();
  for (const ch of shards) {
    base = Math.max(base, Number((await ch.rows(`SELECT max(rid) + 1 FROM ${database}.states`, { signal }))[0]![0]));
    const rows = await ch.rows(`SELECT type, id, version, minor_version, valid_from, rid FROM ${database}.states WHERE xmin IS NULL`, { signal });
    for (const [type, id, version, minor, validFrom, rid] of rows) ridOf.set(`${type}/${id}/${version}/${minor}/${validFrom}`, Number(rid));
  }
  const exported = storeExport(store, signal, { touchedSince: from, ridBase: base });
  const at = (name: string) => EMPTY_STATE_COLUMNS.findIndex((c) => c.name === name);
  const [ROWID, TYPE, ID, VERSION, MINOR, VALID_FROM] = ['rowid', 'type', 'id', 'version', 'minor_version', 'valid_from'].map(at);
  const source: LoadSource = {
    count: (table) => exported.count(table),
    rows(table, columns) {
      const rows = exported.rows(table, columns);
      if (table !== 'empty_states') return rows;
      return (async function* () {
        for await (const chunk of rows) {
          yield chunk.map((row) => {
            const key = `${row[TYPE!]}/${row[ID!]}`;
            let rid: number | undefined;
            if (isTouched.has(key)) rid = base + Number(row[ROWID!]);
            else rid = ridOf.get(`${key}/${row[VERSION!]}/${row[MINOR!]}/${row[VALID_FROM!]}`);
            if (rid === undefined)
              throw new MaphistError(
                'ENGINE_FAILURE',
                `state ${key} v${row[VERSION!]} is not in ClickHouse ${database}: load the store instead (maphist clickhouse load)`,
              );
            const out = [...row];
            out[ROWID!] = rid;
            return out;
          });
        }
      })();
    },
  };
  const load = await loadIntoClickHouse(source, { ...options, database, partial: { touched } });
  return { from, to, elements: touched.length, load };
}
