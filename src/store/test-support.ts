/** Test helpers: import a file into a throw-away database and query it. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importHistory, type ImportResult } from './import-history.js';
import { openStore, type Store } from './open-store.js';

export { TEST_DATA } from '../testing/test-data.js';
import { TEST_DATA } from '../testing/test-data.js';

export interface ImportedDb {
  store: Store;
  result: ImportResult;
  query<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  dispose(): void;
}

export async function importToTemp(file: string): Promise<ImportedDb> {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-test-'));
  const db = join(dir, 'test.duckdb');
  const result = await importHistory({ input: file, db });
  const store = await openStore(db);
  const con = await store.connect();
  return {
    store,
    result,
    async query<T>(sql: string) {
      return (await con.runAndReadAll(sql)).getRowObjectsJS() as T[];
    },
    dispose() {
      con.closeSync();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Epoch seconds of an ISO timestamp. */
export function epoch(iso: string): number {
  return Date.parse(iso) / 1000;
}

/**
 * The counts of testdata/history/expected/*.snapshot-counts.jsonl as filter-language
 * expressions (osmium time-filter + tags-filter made them; the oracle tests compare against them).
 */
export const OSMIUM_COUNT_FILTERS: Readonly<Record<string, string>> = {
  nodes: 'type:node',
  ways: 'type:way',
  relations: 'type:relation',
  ways_building: 'type:way and building=*',
  nwr_building: 'building=*',
  ways_highway: 'type:way and highway=*',
  nodes_amenity: 'type:node and amenity=*',
  relations_type_multipolygon: 'type:relation and type=multipolygon',
};

/** One line of testdata/history/expected/<region>.snapshot-counts.jsonl: a timestamp and the osmium count per filter name. */
export type SnapshotCounts = Record<string, number | string> & { timestamp: string };

/** The osmium snapshot counts of a region, one entry per timestamp. */
export function readSnapshotCounts(region: string): SnapshotCounts[] {
  return readFileSync(join(TEST_DATA, 'history', 'expected', `${region}.snapshot-counts.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SnapshotCounts);
}

/**
 * One line of testdata/history/expected/<region>.ever-tagged-counts.jsonl (made with osmium alone
 * by make-ever-tagged-counts.sh beside it): the elements alive at the timestamp that carried a tag in
 * some version of their history, per type — what version 1 (nodes) and version 2 (all types) count.
 */
export interface EverTaggedCounts {
  timestamp: string;
  tagged_nodes: number;
  tagged_ways: number;
  tagged_relations: number;
}

export const EVER_TAGGED_SCRIPT = join(TEST_DATA, 'history', 'expected', 'make-ever-tagged-counts.sh');

export function everTaggedCountsPath(region: string): string {
  return join(TEST_DATA, 'history', 'expected', `${region}.ever-tagged-counts.jsonl`);
}

export function readEverTaggedCounts(region: string): EverTaggedCounts[] {
  return readFileSync(everTaggedCountsPath(region), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EverTaggedCounts);
}

/** Runs one query on the database at `db` (opened read-only and closed again). */
export async function queryStore<T>(db: string, sql: string): Promise<T[]> {
  const store = await openStore(db);
  try {
    const con = await store.connect();
    try {
      return (await con.runAndReadAll(sql)).getRowObjectsJS() as T[];
    } finally {
      con.closeSync();
    }
  } finally {
    store.close();
  }
}
