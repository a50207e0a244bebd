/**
 * The store writer thread: owns the DuckDB database during an import. It appends the staging
 * batches the history builder sends (the native append is the costliest part of writing a row,
 * and here it runs beside the builder instead of after it), then writes the dictionary, runs the
 * finalize SQL, writes users and metadata, and checkpoints.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  BLOB,
  DOUBLE,
  DuckDBDataChunk,
  DuckDBInstance,
  INTEGER,
  LIST,
  UTINYINT,
  listValue,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { collectGarbage } from './collect-garbage.js';
import { bindings } from './duckdb-bindings.js';
import { finalizeStatements, sortPassBoundsSql, sortPassCount, STAGED_ROW_BYTES } from './finalize-sql.js';
import { STORE_ROW_GROUP_SIZE } from './schema.js';
import { sqlString } from './sql-string.js';
import { writeMetadata, type MetadataInput } from './metadata.js';
import {
  MEMBER_STAGING_COLUMNS,
  STAGING_COLUMNS,
  TAG_SET_STAGING_COLUMNS,
  WAY_NODE_STAGING_COLUMNS,
  type MemberBatchData,
  type StagingBatchData,
  type WayNodeBatchData,
} from './staging-batch.js';

export interface WriterInit {
  dbPath: string;
  /** A database file for the staging tables, or undefined to stage in memory (see the ATTACH below). */
  stagingPath?: string;
  tempDirectory: string;
  memoryLimit: string;
  /** The limit while finishing (sorting every row), in bytes: the history builder's memory is free by then. */
  finishMemoryBytes: number;
  /** The staged bytes one sorted INSERT of the finish takes at most (finalize-sql.ts, sortPassCount). */
  sortPassBytes: number;
}

export type WriterRequest =
  | { kind: 'batch'; data: StagingBatchData }
  | { kind: 'members'; data: MemberBatchData }
  | { kind: 'wayNodes'; data: WayNodeBatchData }
  | { kind: 'finish'; dictionary: DictionaryData; users: [number, string][]; roles: string[]; metadata: MetadataInput };

export type WriterReply = { kind: 'ack' } | { kind: 'done' } | { kind: 'error'; message: string };

export interface DictionaryData {
  keys: string[];
  keyFrequency: number[];
  values: string[][];
  valueFrequency: number[][];
}

const CHUNK_ROWS = 2048;
/**
 * The writer thread collects its garbage after receiving this many bytes of batches. The batches'
 * buffers are transferred from the main thread and are garbage once appended, but V8 does not count
 * them towards this thread's heap, which stays at a few MB, so it collected them rarely: on synth-x16
 * about 2 GB of dead batch buffers (relation rows carry large WKB) accumulated in the relation phase
 * before a collection released them. A full collection of this small heap takes a few milliseconds.
 */
const COLLECT_EVERY_BYTES = 128 * 1024 * 1024;
const FLUSH_ROWS = 262_144;
/**
 * The states appender is flushed once its unflushed rows hold this many bytes (WKB plus
 * STAGED_ROW_BYTES of fixed columns per row). An appender keeps its rows in memory outside DuckDB's buffer
 * manager (and its memory limit) until it flushes itself, which it does every 204,800 rows: for
 * relation rows (8.7 kB of WKB on average) that was 1.8 GB, the largest part of the relation phase's
 * peak RSS. Node rows reach the row count first (4 MB), way rows at about 140 MB.
 */
const STATE_FLUSH_BYTES = 64 * 1024 * 1024;
const TYPES: Record<string, DuckDBType> = { UTINYINT, INTEGER, DOUBLE, BLOB, 'DOUBLE[]': LIST(DOUBLE) };

