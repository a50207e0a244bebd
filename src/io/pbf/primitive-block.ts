/**
 * The inner layer of an OSM PBF file: an OSMData block (PrimitiveBlock) decoded into columns.
 * This runs in the worker threads and is the hottest code of the reader, so it walks the
 * protobuf bytes by hand: packed arrays are decoded straight into typed arrays, with no
 * intermediate JS arrays or objects per element.
 *
 * osmformat.proto (field numbers used below):
 *   PrimitiveBlock { StringTable stringtable = 1; repeated PrimitiveGroup primitivegroup = 2;
 *                    int32 granularity = 17 [100]; int32 date_granularity = 18 [1000];
 *                    int64 lat_offset = 19 [0]; int64 lon_offset = 20 [0]; }
 *   StringTable    { repeated bytes s = 1; }
 *   PrimitiveGroup { repeated Node nodes = 1; DenseNodes dense = 2; repeated Way ways = 3;
 *                    repeated Relation relations = 4; repeated ChangeSet changesets = 5; }
 *   Info           { int32 version = 1; int64 timestamp = 2; int64 changeset = 3; int32 uid = 4;
 *                    uint32 user_sid = 5; bool visible = 6; }
 *   DenseInfo      { packed int32 version = 1; packed sint64 timestamp = 2 (delta); packed sint64 changeset = 3 (delta);
 *                    packed sint32 uid = 4 (delta); packed sint32 user_sid = 5 (delta); packed bool visible = 6; }
 *   Node           { sint64 id = 1; packed uint32 keys = 2; packed uint32 vals = 3; Info info = 4;
 *                    sint64 lat = 8; sint64 lon = 9; }
 *   DenseNodes     { packed sint64 id = 1 (delta); DenseInfo denseinfo = 5; packed sint64 lat = 8 (delta);
 *                    packed sint64 lon = 9 (delta); packed int32 keys_vals = 10; }
 *   Way            { int64 id = 1; packed uint32 keys = 2; packed uint32 vals = 3; Info info = 4;
 *                    packed sint64 refs = 8 (delta); }
 *   Relation       { int64 id = 1; packed uint32 keys = 2; packed uint32 vals = 3; Info info = 4;
 *                    packed int32 roles_sid = 8; packed sint64 memids = 9 (delta); packed MemberType types = 10; }
 *
 * Repeated numeric fields must be packed, as the .proto declares and every known writer does.
 *
 * Conversions follow libosmium (the reference implementation), so records match osmium's:
 *   coordinate (1e-7 degrees) = trunc((raw × granularity + offset) / 100)   (int64 math, cast to int32)
 *   timestamp (seconds)       = trunc(raw × date_granularity / 1000)
 * Deleted node versions get lon = lat = 0 (writers put a placeholder there, osmium int32 max).
 * Missing metadata gives version 0, timestamp 0, changeset 0, uid -1, user '' and visible = true.
 */

import { PbfReader } from 'pbf';
import { MaphistError } from '../../core/errors.js';
import { corruptBlob, type BlobOrigin } from './blob-inflate.js';
import { DecodedBlockBuilder, type DecodedBlock } from './decoded-block.js';
import { countVarints, decodeDeltaZigzag, decodeUnsigned, firstOutOfRange } from './packed-varints.js';

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

const NODE = 0;
const WAY = 1;
const RELATION = 2;

/** Per-block coordinate and time scaling. */
interface BlockScale {
  granularity: number;
  dateGranularity: number;
  latOffset: number;
  lonOffset: number;
}

/** A malformed detail inside a block; becomes INPUT_CORRUPT with the block's position. */
class BlockFormatError extends Error {}

export function decodePrimitiveBlock(block: Uint8Array, origin: BlobOrigin): DecodedBlock {
  try {
    return decodeBlock(block);
  } catch (e) {
    if (e instanceof MaphistError) throw e;
    const detail = e instanceof BlockFormatError ? e.message : `it cannot be decoded (${(e as Error).message})`;
    throw corruptBlob(origin, detail);
  }
}

