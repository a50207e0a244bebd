/**
 * A batch of staging rows in typed arrays: the main thread fills it without allocating an object
 * per value, then transfers its buffers (zero-copy) to the store writer thread, which appends them
 * to DuckDB. Column order and SQL types are STAGING_COLUMNS.
 */

/** SQL of the staging table; the finalize step reads it by these names. */
export const STAGING_COLUMNS: [name: string, sql: string][] = [
  ['type', 'UTINYINT'],
  ['id', 'DOUBLE'], // 64-bit values staged as exact doubles (below 2^53), cast to BIGINT when finishing
  ['version', 'INTEGER'],
  ['minor_version', 'INTEGER'],
  ['valid_from', 'DOUBLE'],
  ['valid_to', 'DOUBLE'],
  ['flags', 'UTINYINT'], // STAGING_FLAG bits
  ['changeset', 'DOUBLE'],
  ['user_id', 'INTEGER'],
  ['tag_set', 'INTEGER'], // id of the state's tag list in the tag set table (TagSetBuilder; 0 = no tags)
  ['tag_set_before', 'INTEGER'], // the same for the previous contribution's tags
  ['geometry_type', 'UTINYINT'],
  ['geometry', 'BLOB'],
  ['xmin', 'DOUBLE'], // NaN = no bbox
  ['ymin', 'DOUBLE'],
  ['xmax', 'DOUBLE'],
  ['ymax', 'DOUBLE'],
  ['spatial_key', 'DOUBLE'],
  ['area', 'DOUBLE'],
  ['length', 'DOUBLE'],
  ['perimeter', 'DOUBLE'],
  ['vertices', 'INTEGER'],
  ['outers', 'INTEGER'],
  ['inners', 'INTEGER'],
  ['roundness', 'DOUBLE'],
  ['squareness', 'DOUBLE'], // NaN = not computed
  ['edits', 'INTEGER'],
  // The element's extent (element-extent.ts), the same on every row of an element.
  ['ext_xmin', 'DOUBLE'],
  ['ext_ymin', 'DOUBLE'],
  ['ext_xmax', 'DOUBLE'],
  ['ext_ymax', 'DOUBLE'],
  ['geometry_run', 'INTEGER'], // geometry-run.ts
];

export const STAGING_FLAG = {
  deleted: 1,
  geometryValid: 2,
  collapsed: 4,
  isCreation: 8,
  isDeletion: 16,
  tagChange: 32,
  geometryChange: 64,
  /** Element-level: some version of the element carried a tag. */
  everTagged: 128,
} as const;

export const BATCH_ROWS = 16384;
/**
 * A batch is also full once its rows' WKB reaches this many bytes. Relation states carry large
 * geometries (8.7 kB on average in the 4-country file, up to hundreds of kB), so 16,384 of them made
 * batches of 150 MB and more, several of them queued for the writer thread at once: on synth-x8 that
 * was about 0.6 GB of the relation phase's peak RSS. Node and way batches stay below it (way rows
 * average 0.7 kB).
 */
export const BATCH_GEOMETRY_BYTES = 16 * 1024 * 1024;
const INITIAL_GEOMETRY_BYTES = BATCH_ROWS * 64;

type Fixed = Uint8Array | Int32Array | Float64Array;

/** The transferable form of a batch. */
export interface StagingBatchData {
  rows: number;
  /** One typed array per fixed-width column, in STAGING_COLUMNS order (list and blob columns: null). */
  fixed: (Fixed | null)[];
  /** Tag sets first used in this batch: their ids, and set i's packed provisional ids at values[offsets[i]..offsets[i+1]]. */
  tagSets: { ids: Int32Array; values: Float64Array; offsets: Int32Array };
  /** WKB bytes of all rows, and row i's bytes at offsets[i]..offsets[i+1] (empty = NULL). */
  geometry: { bytes: Uint8Array; offsets: Int32Array };
}

const FIXED_KIND: Record<string, 'u8' | 'i32' | 'f64'> = { UTINYINT: 'u8', INTEGER: 'i32', DOUBLE: 'f64' };

