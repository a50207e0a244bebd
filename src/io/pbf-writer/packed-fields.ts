import type { PbfWriter } from 'pbf';

/**
 * Packed repeated fields written straight from typed-array columns into the writer's buffer.
 * pbf's own writePacked* take number[] and check the buffer size for every value; these reserve
 * room once per field and encode varints inline (the hottest loop of the writer).
 */

interface Column {
  values: ArrayLike<number>;
  count: number;
}

/** A varint of up to 64 bits takes at most 10 bytes. */
const MAX_VARINT_BYTES = 10;
/** Below this a varint takes at most 4 bytes and fits 32-bit bit operations. */
const SMALL_VARINT_LIMIT = 0x10000000;

/** `repeated sint64 … [packed]` holding the differences between consecutive values (PBF "DELTA" coding). */
export function writePackedDeltaSVarints(pbf: PbfWriter, tag: number, values: ArrayLike<number>, count: number): void {
  if (count > 0) pbf.writeMessage(tag, writeDeltaSVarints, { values, count });
}

/** `repeated int32/uint32/enum/bool … [packed]` holding non-negative values as they are. */
export function writePackedVarints(pbf: PbfWriter, tag: number, values: ArrayLike<number>, count: number): void {
  if (count > 0) pbf.writeMessage(tag, writeVarints, { values, count });
}

function writeDeltaSVarints({ values, count }: Column, pbf: PbfWriter): void {
  pbf.realloc(count * MAX_VARINT_BYTES);
  const buf = pbf.buf;
  let pos = pbf.pos;
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const value = values[i]!;
    const delta = value - previous;
    previous = value;
    let zigzag = delta < 0 ? -delta * 2 - 1 : delta * 2;
    if (zigzag < SMALL_VARINT_LIMIT) {
      while (zigzag > 0x7f) {
        buf[pos++] = (zigzag & 0x7f) | 0x80;
        zigzag >>>= 7;
      }
      buf[pos++] = zigzag;
    } else {
      pbf.pos = pos;
      pbf.writeVarint(zigzag); // room is reserved, so buf is not reallocated
      pos = pbf.pos;
    }
  }
  pbf.pos = pos;
}

function writeVarints({ values, count }: Column, pbf: PbfWriter): void {
  pbf.realloc(count * MAX_VARINT_BYTES);
  const buf = pbf.buf;
  let pos = pbf.pos;
  for (let i = 0; i < count; i++) {
    let value = values[i]!;
    if (value >= 0 && value < SMALL_VARINT_LIMIT) {
      while (value > 0x7f) {
        buf[pos++] = (value & 0x7f) | 0x80;
        value >>>= 7;
      }
      buf[pos++] = value;
    } else {
      pbf.pos = pos;
      pbf.writeVarint(value);
      pos = pbf.pos;
    }
  }
  pbf.pos = pos;
}