function decodeBlock(block: Uint8Array): DecodedBlock {
  const pbf = new PbfReader(block);
  const out = new DecodedBlockBuilder();
  const scale: BlockScale = { granularity: 100, dateGranularity: 1000, latOffset: 0, lonOffset: 0 };

  // Fields may come in any order, and the scale fields (17-20) usually follow the groups, so
  // the groups are located first and decoded once the whole block header is known.
  const groupStarts: number[] = [];
  const groupEnds: number[] = [];
  while (pbf.pos < pbf.length) {
    const key = pbf.readVarint();
    const field = key >>> 3;
    if (field === 1 && (key & 7) === WIRE_BYTES) {
      const end = messageEnd(pbf, pbf.length);
      out.strings = decodeStringTable(pbf, end);
    } else if (field === 2 && (key & 7) === WIRE_BYTES) {
      const end = messageEnd(pbf, pbf.length);
      groupStarts.push(pbf.pos);
      groupEnds.push(end);
      pbf.pos = end;
    } else if (field === 17) scale.granularity = pbf.readVarint(true);
    else if (field === 18) scale.dateGranularity = pbf.readVarint(true);
    else if (field === 19) scale.latOffset = pbf.readVarint(true);
    else if (field === 20) scale.lonOffset = pbf.readVarint(true);
    else pbf.skip(key);
  }
  expectEnd(pbf, pbf.length, 'PrimitiveBlock');

  for (let g = 0; g < groupStarts.length; g++) {
    const groupEnd = groupEnds[g]!;
    reserveForElements(pbf, groupStarts[g]!, groupEnd, out);
    pbf.pos = groupStarts[g]!;
    while (pbf.pos < groupEnd) {
      const key = pbf.readVarint();
      const field = key >>> 3;
      if ((key & 7) !== WIRE_BYTES || field < 1 || field > 4) {
        pbf.skip(key); // changesets (5) and unknown fields
        continue;
      }
      const end = messageEnd(pbf, groupEnd);
      if (field === 2) decodeDenseNodes(pbf, end, out, scale);
      else if (field === 1) decodeNode(pbf, end, out, scale);
      else if (field === 3) decodeWay(pbf, end, out, scale);
      else decodeRelation(pbf, end, out, scale);
      pbf.pos = end;
    }
    expectEnd(pbf, groupEnd, 'PrimitiveGroup');
  }
  return out.finish();
}

/**
 * Sizes the columns for a group's ways and relations exactly before decoding them. Growing by
 * doubling instead would, for the biggest relation blocks (3.4 million members in one block of
 * the 4-country file), hold up to three times the final size while copying.
 */
function reserveForElements(pbf: PbfReader, start: number, end: number, out: DecodedBlockBuilder): void {
  let rows = 0;
  let members = 0;
  let tagSids = 0;
  pbf.pos = start;
  while (pbf.pos < end) {
    const key = pbf.readVarint();
    const field = key >>> 3;
    if ((key & 7) !== WIRE_BYTES || (field !== 3 && field !== 4)) {
      pbf.skip(key);
      continue;
    }
    const elementEnd = messageEnd(pbf, end);
    scanElement(pbf, elementEnd, false, field === 3 ? 8 : 9, -1, -1); // way refs / relation memids
    rows++;
    if (at.aStart >= 0) members += countVarints(pbf.buf, at.aStart, at.aEnd);
    if (at.keysStart >= 0) tagSids += 2 * countVarints(pbf.buf, at.keysStart, at.keysEnd);
    pbf.pos = elementEnd;
  }
  if (rows === 0) return;
  out.ensureRows(out.count + rows, true);
  out.ensureMembers(out.memberCount + members, true);
  out.ensureTagSids(out.tagCount + tagSids, true);
}

function decodeStringTable(pbf: PbfReader, end: number): string[] {
  const strings: string[] = [];
  while (pbf.pos < end) {
    const key = pbf.readVarint();
    if (key === ((1 << 3) | WIRE_BYTES)) {
      const lengthAt = pbf.pos;
      messageEnd(pbf, end); // bounds check; readString() reads the length again
      pbf.pos = lengthAt;
      strings.push(pbf.readString());
    } else pbf.skip(key);
  }
  expectEnd(pbf, end, 'StringTable');
  return strings;
}

// ---------------------------------------------------------------------------------------------
// DenseNodes