export class StagingBatch {
  rows = 0;
  readonly fixed: (Fixed | null)[];
  private geometryBytes = new Uint8Array(INITIAL_GEOMETRY_BYTES);
  private readonly geometryOffsets = new Int32Array(BATCH_ROWS + 1);

  constructor() {
    this.fixed = STAGING_COLUMNS.map(([, sql]) => {
      const kind = FIXED_KIND[sql];
      if (kind === 'u8') return new Uint8Array(BATCH_ROWS);
      if (kind === 'i32') return new Int32Array(BATCH_ROWS);
      if (kind === 'f64') return new Float64Array(BATCH_ROWS);
      return null;
    });
  }

  get full(): boolean {
    return this.rows === BATCH_ROWS || this.geometryOffsets[this.rows] >= BATCH_GEOMETRY_BYTES;
  }

  /** Columns by index, for the row writer. */
  column(index: number): Fixed {
    return this.fixed[index]!;
  }

  /** Append the blob part of the current row, then advance to the next row. */
  endRow(wkb: Uint8Array | null): void {
    const r = this.rows;
    const start = this.geometryOffsets[r];
    const length = wkb ? wkb.length : 0;
    if (start + length > this.geometryBytes.length) {
      const grown = new Uint8Array(Math.max(this.geometryBytes.length * 2, start + length));
      grown.set(this.geometryBytes.subarray(0, start));
      this.geometryBytes = grown;
    }
    if (wkb) this.geometryBytes.set(wkb, start);
    this.geometryOffsets[r + 1] = start + length;
    this.rows = r + 1;
  }

  /**
   * The batch's data, sized to its rows, with the tag sets its rows are the first to use; the
   * batch is empty afterwards.
   */
  take(tagSets: readonly { id: number; packed: readonly number[] }[]): { data: StagingBatchData; transfer: ArrayBuffer[] } {
    const n = this.rows;
    const fixed = this.fixed.map((a) => (a ? a.slice(0, n) : null));
    const data: StagingBatchData = {
      rows: n,
      fixed,
      tagSets: packSets(tagSets),
      geometry: { bytes: this.geometryBytes.slice(0, this.geometryOffsets[n]), offsets: this.geometryOffsets.slice(0, n + 1) },
    };
    const transfer: ArrayBuffer[] = [];
    for (const a of fixed) if (a) transfer.push(a.buffer as ArrayBuffer);
    transfer.push(data.tagSets.ids.buffer as ArrayBuffer, data.tagSets.values.buffer as ArrayBuffer, data.tagSets.offsets.buffer as ArrayBuffer);
    transfer.push(data.geometry.bytes.buffer as ArrayBuffer, data.geometry.offsets.buffer as ArrayBuffer);
    this.rows = 0;
    // A single huge geometry may have grown the buffer far beyond a batch: do not keep that for the rest of the import.
    if (this.geometryBytes.length > 2 * BATCH_GEOMETRY_BYTES) this.geometryBytes = new Uint8Array(INITIAL_GEOMETRY_BYTES);
    return { data, transfer };
  }
}

function packSets(sets: readonly { id: number; packed: readonly number[] }[]): StagingBatchData['tagSets'] {
  const ids = new Int32Array(sets.length);
  const offsets = new Int32Array(sets.length + 1);
  let total = 0;
  for (let i = 0; i < sets.length; i++) {
    ids[i] = sets[i].id;
    total += sets[i].packed.length;
    offsets[i + 1] = total;
  }
  const values = new Float64Array(total);
  for (let i = 0; i < sets.length; i++) values.set(sets[i].packed, offsets[i]);
  return { ids, values, offsets };
}

/** SQL of the tag set staging table: a set's tags as provisional packed ids (key id × 2^32 + value id), in the list's order. */
export const TAG_SET_STAGING_COLUMNS: [name: string, sql: string][] = [
  ['id', 'INTEGER'],
  ['kv', 'DOUBLE[]'],
];

