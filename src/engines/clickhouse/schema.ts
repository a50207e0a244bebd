/**
 * The ClickHouse form of a maphist store (docs/clickhouse.md): the same tables as the DuckDB file
 * (docs/store.md), in types ClickHouse 18.16 has — no Map (a state's tags are two parallel arrays,
 * `tag_keys`/`tag_values`), no Bool (UInt8) — each a MergeTree on every shard, and on the entry node
 * a Distributed table over them. `states` is sharded by element id (`id % shards`: every state of an
 * element on one shard, so its timeline stays local) and ordered by size class, spatial key and time
 * (the DuckDB table by key and time; with the class first the primary index skips by key ranges,
 * src/engines/sql/spatial-key.ts); `relation_members` is sharded by relation id, with its relation's states; the
 * small tables (users, tag dictionary, meta, changesets) are whole on every shard.
 */
import type { ChType } from './row-binary.js';

export interface ChColumn {
  readonly name: string;
  readonly type: ChType;
}

const col = (name: string, type: ChType): ChColumn => ({ name, type });

/** `states`, in the order the loader writes them (the DuckDB export reads the same names). */
export const STATE_COLUMNS: readonly ChColumn[] = [
  // The state's row id in the DuckDB file it was loaded from: a unique key per state, by which
  // an engine fetches the geometries of boundary rows after its scan (as the DuckDB engine does by rowid).
  col('rid', 'Int64'),
  col('type', 'UInt8'),
  col('id', 'Int64'),
  col('version', 'Int32'),
  col('minor_version', 'Int32'),
  col('valid_from', 'Int64'),
  col('valid_to', 'Int64'),
  col('deleted', 'UInt8'),
  col('changeset', 'Int64'),
  col('user_id', 'Int32'),
  col('tag_kv', 'Array(Int64)'),
  col('key_mask', 'Int64'),
  col('tag_keys', 'Array(String)'),
  col('tag_values', 'Array(String)'),
  col('tag_kv_before', 'Array(Int64)'),
  col('key_mask_before', 'Int64'),
  col('tag_keys_before', 'Array(String)'),
  col('tag_values_before', 'Array(String)'),
  col('geometry_type', 'UInt8'),
  col('geometry', 'Nullable(String)'),
  col('geometry_valid', 'UInt8'),
  col('xmin', 'Nullable(Float64)'),
  col('ymin', 'Nullable(Float64)'),
  col('xmax', 'Nullable(Float64)'),
  col('ymax', 'Nullable(Float64)'),
  col('spatial_key', 'Int64'),
  // Computed at export: the size class and key of the element's extent, the union of its states'
  // bboxes (`extentSortKey`, src/geometry/hilbert.ts), the same on every state of the element. They
  // head the sort order: a box's key ranges bound where any state of an element meeting it lies, so
  // the primary index skips the rest for single states and whole timelines alike (sql/spatial-key.ts).
  col('extent_class', 'UInt8'),
  col('extent_key', 'Int64'),
  col('area', 'Float64'),
  col('length', 'Float64'),
  col('perimeter', 'Float64'),
  col('vertices', 'Int32'),
  col('outers', 'Int32'),
  col('inners', 'Int32'),
  col('roundness', 'Float64'),
  col('squareness', 'Nullable(Float64)'),
  col('collapsed', 'UInt8'),
  col('is_creation', 'UInt8'),
  col('is_deletion', 'UInt8'),
  col('tag_change', 'UInt8'),
  col('geometry_change', 'UInt8'),
  col('edits', 'Int32'),
  col('ever_tagged', 'UInt8'),
  // Computed at export (18.16 has no window functions): the `rid` of the element's previous kept
  // (not collapsed) state by (valid_from, version, minor_version), -1 for its first (a join key
  // that is a plain column on both sides, as 18.16 and the current analyzer both join); and the
  // state's geometry run, the number of creations, deletions and geometry changes among its
  // element's kept states up to it (one representative geometry per run is read).
  col('p_rid', 'Int64'),
  col('run', 'Int64'),
  // Computed at export too: the changeset of the state's version, i.e. of its first state by
  // minor version (what a member-induced state reports in a contributions extraction; the DuckDB
  // engine's `first_value … OVER`, src/engines/duckdb/sql/extraction.ts).
  col('version_changeset', 'Int64'),
];

/**
 * The states without geometry that a query places by their history's bbox (src/query/empty-placement.ts),
 * as the DuckDB engine reads them (src/engines/duckdb/empty-geometry.ts, which needs
 * `relation_members`): computed at export, read whole by the engine.
 */
export const EMPTY_STATE_COLUMNS: readonly ChColumn[] = [
  col('rowid', 'Int64'),
  col('type', 'UInt8'),
  col('id', 'Int64'),
  col('version', 'Int32'),
  col('members', 'UInt8'),
  col('x0', 'Float64'),
  col('y0', 'Float64'),
  col('x1', 'Float64'),
  col('y1', 'Float64'),
  col('changeset', 'Int64'),
  col('k', 'Array(String)'),
  col('v', 'Array(String)'),
  col('kb', 'Array(String)'),
  col('vb', 'Array(String)'),
  col('geometry_type', 'UInt8'),
  ...['area', 'length', 'perimeter', 'vertices', 'outers', 'inners', 'roundness', 'squareness'].map((n) => col(n, 'Nullable(Float64)')),
  // The state's minor version and start: with type, id and version they name it, so a sync finds
  // its `rid` in the loaded states again (sync.ts).
  col('minor_version', 'Int32'),
  col('valid_from', 'Int64'),
];

