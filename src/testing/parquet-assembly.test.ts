/**
 * The assembler of engine-written Parquet pieces (src/engines/common/parquet/parquet-assembly.ts),
 * on small hand-made tables written by DuckDB's COPY as the engine writer writes them (one row
 * group per piece, uncompressed version 1 pages), decoded with
 * hyparquet: the definition levels mapped to a schema whose columns are REQUIRED (a plain column, a
 * STRUCT and its fields, a MAP whose empty maps lower its children's levels) or stay OPTIONAL (with
 * nulls), the pages ZSTD-compressed, several pieces in one file, the footer (schema, row groups,
 * metadata), an empty result; a null in a REQUIRED column is an error. In src/testing: it composes
 * DuckDB (the pieces) with the API's ZSTD codec, and engines import neither the other nor the APIs.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects, type FileMetaData, type SchemaElement } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { initZstd, zstdCompressor } from '../api/v2/format/geoparquet/zstd.js';
import { decodeLevels, encodeLevels, ParquetAssembler } from '../engines/common/parquet/parquet-assembly.js';

const ROWS = 5000;
/** Rows 0..ROWS-1: name null every third row; tags empty every fourth, its second value null every other row. */
const TABLE = `CREATE TABLE t AS SELECT
  i::BIGINT AS id,
  CASE WHEN i % 3 = 0 THEN NULL ELSE 'n' || i END AS name,
  {'xmin': i::DOUBLE, 'ymax': (i + 0.5)::DOUBLE} AS bbox,
  CASE WHEN i % 4 = 0 THEN MAP([]::VARCHAR[], []::VARCHAR[])
    ELSE MAP(['k', 'v' || (i % 5)], ['x', CASE WHEN i % 2 = 0 THEN NULL ELSE 'y' END]) END AS tags
FROM range(${ROWS}) r(i)`;

interface Row {
  id: bigint;
  name: string | null;
  bbox: { xmin: number; ymax: number };
  tags: Record<string, string | null>;
}

function expected(i: number): Row {
  return {
    id: BigInt(i),
    name: i % 3 === 0 ? null : `n${i}`,
    bbox: { xmin: i, ymax: i + 0.5 },
    tags: i % 4 === 0 ? {} : { k: 'x', [`v${i % 5}`]: i % 2 === 0 ? null : 'y' },
  };
}

/** The file's schema: the piece's, each element's repetition set by its path (every element named). */
function schemaWith(piece: readonly SchemaElement[], repetition: Record<string, 'REQUIRED' | 'OPTIONAL' | 'REPEATED'>): SchemaElement[] {
  const out: SchemaElement[] = [{ ...piece[0] }];
  let i = 1;
  const walk = (prefix: string): void => {
    const e = piece[i++];
    const path = prefix ? `${prefix}.${e.name}` : e.name;
    const r = repetition[path];
    if (r === undefined) throw new Error(`no repetition for ${path}`);
    out.push({ ...e, repetition_type: r });
    for (let k = 0; k < (e.num_children ?? 0); k++) walk(path);
  };
  for (let k = 0; k < (piece[0].num_children ?? 0); k++) walk('');
  return out;
}

/** What the API's schema would say: REQUIRED except name and the map's values. */
const API_LIKE = {
  id: 'REQUIRED',
  name: 'OPTIONAL',
  bbox: 'REQUIRED',
  'bbox.xmin': 'REQUIRED',
  'bbox.ymax': 'REQUIRED',
  tags: 'REQUIRED',
  'tags.key_value': 'REPEATED',
  'tags.key_value.key': 'REQUIRED',
  'tags.key_value.value': 'OPTIONAL',
} as const;

const toArrayBuffer = (b: Uint8Array) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

