/**
 * Applying OsmChange files to a store (`maphist update`, issue 18) in one DuckDB transaction on the
 * database file: a kill at any moment leaves the store exactly as before or exactly as after
 * (DuckDB's write-ahead log; the next open replays a committed transaction the kill kept from its
 * checkpoint), and a re-run finishes the job. When another process has the file open (a server
 * reads it), DuckDB refuses to open it for writing: then the next state is written into a copy in
 * the run's work directory (work-dir.ts) and renamed over the original at the end (the rename is
 * the commit), and the server keeps reading its own generation's file (docs/store.md, "Store
 * generations").
 *
 * Each element with a new version in the changes is rebuilt, and so is each way or relation whose
 * current version references one (a moved node gives its ways and their relations member-induced
 * states; relation members of relations are not resolved, so the recursion stops at relations):
 * its whole timeline is built again by the import's history builder (`buildHistory`) from its
 * versions read back from the store (update-read.ts) plus the new ones, with the full histories of
 * its member nodes and ways, and its rows in `states` are replaced (update-write.ts). Versions the
 * store already has are skipped: re-applying a change changes nothing (and writes nothing).
 *
 * Replication (issue 18 part 2) and a server following it (part 4) call `applyChanges` with the
 * parsed diffs (`ChangeInput`) or their files.
 */