/**
 * `changesets` (version 2 contributions' `changeset_tags`): a changeset's id and tags only, whole on
 * every shard, as `users`. A store holds the changesets its states reference (a fraction of its
 * states, each a few tags), and a state's changeset is on no particular shard; the engine joins the
 * tags on the entry node after the shards' scan (clickhouse/sql/parquet.ts).
 */
export const CHANGESET_COLUMNS: readonly ChColumn[] = [col('id', 'Int64'), col('tag_keys', 'Array(String)'), col('tag_values', 'Array(String)')];

/**
 * `relation_members` (collections.parquet): each relation version's member list, sharded by the
 * relation's id as `states` (`shardBy`): a relation's states and its member lists are on one shard,
 * so the join of a relation state to its members stays on the shard. The members' own states are
 * on their own shards: the engine joins them with GLOBAL JOIN (the relations' member rows, few,
 * sent to every shard; clickhouse/sql/parquet.ts).
 */
export const RELATION_MEMBER_COLUMNS: readonly ChColumn[] = [
  col('relation_id', 'Int64'),
  col('version', 'Int32'),
  col('pos', 'Int32'),
  col('member_type', 'UInt8'),
  col('member_id', 'Int64'),
  col('role', 'String'),
];

export const USER_COLUMNS: readonly ChColumn[] = [col('id', 'Int32'), col('name', 'String')];
export const TAG_KEY_COLUMNS: readonly ChColumn[] = [col('id', 'Int32'), col('key', 'String'), col('frequency', 'Int64')];
export const TAG_VALUE_COLUMNS: readonly ChColumn[] = [col('key_id', 'Int32'), col('value_id', 'Int32'), col('value', 'String'), col('frequency', 'Int64')];
export const META_COLUMNS: readonly ChColumn[] = [col('key', 'String'), col('value', 'String')];

export interface ChTable {
  readonly name: string;
  readonly columns: readonly ChColumn[];
  /** The MergeTree's ORDER BY. */
  readonly orderBy: string;
  /** Sharded by element id (true), or a whole copy on every shard. */
  readonly sharded: boolean;
  /** The column holding the element id a sharded table is split by (default `id`). */
  readonly shardBy?: string;
}

export const TABLES: readonly ChTable[] = [
  { name: 'states', columns: STATE_COLUMNS, orderBy: '(extent_class, extent_key, type, id, valid_from)', sharded: true },
  { name: 'users', columns: USER_COLUMNS, orderBy: 'id', sharded: false },
  { name: 'tag_keys', columns: TAG_KEY_COLUMNS, orderBy: 'id', sharded: false },
  { name: 'tag_values', columns: TAG_VALUE_COLUMNS, orderBy: '(key_id, value_id)', sharded: false },
  { name: 'meta', columns: META_COLUMNS, orderBy: 'key', sharded: false },
  { name: 'empty_states', columns: EMPTY_STATE_COLUMNS, orderBy: 'rowid', sharded: false },
  { name: 'changesets', columns: CHANGESET_COLUMNS, orderBy: 'id', sharded: false },
  { name: 'relation_members', columns: RELATION_MEMBER_COLUMNS, orderBy: '(relation_id, version, pos)', sharded: true, shardBy: 'relation_id' },
];

/** The cluster name of `remote_servers` (scripts/clickhouse-cluster.sh writes `maphist`). */
export const DEFAULT_CLUSTER = 'maphist';

/** A database or cluster name as ClickHouse takes it unquoted (the loader refuses any other). */
export function isPlainName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name);
}

/** ClickHouse's default rows per mark of the primary index (`index_granularity`). */
export const DEFAULT_INDEX_GRANULARITY = 8192;

/** `indexGranularity`: rows per primary index mark, the unit the index skips by (a smaller one skips finer, for a larger index). */
export function createTableSql(database: string, t: ChTable, indexGranularity = DEFAULT_INDEX_GRANULARITY): string {
  if (!Number.isSafeInteger(indexGranularity) || indexGranularity < 1) throw new RangeError(`not an index granularity: ${indexGranularity}`);
  const columns = t.columns.map((c) => `${c.name} ${c.type}`).join(', ');
  return `CREATE TABLE ${database}.${t.name} (${columns}) ENGINE = MergeTree ORDER BY ${t.orderBy} SETTINGS index_granularity = ${indexGranularity}`;
}

/**
 * The Distributed table over the shards' `states` (on the entry node): `states_all`, sharding
 * key `id` (ClickHouse puts a row on shard `id % shards`, the loader's own rule).
 */
export function createDistributedSql(database: string, cluster: string): string {
  return `CREATE TABLE ${database}.states_all AS ${database}.states ENGINE = Distributed(${cluster}, ${database}, states, id)`;
}

/** The shard of an element (the Distributed table's rule for sharding key `id`, weights 1). */
export function shardOf(id: number, shards: number): number {
  return id % shards;
}
