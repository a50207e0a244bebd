/**
 * `maphist export --format parquet DIR` (issue 22; docs/export.md): the `contributions` view of a
 * store as GeoParquet 1.1, partitioned Hive-style by year (of `valid_from`) and element type
 * (`DIR/year=2016/type=way/data_0.parquet`), written by DuckDB's own `COPY … (FORMAT parquet,
 * PARTITION_BY …)` with the `geo` key in every file's footer (`KV_METADATA`), and a README.md naming
 * the columns and the data's licence. Atomic: written into `.<DIR>.maphist-export-<pid>` beside DIR
 * and renamed to DIR at the end; removed on failure and on SIGINT/SIGTERM (work-dir.ts).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MaphistError } from '../core/errors.js';
import { openStore } from './open-store.js';
import { sqlString } from './sql-string.js';
import { processRunning, trackTemporaryDir } from './work-dir.js';
import { asWriteFailure } from './write-failure.js';

/** The GeoParquet primary column: the view's `geometry` (WKB). */
export const EXPORT_GEOMETRY_COLUMN = 'geometry';

/**
 * The `geo` metadata of every file: GeoParquet 1.1, WKB in `geometry`, the `bbox` struct as its
 * covering. `geometry_types` is empty ("not known", allowed by the specification): one value is
 * written into every file of the partitioned write. `crs` is omitted, which GeoParquet defines as
 * OGC:CRS84 (lon/lat), the store's coordinates. No file-level `bbox` (optional).
 */
export function exportGeoMetadata(): string {
  return JSON.stringify({
    version: '1.1.0',
    primary_column: EXPORT_GEOMETRY_COLUMN,
    columns: {
      [EXPORT_GEOMETRY_COLUMN]: {
        encoding: 'WKB',
        geometry_types: [],
        covering: { bbox: { xmin: ['bbox', 'xmin'], ymin: ['bbox', 'ymin'], xmax: ['bbox', 'xmax'], ymax: ['bbox', 'ymax'] } },
      },
    },
  });
}

export interface ExportOptions {
  db: string;
  /** The output directory: must not exist, or be empty. */
  dir: string;
}

export interface ExportResult {
  dir: string;
  rows: number;
  files: number;
  seconds: number;
}

function parquetFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...parquetFiles(path));
    else if (entry.name.endsWith('.parquet')) out.push(path);
  }
  return out;
}

/** The temporary directory of a run beside the output (its name ends in the pid, so stale ones are recognised). */
function temporaryDirOf(target: string, pid = process.pid): string {
  return join(dirname(target), `.${basename(target)}.maphist-export-${pid}`);
}

/** Removes what killed exports to the same output left beside it. */
function removeStaleExports(target: string): void {
  const prefix = `.${basename(target)}.maphist-export-`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processRunning(pid)) continue;
    rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
}

export async function exportParquet(o: ExportOptions): Promise<ExportResult> {
  const started = performance.now();
  const target = resolve(o.dir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new MaphistError('CLI_USAGE', `${o.dir} exists and is not empty: give a new directory (the export creates it) or an empty one.`);
  }
  const store = await openStore(o.db);
  let removeTemporary: (() => void) | undefined;
  try {
    removeStaleExports(target);
    const tmp = temporaryDirOf(target);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp);
    const con = await store.connect();
    // On SIGINT or SIGTERM the COPY is interrupted before its directory goes (work-dir.ts, stopActiveWork).
    removeTemporary = trackTemporaryDir(tmp, () => con.interrupt());
    let rows: number;
    try {
      const m = store.metadata;
      const maphist = JSON.stringify({ kind: 'contributions', sourceFile: m.sourceFile, firstTimestamp: m.firstTimestamp, lastTimestamp: m.lastTimestamp });
      // The view's columns, its bbox columns folded into GeoParquet's covering struct (NULL without a
      // geometry), partitioned by year and type (Hive partition columns are not repeated in the files).
      await con.run(
        `COPY (
           SELECT year(valid_from) AS year, * EXCLUDE (xmin, ymin, xmax, ymax),
                  CASE WHEN geometry IS NULL THEN NULL ELSE {'xmin': xmin, 'ymin': ymin, 'xmax': xmax, 'ymax': ymax} END AS bbox
           FROM contributions
         ) TO ${sqlString(tmp)}
         (FORMAT parquet, PARTITION_BY (year, type), COMPRESSION zstd, FILENAME_PATTERN 'contributions_{i}',
          KV_METADATA {geo: ${sqlString(exportGeoMetadata())}, maphist: ${sqlString(maphist)}})`,
      );
      rows = Number((await con.runAndReadAll('SELECT count(*) FROM contributions')).getRowsJS()[0]![0]);
      const files = parquetFiles(tmp);
      // A check of what was written (footers only): every row of the view is in the files.
      const written =
        files.length === 0
          ? 0
          : Number(
              (
                await con.runAndReadAll(`SELECT count(*) FROM read_parquet(${sqlString(join(tmp, '**', '*.parquet'))}, hive_partitioning = true)`)
              ).getRowsJS()[0]![0],
            );
      if (written !== rows) throw new Error(`the export wrote ${written} rows of the store's ${rows}`);
    } finally {
      con.closeSync();
    }
    const files = parquetFiles(tmp).length;
    writeFileSync(join(tmp, 'README.md'), exportReadme(store.metadata, rows, files));
    // An empty directory is replaced by the rename (rename(2) allows it); any other is refused above.
    if (existsSync(target)) rmdirSync(target);
    renameSync(tmp, target);
    return { dir: target, rows, files, seconds: (performance.now() - started) / 1000 };
  } catch (e) {
    const failure = asWriteFailure(e, target);
    if (isWriteFailure(failure)) {
      throw new MaphistError('STORE_WRITE_FAILED', `Cannot write the export ${o.dir} (in ${dirname(target)}): ${failure.message}`, failure.details, {
        cause: e,
      });
    }
    throw failure;
  } finally {
    removeTemporary?.();
    store.close();
  }
}

