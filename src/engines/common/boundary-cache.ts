/**
 * What the engines (v1 aggregation and v2 statistics, which share one) remember between requests
 * about the rows on an area's edge: the geometry runs of elements (rowid → run,
 * src/engines/duckdb/sql/stats.ts `geometryRunsSql`), the WKB of the run representatives fetched,
 * and per area their clips, measures and whether they meet it. A cache belongs to the engines of one store generation
 * (engines.ts; src/query/generations.ts), whose file does not change while it is open, so a rowid
 * names the same state for the cache's lifetime. The maps are least-recently-used and bounded by an
 * estimate of their bytes (src/core/byte-lru.ts): big relations crossing the aoi's edge (country borders, rivers) are the
 * same from one request to the next, and fetching their WKB from the geometry column is the
 * dominant cost of a statistics request over a country-sized area.
 */
import { ByteBoundedLru } from '../../core/byte-lru.js';
import type { ClipOutcome } from './boundary-clip-task.js';

export interface BoundaryCache {
  /** Element key `type/id` → (rowid → geometry run) of its kept states. */
  runs: ByteBoundedLru<string, Map<number, number>>;
  /** Rowid → WKB (null: the row has no geometry) of a run representative. */
  wkb: ByteBoundedLru<number, Uint8Array | null>;
  /**
   * `areaKey#rowid` → the outcome of clipping a run representative's geometry to an area
   * (boundary-clip-task.ts; `areaKey` from boundary-clipper.ts): a request that compares the
   * geometries on its area's edge (contribution types) clips every version of the borders and
   * rivers there, and the next request over the same area finds them clipped.
   */
  clips: ByteBoundedLru<string, ClipOutcome>;
  /**
   * The same key → the WKB of the geometry a contribution's geometry comparison sees on that side
   * (src/query/contributions.ts `comparedGeometry`; null when the clip is empty): working it out
   * decodes the clip and the whole geometry.
   */
  compared: ByteBoundedLru<string, Uint8Array | null>;
  /**
   * `areaKey#measure#rowid` → a boundary row's geometry measured clipped to that area (null: the
   * clip is empty or the row has no geometry; v1 snapshots, v2 statistics' run representatives).
   * The next request over the same area — another filter, time range or grouping, or the same
   * question with the answer cache off — reads and clips only the boundary rows it has not met:
   * elements/area over the benchmark's border polygon read 94 geometries and clipped them on every
   * request.
   */
  measures: ByteBoundedLru<string, number | null>;
  /**
   * `areaKey` → (rowid → whether its geometry's clip to the area is not empty) of the contribution
   * sides' run representatives: a vertex test of each large side, or a clip of a small one that no
   * vertex settles, took 4 ms of every contributions/count over the benchmark's box. One map per
   * area (a lookup per side in an LRU keyed by strings cost nearly as much); its size is counted
   * anew whenever a request takes it.
   */
  meets: ByteBoundedLru<string, Map<number, boolean>>;
}

/** Default budget: 16 MB of run maps, 96 MB of WKB, 64 MB of clip outcomes, 32 MB of compared geometries, 16 MB of measures and 8 MB of sides meeting areas. */
export function createBoundaryCache(
  runBytes = 16 * 2 ** 20,
  wkbBytes = 96 * 2 ** 20,
  clipBytes = 64 * 2 ** 20,
  comparedBytes = 32 * 2 ** 20,
  measureBytes = 16 * 2 ** 20,
  meetsBytes = 8 * 2 ** 20,
): BoundaryCache {
  return {
    measures: new ByteBoundedLru(measureBytes, () => 160),
    meets: new ByteBoundedLru(meetsBytes, (m) => 128 + m.size * 40),
    runs: new ByteBoundedLru(runBytes, (m) => 64 + m.size * 40),
    wkb: new ByteBoundedLru(wkbBytes, (w) => 64 + (w?.byteLength ?? 0)),
    clips: new ByteBoundedLru(clipBytes, (o) => 128 + (o instanceof Uint8Array ? o.byteLength : 0)),
    compared: new ByteBoundedLru(comparedBytes, (w) => 128 + (w?.byteLength ?? 0)),
  };
}
