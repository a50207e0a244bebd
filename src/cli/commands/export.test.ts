/**
 * `maphist export --format parquet DIR` on the bundled sample: DuckDB reads the partitioned files
 * back (hive partitioning) and finds every row of the store's `contributions` view, column for
 * column; every file's footer (read by hyparquet, not DuckDB) holds a `geo` key that parses as
 * GeoParquet 1.1 naming columns the file has; the README names every column and the ODbL. A
 * non-empty DIR, a missing parent and another format are refused; SIGINT leaves nothing behind.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetSchema } from 'hyparquet';
import { importHistory } from '../../store/import-history.js';
import { EXPORT_COLUMNS } from '../../store/export-parquet.js';
import { REPO_ROOT } from '../../testing/test-data.js';

const MAIN = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
const maphist = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });

function parquetFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...parquetFiles(join(dir, e.name)));
    else if (e.name.endsWith('.parquet')) out.push(join(dir, e.name));
  }
  return out;
}

const sql = (text: string) => `'${text.replaceAll("'", "''")}'`;

describe('maphist export --format parquet (sample/andorra.osh.pbf)', () => {
  let work: string;
  let db: string;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'maphist-export-'));
    db = join(work, 'andorra.duckdb');
    await importHistory({ input: join(REPO_ROOT, 'sample', 'andorra.osh.pbf'), db });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('writes every row of contributions as GeoParquet partitioned by year and type, atomically', async () => {
    const out = join(work, 'export');
    const r = maphist('export', '--db', db, '--format', 'parquet', out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^exported .* \d+ rows in \d+ GeoParquet files/);
    assert.deepEqual(
      readdirSync(work).filter((n) => n.includes('maphist-export')),
      [],
      'no temporary directory is left',
    );

    const instance = await DuckDBInstance.create(':memory:');
    const con = await instance.connect();
    try {
      await con.run(`ATTACH ${sql(db)} AS store (READ_ONLY)`);
      // The WKB as written (DuckDB would otherwise read the `geo`-declared column as GEOMETRY).
      await con.run('SET enable_geoparquet_conversion = false');
      const files = `read_parquet(${sql(join(out, '**', '*.parquet'))}, hive_partitioning = true)`;
      const count = async (q: string) => Number((await con.runAndReadAll(q)).getRowsJS()[0]![0]);
      const storeRows = await count('SELECT count(*) FROM store.contributions');
      assert.ok(storeRows > 300_000);
      assert.equal(await count(`SELECT count(*) FROM ${files}`), storeRows);
      // Column for column (maps, blobs and NULLs included), as multisets, both ways.
      const columns = `type, year(valid_from) AS year, * EXCLUDE (type, xmin, ymin, xmax, ymax),
        CASE WHEN geometry IS NULL THEN NULL ELSE {'xmin': xmin, 'ymin': ymin, 'xmax': xmax, 'ymax': ymax} END AS bbox`;
      const exported = `SELECT type, year, * EXCLUDE (type, year) FROM ${files}`;
      const fromStore = `SELECT ${columns} FROM store.contributions`;
      assert.equal(await count(`SELECT count(*) FROM (${fromStore} EXCEPT ALL ${exported})`), 0, 'every store row is exported');
      assert.equal(await count(`SELECT count(*) FROM (${exported} EXCEPT ALL ${fromStore})`), 0, 'every exported row is a store row');
      // The partitions are what their names say.
      const partitions = (await con.runAndReadAll(`SELECT DISTINCT type, year FROM ${files} ORDER BY 1, 2`)).getRowsJS();
      const expected = (await con.runAndReadAll('SELECT DISTINCT type, year(valid_from) FROM store.contributions ORDER BY 1, 2')).getRowsJS();
      assert.deepEqual(partitions.map(String), expected.map(String));
      // With the conversion on (DuckDB's default), the `geo` key makes `geometry` a GEOMETRY column.
      await con.run('SET enable_geoparquet_conversion = true');
      const types = (await con.runAndReadAll(`DESCRIBE SELECT geometry FROM ${files}`)).getRowsJS();
      assert.match(String(types[0]![1]), /^GEOMETRY/);
    } finally {
      con.closeSync();
      instance.closeSync();
    }

    const files = parquetFiles(out);
    assert.ok(files.length >= 20, String(files.length));
    for (const file of files) {
      assert.match(file.slice(out.length), /^\/year=\d{4}\/type=(node|way|relation)\/contributions_\d+\.parquet$/);
      const bytes = readFileSync(file);
      const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      const kv = new Map((metadata.key_value_metadata ?? []).map((e) => [e.key, e.value]));
      const geo = JSON.parse(kv.get('geo') ?? 'null') as {
        version: string;
        primary_column: string;
        columns: Record<string, { encoding: string; geometry_types: string[]; covering: { bbox: Record<string, string[]> } }>;
      };
      assert.match(geo.version, /^1\.\d+\.\d+$/, file);
      assert.equal(geo.primary_column, 'geometry');
      assert.equal(geo.columns.geometry!.encoding, 'WKB');
      assert.deepEqual(geo.columns.geometry!.geometry_types, []);
      assert.deepEqual(geo.columns.geometry!.covering.bbox, { xmin: ['bbox', 'xmin'], ymin: ['bbox', 'ymin'], xmax: ['bbox', 'xmax'], ymax: ['bbox', 'ymax'] });
      assert.equal((JSON.parse(kv.get('maphist')!) as { kind: string }).kind, 'contributions');
      // The columns the metadata names exist with the types GeoParquet asks for.
      const schema = parquetSchema(metadata);
      const geometry = schema.children.find((c) => c.element.name === 'geometry')!;
      assert.equal(geometry.element.type, 'BYTE_ARRAY');
      const bbox = schema.children.find((c) => c.element.name === 'bbox')!;
      assert.deepEqual(
        bbox.children.map((c) => [c.element.name, c.element.type]),
        [
          ['xmin', 'DOUBLE'],
          ['ymin', 'DOUBLE'],
          ['xmax', 'DOUBLE'],
          ['ymax', 'DOUBLE'],
        ],
      );
      assert.ok(!schema.children.some((c) => c.element.name === 'type' || c.element.name === 'year'), 'partition columns are in the path only');
    }

    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    assert.match(readme, /© OpenStreetMap contributors, available under the Open Database License/);
    for (const [name] of EXPORT_COLUMNS) assert.ok(readme.includes(`| \`${name}\` |`), name);
  });

  it('refuses a directory that is not empty, a missing parent and another format, writing nothing', () => {
    const full = join(work, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'keep.txt'), 'mine');
    const r = maphist('export', '--db', db, '--format', 'parquet', full);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /exists and is not empty/);
    assert.deepEqual(readdirSync(full), ['keep.txt']);
    const missing = maphist('export', '--db', db, '--format', 'parquet', join(work, 'no', 'such', 'dir'));
    assert.equal(missing.status, 12, missing.stderr);
    assert.ok(!existsSync(join(work, 'no')));
    const csv = maphist('export', '--db', db, '--format', 'csv', join(work, 'csv'));
    assert.equal(csv.status, 2);
    assert.ok(!existsSync(join(work, 'csv')));
    assert.deepEqual(
      readdirSync(work).filter((n) => n.includes('maphist-export')),
      [],
    );
  });

  it('SIGINT removes what was written and leaves no DIR (exit by the signal)', async () => {
    const out = join(work, 'interrupted');
    const child = spawn(process.execPath, [MAIN, 'export', '--db', db, '--format', 'parquet', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
    const tmp = join(work, `.interrupted.maphist-export-${child.pid}`);
    const deadline = Date.now() + 60_000;
    // Once the copy has begun writing files into the temporary directory.
    while (!(existsSync(tmp) && parquetFiles(tmp).length > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.ok(existsSync(tmp), 'the export writes beside DIR');
    child.kill('SIGINT');
    const [code, signal] = await exited;
    assert.ok(signal === 'SIGINT' || code === 130, `${code} ${signal} ${stderr}`);
    assert.match(stderr, /maphist export: stopped by SIGINT; its temporary files are removed/);
    assert.ok(!existsSync(tmp), 'the temporary directory is removed');
    assert.ok(!existsSync(out), 'no output directory');
  });
});