function decodeDenseNodes(pbf: PbfReader, end: number, out: DecodedBlockBuilder, scale: BlockScale): void {
  let idStart = -1,
    idEnd = -1,
    latStart = -1,
    latEnd = -1,
    lonStart = -1,
    lonEnd = -1,
    kvStart = -1,
    kvEnd = -1;
  let verStart = -1,
    verEnd = -1,
    tsStart = -1,
    tsEnd = -1,
    csStart = -1,
    csEnd = -1;
  let uidStart = -1,
    uidEnd = -1,
    userStart = -1,
    userEnd = -1,
    visStart = -1,
    visEnd = -1;
  let hasInfo = false;

  while (pbf.pos < end) {
    const key = pbf.readVarint();
    const field = key >>> 3;
    if ((key & 7) !== WIRE_BYTES) {
      pbf.skip(key);
      continue;
    }
    const fieldEnd = messageEnd(pbf, end);
    const fieldStart = pbf.pos;
    if (field === 1) {
      idStart = fieldStart;
      idEnd = fieldEnd;
    } else if (field === 8) {
      latStart = fieldStart;
      latEnd = fieldEnd;
    } else if (field === 9) {
      lonStart = fieldStart;
      lonEnd = fieldEnd;
    } else if (field === 10) {
      kvStart = fieldStart;
      kvEnd = fieldEnd;
    } else if (field === 5) {
      hasInfo = true;
      while (pbf.pos < fieldEnd) {
        const infoKey = pbf.readVarint();
        if ((infoKey & 7) !== WIRE_BYTES) {
          pbf.skip(infoKey);
          continue;
        }
        const arrayEnd = messageEnd(pbf, fieldEnd);
        const arrayStart = pbf.pos;
        switch (infoKey >>> 3) {
          case 1:
            verStart = arrayStart;
            verEnd = arrayEnd;
            break;
          case 2:
            tsStart = arrayStart;
            tsEnd = arrayEnd;
            break;
          case 3:
            csStart = arrayStart;
            csEnd = arrayEnd;
            break;
          case 4:
            uidStart = arrayStart;
            uidEnd = arrayEnd;
            break;
          case 5:
            userStart = arrayStart;
            userEnd = arrayEnd;
            break;
          case 6:
            visStart = arrayStart;
            visEnd = arrayEnd;
            break;
        }
        pbf.pos = arrayEnd;
      }
      expectEnd(pbf, fieldEnd, 'DenseInfo');
    }
    pbf.pos = fieldEnd;
  }
  expectEnd(pbf, end, 'DenseNodes');
  if (idStart < 0) return;

  const buf = pbf.buf;
  const count = countVarints(buf, idStart, idEnd);
  const base = out.count;
  out.ensureRows(base + count);
  const stop = base + count;
  const nStrings = out.strings.length;
  const { types, ids, versions, timestamps, changesets, uids, userSids, visibles, lons, lats } = out;

  // Each column is decoded in its own pass: the loops stay tiny and read one byte stream each.
  expectArrayEnd(decodeDeltaZigzag(buf, idStart, ids, base, stop), idEnd, 'DenseNodes.id');
  types.fill(NODE, base, stop);
  out.memberOffsets.fill(out.memberCount, base, stop);

  if (latStart < 0 || lonStart < 0) throw new BlockFormatError('its DenseNodes have no lat or lon array');
  decodeDenseCoordinates(buf, latStart, latEnd, lats, base, stop, scale.granularity, scale.latOffset, 'lat');
  decodeDenseCoordinates(buf, lonStart, lonEnd, lons, base, stop, scale.granularity, scale.lonOffset, 'lon');

  if (hasInfo && verStart >= 0) {
    expectArrayEnd(decodeUnsigned(buf, verStart, versions, base, stop), verEnd, 'DenseInfo.version');
  }
  if (hasInfo && tsStart >= 0) {
    expectArrayEnd(decodeDeltaZigzag(buf, tsStart, timestamps, base, stop), tsEnd, 'DenseInfo.timestamp');
    const dateGranularity = scale.dateGranularity;
    if (dateGranularity !== 1000) {
      for (let row = base; row < stop; row++) timestamps[row] = Math.trunc((timestamps[row]! * dateGranularity) / 1000);
    }
  }
  if (hasInfo && csStart >= 0) {
    expectArrayEnd(decodeDeltaZigzag(buf, csStart, changesets, base, stop), csEnd, 'DenseInfo.changeset');
  }
  if (hasInfo && uidStart >= 0) {
    expectArrayEnd(decodeDeltaZigzag(buf, uidStart, uids, base, stop), uidEnd, 'DenseInfo.uid');
  } else {
    uids.fill(-1, base, stop);
  }
  if (hasInfo && userStart >= 0) {
    expectArrayEnd(decodeDeltaZigzag(buf, userStart, userSids, base, stop), userEnd, 'DenseInfo.user_sid');
    checkStringIndexes(userSids, base, stop, nStrings);
  } else {
    userSids.fill(-1, base, stop);
  }
  if (hasInfo && visStart >= 0) {
    expectArrayEnd(decodeUnsigned(buf, visStart, visibles, base, stop), visEnd, 'DenseInfo.visible');
    for (let row = base; row < stop; row++) {
      if (visibles[row] !== 0) {
        visibles[row] = 1;
      } else {
        lons[row] = 0; // a deleted version has no location; the file holds a placeholder there
        lats[row] = 0;
      }
    }
  } else {
    visibles.fill(1, base, stop); // no visible array: every version is visible
  }

  decodeDenseTags(buf, kvStart, kvEnd, out, base, stop);
  out.count = stop;
}

