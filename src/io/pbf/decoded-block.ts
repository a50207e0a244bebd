/**
 * A decoded PBF block in columnar form: one typed array per field, plus the block's string
 * table. This is what a worker thread sends to the main thread. Typed arrays are transferred
 * (their memory changes owner, nothing is copied); only the string table is structured-cloned,
 * and it is small (each distinct user name, key, value and role of the block once). Posting an
 * array of ~8000 small record objects instead costs a full serialize + deserialize of every
 * object, which is several times slower (measured in README.md).
 *
 * Row i is version i of the block, in file order. Variable-length parts (tags, way refs,
 * relation members) live in shared arrays addressed by offset columns with count + 1 entries.
 */

export interface DecodedBlock {
  /** Number of versions (rows). */
  count: number;
  /** The block's string table; tags, users and roles refer to it by index ("sid"). */
  strings: string[];

  /** OSM_TYPE_CODE of each row. */
  types: Uint8Array;
  ids: Float64Array;
  versions: Int32Array;
  /** Epoch seconds. */
  timestamps: Float64Array;
  changesets: Float64Array;
  /** -1 when the block has no metadata for the row. */
  uids: Int32Array;
  /** Index into `strings`; -1 for "no user". */
  userSids: Int32Array;
  /** 1 visible, 0 deleted. */
  visibles: Uint8Array;
  /** Nodes only: 1e-7 degrees, 0 for deleted versions (and for ways/relations). */
  lons: Int32Array;
  lats: Int32Array;

  /** Tags of row i: key/value sids at tagSids[tagOffsets[i] .. tagOffsets[i+1]), alternating key, value. */
  tagOffsets: Int32Array;
  tagSids: Int32Array;

  /** Way refs or relation members of row i: entries memberOffsets[i] .. memberOffsets[i+1]. */
  memberOffsets: Int32Array;
  /** Node id (ways) or member id (relations). */
  memberRefs: Float64Array;
  /** Relations only: OSM_TYPE_CODE of the member. */
  memberTypes: Uint8Array;
  /** Relations only: role sid of the member. */
  memberRoleSids: Int32Array;
}

/** Growable columns for a DecodedBlock; the decoder appends rows, then calls finish(). */
export class DecodedBlockBuilder {
  count = 0;
  strings: string[] = [];

  types: Uint8Array;
  ids: Float64Array;
  versions: Int32Array;
  timestamps: Float64Array;
  changesets: Float64Array;
  uids: Int32Array;
  userSids: Int32Array;
  visibles: Uint8Array;
  lons: Int32Array;
  lats: Int32Array;
  tagOffsets: Int32Array;
  memberOffsets: Int32Array;
  private rowCapacity: number;

  tagCount = 0;
  tagSids: Int32Array;

  memberCount = 0;
  memberRefs: Float64Array;
  memberTypes: Uint8Array;
  memberRoleSids: Int32Array;

  constructor(rowCapacity = 8000, tagCapacity = 8192, memberCapacity = 0) {
    this.rowCapacity = rowCapacity;
    this.types = new Uint8Array(rowCapacity);
    this.ids = new Float64Array(rowCapacity);
    this.versions = new Int32Array(rowCapacity);
    this.timestamps = new Float64Array(rowCapacity);
    this.changesets = new Float64Array(rowCapacity);
    this.uids = new Int32Array(rowCapacity);
    this.userSids = new Int32Array(rowCapacity);
    this.visibles = new Uint8Array(rowCapacity);
    this.lons = new Int32Array(rowCapacity);
    this.lats = new Int32Array(rowCapacity);
    this.tagOffsets = new Int32Array(rowCapacity + 1);
    this.memberOffsets = new Int32Array(rowCapacity + 1);
    this.tagSids = new Int32Array(tagCapacity);
    this.memberRefs = new Float64Array(memberCapacity);
    this.memberTypes = new Uint8Array(memberCapacity);
    this.memberRoleSids = new Int32Array(memberCapacity);
  }

  /** Makes room for `rows` rows in total (`exact`: no spare room, the caller knows the final size). */
  ensureRows(rows: number, exact = false): void {
    if (rows <= this.rowCapacity) return;
    const cap = exact ? rows : Math.max(rows, this.rowCapacity * 2);
    this.types = grow(this.types, cap);
    this.ids = grow(this.ids, cap);
    this.versions = grow(this.versions, cap);
    this.timestamps = grow(this.timestamps, cap);
    this.changesets = grow(this.changesets, cap);
    this.uids = grow(this.uids, cap);
    this.userSids = grow(this.userSids, cap);
    this.visibles = grow(this.visibles, cap);
    this.lons = grow(this.lons, cap);
    this.lats = grow(this.lats, cap);
    this.tagOffsets = grow(this.tagOffsets, cap + 1);
    this.memberOffsets = grow(this.memberOffsets, cap + 1);
    this.rowCapacity = cap;
  }

  /** Makes room for `sids` tag sids in total. */
  ensureTagSids(sids: number, exact = false): void {
    if (sids > this.tagSids.length) this.tagSids = grow(this.tagSids, exact ? sids : Math.max(sids, this.tagSids.length * 2));
  }

  /** Makes room for `members` way refs / relation members in total. */
  ensureMembers(members: number, exact = false): void {
    if (members <= this.memberRefs.length) return;
    const cap = exact ? members : Math.max(members, this.memberRefs.length * 2);
    this.memberRefs = grow(this.memberRefs, cap);
    this.memberTypes = grow(this.memberTypes, cap);
    this.memberRoleSids = grow(this.memberRoleSids, cap);
  }

  /** Views of exactly the used part (the underlying buffers are transferred whole). */
  finish(): DecodedBlock {
    const n = this.count;
    this.tagOffsets[n] = this.tagCount;
    this.memberOffsets[n] = this.memberCount;
    return {
      count: n,
      strings: this.strings,
      types: this.types.subarray(0, n),
      ids: this.ids.subarray(0, n),
      versions: this.versions.subarray(0, n),
      timestamps: this.timestamps.subarray(0, n),
      changesets: this.changesets.subarray(0, n),
      uids: this.uids.subarray(0, n),
      userSids: this.userSids.subarray(0, n),
      visibles: this.visibles.subarray(0, n),
      lons: this.lons.subarray(0, n),
      lats: this.lats.subarray(0, n),
      tagOffsets: this.tagOffsets.subarray(0, n + 1),
      tagSids: this.tagSids.subarray(0, this.tagCount),
      memberOffsets: this.memberOffsets.subarray(0, n + 1),
      memberRefs: this.memberRefs.subarray(0, this.memberCount),
      memberTypes: this.memberTypes.subarray(0, this.memberCount),
      memberRoleSids: this.memberRoleSids.subarray(0, this.memberCount),
    };
  }
}

/** The ArrayBuffers behind a block's columns, for postMessage's transfer list. */
export function transferList(block: DecodedBlock): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const column of [
    block.types,
    block.ids,
    block.versions,
    block.timestamps,
    block.changesets,
    block.uids,
    block.userSids,
    block.visibles,
    block.lons,
    block.lats,
    block.tagOffsets,
    block.tagSids,
    block.memberOffsets,
    block.memberRefs,
    block.memberTypes,
    block.memberRoleSids,
  ]) {
    buffers.add(column.buffer as ArrayBuffer);
  }
  return [...buffers];
}

type TypedArray = Uint8Array | Int32Array | Float64Array;

function grow<T extends TypedArray>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