async function main(): Promise<void> {
  const init = workerData as WriterInit;
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: init.memoryLimit, temp_directory: init.tempDirectory });
  const con = await instance.connect();
  // The store is attached rather than opened, for its row group size (schema.ts, STORE_ROW_GROUP_SIZE).
  await con.run(`ATTACH ${sqlString(init.dbPath)} AS store (ROW_GROUP_SIZE ${STORE_ROW_GROUP_SIZE})`);
  await con.run('USE store');
  // The staging tables live in a database of their own, so that dropping them leaves no dead blocks in
  // the target file; the buffer manager evicts its blocks to disk beyond the memory limit (bounded
  // memory for any input size). In memory when the import expects its finish to sort them in one pass
  // (import-history.ts, `stagedBytesEstimate`): appending there costs no write-ahead log, no checkpoint
  // and no compression of rows the finish reads once (the four-country file's import took 13.4–14.4 s
  // instead of 15.2–15.8 s, bench/RESULTS.md "Session 23"). In a file otherwise: each sort pass reads
  // every staged row, and DuckDB writes an in-memory block again each time it evicts it, so synth-x48's
  // finish (33 passes) took 449 s with in-memory staging against 219 s with a file. The limit must hold
  // one flush of an appender, which moves its rows into the table at once (STATE_FLUSH_BYTES; the
  // plan's smallest staging limit, 192 MiB, holds three; the Maldives failed to commit a flush at
  // 32 MiB and staged at 48 MiB, spilling).
  await con.run(`ATTACH ${sqlString(init.stagingPath ?? ':memory:')} AS stage`);
  await con.run(`CREATE TABLE stage.staging (${STAGING_COLUMNS.map(([n, sql]) => `${n} ${sql}`).join(', ')})`);
  await con.run(`CREATE TABLE stage.member_staging (${MEMBER_STAGING_COLUMNS.map(([n, sql]) => `${n} ${sql}`).join(', ')})`);
  await con.run(`CREATE TABLE stage.way_node_staging (${WAY_NODE_STAGING_COLUMNS.map(([n, sql]) => `${n} ${sql}`).join(', ')})`);
  await con.run(`CREATE TABLE stage.tag_sets (${TAG_SET_STAGING_COLUMNS.map(([n, sql]) => `${n} ${sql}`).join(', ')})`);
  // Every staged row is appended in one transaction, committed once the appenders are closed. An
  // appender's flush outside a transaction commits its rows: in memory, a commit that ends inside a
  // row group (the states' flushes go by bytes, STATE_FLUSH_BYTES) made the next one slower (1.1 M
  // rows like the four-country file's appended in 1.9–2.0 s so, 1.2–1.4 s in one transaction); in a
  // staging file, each commit also wrote to disk (in one transaction, synth-x8's system CPU time fell
  // from 55 to 26 s). The imports took 0.95× (four-country file), 0.73× (synth-x8) and 0.79×
  // (synth-x24) of their time before (bench/RESULTS.md, session 26). The staging tables are the
  // import's own: no reader waits for them.
  await con.run('BEGIN TRANSACTION');
  const appender = await con.createAppender('staging', 'main', 'stage');
  const stateChunks = new ChunkAppender(
    appender,
    STAGING_COLUMNS.map(([, sql]) => TYPES[sql]),
  );
  const memberAppender = await con.createAppender('member_staging', 'main', 'stage');
  const memberChunks = new ChunkAppender(
    memberAppender,
    MEMBER_STAGING_COLUMNS.map(([, sql]) => TYPES[sql]),
  );
  const wayNodeAppender = await con.createAppender('way_node_staging', 'main', 'stage');
  const wayNodeChunks = new ChunkAppender(
    wayNodeAppender,
    WAY_NODE_STAGING_COLUMNS.map(([, sql]) => TYPES[sql]),
  );
  const tagSetAppender = await con.createAppender('tag_sets', 'main', 'stage');
  const tagSetChunks = new ChunkAppender(
    tagSetAppender,
    TAG_SET_STAGING_COLUMNS.map(([, sql]) => TYPES[sql]),
  );

  let stagedMembers = 0;
  let stagedWayNodes = 0;
  let stagedStateBytes = 0;
  /** Every staged state's WKB and fixed columns, for the finish's sort passes (sortPassCount). */
  let allStagedBytes = 0;
  let receivedBytes = 0;
  const received = (bytes: number): void => {
    receivedBytes += bytes;
    if (receivedBytes < COLLECT_EVERY_BYTES) return;
    receivedBytes = 0;
    collectGarbage();
  };
  let stage = 'staging';
  if (process.env.MAPHIST_DEBUG_MEM) {
    // A connection of its own, so that the sampling query runs beside appends and finalize statements.
    const probe = await instance.connect();
    setInterval(() => {
      void probe
        .runAndReadAll(
          'SELECT tag, memory_usage_bytes, temporary_storage_bytes FROM duckdb_memory() WHERE memory_usage_bytes > 0 OR temporary_storage_bytes > 0',
        )
        .then(
          (r) => {
            const m = process.memoryUsage();
            const mb = (n: number | bigint) => (Number(n) / 1048576).toFixed(0);
            const rows = r.getRows().map(([tag, used, temp]) => `${String(tag)} ${mb(used as bigint)}/${mb(temp as bigint)}`);
            console.error(
              `mem ${(performance.now() / 1000).toFixed(0)}s writer ${stage}: heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} arrayBuffers ${mb(m.arrayBuffers)} duckdb[mem/tmp] ${rows.join(', ')}`,
            );
          },
          () => undefined,
        );
    }, 5000).unref();
  }

  // After the first failure (a full disk invalidates the database) the worker calls DuckDB no more:
  // the main thread terminates it soon, and a DuckDB call that fails while the worker is being
  // terminated cannot throw into JavaScript any more, which aborts the whole process.
  let failed: string | undefined;
  parentPort!.on('message', (message: WriterRequest) => {
    if (failed !== undefined) {
      parentPort!.postMessage({ kind: 'error', message: failed } satisfies WriterReply);
      return;
    }
    void handle(message).then(
      (reply) => parentPort!.postMessage(reply),
      (e: Error) => {
        failed ??= e.stack ?? e.message;
        parentPort!.postMessage({ kind: 'error', message: failed } satisfies WriterReply);
      },
    );
  });

  async function handle(message: WriterRequest): Promise<WriterReply> {
    if (message.kind === 'batch') {
      appendBatch(stateChunks, message.data);
      const bytes = message.data.geometry.bytes.byteLength + message.data.rows * STAGED_ROW_BYTES;
      stagedStateBytes += bytes;
      allStagedBytes += bytes;
      if (stagedStateBytes >= STATE_FLUSH_BYTES) {
        appender.flushSync();
        stagedStateBytes = 0;
      }
      appendTagSets(tagSetChunks, message.data.tagSets);
      received(batchBytes(message.data));
      return { kind: 'ack' };
    }
    if (message.kind === 'members') {
      appendColumns(memberChunks, message.data);
      stagedMembers = flushEvery(memberAppender, stagedMembers + message.data.rows);
      received(message.data.columns.reduce((sum, c) => sum + c.byteLength, 0));
      return { kind: 'ack' };
    }
    if (message.kind === 'wayNodes') {
      appendColumns(wayNodeChunks, message.data);
      stagedWayNodes = flushEvery(wayNodeAppender, stagedWayNodes + message.data.rows);
      received(message.data.columns.reduce((sum, c) => sum + c.byteLength, 0));
      return { kind: 'ack' };
    }
    // MAPHIST_DEBUG_SQL=1 prints the time of each step of the finish (for diagnosing slow imports).
    const timed = async <T>(what: string, step: () => T | Promise<T>): Promise<T> => {
      stage = what.slice(0, 40).replace(/\s+/g, ' ');
      const t0 = performance.now();
      const result = await step();
      if (process.env.MAPHIST_DEBUG_SQL) console.error(`${(performance.now() - t0).toFixed(0)} ms: ${what.slice(0, 70).replace(/\s+/g, ' ')}`);
      return result;
    };
    await timed('closing the appenders', () => {
      for (const a of [appender, wayNodeAppender, memberAppender, tagSetAppender]) {
        a.flushSync();
        a.closeSync();
      }
    });
    await timed('COMMIT', () => con.run('COMMIT'));
    await timed('roles', () => writeRoles(con, message.roles));
    await con.run(`SET memory_limit = '${Math.floor(init.finishMemoryBytes / 2 ** 20)}MiB'`);
    await timed('dictionary', () => writeDictionary(con, message.dictionary));
    // Sorted in ranges of spatial keys when the rows are larger than a sort may hold (finalize-sql.ts).
    const passes = sortPassCount(allStagedBytes, init.sortPassBytes);
    // null: one pass. With several, none when every row is a whole-world one (no keys to cut).
    const bounds =
      passes > 1
        ? await timed('sort pass bounds', async () => ((await con.runAndReadAll(sortPassBoundsSql(passes))).getRowsJS()[0]![0] as number[] | null) ?? [])
        : null;
    if (process.env.MAPHIST_DEBUG_SQL) console.error(`sort passes: ${passes} (${allStagedBytes} staged bytes), bounds ${JSON.stringify(bounds)}`);
    for (const sql of finalizeStatements(bounds, init.stagingPath === undefined)) await timed(sql, () => con.run(sql));
    await timed('users', () => writeUsers(con, message.users));
    await timed('metadata', () => writeMetadata(con, message.metadata));
    await timed('CHECKPOINT', () => con.run('CHECKPOINT'));
    con.closeSync();
    instance.closeSync();
    return { kind: 'done' };
  }
}