/**
 * keys_vals: for each node its key/value sid pairs followed by a 0; the array is absent when no
 * node of the group has tags (and may end early when the last nodes have none).
 */
function decodeDenseTags(buf: Uint8Array, start: number, end: number, out: DecodedBlockBuilder, base: number, stop: number): void {
  const tagOffsets = out.tagOffsets;
  let tagCount = out.tagCount;
  if (start < 0) {
    tagOffsets.fill(tagCount, base, stop);
    return;
  }
  const n = countVarints(buf, start, end);
  const values = scratchInt32(n);
  expectArrayEnd(decodeUnsigned(buf, start, values, 0, n), end, 'DenseNodes.keys_vals');
  checkStringIndexes(values, 0, n, out.strings.length);
  out.ensureTagSids(tagCount + n);
  const tagSids = out.tagSids;
  let i = 0;
  for (let row = base; row < stop; row++) {
    tagOffsets[row] = tagCount;
    while (i < n) {
      const k = values[i++]!;
      if (k === 0) break;
      if (i === n) throw new BlockFormatError('its DenseNodes keys_vals array ends between a key and its value');
      tagSids[tagCount++] = k;
      tagSids[tagCount++] = values[i++]!;
    }
  }
  out.tagCount = tagCount;
}

function decodeDenseCoordinates(
  buf: Uint8Array,
  start: number,
  end: number,
  target: Int32Array,
  base: number,
  stop: number,
  granularity: number,
  offset: number,
  name: string,
): void {
  if (granularity === 100 && offset === 0) {
    // The usual case: the stored value already is in 1e-7 degrees.
    expectArrayEnd(decodeDeltaZigzag(buf, start, target, base, stop), end, `DenseNodes.${name}`);
    return;
  }
  // Raw values in other granularities can exceed 32 bits: sum them in doubles, then convert.
  const raw = new Float64Array(stop - base);
  expectArrayEnd(decodeDeltaZigzag(buf, start, raw, 0, raw.length), end, `DenseNodes.${name}`);
  for (let i = 0; i < raw.length; i++) target[base + i] = Math.trunc((raw[i]! * granularity + offset) / 100);
}

// ---------------------------------------------------------------------------------------------
// Node, Way, Relation (one message per element)

/** Scratch for the field positions of the element being decoded (avoids an object per element). */
const at = {
  keysStart: -1,
  keysEnd: -1,
  valsStart: -1,
  valsEnd: -1,
  infoStart: -1,
  infoEnd: -1,
  aStart: -1,
  aEnd: -1,
  bStart: -1,
  bEnd: -1,
  cStart: -1,
  cEnd: -1,
};

function resetPositions(): void {
  at.keysStart = at.keysEnd = at.valsStart = at.valsEnd = at.infoStart = at.infoEnd = -1;
  at.aStart = at.aEnd = at.bStart = at.bEnd = at.cStart = at.cEnd = -1;
}

/**
 * Walks an element message: field 1 (id) is returned, fields 2/3/4 (keys, vals, info) and the
 * element's own length-delimited fields `a`, `b`, `c` are recorded in `at`; sint64 fields
 * `sintA`/`sintB` (a node's lat and lon) are returned through `coords`.
 */
