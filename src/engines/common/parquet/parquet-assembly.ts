/**
 * One Parquet file from the pieces a database wrote (DuckDB: `COPY … (FORMAT parquet,
 * COMPRESSION uncompressed, ROW_GROUPS_PER_FILE 1)`, one row group per piece), in the schema the API
 * asks for. Engine-neutral, no SQL: bytes in, bytes out.
 *
 * Why pieces: a Parquet file's footer comes last and holds every column chunk's absolute offset,
 * so a single file being written cannot be streamed safely (where its footer starts is known only
 * at its end). A finished piece is a whole file: its row group is copied to the output at the
 * output's offset, its footer's offsets moved by the difference, and the output's footer — the
 * pieces' row groups, the API's schema and key-value metadata — is written at the end.
 *
 * Why the pages are rewritten: DuckDB writes every column OPTIONAL (a MAP or STRUCT and its
 * fields too), while the GeoParquet files of version 2 declare most columns REQUIRED
 * (api/v2/format/geoparquet/geoparquet-schema.ts). The repetition decides the definition levels
 * of each page, so each page's levels are mapped from DuckDB's schema to the API's (an OPTIONAL
 * column made REQUIRED loses its levels; a MAP made REQUIRED lowers its children's by one). In
 * data pages of version 1 (what DuckDB writes, even with PARQUET_VERSION V2) the levels lie inside
 * the compressed bytes: the pieces are written uncompressed and each page is compressed here once
 * its levels are mapped. Data pages of version 2 (levels uncompressed before the values) are
 * rewritten without touching their compressed values. A null where the API's schema says REQUIRED
 * is an error.
 * Bloom filters, page indexes and size statistics of the pieces are dropped (their offsets or
 * level histograms would be wrong; the JS writer writes none either).
 */
import type { ColumnChunk, FileMetaData, RowGroup, SchemaElement } from 'hyparquet';
import { parquetMetadata } from 'hyparquet';
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js';
import { ByteWriter } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { serializeTCompactProtocol } from 'hyparquet-writer/src/thrift.js';

const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]); // PAR1
const DICTIONARY_PAGE = 2;
const DATA_PAGE_V2 = 3;

/** How a leaf column's definition levels map from a piece's schema to the output's. */
interface LevelMap {
  srcMax: number;
  dstMax: number;
  /** dst level by src level (-1: a null where the output's schema has none). */
  map: Int8Array;
  /** The identity (nothing to rewrite). */
  same: boolean;
  /** The repetition levels' maximum (the same in both). */
  maxRep: number;
}

