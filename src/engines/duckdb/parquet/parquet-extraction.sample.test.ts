/**
 * GeoParquet extraction on the bundled sample store (sample/andorra.osh.pbf): files written to
 * disk and read back with DuckDB's read_parquet and with hyparquet (an independent reader), the
 * rows compared with independent SQL over the store's `contributions` view.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { parseFilter } from '../../../filter/index.js';
import { decodeWkb, encodeWkb } from '../../../geometry/wkb.js';
import type { BBox } from '../../../geometry/types.js';
import { planArea } from '../../../query/area-plan.js';
import { epoch, importToTemp, type ImportedDb } from '../../../store/test-support.js';
import { createParquetExtraction, type MaphistParquetExtraction } from '../../../testing/geoparquet.js';
import { bboxArea, extractToFile, readParquetSql, readWithHyparquet } from './test-support.js';

const SAMPLE = join(process.cwd(), 'sample', 'andorra.osh.pbf');
const ALL = parseFilter('', { version: 2 });
/**
 * Version 2 sees only elements that carried a tag in some version; worked out here from the view's
 * tags (not from the store's ever_tagged column).
 */
const EVER_TAGGED = `(type, id) IN (SELECT type, id FROM contributions WHERE len(map_keys(tags)) > 0)`;
const T = epoch('2016-01-01T00:00:00Z');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('GeoParquet extraction on the sample store', () => {
  let db: ImportedDb;
  let x: MaphistParquetExtraction;
  let world: BBox;
  before(async () => {
    db = await importToTemp(SAMPLE);
    x = await createParquetExtraction(db.store);
    await db.query('SET enable_geoparquet_conversion = false');
    const b = db.store.metadata.dataBbox;
    world = [b[0] - 0.01, b[1] - 0.01, b[2] + 0.01, b[3] + 0.01];
  });
  after(() => db.dispose());

  it('features at an instant: the snapshot of the contributions view, geometries byte-equal to the store', async () => {
    const { path, stats } = await extractToFile(x, { kind: 'features', aoi: bboxArea(world), time: { at: T }, filter: ALL, clip: true });
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM contributions
      WHERE NOT deleted AND geometry_type IS NOT NULL AND geometry_type <> 'GeometryCollection' AND ${EVER_TAGGED}
        AND valid_from <= make_timestamp(${T}::BIGINT * 1000000) AND (valid_to IS NULL OR valid_to > make_timestamp(${T}::BIGINT * 1000000))`);
    assert.ok(n > 10_000, `sample snapshot has ${n} features`);
    assert.equal(stats.rows, n);
    const [cmp] = await db.query<Record<string, number>>(`SELECT count(*)::INTEGER AS rows,
        count(c.id)::INTEGER AS matched,
        count(*) FILTER (WHERE p.geom = c.geometry)::INTEGER AS same_geometry,
        count(*) FILTER (WHERE p.tags = c.tags AND p.geom_type = c.geometry_type AND p.edit_timestamp = c.valid_from
                           AND p.changeset_id = c.changeset AND p.user_id = c.user_id AND NOT p.clipped
                           AND p.bbox.xmin = c.xmin AND p.bbox.ymax = c.ymax)::INTEGER AS same_fields,
        count(DISTINCT p.osm_type || p.osm_id)::INTEGER AS elements
      FROM ${readParquetSql(path)} p LEFT JOIN contributions c
        ON c.type = p.osm_type AND c.id = p.osm_id AND c.version = p.version AND c.minor_version = p.minor_version`);
    assert.deepEqual(cmp, { rows: n, matched: n, same_geometry: n, same_fields: n, elements: n });
    const [users] = await db.query<{ missing: number }>(`SELECT count(*) FILTER (WHERE p.user_name IS DISTINCT FROM u.name)::INTEGER AS missing
      FROM ${readParquetSql(path)} p LEFT JOIN users u ON u.id = p.user_id`);
    assert.equal(users.missing, 0);
  });

  it('the independent reader (hyparquet) sees the same rows and valid GeoParquet metadata', async () => {
    const aoi: BBox = [1.5, 42.5, 1.55, 42.55];
    const { path, stats } = await extractToFile(x, {
      kind: 'features',
      aoi: bboxArea(aoi),
      time: { at: T },
      filter: parseFilter('building=*', { version: 2 }),
      clip: true,
    });
    const { rows, kv, columns } = await readWithHyparquet(path);
    assert.equal(rows.length, stats.rows);
    assert.ok(rows.length > 100, `${rows.length} buildings`);
    assert.deepEqual(columns, [
      'osm_type',
      'osm_id',
      'edit_timestamp',
      'valid_to_timestamp',
      'version',
      'minor_version',
      'edits',
      'user_id',
      'user_name',
      'changeset_id',
      'tags',
      'bbox',
      'geom_type',
      'geom',
      'clipped',
    ]);
    const geo = JSON.parse(kv.get('geo')!);
    assert.equal(geo.version, '1.1.0');
    assert.ok(columns.includes(geo.primary_column));
    const col = geo.columns[geo.primary_column];
    assert.equal(col.encoding, 'WKB');
    for (const path of Object.values(col.covering.bbox) as string[][]) {
      assert.equal(path[0], 'bbox');
      assert.ok(['xmin', 'ymin', 'xmax', 'ymax'].includes(path[1]));
    }
    const types = new Set(rows.map((r) => r.geom_type as string));
    assert.deepEqual([...types].sort(), col.geometry_types);
    // The file bbox is the extent of the rows' bboxes, inside the (clipping) area.
    const ext = [Infinity, Infinity, -Infinity, -Infinity];
    for (const r of rows) {
      const b = r.bbox as { xmin: number; ymin: number; xmax: number; ymax: number };
      ext[0] = Math.min(ext[0], b.xmin);
      ext[1] = Math.min(ext[1], b.ymin);
      ext[2] = Math.max(ext[2], b.xmax);
      ext[3] = Math.max(ext[3], b.ymax);
      assert.ok(b.xmin >= aoi[0] - 1e-12 && b.xmax <= aoi[2] + 1e-12 && b.ymin >= aoi[1] - 1e-12 && b.ymax <= aoi[3] + 1e-12);
      assert.ok((r.tags as Record<string, string>).building !== undefined);
    }
    assert.deepEqual(col.bbox, ext);
    // Same rows as DuckDB reads, in the same order; clipped geometries are the clip kernel's result of the store's.
    const duck = await db.query<{
      id: number;
      geom: string;
      clipped: boolean;
      store: string;
      ts: number;
    }>(`SELECT p.osm_id::DOUBLE AS id, lower(hex(p.geom)) AS geom, p.clipped,
        lower(hex(c.geometry)) AS store, epoch(p.edit_timestamp)::DOUBLE AS ts
      FROM read_parquet('${path}', file_row_number = true) p
      JOIN contributions c ON c.type = p.osm_type AND c.id = p.osm_id AND c.version = p.version AND c.minor_version = p.minor_version
      ORDER BY p.file_row_number`);
    assert.equal(duck.length, rows.length);
    const plan = planArea(bboxArea(aoi));
    let clipped = 0;
    duck.forEach((d, i) => {
      const h = rows[i];
      assert.equal(Number(h.osm_id), d.id);
      assert.equal(hex(h.geom as Uint8Array), d.geom);
      assert.equal((h.edit_timestamp as Date).getTime() / 1000, d.ts);
      assert.equal(h.clipped, d.clipped);
      if (d.clipped) {
        clipped++;
        assert.equal(d.geom, hex(encodeWkb(plan.clip(decodeWkb(Buffer.from(d.store, 'hex')))!)));
      } else assert.equal(d.geom, d.store);
    });
    assert.ok(clipped > 0, 'some buildings cross the area border');
  });

  it('an empty result is a valid file with valid JSON metadata (no bbox, no Infinity)', async () => {
    const { path, stats } = await extractToFile(x, { kind: 'features', aoi: bboxArea([10, 10, 10.1, 10.1]), time: { at: T }, filter: ALL, clip: true });
    assert.equal(stats.rows, 0);
    const { rows, kv } = await readWithHyparquet(path);
    assert.equal(rows.length, 0);
    const geo = JSON.parse(kv.get('geo')!);
    assert.deepEqual(geo.columns.geom.geometry_types, []);
    assert.equal(geo.columns.geom.bbox, undefined);
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${readParquetSql(path)}`);
    assert.equal(n, 0);
  });

  it('features over a range: every state overlapping [start, end)', async () => {
    const start = epoch('2014-01-01T00:00:00Z');
    const end = epoch('2015-01-01T00:00:00Z');
    const { path, stats } = await extractToFile(x, {
      kind: 'features',
      aoi: bboxArea(world),
      time: { start, end },
      filter: parseFilter('highway=*', { version: 2 }),
      clip: true,
    });
    const ts = (t: number) => `make_timestamp(${t}::BIGINT * 1000000)`;
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM contributions
      WHERE NOT deleted AND geometry_type IS NOT NULL AND geometry_type <> 'GeometryCollection' AND tags['highway'] IS NOT NULL
        AND valid_from < ${ts(end)} AND (valid_to IS NULL OR valid_to > ${ts(start)})`);
    assert.equal(stats.rows, n);
    const [{ m }] = await db.query<{ m: number }>(`SELECT count(*)::INTEGER AS m FROM ${readParquetSql(path)} WHERE tags['highway'] IS NOT NULL`);
    assert.equal(m, n);
  });

  it('contributions: the kept states of the range, with types from the change flags, deletions with their previous tags', async () => {
    const start = epoch('2015-01-01T00:00:00Z');
    const end = epoch('2016-01-01T00:00:00Z');
    const { path, stats } = await extractToFile(x, { kind: 'contributions', aoi: bboxArea(world), time: { start, end }, filter: ALL });
    const ts = (t: number) => `make_timestamp(${t}::BIGINT * 1000000)`;
    const expected = await db.query<{ t: string; n: number }>(`SELECT CASE WHEN is_deletion THEN 'DELETION' WHEN is_creation THEN 'CREATION'
        WHEN tag_change AND geometry_change THEN 'TAG_GEOMETRY' WHEN tag_change THEN 'TAG' WHEN geometry_change THEN 'GEOMETRY' ELSE '' END AS t,
        count(*)::INTEGER AS n
      FROM contributions WHERE NOT collapsed AND xmin IS NOT NULL AND valid_from >= ${ts(start)} AND valid_from < ${ts(end)} AND ${EVER_TAGGED}
        AND (type <> 'relation' OR coalesce(tags['type'], '') IN ('multipolygon', 'boundary') OR coalesce(tags_before['type'], '') IN ('multipolygon', 'boundary'))
      GROUP BY 1 ORDER BY 1`);
    const got = await db.query<{ t: string; n: number }>(
      `SELECT contribution_type AS t, count(*)::INTEGER AS n FROM ${readParquetSql(path)} GROUP BY 1 ORDER BY 1`,
    );
    assert.deepEqual(got, expected);
    assert.equal(
      stats.rows,
      expected.reduce((s, e) => s + e.n, 0),
    );
    assert.ok(expected.find((e) => e.t === 'DELETION')!.n > 0);
    const [bad] = await db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${readParquetSql(path)}
      WHERE (contribution_type = 'DELETION') <> (tags = tags_before) AND contribution_type IN ('DELETION', 'CREATION')
        AND cardinality(tags_before) > 0 AND contribution_type = 'DELETION'`);
    assert.equal(bad.n, 0, 'deletions carry their previous tags');
    const [empty] = await db.query<{ n: number }>(`SELECT count(*) FILTER (WHERE cardinality(changeset_tags) <> 0)::INTEGER AS n FROM ${readParquetSql(path)}`);
    assert.equal(empty.n, 0);
  });

  it('collections and their members: non-area relations at the instant, members from relation_members', async () => {
    const aoi = bboxArea(world);
    const members = await extractToFile(x, { kind: 'collections_members', aoi, time: { at: T }, filter: ALL, memberFilter: null, clip: true });
    const collections = await extractToFile(x, { kind: 'collections', aoi, time: { at: T }, filter: ALL, memberFilter: null, clip: true });
    const at = `make_timestamp(${T}::BIGINT * 1000000)`;
    const live = (a: string) => `${a}.valid_from <= ${at} AND (${a}.valid_to IS NULL OR ${a}.valid_to > ${at}) AND NOT ${a}.deleted`;
    const [{ n, r }] = await db.query<{ n: number; r: number }>(`SELECT count(*)::INTEGER AS n, count(DISTINCT rel.id)::INTEGER AS r
      FROM contributions rel JOIN relation_members m ON m.relation_id = rel.id AND m.version = rel.version
      JOIN contributions mem ON mem.type = ['node', 'way', 'relation'][m.member_type + 1] AND mem.id = m.member_id
      WHERE rel.type = 'relation' AND ${live('rel')} AND rel.geometry_type = 'GeometryCollection'
        AND coalesce(rel.tags['type'], '') NOT IN ('multipolygon', 'boundary')
        AND ${live('mem')} AND mem.geometry_type IS NOT NULL AND mem.geometry_type <> 'GeometryCollection'`);
    assert.ok(n > 100, `${n} members`);
    assert.equal(members.stats.rows, n);
    const [{ rels, unclipped }] = await db.query<{ rels: number; unclipped: number }>(`SELECT count(DISTINCT collection_osm_id)::INTEGER AS rels,
        count(*) FILTER (WHERE NOT clipped)::INTEGER AS unclipped FROM ${readParquetSql(members.path)}`);
    assert.equal(rels, r);
    assert.equal(unclipped, n);
    const c = await db.query<{ id: number; types: string[] }>(`SELECT osm_id::DOUBLE AS id, list(geom_type ORDER BY geom_type) AS types
      FROM ${readParquetSql(collections.path)} GROUP BY 1`);
    assert.equal(c.length, r);
    for (const row of c) for (const t of row.types) assert.ok(['MultiPoint', 'MultiLineString', 'MultiPolygon'].includes(t), t);
    // member_filter: only the ways.
    const ways = await extractToFile(x, {
      kind: 'collections_members',
      aoi,
      time: { at: T },
      filter: ALL,
      memberFilter: parseFilter('type:way', { version: 2 }),
      clip: true,
    });
    const [{ w }] = await db.query<{ w: number }>(`SELECT count(*) FILTER (WHERE osm_type = 'way')::INTEGER AS w FROM ${readParquetSql(members.path)}`);
    assert.equal(ways.stats.rows, w);
  });

  it('streams: the first row group reaches the output long before the query ends; aborting rejects with the reason', async () => {
    const start = epoch('2005-01-01T00:00:00Z');
    const end = epoch('2030-01-01T00:00:00Z');
    const request = { kind: 'features' as const, aoi: bboxArea(world), time: { start, end }, filter: ALL, clip: true };
    const controller = new AbortController();
    const reason = new Error('client went away');
    let bytes = 0;
    let writes = 0;
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        writes++;
        // The engine's writer sends the magic alone first (copy-writer.ts: early, before the COPY);
        // the next chunk is the first row group: abort while the query still has rows to give.
        if (writes === 1 && chunk.length === 4 && chunk.toString('latin1') === 'PAR1') return cb();
        bytes += chunk.length;
        controller.abort(reason);
        cb();
      },
    });
    await assert.rejects(x.writeWithStats(request, out, controller.signal), (e) => e === reason);
    assert.equal(writes, 2, 'the magic, then the first row group; nothing after the abort');
    assert.ok(bytes > 1000);
    const [{ n }] = await db.query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM contributions WHERE NOT deleted AND geometry_type IS NOT NULL AND geometry_type <> 'GeometryCollection' AND ${EVER_TAGGED}`,
    );
    assert.ok(n > 5 * 10_000, `the whole history has ${n} rows, many row groups`);
    // Without the abort the same request writes every row.
    const full = await extractToFile(x, request);
    assert.equal(full.stats.rows, n);
    assert.ok(full.stats.rowGroups >= 5);
  });

  it('respects backpressure: a slow output never has more than one row group queued', async () => {
    const start = epoch('2005-01-01T00:00:00Z');
    const end = epoch('2030-01-01T00:00:00Z');
    let maxQueued = 0;
    let maxChunk = 0;
    let chunks = 0;
    const out = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, cb) {
        chunks++;
        maxChunk = Math.max(maxChunk, chunk.length);
        // Slower than encoding a row group: without backpressure, row groups would pile up here.
        setTimeout(cb, 250);
      },
    });
    const write = out.write.bind(out);
    out.write = ((chunk: Buffer, ...rest: unknown[]) => {
      const ok = (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      maxQueued = Math.max(maxQueued, out.writableLength);
      return ok;
    }) as typeof out.write;
    const stats = await x.writeWithStats({ kind: 'features', aoi: bboxArea(world), time: { start, end }, filter: ALL, clip: true }, out);
    assert.ok(chunks >= stats.rowGroups);
    // (plus the 4 bytes of the magic, which the engine's writer sends alone first)
    assert.ok(maxQueued <= maxChunk + 4, `queued ${maxQueued} bytes, largest chunk ${maxChunk}`);
  });

  it("a polygon area (not a rectangle): every kind runs; clipped geometries lie in the polygon's bbox", async () => {
    const aoi = {
      id: 'triangle',
      geometry: {
        type: 'Polygon' as const,
        coordinates: [
          [
            [1.45, 42.45],
            [1.65, 42.45],
            [1.55, 42.6],
            [1.45, 42.45],
          ] as [number, number][],
        ],
      },
      bbox: [1.45, 42.45, 1.65, 42.6] as BBox,
    };
    const features = await extractToFile(x, { kind: 'features', aoi, time: { at: T }, filter: ALL, clip: true });
    const unclipped = await extractToFile(x, { kind: 'features', aoi, time: { at: T }, filter: ALL, clip: false });
    assert.equal(features.stats.rows, unclipped.stats.rows, 'clipping changes geometries, not membership');
    const [f] = await db.query<{
      n: number;
      clipped: number;
      outside: number;
    }>(`SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE clipped)::INTEGER AS clipped,
        count(*) FILTER (WHERE bbox.xmin < 1.45 - 1e-9 OR bbox.xmax > 1.65 + 1e-9 OR bbox.ymin < 42.45 - 1e-9 OR bbox.ymax > 42.6 + 1e-9)::INTEGER AS outside
      FROM ${readParquetSql(features.path)}`);
    assert.ok(f.n > 1000 && f.clipped > 0, JSON.stringify(f));
    assert.equal(f.outside, 0);
    const [u] = await db.query<{ clipped: number }>(`SELECT count(*) FILTER (WHERE clipped)::INTEGER AS clipped FROM ${readParquetSql(unclipped.path)}`);
    assert.equal(u.clipped, 0);
    for (const kind of ['collections', 'collections_members'] as const) {
      const c = await extractToFile(x, { kind, aoi, time: { at: T }, filter: ALL, memberFilter: null, clip: true });
      assert.ok(c.stats.rows > 0, kind);
    }
    const c = await extractToFile(x, { kind: 'contributions', aoi, time: { start: epoch('2015-01-01T00:00:00Z'), end: T }, filter: ALL });
    assert.ok(c.stats.rows > 0);
  });
});