describe('parquet assembly: DuckDB pieces into one file in another schema', () => {
  let dir: string;
  let instance: DuckDBInstance;
  let con: DuckDBConnection;
  let copies = 0;

  before(async () => {
    await initZstd();
    dir = mkdtempSync(join(tmpdir(), 'maphist-assembly-test-'));
    // One thread: the pieces in the table's order.
    instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    con = await instance.connect();
    await con.run(TABLE);
  });
  after(() => {
    con?.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The pieces of one COPY, in order (data_0, data_1, …). */
  async function pieces(select: string, options = 'COMPRESSION uncompressed'): Promise<Uint8Array[]> {
    const to = join(dir, `copy-${++copies}`);
    await con.run(`COPY (${select}) TO '${to}' (FORMAT parquet, ${options}, ROW_GROUP_SIZE 2048, ROW_GROUPS_PER_FILE 1)`);
    const names = readdirSync(to).sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]));
    return names.map((n) => new Uint8Array(readFileSync(join(to, n))));
  }

  function assemble(schema: SchemaElement[], parts: Uint8Array[], compress = true): { file: Uint8Array; chunks: number } {
    const a = new ParquetAssembler(schema, compress ? { codec: 'ZSTD', compress: zstdCompressor() } : undefined);
    const out: Uint8Array[] = [a.start()];
    let chunks = 0;
    for (const p of parts) {
      for (const group of a.piece(p)) {
        out.push(...group);
        chunks++;
      }
    }
    out.push(a.finish({ keyValueMetadata: [{ key: 'test', value: '{"a":1}' }], createdBy: 'assembly test' }));
    return { file: new Uint8Array(Buffer.concat(out)), chunks };
  }

  async function read(file: Uint8Array): Promise<{ meta: FileMetaData; rows: Record<string, unknown>[] }> {
    const ab = toArrayBuffer(file);
    return { meta: parquetMetadata(ab), rows: await parquetReadObjects({ file: ab, compressors, rowFormat: 'object' }) };
  }

  it('REQUIRED and OPTIONAL columns, a STRUCT and a MAP, several pieces: the rows decode as written, pages ZSTD', async () => {
    const parts = await pieces('SELECT * FROM t ORDER BY id');
    assert.ok(parts.length >= 3, `several pieces (${parts.length})`);
    const schema = schemaWith(parquetMetadata(toArrayBuffer(parts[0])).schema, API_LIKE);
    const { file, chunks } = assemble(schema, parts);
    const { meta, rows } = await read(file);

    // The footer: the given schema (repetition included), every piece's row groups, the metadata.
    assert.deepEqual(
      meta.schema.map((e) => [e.name, e.repetition_type]),
      schema.map((e) => [e.name, e.repetition_type]),
    );
    assert.equal(meta.num_rows, BigInt(ROWS));
    assert.equal(meta.row_groups.length, chunks);
    assert.deepEqual(
      meta.row_groups.map((g) => g.num_rows),
      parts.flatMap((p) => parquetMetadata(toArrayBuffer(p)).row_groups.map((g) => g.num_rows)),
    );
    assert.deepEqual(meta.key_value_metadata, [{ key: 'test', value: '{"a":1}' }]);
    assert.equal(meta.created_by, 'assembly test');
    for (const g of meta.row_groups) {
      for (const c of g.columns) assert.equal(c.meta_data?.codec, 'ZSTD', c.meta_data?.path_in_schema.join('.'));
      // Each row group starts at its first column chunk's first page.
      const first = g.columns[0].meta_data!;
      assert.equal(g.file_offset, first.dictionary_page_offset ?? first.data_page_offset);
    }
    // Compressed: smaller than the pieces together (their rows are repetitive).
    assert.ok(file.length < parts.reduce((s, p) => s + p.length, 0));

    assert.equal(rows.length, ROWS);
    for (let i = 0; i < ROWS; i++) assert.deepEqual(rows[i], expected(i), `row ${i}`);
  });

  it('the same rows when the file keeps every column OPTIONAL (the levels unchanged, only compressed)', async () => {
    const parts = await pieces('SELECT * FROM t WHERE id < 3000 ORDER BY id');
    const pieceSchema = parquetMetadata(toArrayBuffer(parts[0])).schema;
    const { file } = assemble(pieceSchema, parts);
    const { meta, rows } = await read(file);
    assert.equal(meta.schema[1].repetition_type, 'OPTIONAL');
    assert.equal(rows.length, 3000);
    for (let i = 0; i < 3000; i++) assert.deepEqual(rows[i], expected(i), `row ${i}`);
  });

  it('compressed pages of version 1 are refused without a codec to recompress them (their levels are inside the compressed bytes)', async () => {
    // DuckDB writes version 1 data pages even with PARQUET_VERSION V2 (the encodings change, not the page type).
    const parts = await pieces('SELECT * FROM t WHERE id < 10', 'COMPRESSION zstd, PARQUET_VERSION V2');
    const schema = schemaWith(parquetMetadata(toArrayBuffer(parts[0])).schema, API_LIKE);
    const a = new ParquetAssembler(schema);
    a.start();
    assert.throws(() => a.piece(parts[0]), /column id has compressed version 1 pages/);
  });

  it('a null in a column the file declares REQUIRED is an error', async () => {
    const parts = await pieces('SELECT * FROM t WHERE id < 10 ORDER BY id');
    const schema = schemaWith(parquetMetadata(toArrayBuffer(parts[0])).schema, { ...API_LIKE, name: 'REQUIRED' });
    const a = new ParquetAssembler(schema, { codec: 'ZSTD', compress: zstdCompressor() });
    a.start();
    assert.throws(() => a.piece(parts[0]), /a null in column name, which the file's schema declares required/);
  });

  it('a piece whose columns are not the file\u2019s is an error', async () => {
    const parts = await pieces('SELECT id, name FROM t WHERE id < 10');
    const all = await pieces('SELECT * FROM t WHERE id < 10');
    const schema = schemaWith(parquetMetadata(toArrayBuffer(all[0])).schema, API_LIKE);
    const a = new ParquetAssembler(schema, { codec: 'ZSTD', compress: zstdCompressor() });
    a.start();
    assert.throws(() => a.piece(parts[0]), /the piece has 2 columns, the file 6/);
  });

  it('an empty result: no row group, the schema and metadata, readable', async () => {
    const schemaSource = await pieces('SELECT * FROM t WHERE id < 10');
    const schema = schemaWith(parquetMetadata(toArrayBuffer(schemaSource[0])).schema, API_LIKE);
    // Whatever DuckDB writes for no rows (a piece without row groups, or none).
    const parts = await pieces('SELECT * FROM t WHERE false');
    const { file, chunks } = assemble(schema, parts);
    assert.equal(chunks, 0);
    const { meta, rows } = await read(file);
    assert.equal(meta.num_rows, 0n);
    assert.equal(meta.row_groups.length, 0);
    assert.equal(meta.schema.length, schema.length);
    assert.deepEqual(meta.key_value_metadata, [{ key: 'test', value: '{"a":1}' }]);
    assert.deepEqual(rows, []);
    // No piece at all: the same.
    const bare = assemble(schema, []);
    assert.equal(bare.file.length, file.length);
    assert.equal((await read(bare.file)).meta.num_rows, 0n);
  });
});