/** Path (names below the root) → the repetition of each element along it, from a flat schema. */
function leafPaths(schema: readonly SchemaElement[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let i = 1;
  function walk(path: string[], reps: string[]): void {
    const e = schema[i++];
    const p = [...path, e.name];
    const r = [...reps, e.repetition_type ?? 'REQUIRED'];
    if (!e.num_children) out.set(p.join('.'), r);
    else for (let k = 0; k < e.num_children; k++) walk(p, r);
  }
  const n = schema[0].num_children ?? 0;
  for (let k = 0; k < n; k++) walk([], []);
  return out;
}

function levelMap(src: string[], dst: string[], path: string): LevelMap {
  if (src.length !== dst.length) throw new Error(`parquet assembly: column ${path} is nested differently`);
  const defines = (r: string) => (r === 'REQUIRED' ? 0 : 1);
  const srcMax = src.reduce((s, r) => s + defines(r), 0);
  const dstMax = dst.reduce((s, r) => s + defines(r), 0);
  if (src.filter((r) => r === 'REPEATED').length !== dst.filter((r) => r === 'REPEATED').length) {
    throw new Error(`parquet assembly: column ${path} is repeated differently`);
  }
  const map = new Int8Array(srcMax + 1).fill(-1);
  // A src level d: the path is present down to the deepest element whose src count is d.
  for (let d = 0; d <= srcMax; d++) {
    let s = 0;
    let t = 0;
    let ok = true;
    for (let k = 0; k < src.length; k++) {
      const ns = s + defines(src[k]);
      if (ns > d) {
        // element k is absent: allowed only where the output may leave it out
        if (dst[k] === 'REQUIRED') ok = false;
        break;
      }
      s = ns;
      t += defines(dst[k]);
    }
    map[d] = ok ? t : -1;
  }
  const same = srcMax === dstMax && map.every((v, d) => v === d);
  return { srcMax, dstMax, map, same, maxRep: src.filter((r) => r === 'REPEATED').length };
}

const bitWidth = (max: number) => (max === 0 ? 0 : 32 - Math.clz32(max));

/** Decodes `count` levels of the RLE/bit-packed hybrid encoding (no length prefix). */
export function decodeLevels(bytes: Uint8Array, width: number, count: number): Uint8Array {
  const out = new Uint8Array(count);
  if (width === 0) return out;
  let pos = 0;
  let n = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[pos++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  while (n < count) {
    if (pos >= bytes.length) throw new Error('parquet assembly: levels end early');
    const header = varint();
    if ((header & 1) === 0) {
      const run = header >>> 1;
      const value = bytes[pos]; // width <= 8: one byte
      pos += Math.ceil(width / 8);
      out.fill(value, n, Math.min(count, n + run));
      n += run;
    } else {
      const values = (header >>> 1) * 8;
      const mask = (1 << width) - 1;
      let bit = 0;
      for (let k = 0; k < values; k++) {
        const byte = pos + (bit >>> 3);
        const shift = bit & 7;
        const v = ((bytes[byte] | ((bytes[byte + 1] ?? 0) << 8)) >>> shift) & mask;
        if (n + k < count) out[n + k] = v;
        bit += width;
      }
      pos += (values * width) / 8;
      n += values;
    }
  }
  return out;
}

/** Encodes levels as RLE runs (the levels of extraction rows are long runs). */
export function encodeLevels(levels: Uint8Array, width: number): Uint8Array {
  if (width === 0) return new Uint8Array(0);
  const out: number[] = [];
  let i = 0;
  while (i < levels.length) {
    let j = i + 1;
    while (j < levels.length && levels[j] === levels[i]) j++;
    let header = (j - i) * 2;
    while (header >= 0x80) {
      out.push((header & 0x7f) | 0x80);
      header = Math.floor(header / 128);
    }
    out.push(header);
    out.push(levels[i]);
    i = j;
  }
  return Uint8Array.from(out);
}

const DATA_PAGE = 0;

/**
 * A piece's page in the output's schema and codec. A data page of version 1 holds its levels in
 * its (compressed) body, so the pieces are written uncompressed and each page is compressed here
 * once its levels are mapped; a data page of version 2 keeps its levels uncompressed before its
 * values, and only they are rewritten.
 */
function rewritePage(
  header: Record<string, unknown>,
  body: Uint8Array,
  lm: LevelMap,
  path: string,
  compress: ((b: Uint8Array) => Uint8Array) | undefined,
): { header: Record<string, unknown>; body: Uint8Array } {
  const { field_4: _crc, ...rest } = header; // a checksum of the old bytes
  if (header.field_1 === DICTIONARY_PAGE || (lm.same && header.field_1 === DATA_PAGE)) {
    if (compress === undefined) return { header, body };
    const c = compress(body);
    return { header: { ...rest, field_2: body.length, field_3: c.length }, body: c };
  }
  if (header.field_1 === DATA_PAGE) {
    if (compress === undefined) throw new Error(`parquet assembly: column ${path} has compressed version 1 pages`);
    const v1 = header.field_5 as Record<string, unknown>;
    const count = v1.field_1 as number;
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    let pos = 0;
    let rep: Uint8Array = new Uint8Array(0);
    if (lm.maxRep > 0) {
      const n = view.getUint32(0, true);
      rep = body.subarray(0, 4 + n);
      pos = 4 + n;
    }
    let defLength = 0;
    let src: Uint8Array = new Uint8Array(count).fill(lm.srcMax);
    if (lm.srcMax > 0) {
      defLength = view.getUint32(pos, true);
      src = decodeLevels(body.subarray(pos + 4, pos + 4 + defLength), bitWidth(lm.srcMax), count);
      pos += 4 + defLength;
    }
    mapLevels(src, lm, path);
    const levels = encodeLevels(src, bitWidth(lm.dstMax));
    const prefix = lm.dstMax > 0 ? 4 : 0;
    const out = new Uint8Array(rep.length + prefix + levels.length + body.length - pos);
    out.set(rep, 0);
    if (prefix) new DataView(out.buffer).setUint32(rep.length, levels.length, true);
    out.set(levels, rep.length + prefix);
    out.set(body.subarray(pos), rep.length + prefix + levels.length);
    const c = compress(out);
    return { header: { ...rest, field_2: out.length, field_3: c.length }, body: c };
  }
  if (header.field_1 !== DATA_PAGE_V2) throw new Error(`parquet assembly: column ${path} has a page of type ${header.field_1}`);
  if (compress !== undefined) throw new Error(`parquet assembly: column ${path}: version 2 pages are expected compressed`);
  const v2 = header.field_8 as Record<string, unknown>;
  const count = v2.field_1 as number;
  const defLength = v2.field_5 as number;
  const repLength = v2.field_6 as number;
  const src = decodeLevels(body.subarray(repLength, repLength + defLength), bitWidth(lm.srcMax), count);
  const nulls = mapLevels(src, lm, path);
  const levels = encodeLevels(src, bitWidth(lm.dstMax));
  const out = new Uint8Array(body.length - defLength + levels.length);
  out.set(body.subarray(0, repLength), 0);
  out.set(levels, repLength);
  out.set(body.subarray(repLength + defLength), repLength + levels.length);
  const delta = levels.length - defLength;
  return {
    header: {
      ...rest,
      field_2: (header.field_2 as number) + delta,
      field_3: (header.field_3 as number) + delta,
      field_8: { ...v2, field_2: nulls, field_5: levels.length },
    },
    body: out,
  };
}

/** Maps levels in place; the number of nulls in the output's schema. */
function mapLevels(levels: Uint8Array, lm: LevelMap, path: string): number {
  let nulls = 0;
  for (let k = 0; k < levels.length; k++) {
    const d = lm.map[levels[k]];
    if (d < 0) throw new Error(`parquet assembly: a null in column ${path}, which the file's schema declares required`);
    levels[k] = d;
    if (d < lm.dstMax) nulls++;
  }
  return nulls;
}

function serialize(header: Record<string, unknown>): Uint8Array {
  const w = new ByteWriter(256);
  serializeTCompactProtocol(w, header as never);
  return new Uint8Array(w.getBuffer());
}

export interface AssemblyFooter {
  keyValueMetadata: { key: string; value: string }[];
  createdBy: string;
}

/**
 * Streams one file: `start()` its magic, `piece(bytes)` each piece's row groups at the running
 * offset, `finish(footer)` the footer. Holds one piece at a time and the row groups' metadata.
 */
export class ParquetAssembler {
  private offset = 0;
  private numRows = 0n;
  private readonly rowGroups: RowGroup[] = [];
  private readonly dstLeaves: Map<string, string[]>;
  private levelMaps: Map<string, LevelMap> | undefined;

  /**
   * `compress`: the output's codec (ZSTD) for pieces written uncompressed (version 1 pages: their
   * levels are inside the compressed bytes); absent, the pieces' compressed pages are kept.
   */
  constructor(
    private readonly schema: SchemaElement[],
    private readonly compress?: { codec: 'ZSTD'; compress: (b: Uint8Array) => Uint8Array },
  ) {
    this.dstLeaves = leafPaths(schema);
  }

  get rows(): number {
    return Number(this.numRows);
  }

  get rowGroupCount(): number {
    return this.rowGroups.length;
  }

  start(): Uint8Array {
    this.offset = MAGIC.length;
    return MAGIC;
  }

  /** The bytes of a whole piece file in, the bytes of each of its row groups (placed at the output's offset) out. */
  piece(file: Uint8Array): Uint8Array[][] {
    const ab = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    const meta: FileMetaData = parquetMetadata(ab);
    this.levelMaps ??= this.mapLevels(meta.schema);
    const groups: Uint8Array[][] = [];
    const view = new DataView(ab);
    for (const rg of meta.row_groups) {
      const out: Uint8Array[] = [];
      groups.push(out);
      const rgStart = this.offset;
      let uncompressed = 0n;
      let compressed = 0n;
      const columns: ColumnChunk[] = [];
      for (const cc of rg.columns) {
        const md = cc.meta_data;
        if (md === undefined) throw new Error('parquet assembly: a column chunk without metadata');
        const path = md.path_in_schema.join('.');
        const lm = this.levelMaps.get(path);
        if (lm === undefined) throw new Error(`parquet assembly: the piece's column ${path} is not in the file's schema`);
        let pos = Number(md.dictionary_page_offset ?? md.data_page_offset);
        const end = pos + Number(md.total_compressed_size);
        const chunkStart = this.offset;
        let dictionaryAt: bigint | undefined;
        let dataAt: bigint | undefined;
        let chunkUncompressed = 0;
        while (pos < end) {
          const reader = { view, offset: pos };
          const header = deserializeTCompactProtocol(reader) as Record<string, unknown>;
          const bodyLength = header.field_3 as number;
          const body = file.subarray(reader.offset, reader.offset + bodyLength);
          pos = reader.offset + bodyLength;
          const page = rewritePage(header, body, lm, path, this.compress?.compress);
          const h = serialize(page.header);
          if (page.header.field_1 === DICTIONARY_PAGE) dictionaryAt ??= BigInt(this.offset);
          else dataAt ??= BigInt(this.offset);
          out.push(h, page.body);
          this.offset += h.length + page.body.length;
          chunkUncompressed += h.length + (page.header.field_2 as number);
        }
        const chunkCompressed = this.offset - chunkStart;
        uncompressed += BigInt(chunkUncompressed);
        compressed += BigInt(chunkCompressed);
        columns.push({
          file_offset: BigInt(chunkStart),
          meta_data: {
            ...md,
            ...(this.compress && { codec: this.compress.codec }),
            total_uncompressed_size: BigInt(chunkUncompressed),
            total_compressed_size: BigInt(chunkCompressed),
            data_page_offset: dataAt ?? BigInt(chunkStart),
            dictionary_page_offset: dictionaryAt,
            index_page_offset: undefined,
            bloom_filter_offset: undefined,
            bloom_filter_length: undefined,
            size_statistics: undefined,
          },
        });
      }
      this.rowGroups.push({
        columns,
        total_byte_size: uncompressed,
        num_rows: rg.num_rows,
        file_offset: BigInt(rgStart),
        total_compressed_size: compressed,
      });
      this.numRows += rg.num_rows;
    }
    return groups;
  }

  /** The footer: the row groups, the output's schema, `footer`'s key-value metadata; then length and magic. */
  finish(footer: AssemblyFooter): Uint8Array {
    const w = new ByteWriter(1 << 16);
    writeMetadata(w, {
      version: 2,
      schema: this.schema,
      num_rows: this.numRows,
      row_groups: this.rowGroups,
      key_value_metadata: footer.keyValueMetadata,
      created_by: footer.createdBy,
      metadata_length: 0,
    });
    w.appendBytes(MAGIC);
    const bytes = new Uint8Array(w.getBuffer());
    this.offset += bytes.length;
    return bytes;
  }

  private mapLevels(pieceSchema: readonly SchemaElement[]): Map<string, LevelMap> {
    const src = leafPaths(pieceSchema);
    const maps = new Map<string, LevelMap>();
    if (src.size !== this.dstLeaves.size) throw new Error(`parquet assembly: the piece has ${src.size} columns, the file ${this.dstLeaves.size}`);
    for (const [path, dst] of this.dstLeaves) {
      const s = src.get(path);
      if (s === undefined) throw new Error(`parquet assembly: the piece has no column ${path}`);
      maps.set(path, levelMap(s, dst, path));
    }
    return maps;
  }
}