function scanElement(pbf: PbfReader, end: number, idIsZigzag: boolean, fieldA: number, fieldB: number, fieldC: number, coords?: number[]): number {
  resetPositions();
  let id = 0;
  while (pbf.pos < end) {
    const key = pbf.readVarint();
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 1 && wire === WIRE_VARINT) {
      id = idIsZigzag ? pbf.readSVarint() : pbf.readVarint(true);
      continue;
    }
    if (coords !== undefined && wire === WIRE_VARINT && (field === 8 || field === 9)) {
      coords[field - 8] = pbf.readSVarint();
      continue;
    }
    if (wire !== WIRE_BYTES) {
      pbf.skip(key);
      continue;
    }
    const fieldEnd = messageEnd(pbf, end);
    const fieldStart = pbf.pos;
    if (field === 2) {
      at.keysStart = fieldStart;
      at.keysEnd = fieldEnd;
    } else if (field === 3) {
      at.valsStart = fieldStart;
      at.valsEnd = fieldEnd;
    } else if (field === 4) {
      at.infoStart = fieldStart;
      at.infoEnd = fieldEnd;
    } else if (field === fieldA) {
      at.aStart = fieldStart;
      at.aEnd = fieldEnd;
    } else if (field === fieldB) {
      at.bStart = fieldStart;
      at.bEnd = fieldEnd;
    } else if (field === fieldC) {
      at.cStart = fieldStart;
      at.cEnd = fieldEnd;
    }
    pbf.pos = fieldEnd;
  }
  expectEnd(pbf, end, 'element');
  return id;
}

/** Appends one row with id, info and tags (from `at`); returns the row index. */
function appendElementRow(pbf: PbfReader, out: DecodedBlockBuilder, type: number, id: number, scale: BlockScale): number {
  const row = out.count;
  out.ensureRows(row + 1);
  out.count = row + 1;
  out.types[row] = type;
  out.ids[row] = id;
  decodeInfo(pbf, out, row, scale);
  appendKeysVals(pbf, out, row);
  out.memberOffsets[row] = out.memberCount;
  return row;
}

const nodeCoords = [0, 0];

function decodeNode(pbf: PbfReader, end: number, out: DecodedBlockBuilder, scale: BlockScale): void {
  nodeCoords[0] = nodeCoords[1] = Number.NaN;
  const id = scanElement(pbf, end, true, -1, -1, -1, nodeCoords);
  const row = appendElementRow(pbf, out, NODE, id, scale);
  if (out.visibles[row] === 1) {
    const lat = nodeCoords[0]!;
    const lon = nodeCoords[1]!;
    if (Number.isNaN(lat) || Number.isNaN(lon)) throw new BlockFormatError(`visible node ${id} has no location`);
    out.lats[row] = Math.trunc((lat * scale.granularity + scale.latOffset) / 100);
    out.lons[row] = Math.trunc((lon * scale.granularity + scale.lonOffset) / 100);
  }
}

function decodeWay(pbf: PbfReader, end: number, out: DecodedBlockBuilder, scale: BlockScale): void {
  const id = scanElement(pbf, end, false, 8, -1, -1); // 8: refs
  appendElementRow(pbf, out, WAY, id, scale);
  if (at.aStart < 0) return;
  const count = countVarints(pbf.buf, at.aStart, at.aEnd);
  const start = out.memberCount;
  out.ensureMembers(start + count);
  expectArrayEnd(decodeDeltaZigzag(pbf.buf, at.aStart, out.memberRefs, start, start + count), at.aEnd, 'Way.refs');
  out.memberCount = start + count;
}

function decodeRelation(pbf: PbfReader, end: number, out: DecodedBlockBuilder, scale: BlockScale): void {
  const id = scanElement(pbf, end, false, 8, 9, 10); // 8: roles_sid, 9: memids, 10: types
  appendElementRow(pbf, out, RELATION, id, scale);
  if (at.bStart < 0) return;
  const count = countVarints(pbf.buf, at.bStart, at.bEnd);
  if (at.aStart < 0 || at.cStart < 0) throw new BlockFormatError(`relation ${id} has member ids but no roles or types`);
  const start = out.memberCount;
  const stop = start + count;
  out.ensureMembers(stop);
  const buf = pbf.buf;
  expectArrayEnd(decodeDeltaZigzag(buf, at.bStart, out.memberRefs, start, stop), at.bEnd, 'Relation.memids');
  expectArrayEnd(decodeUnsigned(buf, at.aStart, out.memberRoleSids, start, stop), at.aEnd, 'Relation.roles_sid');
  checkStringIndexes(out.memberRoleSids, start, stop, out.strings.length);
  const types = out.memberTypes;
  expectArrayEnd(decodeUnsigned(buf, at.cStart, types, start, stop), at.cEnd, 'Relation.types');
  for (let m = start; m < stop; m++) {
    if (types[m]! > RELATION) throw new BlockFormatError(`relation ${id} has a member of unknown type ${types[m]}`);
  }
  out.memberCount = stop;
}