function batchBytes(b: StagingBatchData): number {
  let bytes = b.geometry.bytes.byteLength + b.geometry.offsets.byteLength;
  for (const a of b.fixed) if (a) bytes += a.byteLength;
  return bytes + b.tagSets.ids.byteLength + b.tagSets.values.byteLength + b.tagSets.offsets.byteLength;
}

/**
 * One data chunk per appender, reused for every CHUNK_ROWS rows and reset after each append.
 * A chunk's vectors and its blob/list data live in native memory that V8 does not see: chunks
 * created per 2,048 rows and left to the garbage collector piled up between the writer thread's
 * rare collections (its heap stays small), about 2 GB of RSS in synth-x16's relation phase,
 * released all at once when a collection finally ran. The appender copies a chunk's rows, so
 * the chunk may be refilled as soon as `appendDataChunk` returns.
 */
class ChunkAppender {
  private readonly chunk: DuckDBDataChunk;

  constructor(
    readonly appender: DuckDBAppender,
    types: DuckDBType[],
  ) {
    this.chunk = DuckDBDataChunk.create(types, CHUNK_ROWS);
  }

  /** Appends `rows` rows (at most CHUNK_ROWS) that `fill` writes into the chunk. */
  append(rows: number, fill: (chunk: DuckDBDataChunk) => void): void {
    const chunk = this.chunk;
    chunk.reset();
    chunk.rowCount = rows;
    try {
      fill(chunk);
      this.appender.appendDataChunk(chunk);
    } finally {
      // Frees the chunk's string and list data now (the vectors' own buffers stay for the next rows).
      chunk.reset();
    }
  }
}

