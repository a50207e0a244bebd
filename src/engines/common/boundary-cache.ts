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
import type { Measure } from '../../query/model.js';
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
   * `areaKey#measure` → (rowid → the row's geometry measured clipped to that area; null: the clip
   * is empty or the row has no geometry), taken by `areaMeasures`. The next request over the same
   * area — another filter, time range or grouping, or the same question with the answer cache off —
   * reads and clips only the rows it has not met: elements/area over the benchmark's border polygon
   * read 94 geometries and clipped them on every request, and contributions/count spent 4 ms a
   * request learning again whether each side on the box's edge meets it (the `count` measure: 1
   * when it does). One map per area and measure: a lookup per row in an LRU keyed by strings cost
   * about what it saved.
   */
  measures: ByteBoundedLru<string, Map<number, number | null>>;
}

/** Default budget: 16 MB of run maps, 96 MB of WKB, 64 MB of clip outcomes, 32 MB of compared geometries and 24 MB of measures. */
export function createBoundaryCache(
  runBytes = 16 * 2 ** 20,
  wkbBytes = 96 * 2 ** 20,
  clipBytes = 64 * 2 ** 20,
  comparedBytes = 32 * 2 ** 20,
  measureBytes = 24 * 2 ** 20,
): BoundaryCache {
  return {
    measures: new ByteBoundedLru(measureBytes, (m) => 128 + m.size * 48),
    runs: new ByteBoundedLru(runBytes, (m) => 64 + m.size * 40),
    wkb: new ByteBoundedLru(wkbBytes, (w) => 64 + (w?.byteLength ?? 0)),
    clips: new ByteBoundedLru(clipBytes, (o) => 128 + (o instanceof Uint8Array ? o.byteLength : 0)),
    compared: new ByteBoundedLru(comparedBytes, (w) => 128 + (w?.byteLength ?? 0)),
  };
}

/**
 * The measures over an area (`areaKey`) the cache remembers, as a map the caller reads and fills
 * for its request. It is put back at once, so its size is counted as of now (the rows a request
 * adds are counted when the next one takes it); a map over the budget is used and forgotten.
 */
export function areaMeasures(cache: BoundaryCache, areaId: string, measure: Measure): Map<number, number | null> {
  const key = `${areaId}#${measure}`;
  const measured = cache.measures.get(key) ?? new Map<number, number | null>();
  cache.measures.set(key, measured);
  return measured;
}