describe('parquet assembly: the levels codec', () => {
  it('decodes bit-packed and RLE runs', () => {
    // bit-packed, width 1: one group of 8 values (header 1 << 1 | 1), LSB first
    assert.deepEqual([...decodeLevels(Uint8Array.from([3, 0b10001101]), 1, 8)], [1, 0, 1, 1, 0, 0, 0, 1]);
    // only the first `count` of a bit-packed group
    assert.deepEqual([...decodeLevels(Uint8Array.from([3, 0b10001101]), 1, 3)], [1, 0, 1]);
    // width 2: values 3, 1, 2, 0, 0, 0, 0, 0 (two bits each)
    assert.deepEqual([...decodeLevels(Uint8Array.from([3, 0b00100111, 0, 0]), 2, 8)], [3, 1, 2, 0, 0, 0, 0, 0]);
    // RLE: 300 times 2 (header 600 as a varint), then 5 times 0
    assert.deepEqual([...decodeLevels(Uint8Array.from([0xd8, 0x04, 2, 10, 0]), 2, 305)], [...Array(300).fill(2), ...Array(5).fill(0)]);
    assert.throws(() => decodeLevels(Uint8Array.from([10, 1]), 1, 6), /levels end early/);
  });

  it('encodes what it decodes (runs of every length, widths 1 to 3)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const width of [1, 2, 3]) {
      for (let t = 0; t < 20; t++) {
        const levels: number[] = [];
        while (levels.length < 500) levels.push(...Array(1 + Math.floor(random() ** 3 * 200)).fill(Math.floor(random() * 2 ** width)));
        const a = Uint8Array.from(levels);
        assert.deepEqual(decodeLevels(encodeLevels(a, width), width, a.length), a);
      }
    }
    assert.equal(encodeLevels(Uint8Array.from([0, 0]), 0).length, 0);
  });
});