/** SQL of the relation members staging table (roles as ids into the role list sent at finish). */
export const MEMBER_STAGING_COLUMNS: [name: string, sql: string][] = [
  ['relation_id', 'DOUBLE'],
  ['version', 'INTEGER'],
  ['pos', 'INTEGER'],
  ['member_type', 'UTINYINT'],
  ['member_id', 'DOUBLE'],
  ['role_id', 'INTEGER'],
];

export const MEMBER_BATCH_ROWS = 65536;

/** The transferable form of a batch of relation members, columns in MEMBER_STAGING_COLUMNS order. */
export interface MemberBatchData {
  rows: number;
  columns: [Float64Array, Int32Array, Int32Array, Uint8Array, Float64Array, Int32Array];
}

/** Relation members in typed arrays; roles become ids of a role dictionary kept by the caller. */
export class MemberBatch {
  rows = 0;
  private relationId = new Float64Array(MEMBER_BATCH_ROWS);
  private version = new Int32Array(MEMBER_BATCH_ROWS);
  private pos = new Int32Array(MEMBER_BATCH_ROWS);
  private memberType = new Uint8Array(MEMBER_BATCH_ROWS);
  private memberId = new Float64Array(MEMBER_BATCH_ROWS);
  private roleId = new Int32Array(MEMBER_BATCH_ROWS);

  get full(): boolean {
    return this.rows === MEMBER_BATCH_ROWS;
  }

  add(relationId: number, version: number, pos: number, memberType: number, memberId: number, roleId: number): void {
    const r = this.rows++;
    this.relationId[r] = relationId;
    this.version[r] = version;
    this.pos[r] = pos;
    this.memberType[r] = memberType;
    this.memberId[r] = memberId;
    this.roleId[r] = roleId;
  }

  take(): { data: MemberBatchData; transfer: ArrayBuffer[] } {
    const n = this.rows;
    const columns: MemberBatchData['columns'] = [
      this.relationId.slice(0, n),
      this.version.slice(0, n),
      this.pos.slice(0, n),
      this.memberType.slice(0, n),
      this.memberId.slice(0, n),
      this.roleId.slice(0, n),
    ];
    this.rows = 0;
    return { data: { rows: n, columns }, transfer: columns.map((c) => c.buffer as ArrayBuffer) };
  }
}

/** SQL of the way node staging table (schema version 4). */
export const WAY_NODE_STAGING_COLUMNS: [name: string, sql: string][] = [
  ['way_id', 'DOUBLE'],
  ['version', 'INTEGER'],
  ['pos', 'INTEGER'],
  ['node_id', 'DOUBLE'],
];

/** The transferable form of a batch of way node references, columns in WAY_NODE_STAGING_COLUMNS order. */
export interface WayNodeBatchData {
  rows: number;
  columns: [Float64Array, Int32Array, Int32Array, Float64Array];
}

/** Way node references in typed arrays. */
export class WayNodeBatch {
  rows = 0;
  private wayId = new Float64Array(MEMBER_BATCH_ROWS);
  private version = new Int32Array(MEMBER_BATCH_ROWS);
  private pos = new Int32Array(MEMBER_BATCH_ROWS);
  private nodeId = new Float64Array(MEMBER_BATCH_ROWS);

  get full(): boolean {
    return this.rows === MEMBER_BATCH_ROWS;
  }

  add(wayId: number, version: number, pos: number, nodeId: number): void {
    const r = this.rows++;
    this.wayId[r] = wayId;
    this.version[r] = version;
    this.pos[r] = pos;
    this.nodeId[r] = nodeId;
  }

  take(): { data: WayNodeBatchData; transfer: ArrayBuffer[] } {
    const n = this.rows;
    const columns: WayNodeBatchData['columns'] = [this.wayId.slice(0, n), this.version.slice(0, n), this.pos.slice(0, n), this.nodeId.slice(0, n)];
    this.rows = 0;
    return { data: { rows: n, columns }, transfer: columns.map((c) => c.buffer as ArrayBuffer) };
  }
}
