/**
 * The store writer thread: owns the DuckDB database during an import. It appends the staging
 * batches the history builder sends (the native append is the costliest part of writing a row,
 * and here it runs beside the builder instead of after it), then writes the dictionary, runs the
 * finalize SQL, writes users and metadata, and checkpoints.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  BLOB, DOUBLE, DuckDBDataChunk, DuckDBInstance, INTEGER, LIST, UTINYINT,
  blobValue, listValue, type DuckDBAppender, type DuckDBConnection, type DuckDBType, type DuckDBValue,
} from '@duckdb/node-api';
import { FINALIZE_STATEMENTS } from './finalize-sql.js';
import { writeMetadata, type MetadataInput } from './metadata.js';
import { MEMBER_STAGING_COLUMNS, STAGING_COLUMNS, TAG_SET_STAGING_COLUMNS, type MemberBatchData, type StagingBatchData } from './staging-batch.js';

export interface WriterInit {
  dbPath: string;
  /** A database file for the staging table, deleted after the import (keeps the target file free of dead blocks). */
  stagingPath: string;
  tempDirectory: string;
  memoryLimit: string;
  /** The limit while finishing (sorting every row): the history builder's memory is free by then. */
  finishMemoryLimit: string;
}

export type WriterRequest =
  | { kind: 'batch'; data: StagingBatchData }
  | { kind: 'members'; data: MemberBatchData }
  | { kind: 'finish'; dictionary: DictionaryData; users: [number, string][]; roles: string[]; metadata: MetadataInput };

export type WriterReply = { kind: 'ack' } | { kind: 'done' } | { kind: 'error'; message: string };

export interface DictionaryData {
  keys: string[];
  keyFrequency: number[];
  values: string[][];
  valueFrequency: number[][];
}

const CHUNK_ROWS = 2048;
const FLUSH_ROWS = 262_144;
const TYPES: Record<string, DuckDBType> = { UTINYINT, INTEGER, DOUBLE, BLOB, 'DOUBLE[]': LIST(DOUBLE) };

async function main(): Promise<void> {
  const init = workerData as WriterInit;
  const instance = await DuckDBInstance.create(init.dbPath, { memory_limit: init.memoryLimit, temp_directory: init.tempDirectory });
  const con = await instance.connect();
  // The staging table lives in a database of its own: the buffer manager can evict its blocks to disk
  // (bounded memory for any input size), and dropping it leaves no dead blocks in the target file.
  await con.run(`ATTACH '${init.stagingPath.replace(/'/g, "''")}' AS stage`);
  await con.run(`CREATE TABLE stage.staging (${STAGING_COLUMNS.map(([n, sql]) => `${n} ${sql}`).join(', ')})`);
  const appender = await con.createAppender('staging', 'main', 'stage');
  const types = STAGING_COLUMNS.map(([, sql]) => TYPES[sql]);
  await con.run(`CREATE TABLE stage.member_staging (${MEMBER_STAGING_COLUMNS.map(([n, sql]) => `${n} ${sql}`).join(', ')})`);
  const memberAppender = await con.createAppender('member_staging', 'main', 'stage');
  const memberTypes = MEMBER_STAGING_COLUMNS.map(([, sql]) => TYPES[sql]);
  await con.run(`CREATE TABLE stage.tag_sets (${TAG_SET_STAGING_COLUMNS.map(([n, sql]) => `${n} ${sql}`).join(', ')})`);
  const tagSetAppender = await con.createAppender('tag_sets', 'main', 'stage');
  const tagSetTypes = TAG_SET_STAGING_COLUMNS.map(([, sql]) => TYPES[sql]);

  let stagedMembers = 0;

  parentPort!.on('message', (message: WriterRequest) => {
    void handle(message).then(
      (reply) => parentPort!.postMessage(reply),
      (e: Error) => parentPort!.postMessage({ kind: 'error', message: e.stack ?? e.message } satisfies WriterReply),
    );
  });

  async function handle(message: WriterRequest): Promise<WriterReply> {
    if (message.kind === 'batch') {
      appendBatch(appender, types, message.data);
      appendTagSets(tagSetAppender, tagSetTypes, message.data.tagSets);
      return { kind: 'ack' };
    }
    if (message.kind === 'members') {
      appendMembers(memberAppender, memberTypes, message.data);
      stagedMembers = flushEvery(memberAppender, stagedMembers + message.data.rows);
      return { kind: 'ack' };
    }
    appender.flushSync();
    appender.closeSync();
    memberAppender.flushSync();
    memberAppender.closeSync();
    tagSetAppender.flushSync();
    tagSetAppender.closeSync();
    await writeRoles(con, message.roles);
    await con.run(`SET memory_limit = '${init.finishMemoryLimit}'`);
    await writeDictionary(con, message.dictionary);
    // MAPHIST_DEBUG_SQL=1 prints the time of each finalize statement (for diagnosing slow imports).
    for (const sql of FINALIZE_STATEMENTS) {
      const t0 = performance.now();
      await con.run(sql);
      if (process.env.MAPHIST_DEBUG_SQL) console.error(`${(performance.now() - t0).toFixed(0)} ms: ${sql.slice(0, 70).replace(/\s+/g, " ")}`);
    }
    await writeUsers(con, message.users);
    await writeMetadata(con, message.metadata);
    await con.run('CHECKPOINT');
    con.closeSync();
    instance.closeSync();
    return { kind: 'done' };
  }
}