function appendBatch(target: ChunkAppender, batch: StagingBatchData): void {
  const geometryIndex = STAGING_COLUMNS.findIndex(([n]) => n === 'geometry');
  for (let start = 0; start < batch.rows; start += CHUNK_ROWS) {
    const end = Math.min(batch.rows, start + CHUNK_ROWS);
    target.append(end - start, (chunk) =>
      batch.fixed.forEach((a, i) => {
        if (a) setNumbers(chunk, i, a.subarray(start, end));
        else if (i === geometryIndex) setBlobs(chunk, i, batch.geometry, start, end);
        else throw new Error(`no data for staging column ${STAGING_COLUMNS[i][0]}`);
      }),
    );
  }
}

/**
 * Flushes an appender every FLUSH_ROWS rows, so that flushing runs while the history builder works
 * rather than when the import finishes. Measured on the 4-country file: the relation members'
 * final flush took 1 s (it took the same 1.5–2 s for the states whatever the interval, so those are
 * flushed by size instead, see STATE_FLUSH_BYTES). Returns the rows not yet flushed.
 */
function flushEvery(appender: DuckDBAppender, unflushed: number): number {
  if (unflushed < FLUSH_ROWS) return unflushed;
  appender.flushSync();
  return 0;
}

function appendTagSets(target: ChunkAppender, sets: StagingBatchData['tagSets']): void {
  for (let start = 0; start < sets.ids.length; start += CHUNK_ROWS) {
    const end = Math.min(sets.ids.length, start + CHUNK_ROWS);
    target.append(end - start, (chunk) => {
      setNumbers(chunk, 0, sets.ids.subarray(start, end));
      chunk.setColumnValues(1, lists(sets, start, end));
    });
  }
}

/** Appends a batch of numeric columns (relation members, way node references). */
function appendColumns(target: ChunkAppender, batch: MemberBatchData | WayNodeBatchData): void {
  for (let start = 0; start < batch.rows; start += CHUNK_ROWS) {
    const end = Math.min(batch.rows, start + CHUNK_ROWS);
    target.append(end - start, (chunk) => batch.columns.forEach((c, i) => setNumbers(chunk, i, c.subarray(start, end))));
  }
}

