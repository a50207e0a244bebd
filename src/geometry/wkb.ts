/**
 * ISO Well-Known Binary, 2D: the storage and wire encoding of geometries. Encoding writes
 * little-endian into one buffer sized by a first counting pass; decoding accepts either byte order
 * (per geometry, as the format allows) but only 2D types 1–7.
 */
import { GEOMETRY_TYPE_CODE as WKB_TYPE } from '../core/geometry-type-code.js';
import type { Geometry, Position } from './types.js';

const HEADER_BYTES = 1 + 4;
const COUNT_BYTES = 4;
const POSITION_BYTES = 16;

/**
 * Encodes a geometry as little-endian ISO WKB. An empty point (coordinates not two finite-or-NaN
 * numbers) is written as POINT(NaN NaN), the usual WKB convention; empty lists are written as
 * zero counts (an empty GeometryCollection is 9 bytes).
 */
export function encodeWkb(g: Geometry): Uint8Array {
  const size = encodedSize(g);
  if (size > SCRATCH_BYTES) {
    const bytes = new Uint8Array(size);
    new WkbWriter(bytes).geometry(g);
    return bytes;
  }
  // Small geometries are written into one reused buffer and copied out. Writing through a DataView on
  // a fresh small Uint8Array was the costliest part of encoding: V8 keeps typed arrays of up to 64
  // bytes (every point, a line of up to 3 nodes) on its heap, and asking for their `.buffer` moves
  // the bytes to a new off-heap ArrayBuffer (about 0.8 µs per geometry, 10 times the encoding).
  // `slice` gives the same bytes in an array of their own, as before.
  scratchWriter.reset();
  scratchWriter.geometry(g);
  return scratch.slice(0, size);
}

/**
 * `encodeWkb` of a GeometryCollection whose members come again and again as the same objects (the
 * states of a relation without area geometry: a route's members change one at a time, and the
 * history builder gives the unchanged ones the same objects): each member is encoded once, kept in
 * `memberWkb` while it lives, and copied into every collection that holds it. The same bytes as
 * `encodeWkb` (a collection's WKB is its header, its count and its members' WKB in order); other
 * geometries are encoded as by `encodeWkb`.
 */
export function encodeWkbWithMembers(g: Geometry, memberWkb: WeakMap<Geometry, Uint8Array>): Uint8Array {
  if (g.type !== 'GeometryCollection') return encodeWkb(g);
  const parts: Uint8Array[] = new Array(g.geometries.length);
  let size = HEADER_BYTES + COUNT_BYTES;
  for (let i = 0; i < parts.length; i++) {
    const member = g.geometries[i]!;
    let bytes = memberWkb.get(member);
    if (bytes === undefined) {
      bytes = encodeWkb(member);
      memberWkb.set(member, bytes);
    }
    parts[i] = bytes;
    size += bytes.length;
  }
  // Byte by byte (little-endian), without a DataView: see encodeWkb on small typed arrays.
  const out = new Uint8Array(size);
  out[0] = 1;
  writeUint32(out, 1, WKB_TYPE.GeometryCollection);
  writeUint32(out, HEADER_BYTES, parts.length);
  let o = HEADER_BYTES + COUNT_BYTES;
  for (const bytes of parts) {
    out.set(bytes, o);
    o += bytes.length;
  }
  return out;
}

function writeUint32(bytes: Uint8Array, offset: number, value: number): void {
  bytes[offset] = value & 0xff;
  bytes[offset + 1] = (value >>> 8) & 0xff;
  bytes[offset + 2] = (value >>> 16) & 0xff;
  bytes[offset + 3] = (value >>> 24) & 0xff;
}

/** Geometries up to this size are encoded in `scratch` (larger ones, rare, in an array of their own). */
const SCRATCH_BYTES = 64 * 1024;
const scratch = new Uint8Array(SCRATCH_BYTES);

