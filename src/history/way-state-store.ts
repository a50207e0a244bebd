/**
 * Every state of every way (its versions and the states its moving nodes caused), on disk, for
 * building relation geometries through time. Written in id order during the way pass, read
 * during the relation pass. Like the node store, nothing but a sparse id index stays in memory.
 */
import { closeSync, openSync, readSync, writeSync, unlinkSync } from 'node:fs';
import type { Position } from '../geometry/types.js';

/** A way as a relation member sees it at one moment. */
export interface WayMemberState {
  timestamp: number;
  changeset: number;
  uid: number;
  deleted: boolean;
  /** Whether the way's own tags make it an area (the polygon-feature rules). */
  isArea: boolean;
  /**
   * Ids and coordinates (degrees, from 1e-7 fixed point) of the resolved, visible nodes, in way order.
   * Consecutive states whose nodes resolve the same share these arrays (read back the same way), so
   * consumers may compare them by identity to skip rebuilding a geometry.
   */
  nodeIds: number[];
  coords: Position[];
}

const FLUSH_BYTES = 4 * 1024 * 1024;
/** Flag of a state whose node ids and coordinates are those of the state before it (stored once, decoded as the same arrays). */
const SHARED_NODES = 4;

/** The builder gives a state the previous state's arrays when its nodes resolve the same (way-states.ts). */
function sharesNodes(states: readonly WayMemberState[], k: number): boolean {
  return k > 0 && states[k].nodeIds.length > 0 && states[k].nodeIds === states[k - 1].nodeIds && states[k].coords === states[k - 1].coords;
}

export class WayStateStore {
  private readonly fd: number;
  private chunk = Buffer.alloc(FLUSH_BYTES * 2);
  private chunkView = viewOf(this.chunk);
  private chunkUsed = 0;
  private fileBytes = 0;
  private readonly ids: number[] = [];
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private lastId = -Infinity;
  private finished = false;
  /** Decoded ways, least recently used first, with their estimated heap bytes. */
  private readonly cache = new Map<number, { states: WayMemberState[]; bytes: number }>();
  private cachedBytes = 0;
  private readonly maxCachedBytes: number;

  constructor(
    private readonly path: string,
    options: { cacheBytes?: number } = {},
  ) {
    this.fd = openSync(path, 'w+');
    this.maxCachedBytes = options.cacheBytes ?? 256 * 1024 * 1024;
  }

  add(id: number, states: readonly WayMemberState[]): void {
    if (this.finished) throw new Error('WayStateStore: add() after finish()');
    if (id <= this.lastId) throw new Error(`WayStateStore: way ${id} after ${this.lastId}`);
    this.lastId = id;
    let bytes = 4;
    for (let k = 0; k < states.length; k++) bytes += 8 + 8 + 4 + 4 + 1 + 4 + (sharesNodes(states, k) ? 0 : states[k].nodeIds.length * 16);
    this.ensureRoom(bytes);
    // Through a DataView: Buffer's write methods check their arguments on every call (a third of
    // this method's time on the four-country file).
    const b = this.chunkView;
    let o = this.chunkUsed;
    b.setUint32(o, states.length, true);
    o += 4;
    for (let k = 0; k < states.length; k++) {
      const s = states[k];
      const shared = sharesNodes(states, k);
      b.setFloat64(o, s.timestamp, true);
      b.setFloat64(o + 8, s.changeset, true);
      b.setInt32(o + 16, s.uid, true);
      b.setUint32(o + 20, shared ? 0 : s.nodeIds.length, true);
      b.setUint8(o + 24, (s.deleted ? 1 : 0) | (s.isArea ? 2 : 0) | (shared ? SHARED_NODES : 0));
      b.setUint32(o + 25, 0, true); // reserved
      o += 29;
      if (shared) continue;
      for (let i = 0; i < s.nodeIds.length; i++) {
        b.setFloat64(o, s.nodeIds[i], true);
        // Degrees are fixed-point × 1e-7, so rounding back recovers the integers exactly.
        b.setInt32(o + 8, Math.round(s.coords[i][0] * 1e7), true);
        b.setInt32(o + 12, Math.round(s.coords[i][1] * 1e7), true);
        o += 16;
      }
    }
    this.ids.push(id);
    this.offsets.push(this.fileBytes + this.chunkUsed);
    this.lengths.push(bytes);
    this.chunkUsed = o;
    if (this.chunkUsed >= FLUSH_BYTES) this.flush();
  }

  private ensureRoom(bytes: number): void {
    if (this.chunkUsed + bytes <= this.chunk.length) return;
    this.flush();
    if (bytes > this.chunk.length) {
      this.chunk = Buffer.alloc(bytes * 2);
      this.chunkView = viewOf(this.chunk);
    }
  }

  private flush(): void {
    if (this.chunkUsed === 0) return;
    writeSync(this.fd, this.chunk, 0, this.chunkUsed, this.fileBytes);
    this.fileBytes += this.chunkUsed;
    this.chunkUsed = 0;
  }

  finish(): void {
    this.flush();
    this.finished = true;
  }

  /** The states of a way, oldest first, or undefined when the file does not have the way. */
  get(id: number): WayMemberState[] | undefined {
    if (!this.finished) throw new Error('WayStateStore: get() before finish()');
    const hit = this.cache.get(id);
    if (hit) {
      this.cache.delete(id);
      this.cache.set(id, hit);
      return hit.states;
    }
    const index = this.indexOf(id);
    if (index < 0) return undefined;
    const buf = Buffer.alloc(this.lengths[index]);
    readSync(this.fd, buf, 0, buf.length, this.offsets[index]);
    const states = decode(buf);
    // Decoded coordinates cost about 5× their 16 encoded bytes on the heap (arrays of two doubles).
    const bytes = 5 * buf.length;
    this.cache.set(id, { states, bytes });
    this.cachedBytes += bytes;
    for (const [oldest, entry] of this.cache) {
      if (this.cachedBytes <= this.maxCachedBytes || oldest === id) break;
      this.cache.delete(oldest);
      this.cachedBytes -= entry.bytes;
    }
    return states;
  }

  private indexOf(id: number): number {
    const ids = this.ids;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  dispose(): void {
    this.cache.clear();
    this.cachedBytes = 0;
    closeSync(this.fd);
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}

function viewOf(b: Buffer): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

function decode(buffer: Buffer): WayMemberState[] {
  const b = viewOf(buffer);
  let o = 0;
  const n = b.getUint32(o, true);
  o += 4;
  const out: WayMemberState[] = new Array(n);
  for (let k = 0; k < n; k++) {
    const timestamp = b.getFloat64(o, true);
    const changeset = b.getFloat64(o + 8, true);
    const uid = b.getInt32(o + 16, true);
    const count = b.getUint32(o + 20, true);
    const flags = b.getUint8(o + 24);
    o += 29;
    if ((flags & SHARED_NODES) !== 0) {
      const before = out[k - 1];
      out[k] = { timestamp, changeset, uid, deleted: (flags & 1) !== 0, isArea: (flags & 2) !== 0, nodeIds: before.nodeIds, coords: before.coords };
      continue;
    }
    const nodeIds = new Array<number>(count);
    const coords = new Array<Position>(count);
    for (let i = 0; i < count; i++) {
      nodeIds[i] = b.getFloat64(o, true);
      coords[i] = [b.getInt32(o + 8, true) * 1e-7, b.getInt32(o + 12, true) * 1e-7];
      o += 16;
    }
    out[k] = { timestamp, changeset, uid, deleted: (flags & 1) !== 0, isArea: (flags & 2) !== 0, nodeIds, coords };
  }
  return out;
}