async function writeRoles(con: DuckDBConnection, roles: string[]): Promise<void> {
  await con.run('CREATE TEMP TABLE relation_roles (id INTEGER, role VARCHAR)');
  const app = await con.createAppender('relation_roles', 'main', 'temp');
  roles.forEach((role, id) => {
    app.appendInteger(id);
    app.appendVarchar(role);
    app.endRow();
  });
  app.closeSync();
}

type NumberColumn = Uint8Array | Int32Array | Float64Array;

/*
 * The chunks are filled through DuckDB's C API (duckdb-bindings.ts), not node-api's vectors: a
 * node-api vector copies the column's data out into a new buffer when it is made and back in when
 * flushed, and the chunk's vectors are made anew for every chunk (setting its row count drops
 * them), so each column of each 2,048 rows cost two copies and a new buffer, and a blob cost an
 * object. `ChunkAppender.append` resets the chunk before it is filled: every row is valid then.
 */

/** Fills a numeric column of a chunk just reset from a typed array of its element type (no NULLs): one copy. */
function setNumbers(chunk: DuckDBDataChunk, column: number, values: NumberColumn): void {
  bindings.copy_data_to_vector(bindings.data_chunk_get_vector(chunk.chunk, column), 0, values.buffer as ArrayBuffer, values.byteOffset, values.byteLength);
}

/** Fills a BLOB column of a chunk just reset with rows [start, end) of `part` (empty = NULL). */
function setBlobs(chunk: DuckDBDataChunk, column: number, part: { bytes: Uint8Array; offsets: Int32Array }, start: number, end: number): void {
  const vector = bindings.data_chunk_get_vector(chunk.chunk, column);
  let validity: Uint8Array | null = null;
  for (let r = start; r < end; r++) {
    const a = part.offsets[r];
    const b = part.offsets[r + 1];
    if (a < b) {
      bindings.vector_assign_string_element_len(vector, r - start, part.bytes.subarray(a, b));
    } else {
      // A cleared bit is NULL.
      validity ??= allValid(end - start);
      validity[(r - start) >> 3] &= ~(1 << ((r - start) & 7));
    }
  }
  // Only this column ever has NULLs: should its mask of an earlier chunk outlive the reset, it is written whole.
  if (validity === null && bindings.vector_get_validity(vector, 8) !== null) validity = allValid(end - start);
  if (validity !== null) {
    bindings.vector_ensure_validity_writable(vector);
    bindings.copy_data_to_vector_validity(vector, 0, validity.buffer as ArrayBuffer, 0, validity.byteLength);
  }
}

/** A validity mask of `rows` rows, every one valid: 64-bit words, least significant bit first. */
function allValid(rows: number): Uint8Array {
  return new Uint8Array(Math.ceil(rows / 64) * 8).fill(0xff);
}

function lists(part: { values: Float64Array; offsets: Int32Array }, start: number, end: number): DuckDBValue[] {
  const out: DuckDBValue[] = new Array(end - start);
  for (let r = start; r < end; r++) out[r - start] = listValue(Array.from(part.values.subarray(part.offsets[r], part.offsets[r + 1])));
  return out;
}

async function writeDictionary(con: DuckDBConnection, d: DictionaryData): Promise<void> {
  await con.run('CREATE TEMP TABLE keys_prov (pid INTEGER, key VARCHAR, frequency BIGINT)');
  await con.run('CREATE TEMP TABLE values_prov (key_pid INTEGER, vid INTEGER, value VARCHAR, frequency BIGINT)');
  const keys = await con.createAppender('keys_prov', 'main', 'temp');
  d.keys.forEach((key, pid) => {
    keys.appendInteger(pid);
    keys.appendVarchar(key);
    keys.appendBigInt(BigInt(d.keyFrequency[pid]));
    keys.endRow();
  });
  keys.closeSync();
  const values = await con.createAppender('values_prov', 'main', 'temp');
  d.values.forEach((list, pid) =>
    list.forEach((value, vid) => {
      values.appendInteger(pid);
      values.appendInteger(vid);
      values.appendVarchar(value);
      values.appendBigInt(BigInt(d.valueFrequency[pid][vid]));
      values.endRow();
    }),
  );
  values.closeSync();
}

async function writeUsers(con: DuckDBConnection, users: [number, string][]): Promise<void> {
  await con.run('CREATE TABLE users (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL)');
  const app = await con.createAppender('users');
  for (const [id, name] of users) {
    app.appendInteger(id);
    app.appendVarchar(name);
    app.endRow();
  }
  app.closeSync();
}

await main();
