/**
 * Every version of every node, on disk, for resolving way geometries through time.
 *
 * The importer sees all nodes before any way (files are sorted by type), so the store is written
 * once, in id order, then only read. Records are fixed-size and sorted by (id, version): a sparse
 * in-memory index of the first id of each page and a small page cache give random access without
 * holding node locations in memory (a planet-scale history has billions of node versions).
 */
import { closeSync, openSync, readSync, writeSync, unlinkSync } from 'node:fs';

/** One node version as the way and relation builders need it. */
export interface NodeVersionRecord {
  timestamp: number;
  changeset: number;
  uid: number;
  visible: boolean;
  /** 1e-7 degree fixed-point; meaningless when not visible. */
  lon: number;
  lat: number;
}

// id f64 | changeset f64 | timestamp u32 | uid i32 | lon i32 | lat i32  = 32 bytes.
const RECORD_BYTES = 32;
const RECORDS_PER_PAGE = 2048;
const PAGE_BYTES = RECORD_BYTES * RECORDS_PER_PAGE;
/** lon value marking a deleted version (a real lon never reaches it: ±180° = ±1.8e9). */
const DELETED_LON = 0x7fffffff;

export class NodeHistoryStore {
  private readonly fd: number;
  private readonly writeBuffer = Buffer.alloc(PAGE_BYTES);
  private writeView = new DataView(this.writeBuffer.buffer, this.writeBuffer.byteOffset, PAGE_BYTES);
  private recordsInBuffer = 0;
  private recordCount = 0;
  private lastId = -Infinity;
  /** First node id of each page, for binary search. */
  private pageFirstIds: number[] = [];
  private finished = false;

  private readonly cache = new Map<number, DataView>();
  private maxCachedPages: number;

  constructor(
    private readonly path: string,
    options: { cacheBytes?: number } = {},
  ) {
    this.fd = openSync(path, 'w+');
    this.maxCachedPages = Math.max(16, Math.floor((options.cacheBytes ?? 256 * 1024 * 1024) / PAGE_BYTES));
  }

  get size(): number {
    return this.recordCount;
  }

  /** Append one version; ids must come in ascending order (versions of one id in order). */
  add(id: number, v: NodeVersionRecord): void {
    if (this.finished) throw new Error('NodeHistoryStore: add() after finish()');
    if (id < this.lastId) throw new Error(`NodeHistoryStore: node ${id} after ${this.lastId}`);
    this.lastId = id;
    if (this.recordsInBuffer === 0) this.pageFirstIds.push(id);
    const o = this.recordsInBuffer * RECORD_BYTES;
    const view = this.writeView;
    view.setFloat64(o, id, true);
    view.setFloat64(o + 8, v.changeset, true);
    view.setUint32(o + 16, v.timestamp, true);
    view.setInt32(o + 20, v.uid, true);
    view.setInt32(o + 24, v.visible ? v.lon : DELETED_LON, true);
    view.setInt32(o + 28, v.lat, true);
    this.recordsInBuffer++;
    this.recordCount++;
    if (this.recordsInBuffer === RECORDS_PER_PAGE) this.flushPage();
  }

  private flushPage(): void {
    if (this.recordsInBuffer === 0) return;
    const page = this.pageFirstIds.length - 1;
    writeSync(this.fd, this.writeBuffer, 0, this.recordsInBuffer * RECORD_BYTES, page * PAGE_BYTES);
    this.recordsInBuffer = 0;
  }

  /** Ends the write phase. */
  finish(): void {
    this.flushPage();
    this.finished = true;
  }

  /**
   * All versions of a node in version order, or undefined if the file has none (the node lies
   * outside the extract).
   */
  get(id: number): NodeVersionRecord[] | undefined {
    if (!this.finished) throw new Error('NodeHistoryStore: get() before finish()');
    let page = this.pageContaining(id);
    if (page < 0) return undefined;
    // A node's versions may start on the previous page when the page boundary splits them.
    while (page > 0 && this.pageFirstIds[page] === id) page--;
    let out: NodeVersionRecord[] | undefined;
    for (; page < this.pageFirstIds.length; page++) {
      const view = this.page(page);
      const n = view.byteLength / RECORD_BYTES;
      let i = out === undefined ? this.lowerBound(view, n, id) : 0;
      for (; i < n; i++) {
        const o = i * RECORD_BYTES;
        const rid = view.getFloat64(o, true);
        if (rid !== id) return out;
        const lon = view.getInt32(o + 24, true);
        (out ??= []).push({
          changeset: view.getFloat64(o + 8, true),
          timestamp: view.getUint32(o + 16, true),
          uid: view.getInt32(o + 20, true),
          visible: lon !== DELETED_LON,
          lon: lon === DELETED_LON ? 0 : lon,
          lat: view.getInt32(o + 28, true),
        });
      }
      // Nothing here: the versions start on the next page only when that page begins with the id
      // (the step back above found the previous page empty of it).
      if (out === undefined && this.pageFirstIds[page + 1] !== id) return undefined;
    }
    return out;
  }

  /** Index of the last page whose first id is <= id, or -1. */
  private pageContaining(id: number): number {
    const firsts = this.pageFirstIds;
    let lo = 0;
    let hi = firsts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (firsts[mid] <= id) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  private lowerBound(view: DataView, n: number, id: number): number {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (view.getFloat64(mid * RECORD_BYTES, true) < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private page(index: number): DataView {
    // Consecutive lookups mostly hit the page of the previous one (a way's nodes have close ids).
    if (index === this.lastPage && this.lastView !== undefined) return this.lastView;
    const view = this.cachedPage(index);
    this.lastPage = index;
    this.lastView = view;
    return view;
  }

  private lastPage = -1;
  private lastView: DataView | undefined;

  private cachedPage(index: number): DataView {
    const hit = this.cache.get(index);
    if (hit) {
      // Refresh its place in the LRU order.
      this.cache.delete(index);
      this.cache.set(index, hit);
      return hit;
    }
    const records = Math.min(RECORDS_PER_PAGE, this.recordCount - index * RECORDS_PER_PAGE);
    const buf = Buffer.alloc(records * RECORD_BYTES);
    readSync(this.fd, buf, 0, buf.length, index * PAGE_BYTES);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
    if (this.cache.size >= this.maxCachedPages) {
      const oldest = this.cache.keys().next().value as number;
      this.cache.delete(oldest);
    }
    this.cache.set(index, view);
    return view;
  }

  /**
   * Lowers the page cache's size (evicting the least recently used pages). The importer shrinks it
   * for the relation phase, whose node lookups (node members) are few and local to a relation, so
   * that the pages the way phase cached do not add to that phase's peak memory.
   */
  shrinkCache(cacheBytes: number): void {
    this.maxCachedPages = Math.max(16, Math.min(this.maxCachedPages, Math.floor(cacheBytes / PAGE_BYTES)));
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= this.maxCachedPages) break;
      this.cache.delete(oldest);
    }
  }

  /** Closes and deletes the backing file. */
  dispose(): void {
    this.cache.clear();
    this.lastView = undefined;
    closeSync(this.fd);
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}

/** The version valid at t: the newest version whose timestamp is <= t (the reference rule). */
export function versionAt<T extends { timestamp: number }>(versions: readonly T[], t: number): T | undefined {
  for (let i = versions.length - 1; i >= 0; i--) {
    if (versions[i].timestamp <= t) return versions[i];
  }
  return undefined;
}