function isWriteFailure(e: unknown): e is MaphistError {
  return e instanceof MaphistError && e.code === 'STORE_WRITE_FAILED';
}

/** The columns of the files, as README.md lists them. */
export const EXPORT_COLUMNS: [name: string, type: string, meaning: string][] = [
  ['type', 'VARCHAR (partition)', '`node`, `way` or `relation`: the directory `type=…`, not stored in the files'],
  ['year', 'BIGINT (partition)', 'year of `valid_from` (UTC): the directory `year=…`, not stored in the files'],
  ['id', 'BIGINT', 'element id'],
  ['version', 'INTEGER', "the element's own version in force"],
  ['minor_version', 'INTEGER', "0 for the version's own state, 1, 2, … for states a member's change made"],
  ['valid_from', 'TIMESTAMP (UTC)', 'start of the state (inclusive)'],
  ['valid_to', 'TIMESTAMP (UTC)', 'end of the state (exclusive); NULL while current'],
  ['deleted', 'BOOLEAN', 'the state is a deletion'],
  ['changeset', 'BIGINT', 'changeset of the edit that started the state'],
  ['user_id', 'INTEGER', 'user of that edit'],
  ['tags', 'MAP(VARCHAR, VARCHAR)', 'tags of the state (empty for deletions)'],
  ['tags_before', 'MAP(VARCHAR, VARCHAR)', 'tags of the previous contribution'],
  ['geometry_type', 'VARCHAR', '`Point`, `LineString`, `Polygon`, `MultiPolygon`, `GeometryCollection`, …; NULL without a geometry'],
  ['geometry', 'BLOB (WKB)', "the state's geometry, lon/lat (OGC:CRS84); a deletion keeps the last visible geometry. The GeoParquet primary column"],
  [
    'geometry_valid',
    'BOOLEAN',
    'false when the geometry had to be degraded (members missing from the data, an open ring, a multipolygon that could not be assembled)',
  ],
  ['area', 'DOUBLE', 'm², unclipped'],
  ['length', 'DOUBLE', 'm'],
  ['perimeter', 'DOUBLE', 'm'],
  ['vertices', 'INTEGER', 'number of coordinates'],
  ['outers', 'INTEGER', 'outer rings of polygonal parts'],
  ['inners', 'INTEGER', 'inner rings of polygonal parts'],
  ['roundness', 'DOUBLE', 'shape measure'],
  ['squareness', 'DOUBLE', 'shape measure (NULL above 2,000 segments)'],
  ['is_creation', 'BOOLEAN', 'the element (re)appears'],
  ['is_deletion', 'BOOLEAN', 'the element disappears'],
  ['tag_change', 'BOOLEAN', 'tags differ from the previous contribution'],
  ['geometry_change', 'BOOLEAN', 'geometry differs from the previous contribution'],
  ['collapsed', 'BOOLEAN', 'the next state of the element comes from the same changeset (contribution counts skip such states)'],
  ['ever_tagged', 'BOOLEAN', 'some version of the element carried a tag'],
  ['changeset_tags', 'MAP(VARCHAR, VARCHAR)', "tags of the state's changeset (empty without a changeset dump)"],
  ['bbox', 'STRUCT(xmin, ymin, xmax, ymax DOUBLE)', "bounding box of `geometry` (NULL without one): GeoParquet's covering column, for row-group skipping"],
];

export function exportReadme(m: { sourceFile: string; firstTimestamp: string; lastTimestamp: string }, rows: number, files: number): string {
  const table = EXPORT_COLUMNS.map(([name, type, meaning]) => `| \`${name}\` | ${type} | ${meaning} |`).join('\n');
  return `# maphist export: contributions

The full edit history of \`${m.sourceFile}\` (${m.firstTimestamp} to ${m.lastTimestamp}) as the
\`contributions\` view of a maphist store: one row per state of an element (a version, or a change of
one of its members), ${rows.toLocaleString('en-US')} rows in ${files.toLocaleString('en-US')} files.

**Data: © OpenStreetMap contributors, available under the Open Database License (ODbL 1.0),
<https://www.openstreetmap.org/copyright>.** Anything you publish from these files must carry that
attribution; a database derived from them is under the ODbL too.

## Layout

GeoParquet 1.1 files, partitioned Hive-style by year of \`valid_from\` and element type:
\`year=2016/type=way/contributions_0.parquet\`. Every file's footer holds the \`geo\` key (primary
column \`geometry\`, WKB, lon/lat: OGC:CRS84; \`bbox\` as its covering column) and a \`maphist\` key
(the source and its time range). Rows are in no particular order.

## Columns

| column | type | meaning |
|---|---|---|
${table}

The semantics (states, member-induced states, changeset collapsing, never-tagged elements) are those of
maphist's docs/store.md.

## Reading

- DuckDB: \`SELECT type, year, count(*) FROM read_parquet('DIR/**/*.parquet', hive_partitioning = true) GROUP BY ALL\`
- GeoPandas: \`geopandas.read_parquet('DIR')\` (pyarrow reads the partitions as a dataset)
- Spark: \`spark.read.parquet('DIR')\` (partition discovery gives \`year\` and \`type\`)
- QGIS / GDAL (3.8 and later, with the Parquet driver): open a file, or the directory as a dataset
`;
}
