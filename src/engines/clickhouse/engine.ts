/**
 * The ClickHouse engine (issue 19): the aggregation engine of src/engines/common/engine.ts
 * (`createSqlQueryEngine`: planning, boundary clipping and measuring in TypeScript, contribution
 * classification, grouping) over the ClickHouse statements of sql/aggregation.ts, read as RowBinary
 * from a `ClickHouseConnection` (a cluster's entry node over HTTP, or chDB). Measures are the
 * store's precomputed values summed by ClickHouse, or the kernel's on clipped geometry: never
 * ClickHouse's own geometry functions, whose spherical areas differ from ours.
 */
import { MaphistError } from '../../core/errors.js';
import { clickhouseDialect, compileSql } from '../../filter/index.js';
import type { EmptyGeometryState } from '../../query/empty-placement.js';
import { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { createSqlQueryEngine, type AggregationSql, type SqlQueryEngine, type SqlQueryEngineOptions } from '../common/engine.js';
import { emptyGeometryStatesOf } from '../common/empty-geometry.js';
import { withV1Scope } from '../common/scope.js';
import type { Statement } from '../sql/statement.js';
import { CLICKHOUSE_FLAVOR } from '../sql/flavor.js';
import type { Columns } from '../common/statements.js';
import type { ClickHouseConnection } from './connection.js';
import { RowBinaryReader } from './row-binary.js';
import { isPlainName, STATE_COLUMNS } from './schema.js';
import {
  boundaryGeometriesSql,
  contributionAggregateSql,
  contributionListSql,
  emptyStatesSql,
  geometriesByRidSql,
  geometryRows,
  snapshotSql,
  type ChTables,
} from './sql/aggregation.js';
import { isChStatement, type ChStatement } from './sql/statement.js';

export interface ClickHouseStore {
  readonly connection: ClickHouseConnection;
  readonly database: string;
  readonly tables: ChTables;
}

/**
 * The loaded store in `database` on the connection's server: the Distributed table `states_all`
 * where the loader made one (a cluster's entry node), else the server's own `states` (one shard, chDB).
 */
export async function openClickHouseStore(connection: ClickHouseConnection, database = 'maphist'): Promise<ClickHouseStore> {
  if (!isPlainName(database))
    throw new MaphistError('CLI_USAGE', `--clickhouse-database takes a plain name (letters, digits and _), not ${JSON.stringify(database)}`);
  const names = new Set((await connection.rows(`SELECT name FROM system.tables WHERE database = '${database}'`)).map((r) => String(r[0])));
  if (!names.has('states')) {
    throw new MaphistError(
      'ENGINE_FAILURE',
      `ClickHouse at ${connection.url} has no maphist store in database ${database}: load one with maphist clickhouse load`,
    );
  }
  await checkStateColumns(connection, database);
  const local = `${database}.states`;
  return { connection, database, tables: { entry: names.has('states_all') ? `${database}.states_all` : local, local } };
}

/** Refuses a store whose `states` lacks columns this version reads (loaded by an earlier maphist). */
export async function checkStateColumns(connection: ClickHouseConnection, database: string, signal?: AbortSignal): Promise<void> {
  const there = new Set(
    (await connection.rows(`SELECT name FROM system.columns WHERE database = '${database}' AND table = 'states'`, { signal })).map((r) => String(r[0])),
  );
  const missing = STATE_COLUMNS.map((c) => c.name).filter((n) => !there.has(n));
  if (missing.length > 0) {
    throw new MaphistError(
      'ENGINE_FAILURE',
      `the store in ClickHouse database ${database} at ${connection.url} was loaded by an earlier maphist (its states lack ${missing.join(', ')}): load it again with maphist clickhouse load`,
    );
  }
}

/** Runs a ClickHouse statement and decodes its RowBinary answer into records. */
export async function readChRecords<R>(store: ClickHouseStore, st: Statement<R>, signal: AbortSignal | undefined): Promise<R[]> {
  if (!isChStatement(st)) throw new TypeError('not a ClickHouse statement');
  const bytes = await store.connection.bytes(st.text, 'RowBinary', { signal });
  return decode(st, bytes);
}

function decode<R>(st: ChStatement<R>, bytes: Uint8Array): R[] {
  const reader = new RowBinaryReader(bytes);
  const columns = st.columns.map((c) => [c, st.types[c]!] as const);
  const out: R[] = [];
  while (!reader.done) {
    const record: Record<string, unknown> = {};
    for (const [name, type] of columns) record[name] = reader.value(type);
    out.push(record as R);
  }
  return out;
}

function toColumns<R>(st: Statement<R>, records: readonly R[]): Columns<R> {
  const byName: Record<string, unknown[]> = {};
  for (const name of st.columns) byName[name] = records.map((r) => r[name as keyof R]);
  return Object.assign(byName, { rowCount: records.length }) as unknown as Columns<R>;
}

/** The tag dictionary of the loaded store. */
export async function chDictionary(store: ClickHouseStore): Promise<StoreTagDictionary> {
  const db = store.database;
  const keys = await store.connection.rows(`SELECT id, key FROM ${db}.tag_keys`);
  const values = await store.connection.rows(`SELECT key_id, value_id, value FROM ${db}.tag_values`);
  return new StoreTagDictionary(
    keys.map((r) => ({ id: Number(r[0]), key: String(r[1]) })),
    values.map((r) => ({ keyId: Number(r[0]), valueId: Number(r[1]), value: String(r[2]) })),
  );
}

/** The ClickHouse statements for the aggregation engine. */
export async function clickHouseAggregationSql(store: ClickHouseStore, dictionary?: StoreTagDictionary): Promise<AggregationSql> {
  const dict = dictionary ?? (await chDictionary(store));
  const t = store.tables;
  const records = <R>(st: Statement<R>, signal: AbortSignal | undefined) => readChRecords(store, st, signal);
  return {
    flavor: CLICKHOUSE_FLAVOR,
    dictionary: dict,
    contributionAlias: '',
    // The columns are unqualified in every ClickHouse statement (a join's other side names its own p_*).
    filterSql: (filter) => withV1Scope(filter, compileSql(filter, { dialect: clickhouseDialect, dictionary: dict }).sql),
    emptyGeometryStates: async (signal): Promise<EmptyGeometryState[]> => {
      const st = emptyStatesSql(store.database);
      return emptyGeometryStatesOf((await readChRecords<Record<string, unknown>>(store, st, signal)).map((r) => st.columns.map((c) => r[c])));
    },
    snapshot: (p) => snapshotSql(t, p),
    snapshotBoxes: null,
    contributionAggregate: (p) => contributionAggregateSql(t, p),
    contributionList: (p) => contributionListSql(t, p),
    geometriesByRowid: async (rids, intersectsSql, signal) => geometryRows(await records(geometriesByRidSql(t, rids, intersectsSql), signal)),
    boundaryGeometries: (rids, area) => boundaryGeometriesSql(t, rids, area.elementKeySql),
    records,
    columns: async (st, signal) => toColumns(st, await records(st, signal)),
  };
}

/** The version 1 aggregation engine on ClickHouse. */
export async function createClickHouseQueryEngine(store: ClickHouseStore, options: SqlQueryEngineOptions = {}): Promise<SqlQueryEngine> {
  return createSqlQueryEngine(await clickHouseAggregationSql(store), options);
}