function decodeInfo(pbf: PbfReader, out: DecodedBlockBuilder, row: number, scale: BlockScale): void {
  let version = 0,
    timestamp = 0,
    changeset = 0,
    uid = -1,
    userSid = -1,
    visible = 1;
  const end = at.infoEnd;
  if (at.infoStart >= 0) {
    pbf.pos = at.infoStart;
    while (pbf.pos < end) {
      const key = pbf.readVarint();
      switch (key) {
        case (1 << 3) | WIRE_VARINT:
          version = pbf.readVarint(true);
          break;
        case (2 << 3) | WIRE_VARINT:
          timestamp = Math.trunc((pbf.readVarint(true) * scale.dateGranularity) / 1000);
          break;
        case (3 << 3) | WIRE_VARINT:
          changeset = pbf.readVarint(true);
          break;
        case (4 << 3) | WIRE_VARINT:
          uid = pbf.readVarint(true);
          break;
        case (5 << 3) | WIRE_VARINT:
          userSid = pbf.readVarint();
          break;
        case (6 << 3) | WIRE_VARINT:
          visible = pbf.readVarint() !== 0 ? 1 : 0;
          break;
        default:
          pbf.skip(key);
      }
    }
    expectEnd(pbf, end, 'Info');
    if (userSid >= out.strings.length) throw badStringIndex(userSid, out.strings.length);
  }
  out.versions[row] = version;
  out.timestamps[row] = timestamp;
  out.changesets[row] = changeset;
  out.uids[row] = uid;
  out.userSids[row] = userSid;
  out.visibles[row] = visible;
}

/** Tags of a Node/Way/Relation: parallel packed arrays of key sids and value sids. */
function appendKeysVals(pbf: PbfReader, out: DecodedBlockBuilder, row: number): void {
  const tagCount = out.tagCount;
  out.tagOffsets[row] = tagCount;
  if (at.keysStart < 0 && at.valsStart < 0) return;
  const buf = pbf.buf;
  const n = at.keysStart < 0 ? 0 : countVarints(buf, at.keysStart, at.keysEnd);
  if (at.valsStart < 0 ? n !== 0 : countVarints(buf, at.valsStart, at.valsEnd) !== n) {
    throw new BlockFormatError('an element has different numbers of tag keys and values');
  }
  const keysVals = scratchInt32(2 * n);
  decodeUnsigned(buf, at.keysStart, keysVals, 0, n);
  decodeUnsigned(buf, at.valsStart, keysVals, n, 2 * n);
  checkStringIndexes(keysVals, 0, 2 * n, out.strings.length);
  out.ensureTagSids(tagCount + 2 * n);
  const tagSids = out.tagSids;
  for (let i = 0; i < n; i++) {
    tagSids[tagCount + 2 * i] = keysVals[i]!;
    tagSids[tagCount + 2 * i + 1] = keysVals[n + i]!;
  }
  out.tagCount = tagCount + 2 * n;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Reads a length prefix and returns where the length-delimited value ends (checked against `limit`). */
function messageEnd(pbf: PbfReader, limit: number): number {
  const end = pbf.readVarint() + pbf.pos;
  if (end > limit) throw new BlockFormatError('a length-delimited field runs past the end of its message');
  return end;
}

/** A reusable Int32Array of at least `n` entries (valid until the next call). */
let scratch = new Int32Array(1024);
function scratchInt32(n: number): Int32Array {
  if (scratch.length < n) scratch = new Int32Array(Math.max(n, scratch.length * 2));
  return scratch;
}

function checkStringIndexes(values: Int32Array, from: number, to: number, size: number): void {
  const bad = firstOutOfRange(values, from, to, size);
  if (bad >= 0) throw badStringIndex(values[bad]!, size);
}

function expectEnd(pbf: PbfReader, end: number, what: string): void {
  if (pbf.pos !== end) throw new BlockFormatError(`a ${what} message is malformed`);
}

function expectArrayEnd(pos: number, end: number, what: string): void {
  if (pos !== end) throw new BlockFormatError(`its ${what} array does not have one entry per element`);
}

function badStringIndex(index: number, size: number): BlockFormatError {
  return new BlockFormatError(`it refers to string ${index} of a string table with ${size} entries`);
}