function appendBatch(appender: DuckDBAppender, types: DuckDBType[], batch: StagingBatchData): void {
  const geometryIndex = STAGING_COLUMNS.findIndex(([n]) => n === 'geometry');
  for (let start = 0; start < batch.rows; start += CHUNK_ROWS) {
    const end = Math.min(batch.rows, start + CHUNK_ROWS);
    const chunk = DuckDBDataChunk.create(types, end - start);
    batch.fixed.forEach((a, i) => {
      if (a) setNumbers(chunk, i, a.subarray(start, end));
      else if (i === geometryIndex) chunk.setColumnValues(i, blobs(batch.geometry, start, end));
      else throw new Error(`no data for staging column ${STAGING_COLUMNS[i][0]}`);
    });
    appender.appendDataChunk(chunk);
  }
}

/**
 * Flushes an appender every FLUSH_ROWS rows, so that flushing runs while the history builder works
 * rather than when the import finishes. Measured on the 4-country file: the relation members'
 * final flush took 1 s (it took the same 1.5–2 s for the states whatever the interval, so those are
 * only flushed at the end). Returns the rows not yet flushed.
 */
function flushEvery(appender: DuckDBAppender, unflushed: number): number {
  if (unflushed < FLUSH_ROWS) return unflushed;
  appender.flushSync();
  return 0;
}

function appendTagSets(appender: DuckDBAppender, types: DuckDBType[], sets: StagingBatchData['tagSets']): void {
  for (let start = 0; start < sets.ids.length; start += CHUNK_ROWS) {
    const end = Math.min(sets.ids.length, start + CHUNK_ROWS);
    const chunk = DuckDBDataChunk.create(types, end - start);
    setNumbers(chunk, 0, sets.ids.subarray(start, end));
    chunk.setColumnValues(1, lists(sets, start, end));
    appender.appendDataChunk(chunk);
  }
}

function appendMembers(appender: DuckDBAppender, types: DuckDBType[], batch: MemberBatchData): void {
  for (let start = 0; start < batch.rows; start += CHUNK_ROWS) {
    const end = Math.min(batch.rows, start + CHUNK_ROWS);
    const chunk = DuckDBDataChunk.create(types, end - start);
    batch.columns.forEach((c, i) => setNumbers(chunk, i, c.subarray(start, end)));
    appender.appendDataChunk(chunk);
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

/**
 * Fills a numeric column of a fresh chunk (no NULLs) from a typed array of its element type with
 * one copy: the same as `setColumnValues`, which sets the values one at a time (the costliest part
 * of appending, measured), but through the vector's own item array.
 */
function setNumbers(chunk: DuckDBDataChunk, column: number, values: NumberColumn): void {
  const vector = chunk.getColumnVector(column) as unknown as { items?: unknown; flush(): void };
  const items = vector.items;
  if (items instanceof values.constructor && (items as NumberColumn).length === values.length) {
    (items as NumberColumn).set(values as never);
    vector.flush();
  } else {
    chunk.setColumnValues(column, values as unknown as DuckDBValue[]);
  }
}

function lists(part: { values: Float64Array; offsets: Int32Array }, start: number, end: number): DuckDBValue[] {
  const out: DuckDBValue[] = new Array(end - start);
  for (let r = start; r < end; r++) out[r - start] = listValue(Array.from(part.values.subarray(part.offsets[r], part.offsets[r + 1])));
  return out;
}

function blobs(part: { bytes: Uint8Array; offsets: Int32Array }, start: number, end: number): DuckDBValue[] {
  const out: DuckDBValue[] = new Array(end - start);
  for (let r = start; r < end; r++) {
    const a = part.offsets[r];
    const b = part.offsets[r + 1];
    out[r - start] = a === b ? null : blobValue(part.bytes.subarray(a, b));
  }
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