import { constants, copyFileSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { MaphistError } from '../core/errors.js';
import { OSM_TYPE_CODE, type OsmVersion, type RelationVersion, type WayVersion } from '../core/osm.js';
import { buildHistory } from '../history/build-history.js';
import { readChangeFile } from '../io/open-change.js';
import { diskFullError } from './disk-full.js';
import { extentOf, iso, readMetadata, type StoreMetadata } from './metadata.js';
import { openStore, type Store } from './open-store.js';
import { elementKey, elementTable, keyId, keyType, parentsOf, readStoredVersions } from './update-read.js';
import { moveNewStates, NewStateRows, timed, updateElementExtents } from './update-write.js';
import { createWorkDir, processRunning, workDirRoot } from './work-dir.js';
import { asWriteFailure } from './write-failure.js';

/** One change: a file (`.osc`, `.osc.gz`, `.osc.bz2`) or versions already parsed (replication). */
export type ChangeInput = string | { name: string; versions: readonly OsmVersion[] };

export interface ApplyChangesOptions {
  db: string;
  changes: readonly ChangeInput[];
  signal?: AbortSignal;
  /** Called before each phase (for progress output). */
  onPhase?: (phase: 'reading' | 'checking' | 'copying' | 'rebuilding' | 'writing' | 'committing' | 'checkpointing') => void;
  /**
   * Write a copy and rename it over the database even when no other process has the database
   * open (by default the update is one transaction on the file itself, and a copy only when a
   * server holds the file).
   */
  copy?: boolean;
  /**
   * The replication state these changes bring the store to (`maphist update --replication`):
   * recorded in `meta` in the same atomic step (docs/replication.md). A new position is written
   * even when the changes hold no new version.
   */
  position?: { sequence: number; timestamp: number };
  /**
   * Test hook: called just before the commit (the transaction's on the database, or the rename of
   * the copy, whose path it gets): a kill there must leave the store as before.
   */
  beforeCommit?: (copy: string) => void;
}

export interface ApplyChangesResult {
  /** Versions in the changes (after removing duplicates), and how many of them the store did not have. */
  versionsRead: number;
  versionsNew: number;
  /** Elements rebuilt per type (changed ones and their current parents). */
  rebuilt: { node: number; way: number; relation: number };
  rowsRemoved: number;
  rowsAdded: number;
  /** False when every version was already in the store: nothing was written. */
  written: boolean;
  /** One transaction on the database file (true), or a copy renamed over it (a server had it open). */
  inPlace: boolean;
  seconds: number;
  /** Seconds spent copying the store file (part of `seconds`; 0 in place). */
  copySeconds: number;
}

export async function applyChanges(options: ApplyChangesOptions): Promise<ApplyChangesResult> {
  const target = resolve(options.db);
  try {
    return await apply(options, target);
  } catch (e) {
    const size = existsSync(target) ? statSync(target).size : 0;
    throw (
      diskFullError(e, { command: 'maphist update', dir: workDirRoot(target), needBytes: size * 1.1 + 64e6, unchanged: 'the database is unchanged' }) ??
      asWriteFailure(e, target)
    );
  }
}

/** Sorted by type, id, version; one per (type, id, version), the last given winning. */
function sortVersions(all: OsmVersion[]): OsmVersion[] {
  const code = (v: OsmVersion) => OSM_TYPE_CODE[v.type];
  const indexed = all.map((v, i) => ({ v, i }));
  indexed.sort((a, b) => code(a.v) - code(b.v) || a.v.id - b.v.id || a.v.version - b.v.version || a.i - b.i);
  const out: OsmVersion[] = [];
  for (const { v } of indexed) {
    const last = out[out.length - 1];
    if (last !== undefined && last.type === v.type && last.id === v.id && last.version === v.version) out[out.length - 1] = v;
    else out.push(v);
  }
  return out;
}

// MAPHIST_DEBUG_UPDATE=1 prints the time of each step to stderr.
let mark = performance.now();
function step(what: string): void {
  if (!process.env.MAPHIST_DEBUG_UPDATE) return;
  const now = performance.now();
  console.error(`update: ${(now - mark).toFixed(0)} ms ${what}`);
  mark = now;
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('update aborted');
}

async function apply(options: ApplyChangesOptions, target: string): Promise<ApplyChangesResult> {
  const started = performance.now();
  const { signal } = options;
  options.onPhase?.('reading');
  const all: OsmVersion[] = [];
  for (const c of options.changes) {
    if (typeof c === 'string') all.push(...(await readChangeFile(c)).versions);
    else all.push(...c.versions);
    checkAborted(signal);
  }
  const versions = sortVersions(all);
  step('changes read');
  const byElement = new Map<number, OsmVersion[]>();
  for (const v of versions) {
    const key = elementKey(OSM_TYPE_CODE[v.type], v.id);
    let list = byElement.get(key);
    if (!list) byElement.set(key, (list = []));
    list.push(v);
  }
  const result: ApplyChangesResult = {
    versionsRead: versions.length,
    versionsNew: 0,
    rebuilt: { node: 0, way: 0, relation: 0 },
    rowsRemoved: 0,
    rowsAdded: 0,
    written: false,
    inPlace: false,
    seconds: 0,
    copySeconds: 0,
  };
  if (!existsSync(target)) await openStore(target); // DB_NOT_FOUND, with its advice
  refuseConcurrentUpdate(target);
  const work = createWorkDir(target, 'update');
  try {
    const writable = options.copy ? undefined : await openWritable(target, work.path);
    step('opened');
    if (writable) {
      result.inPlace = true;
      try {
        await updateIn(writable, byElement, options, result, work.path, target);
      } finally {
        writable.close();
        step('closed');
      }
    } else {
      await updateCopy(target, byElement, options, result, work.path);
    }
  } finally {
    work.remove();
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/**
 * The database opened for writing (checked as `openStore` checks it), or undefined when another
 * process has it open (a server reads it): DuckDB lets no other process open a file one process
 * writes, nor write one others read.
 */
async function openWritable(target: string, workDir: string): Promise<Store | undefined> {
  try {
    return await openStore(target, { readOnly: false, memoryLimit: '1GB', tempDirectory: join(workDir, 'duckdb-tmp') });
  } catch (e) {
    if (e instanceof MaphistError && e.code === 'DB_BUSY') return undefined;
    throw e;
  }
}

/**
 * The update in one DuckDB transaction on `instance`'s database: which versions are new, the
 * rebuild, the position. Nothing is written (not even the transaction) when nothing is new.
 */
async function updateIn(
  instance: { connect(): Promise<DuckDBConnection> },
  byElement: Map<number, OsmVersion[]>,
  options: ApplyChangesOptions,
  result: ApplyChangesResult,
  workDir: string,
  committed: string,
): Promise<void> {
  const con = await instance.connect();
  try {
    options.onPhase?.('checking');
    const metadata = await readMetadata(con);
    const newVersions = await findNewVersions(con, byElement);
    result.versionsNew = [...newVersions.values()].reduce((n, l) => n + l.length, 0);
    step('new versions found');
    if (newVersions.size === 0 && !movesPosition(options, metadata)) return;
    checkAborted(options.signal);
    await con.run('BEGIN TRANSACTION');
    try {
      if (newVersions.size > 0) await rebuild(con, newVersions, metadata, workDir, result, options);
      if (options.position) await writePosition(con, options.position);
      checkAborted(options.signal);
      if (result.inPlace) options.beforeCommit?.(committed);
      options.onPhase?.('committing');
      await con.run('COMMIT');
    } catch (e) {
      await con.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
    result.written = true;
    // The checkpoint writes the committed transaction from the write-ahead log into the file (a
    // kill before it is safe: the next open replays the log).
    options.onPhase?.('checkpointing');
    await con.run('CHECKPOINT');
    step('checkpointed');
  } finally {
    con.closeSync();
  }
}

/**
 * The update of a database other processes have open for reading (a server): written into a copy
 * in the work directory, checkpointed, and renamed over the original (the rename is the commit). The
 * servers keep reading their own file's inode. This process holds the database open read-only
 * from the check to the rename: DuckDB's read lock keeps any writer out meanwhile, so neither the
 * file nor its write-ahead log changes under the copy.
 */
async function updateCopy(
  target: string,
  byElement: Map<number, OsmVersion[]>,
  options: ApplyChangesOptions,
  result: ApplyChangesResult,
  workDir: string,
): Promise<void> {
  // Which versions are new, on the database itself: a change it already has costs no copy.
  options.onPhase?.('checking');
  // (`DB_BUSY` when a process writes it: DuckDB then refuses readers too.)
  const store = await openStore(target);
  try {
    const con = await store.connect();
    let fresh: number;
    try {
      fresh = (await findNewVersions(con, byElement)).size;
    } finally {
      con.closeSync();
    }
    if (fresh === 0 && !movesPosition(options, store.metadata)) return;
    checkAborted(options.signal);

    options.onPhase?.('copying');
    const copy = join(workDir, basename(target));
    const wal = `${target}.wal`;
    const copyStarted = performance.now();
    // A reflink where the file system has them (btrfs, XFS): then the copy costs nothing. The
    // write-ahead log of an update killed between its commit and its checkpoint goes along, and
    // the copy's open replays it.
    copyFileSync(target, copy, constants.COPYFILE_FICLONE);
    if (existsSync(wal)) copyFileSync(wal, `${copy}.wal`);
    result.copySeconds = (performance.now() - copyStarted) / 1000;
    checkAborted(options.signal);
    const instance = await DuckDBInstance.create(copy, { memory_limit: '1GB', temp_directory: join(workDir, 'duckdb-tmp') });
    try {
      await updateIn(instance, byElement, options, result, workDir, copy);
    } finally {
      instance.closeSync();
    }
    checkAborted(options.signal);
    options.beforeCommit?.(copy);
    // DuckDB replays a log on whatever file it finds it beside (it does not check that they belong
    // together), so the old file's log must not outlive it: removed first. A kill between the two
    // steps leaves the old file without its last update's log, i.e. the store as before that
    // update (which a re-run applies again), never the new file with an old log.
    rmSync(wal, { force: true });
    renameSync(copy, target);
  } finally {
    store.close();
  }
}

/** Whether the update moves the store's replication position (then it writes even without new versions). */
function movesPosition(options: ApplyChangesOptions, metadata: StoreMetadata): boolean {
  const p = options.position;
  return p !== undefined && !(p.sequence === metadata.replicationSequenceNumber && metadata.replicationTimestamp !== undefined);
}

/** Another `maphist update` of the same database is running (its work directory is there): refuse, rather than lose one of the two. */
function refuseConcurrentUpdate(target: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(workDirRoot(target));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^update-(\d+)$/.exec(name)?.[1]);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && processRunning(pid)) {
      throw new MaphistError('DB_BUSY', `Another maphist update (process ${pid}) is applying changes to ${target}; wait for it to finish, then run again.`, {
        path: target,
        pid,
      });
    }
  }
}

/** The versions of the changes the store does not have, by element. */
async function findNewVersions(con: DuckDBConnection, byElement: Map<number, OsmVersion[]>): Promise<Map<number, OsmVersion[]>> {
  await elementTable(con, 'update_changed', byElement.keys());
  const stored = new Map<number, Set<number>>();
  for (const [t, i, v] of (
    await con.runAndReadAll(
      `SELECT s.type, s.id, s.version FROM states s SEMI JOIN update_changed w ON s.type = w.type AND s.id = w.id WHERE s.minor_version = 0`,
    )
  ).getRowsJS()) {
    const key = elementKey(Number(t), Number(i));
    let set = stored.get(key);
    if (!set) stored.set(key, (set = new Set()));
    set.add(Number(v));
  }
  await con.run('DROP TABLE update_changed');
  const out = new Map<number, OsmVersion[]>();
  for (const [key, list] of byElement) {
    const have = stored.get(key);
    const fresh = have ? list.filter((v) => !have.has(v.version)) : list;
    if (fresh.length > 0) out.set(key, fresh);
  }
  return out;
}

async function rebuild(
  con: DuckDBConnection,
  newVersions: Map<number, OsmVersion[]>,
  metadata: StoreMetadata,
  workDir: string,
  result: ApplyChangesResult,
  options: ApplyChangesOptions,
): Promise<void> {
  const { signal } = options;
  options.onPhase?.('rebuilding');
  const lastStored = Date.parse(metadata.lastTimestamp) / 1000;
  let earliestNew = Infinity;
  for (const list of newVersions.values()) for (const v of list) earliestNew = Math.min(earliestNew, v.timestamp);
  // A new version older than the store's newest data may fall inside an earlier (not current)
  // version of a parent: then every parent that ever referenced it is rebuilt.
  const everyVersion = !(earliestNew > lastStored);

  // The elements to rebuild: the changed ones, the current parents of changed nodes, and the
  // current parent relations of every way rebuilt.
  const changed = [...newVersions.keys()];
  const rebuildSet = new Set<number>(changed);
  const changedNodes = changed.filter((k) => keyType(k) === 0);
  if (changedNodes.length > 0) {
    await elementTable(con, 'update_members', changedNodes);
    for (const p of await parentsOf(con, 'update_members', everyVersion)) rebuildSet.add(p);
  }
  const ways = [...rebuildSet].filter((k) => keyType(k) === 1);
  if (ways.length > 0) {
    await elementTable(con, 'update_members', ways);
    for (const p of await parentsOf(con, 'update_members', everyVersion)) if (keyType(p) === 2) rebuildSet.add(p);
  }
  step('parents');
  checkAborted(signal);

  // What the builder needs: every version of the rebuilt relations, of their member ways and of
  // the rebuilt ways, and of every node those reference.
  const all = (stored: Map<number, OsmVersion[]>, key: number): OsmVersion[] => merge(stored.get(key), newVersions.get(key));
  const rebuildRelations = [...rebuildSet].filter((k) => keyType(k) === 2);
  await elementTable(con, 'update_read', rebuildRelations);
  const storedRelations = await readStoredVersions(con, 'update_read');
  step('relations read');
  const wayKeys = new Set<number>([...rebuildSet].filter((k) => keyType(k) === 1));
  const nodeKeys = new Set<number>(changedNodes);
  const relationFeed: OsmVersion[] = [];
  for (const key of rebuildRelations) {
    for (const v of all(storedRelations, key)) {
      relationFeed.push(v);
      for (const m of (v as RelationVersion).members) {
        if (m.type === 'way') wayKeys.add(elementKey(1, m.ref));
        else if (m.type === 'node') nodeKeys.add(elementKey(0, m.ref));
      }
    }
  }
  await elementTable(con, 'update_read', wayKeys);
  const storedWays = await readStoredVersions(con, 'update_read');
  const wayFeed: OsmVersion[] = [];
  for (const key of [...wayKeys].sort((a, b) => keyId(a) - keyId(b))) {
    for (const v of all(storedWays, key)) {
      wayFeed.push(v);
      for (const ref of (v as WayVersion).refs) nodeKeys.add(elementKey(0, ref));
    }
  }
  step('ways read');
  await elementTable(con, 'update_read', nodeKeys);
  const storedNodes = await readStoredVersions(con, 'update_read');
  // (A node the store lacks comes from the changes alone.)
  const nodeFeed: OsmVersion[] = [];
  for (const key of [...nodeKeys].sort((a, b) => keyId(a) - keyId(b))) nodeFeed.push(...all(storedNodes, key));
  step('nodes read');
  relationFeed.sort((a, b) => a.id - b.id || a.version - b.version);
  checkAborted(signal);

  // Only the states from the last one that began before the earliest new version on can differ
  // from the stored ones (a state depends on nothing later than its start, except its end and its
  // collapsed flag, which the next state gives): those rows are replaced, the older ones kept.
  const since = new Map<number, number>();
  await elementTable(con, 'update_rebuilt', rebuildSet);
  for (const [t, i, from] of (
    await con.runAndReadAll(
      `SELECT s.type, s.id, max(s.valid_from) FROM states s SEMI JOIN update_rebuilt r ON s.type = r.type AND s.id = r.id
       WHERE s.valid_from < ${Number.isFinite(earliestNew) ? earliestNew : 0} GROUP BY ALL`,
    )
  ).getRowsJS()) {
    since.set(elementKey(Number(t), Number(i)), Number(from));
  }
  step('kept states found');

  // Build every fed element's states; keep those of the rebuilt ones.
  const rows = await NewStateRows.create(con);
  const counts = result.rebuilt;
  try {
    await buildHistory(
      batchesOf([nodeFeed, wayFeed, relationFeed]),
      {
        write(states) {
          const first = states[0];
          if (first === undefined) return;
          const key = elementKey(first.type, first.id);
          if (!rebuildSet.has(key)) return;
          counts[(['node', 'way', 'relation'] as const)[first.type]]++;
          rows.write(states, since.get(key));
        },
      },
      workDir,
    );
  } finally {
    rows.close();
  }
  step('built');
  checkAborted(signal);

  options.onPhase?.('writing');
  // The rebuilt elements with the start of the rows they replace.
  await con.run('CREATE OR REPLACE TEMP TABLE update_since (type UTINYINT, id BIGINT, since BIGINT)');
  const app = await con.createAppender('update_since', 'main', 'temp');
  for (const key of rebuildSet) {
    app.appendUTinyInt(keyType(key));
    app.appendBigInt(BigInt(keyId(key)));
    app.appendBigInt(BigInt(since.get(key) ?? Number.MIN_SAFE_INTEGER));
    app.endRow();
  }
  app.closeSync();
  const replaced = 'FROM states s, update_since r WHERE s.type = r.type AND s.id = r.id AND s.valid_from >= r.since';
  await timed(con).run(`CREATE OR REPLACE TEMP TABLE update_removed AS SELECT s.tag_kv AS kv ${replaced}`);
  result.rowsRemoved = Number((await con.runAndReadAll('SELECT count(*) FROM update_removed')).getRowsJS()[0]![0]);
  await timed(con).run('DELETE FROM states USING update_since r WHERE states.type = r.type AND states.id = r.id AND states.valid_from >= r.since');
  step('deleted');
  await moveNewStates(con, 'update_removed');
  await updateElementExtents(con, rows);
  step('states moved');
  result.rowsAdded = rows.rows;
  // An element that got its first tag: every row of it is `ever_tagged` now, the kept ones too.
  if (rows.everTagged.length > 0) {
    await elementTable(
      con,
      'update_tagged',
      rows.everTagged.map((e) => elementKey(e.type, e.id)),
    );
    await timed(con).run(
      'UPDATE states SET ever_tagged = true FROM update_tagged t WHERE states.type = t.type AND states.id = t.id AND NOT states.ever_tagged',
    );
    await con.run('DROP TABLE update_tagged');
  }
  await recordTouched(con);
  await writeMembers(con, newVersions, storedWays, storedRelations);
  step('members written');
  await writeUsers(con, newVersions);
  await writeMeta(con, newVersions, result, rows.bbox);
  await timed(con).run('DROP TABLE update_removed');
  step('committed');
}

/**
 * The elements this update rebuilt, numbered by update (`meta.updates`, 1 for a store's first):
 * `touched_elements` is how a copy of the store elsewhere (a ClickHouse cluster:
 * src/engines/clickhouse/sync.ts) finds the elements whose rows to reload after updates.
 */
async function recordTouched(con: DuckDBConnection): Promise<void> {
  const [[previous]] = (await con.runAndReadAll(`SELECT coalesce(max(value::INTEGER), 0) FROM meta WHERE key = 'updates'`)).getRowsJS() as [[number]];
  const n = Number(previous) + 1;
  await con.run('CREATE TABLE IF NOT EXISTS touched_elements (type UTINYINT NOT NULL, id BIGINT NOT NULL, update_no INTEGER NOT NULL)');
  await con.run(`INSERT INTO touched_elements SELECT type, id, ${n} FROM update_since`);
  await con.run(`INSERT OR REPLACE INTO meta VALUES ('updates', '${n}')`);
}

/** Stored versions plus the new ones, in version order. */
function merge(stored: readonly OsmVersion[] | undefined, fresh: readonly OsmVersion[] | undefined): OsmVersion[] {
  if (!fresh) return stored ? [...stored] : [];
  if (!stored) return [...fresh];
  return [...stored, ...fresh].sort((a, b) => a.version - b.version);
}

async function* batchesOf(parts: OsmVersion[][]): AsyncGenerator<OsmVersion[]> {
  for (const part of parts) for (let i = 0; i < part.length; i += 8000) yield part.slice(i, i + 8000);
}

/**
 * The node lists and member lists of the new way and relation versions, and the back references
 * of the ways and relations whose current version changed (their newest version, when visible).
 */
async function writeMembers(
  con: DuckDBConnection,
  newVersions: Map<number, OsmVersion[]>,
  storedWays: Map<number, OsmVersion[]>,
  storedRelations: Map<number, OsmVersion[]>,
): Promise<void> {
  const wayNodes = await con.createAppender('way_nodes');
  const members = await con.createAppender('relation_members');
  const parents: [number, number, number, number, number][] = [];
  const changedParents: number[] = [];
  for (const [key, fresh] of newVersions) {
    const type = keyType(key);
    if (type === 0) continue;
    for (const v of fresh) {
      if (v.type === 'way') {
        v.refs.forEach((ref, pos) => {
          wayNodes.appendBigInt(BigInt(v.id));
          wayNodes.appendInteger(v.version);
          wayNodes.appendInteger(pos);
          wayNodes.appendBigInt(BigInt(ref));
          wayNodes.endRow();
        });
      } else if (v.type === 'relation') {
        v.members.forEach((m, pos) => {
          members.appendBigInt(BigInt(v.id));
          members.appendInteger(v.version);
          members.appendInteger(pos);
          members.appendUTinyInt(OSM_TYPE_CODE[m.type]);
          members.appendBigInt(BigInt(m.ref));
          members.appendVarchar(m.role);
          members.endRow();
        });
      }
    }
    changedParents.push(key);
    const current = merge((type === 1 ? storedWays : storedRelations).get(key), fresh).at(-1)!;
    if (!current.visible) continue;
    const seen = new Set<number>();
    const refs: [number, number][] =
      current.type === 'way' ? current.refs.map((r) => [0, r]) : (current as RelationVersion).members.map((m) => [OSM_TYPE_CODE[m.type], m.ref]);
    for (const [mt, mi] of refs) {
      const k = elementKey(mt, mi);
      if (seen.has(k)) continue;
      seen.add(k);
      parents.push([mt, mi, type, current.id, current.version]);
    }
  }
  wayNodes.closeSync();
  members.closeSync();
  if (changedParents.length === 0) return;
  await elementTable(con, 'update_parents', changedParents);
  await con.run('DELETE FROM current_parents USING update_parents p WHERE current_parents.parent_type = p.type AND current_parents.parent_id = p.id');
  await con.run('DROP TABLE update_parents');
  parents.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
  const app = await con.createAppender('current_parents');
  for (const [mt, mi, pt, pi, pv] of parents) {
    app.appendUTinyInt(mt);
    app.appendBigInt(BigInt(mi));
    app.appendUTinyInt(pt);
    app.appendBigInt(BigInt(pi));
    app.appendInteger(pv);
    app.endRow();
  }
  app.closeSync();
}

/** The last name seen for each user of the new versions (in type, id, version order, as the import). */
async function writeUsers(con: DuckDBConnection, newVersions: Map<number, OsmVersion[]>): Promise<void> {
  const users = new Map<number, string>();
  const keys = [...newVersions.keys()].sort((a, b) => keyType(a) - keyType(b) || keyId(a) - keyId(b));
  for (const key of keys) for (const v of newVersions.get(key)!) if (v.uid >= 0 && v.user !== '') users.set(v.uid, v.user);
  if (users.size === 0) return;
  await con.run('CREATE OR REPLACE TEMP TABLE update_users (id INTEGER, name VARCHAR)');
  const app = await con.createAppender('update_users', 'main', 'temp');
  for (const [id, name] of users) {
    app.appendInteger(id);
    app.appendVarchar(name);
    app.endRow();
  }
  app.closeSync();
  await con.run('INSERT OR REPLACE INTO users SELECT id, name FROM update_users');
  await con.run('DROP TABLE update_users');
}

/**
 * `meta`: the replication position (sequence and state timestamp), and `lastTimestamp` moved up to
 * the state's timestamp: the data is complete up to it, so `latest` and the metadata's end follow.
 */
async function writePosition(con: DuckDBConnection, position: { sequence: number; timestamp: number }): Promise<void> {
  const meta = await readMetadata(con);
  const last = Math.max(Date.parse(meta.lastTimestamp) / 1000, position.timestamp);
  const entries: [string, unknown][] = [
    ['replicationSequenceNumber', position.sequence],
    ['replicationTimestamp', iso(position.timestamp)],
    ['lastTimestamp', iso(last)],
  ];
  for (const [key, value] of entries) {
    await con.run(`INSERT OR REPLACE INTO meta VALUES ('${key}', '${JSON.stringify(value).replace(/'/g, "''")}')`);
  }
}

/** `meta`: time range, extent, version and row counts (the import's meaning, kept up to date). */
async function writeMeta(con: DuckDBConnection, newVersions: Map<number, OsmVersion[]>, result: ApplyChangesResult, bbox: readonly number[]): Promise<void> {
  const meta = await readMetadata(con);
  let first = Date.parse(meta.firstTimestamp) / 1000;
  let last = Date.parse(meta.lastTimestamp) / 1000;
  const versions = { ...meta.versions };
  for (const list of newVersions.values()) {
    for (const v of list) {
      versions[v.type]++;
      if (!(v.timestamp >= first)) first = v.timestamp;
      if (!(v.timestamp <= last)) last = v.timestamp;
    }
  }
  const had = meta.rows > 0 && !(meta.dataBbox[0] === 0 && meta.dataBbox[1] === 0 && meta.dataBbox[2] === 0 && meta.dataBbox[3] === 0);
  let b = meta.dataBbox;
  if (bbox[0]! <= bbox[2]!) {
    b = had
      ? [Math.min(b[0], bbox[0]!), Math.min(b[1], bbox[1]!), Math.max(b[2], bbox[2]!), Math.max(b[3], bbox[3]!)]
      : [bbox[0]!, bbox[1]!, bbox[2]!, bbox[3]!];
  }
  const changes: Partial<StoreMetadata> = {
    firstTimestamp: iso(first),
    lastTimestamp: iso(last),
    versions,
    rows: meta.rows - result.rowsRemoved + result.rowsAdded,
    dataBbox: b,
    spatialExtent: extentOf(b),
  };
  for (const [key, value] of Object.entries(changes)) {
    await con.run(`UPDATE meta SET value = '${JSON.stringify(value).replace(/'/g, "''")}' WHERE key = '${key}'`);
  }
}