/** Size in bytes of `encodeWkb(g)`. */
export function encodedSize(g: Geometry): number {
  switch (g.type) {
    case 'Point':
      return HEADER_BYTES + POSITION_BYTES;
    case 'LineString':
      return HEADER_BYTES + COUNT_BYTES + g.coordinates.length * POSITION_BYTES;
    case 'Polygon':
      return HEADER_BYTES + ringsSize(g.coordinates);
    case 'MultiPoint':
      return HEADER_BYTES + COUNT_BYTES + g.coordinates.length * (HEADER_BYTES + POSITION_BYTES);
    case 'MultiLineString': {
      let size = HEADER_BYTES + COUNT_BYTES;
      for (const line of g.coordinates) size += HEADER_BYTES + COUNT_BYTES + line.length * POSITION_BYTES;
      return size;
    }
    case 'MultiPolygon': {
      let size = HEADER_BYTES + COUNT_BYTES;
      for (const polygon of g.coordinates) size += HEADER_BYTES + ringsSize(polygon);
      return size;
    }
    case 'GeometryCollection': {
      let size = HEADER_BYTES + COUNT_BYTES;
      for (const member of g.geometries) size += encodedSize(member);
      return size;
    }
  }
}

function ringsSize(rings: Position[][]): number {
  let size = COUNT_BYTES;
  for (const ring of rings) size += COUNT_BYTES + ring.length * POSITION_BYTES;
  return size;
}

class WkbWriter {
  private readonly view: DataView;
  private offset = 0;

  constructor(bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Writes the next geometry from the start of the buffer again. */
  reset(): void {
    this.offset = 0;
  }

  geometry(g: Geometry): void {
    this.header(WKB_TYPE[g.type]);
    switch (g.type) {
      case 'Point':
        this.point(g.coordinates);
        return;
      case 'LineString':
        this.positions(g.coordinates);
        return;
      case 'Polygon':
        this.rings(g.coordinates);
        return;
      case 'MultiPoint':
        this.count(g.coordinates.length);
        for (const p of g.coordinates) {
          this.header(WKB_TYPE.Point);
          this.point(p);
        }
        return;
      case 'MultiLineString':
        this.count(g.coordinates.length);
        for (const line of g.coordinates) {
          this.header(WKB_TYPE.LineString);
          this.positions(line);
        }
        return;
      case 'MultiPolygon':
        this.count(g.coordinates.length);
        for (const polygon of g.coordinates) {
          this.header(WKB_TYPE.Polygon);
          this.rings(polygon);
        }
        return;
      case 'GeometryCollection':
        this.count(g.geometries.length);
        for (const member of g.geometries) this.geometry(member);
        return;
    }
  }

  private header(type: number): void {
    this.view.setUint8(this.offset, 1);
    this.view.setUint32(this.offset + 1, type, true);
    this.offset += HEADER_BYTES;
  }

  private count(n: number): void {
    this.view.setUint32(this.offset, n, true);
    this.offset += COUNT_BYTES;
  }

  private point(p: Position): void {
    const empty = p.length < 2;
    this.view.setFloat64(this.offset, empty ? NaN : p[0], true);
    this.view.setFloat64(this.offset + 8, empty ? NaN : p[1], true);
    this.offset += POSITION_BYTES;
  }

  private positions(list: Position[]): void {
    const view = this.view;
    let o = this.offset;
    view.setUint32(o, list.length, true);
    o += COUNT_BYTES;
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      view.setFloat64(o, p[0], true);
      view.setFloat64(o + 8, p[1], true);
      o += POSITION_BYTES;
    }
    this.offset = o;
  }

  private rings(rings: Position[][]): void {
    this.count(rings.length);
    for (const ring of rings) this.positions(ring);
  }
}

const scratchWriter = new WkbWriter(scratch);

/** Decodes 2D WKB (ISO, either byte order). Throws on truncated input, trailing bytes and 3D/M or unknown types. */
export function decodeWkb(bytes: Uint8Array): Geometry {
  const reader = new WkbReader(bytes);
  const g = reader.geometry();
  reader.expectEnd();
  return g;
}

