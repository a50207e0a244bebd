/**
 * ClickHouse's RowBinary format, written (the loader's transfer format: every ClickHouse version from
 * 18.16 on reads it, and it costs no text parsing on the server; docs/clickhouse.md) and read (the
 * engine's result format: numbers arrive as numbers, WKB as bytes, where JSON would quote 64-bit
 * integers and mangle binary strings). Little-endian fixed-width numbers, strings and arrays
 * prefixed by their length as an unsigned LEB128 varint, Nullable as one byte (1: NULL) before the
 * value. Pure: no I/O.
 */

export type ChType =
  | 'UInt8'
  | 'Int32'
  | 'Int64'
  | 'Float64'
  | 'String'
  | 'Array(Int64)'
  | 'Array(String)'
  | 'Nullable(String)'
  | 'Nullable(Float64)'
  | 'Nullable(Int64)';

/** A growing byte buffer for one batch of rows. */
export class RowBinaryWriter {
  private buf: Buffer;
  private at = 0;

  constructor(initial = 1 << 16) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  get length(): number {
    return this.at;
  }

  /** The bytes written so far; the writer starts again empty. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.at));
    this.at = 0;
    return out;
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  varint(n: number): void {
    this.room(10);
    let v = n;
    while (v >= 0x80) {
      this.buf[this.at++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.at++] = v;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.at++] = v;
  }

  i32(v: number): void {
    this.room(4);
    this.buf.writeInt32LE(v, this.at);
    this.at += 4;
  }

  i64(v: number | bigint): void {
    this.room(8);
    this.buf.writeBigInt64LE(typeof v === 'bigint' ? v : BigInt(v), this.at);
    this.at += 8;
  }

  f64(v: number): void {
    this.room(8);
    this.buf.writeDoubleLE(v, this.at);
    this.at += 8;
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  string(s: string): void {
    const n = Buffer.byteLength(s);
    this.varint(n);
    this.room(n);
    this.buf.write(s, this.at, 'utf8');
    this.at += n;
  }

  /** One value of a column of type `t`. */
  value(t: ChType, v: unknown): void {
    switch (t) {
      case 'UInt8':
        return this.u8(typeof v === 'boolean' ? (v ? 1 : 0) : (v as number));
      case 'Int32':
        return this.i32(v as number);
      case 'Int64':
        return this.i64(v as number | bigint);
      case 'Float64':
        return this.f64(v as number);
      case 'String':
        return v instanceof Uint8Array ? this.bytes(v) : this.string(v as string);
      case 'Array(Int64)': {
        const a = v as readonly (number | bigint)[];
        this.varint(a.length);
        for (const x of a) this.i64(x);
        return;
      }
      case 'Array(String)': {
        const a = v as readonly string[];
        this.varint(a.length);
        for (const x of a) this.string(x);
        return;
      }
      case 'Nullable(String)':
        if (v === null || v === undefined) return this.u8(1);
        this.u8(0);
        return this.value('String', v);
      case 'Nullable(Float64)':
        if (v === null || v === undefined) return this.u8(1);
        this.u8(0);
        return this.f64(v as number);
      case 'Nullable(Int64)':
        if (v === null || v === undefined) return this.u8(1);
        this.u8(0);
        return this.i64(v as number | bigint);
    }
  }
}

/**
 * How a result column is read: its ClickHouse type, and the JS value it becomes. `Bool` is a UInt8
 * read as a boolean, `Bytes` a String read as bytes (WKB), `String` as UTF-8 text; Int64 becomes
 * a number (ids and times are far below 2^53).
 */
export type ChReadType =
  | 'UInt8'
  | 'Bool'
  | 'Int32'
  | 'Int64'
  | 'Float64'
  | 'String'
  | 'Bytes'
  | 'Array(Float64)'
  | 'Array(String)'
  | 'Nullable(Bool)'
  | 'Nullable(Float64)'
  | 'Nullable(Bytes)'
  | 'Nullable(String)';

/** The ClickHouse type a statement casts a column to, so that it reads as `t`. */
export function chTypeOf(t: ChReadType): string {
  return t.replace('Bool', 'UInt8').replace('Bytes', 'String');
}

/** Reads RowBinary rows of the given column types. */
export class RowBinaryReader {
  private at = 0;
  private readonly view: DataView;
  private readonly decoder = new TextDecoder();

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get done(): boolean {
    return this.at >= this.buf.length;
  }

  private varint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.buf[this.at++];
      if (b === undefined) throw new RangeError('RowBinary: the data ends inside a value');
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 128;
    }
  }

  private bytes(): Uint8Array {
    const n = this.varint();
    if (this.at + n > this.buf.length) throw new RangeError('RowBinary: the data ends inside a string');
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  private f64(): number {
    const v = this.view.getFloat64(this.at, true);
    this.at += 8;
    return v;
  }

  value(t: ChReadType): unknown {
    switch (t) {
      case 'UInt8':
        return this.view.getUint8(this.at++);
      case 'Bool':
        return this.view.getUint8(this.at++) !== 0;
      case 'Int32': {
        const v = this.view.getInt32(this.at, true);
        this.at += 4;
        return v;
      }
      case 'Int64': {
        const v = Number(this.view.getBigInt64(this.at, true));
        this.at += 8;
        return v;
      }
      case 'Float64':
        return this.f64();
      case 'String':
        return this.decoder.decode(this.bytes());
      case 'Bytes':
        return this.bytes().slice();
      case 'Array(Float64)': {
        const n = this.varint();
        const out = new Array<number>(n);
        for (let i = 0; i < n; i++) out[i] = this.f64();
        return out;
      }
      case 'Array(String)': {
        const n = this.varint();
        const out = new Array<string>(n);
        for (let i = 0; i < n; i++) out[i] = this.decoder.decode(this.bytes());
        return out;
      }
      case 'Nullable(Bool)':
        return this.view.getUint8(this.at++) === 1 ? null : this.value('Bool');
      case 'Nullable(Float64)':
        return this.view.getUint8(this.at++) === 1 ? null : this.f64();
      case 'Nullable(Bytes)':
        return this.view.getUint8(this.at++) === 1 ? null : this.value('Bytes');
      case 'Nullable(String)':
        return this.view.getUint8(this.at++) === 1 ? null : this.value('String');
    }
  }
}