class WkbReader {
  private readonly view: DataView;
  private offset = 0;
  private littleEndian = true;

  constructor(bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  expectEnd(): void {
    if (this.offset !== this.view.byteLength) {
      throw new Error(`WKB: ${this.view.byteLength - this.offset} unexpected trailing bytes at offset ${this.offset}`);
    }
  }

  geometry(): Geometry {
    const start = this.offset;
    const type = this.header();
    switch (type) {
      case WKB_TYPE.Point:
        return { type: 'Point', coordinates: this.position() };
      case WKB_TYPE.LineString:
        return { type: 'LineString', coordinates: this.positions() };
      case WKB_TYPE.Polygon:
        return { type: 'Polygon', coordinates: this.rings() };
      case WKB_TYPE.MultiPoint:
        return { type: 'MultiPoint', coordinates: this.members(WKB_TYPE.Point, () => this.position()) };
      case WKB_TYPE.MultiLineString:
        return { type: 'MultiLineString', coordinates: this.members(WKB_TYPE.LineString, () => this.positions()) };
      case WKB_TYPE.MultiPolygon:
        return { type: 'MultiPolygon', coordinates: this.members(WKB_TYPE.Polygon, () => this.rings()) };
      case WKB_TYPE.GeometryCollection: {
        const n = this.count(HEADER_BYTES);
        const geometries: Geometry[] = new Array(n);
        for (let i = 0; i < n; i++) geometries[i] = this.geometry();
        return { type: 'GeometryCollection', geometries };
      }
      default:
        throw new Error(`WKB: unsupported geometry type ${type} at offset ${start} (only 2D types 1-7 are read)`);
    }
  }

  /** Reads the elements of a Multi* geometry, each with its own header of the given type. */
  private members<T>(memberType: number, readBody: () => T): T[] {
    const n = this.count(HEADER_BYTES);
    const out: T[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const start = this.offset;
      const type = this.header();
      if (type !== memberType) throw new Error(`WKB: expected member type ${memberType} at offset ${start}, found ${type}`);
      out[i] = readBody();
    }
    return out;
  }

  private header(): number {
    this.need(HEADER_BYTES);
    const order = this.view.getUint8(this.offset);
    if (order !== 0 && order !== 1) throw new Error(`WKB: invalid byte order marker ${order} at offset ${this.offset}`);
    this.littleEndian = order === 1;
    const type = this.view.getUint32(this.offset + 1, this.littleEndian);
    this.offset += HEADER_BYTES;
    return type;
  }

  /** Reads an element count and checks that at least `n × minElementBytes` bytes remain. */
  private count(minElementBytes: number): number {
    this.need(COUNT_BYTES);
    const n = this.view.getUint32(this.offset, this.littleEndian);
    this.offset += COUNT_BYTES;
    this.need(n * minElementBytes);
    return n;
  }

  private position(): Position {
    this.need(POSITION_BYTES);
    const p: Position = [this.view.getFloat64(this.offset, this.littleEndian), this.view.getFloat64(this.offset + 8, this.littleEndian)];
    this.offset += POSITION_BYTES;
    return p;
  }

  private positions(): Position[] {
    const n = this.count(POSITION_BYTES);
    const view = this.view;
    const le = this.littleEndian;
    const out: Position[] = new Array(n);
    let o = this.offset;
    for (let i = 0; i < n; i++) {
      out[i] = [view.getFloat64(o, le), view.getFloat64(o + 8, le)];
      o += POSITION_BYTES;
    }
    this.offset = o;
    return out;
  }

  private rings(): Position[][] {
    const n = this.count(COUNT_BYTES);
    const out: Position[][] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.positions();
    return out;
  }

  private need(n: number): void {
    if (this.offset + n > this.view.byteLength) {
      throw new Error(`WKB: truncated input, need ${n} more bytes at offset ${this.offset} of ${this.view.byteLength}`);
    }
  }
}
