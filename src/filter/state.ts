/**
 * What the JavaScript predicate looks at: one state of one element (a row of the contributions
 * table, in JavaScript form). The importer and the boundary path of the query engine build these.
 */
import type { FlatTags, OsmType } from '../core/osm.js';

/** WKB geometry type names (src/store/schema.ts GEOMETRY_TYPE_CODE without `None`). */
export type FilterGeometryType = 'Point' | 'LineString' | 'Polygon' | 'MultiPoint' | 'MultiLineString' | 'MultiPolygon' | 'GeometryCollection';

export interface FilterableState {
  type: OsmType;
  id: number;
  changeset: number;
  /**
   * Tags as a flat list `[k1, v1, k2, v2, …]` (core/osm.ts FlatTags): what the readers deliver,
   * and for the handful of tags an element has, a linear scan beats building a Map per state.
   */
  tags: FlatTags;
  /** The previous state's tags (`[]` for the first state); needed only for the `before` tag modes. */
  tagsBefore?: FlatTags;
  /** `null` when the state has no geometry (schema code 0). */
  geometryType: FilterGeometryType | null;
  /** Precomputed measures of the unclipped geometry (docs in src/store/schema.ts); `null` = unknown, never matches. */
  area: number | null;
  length: number | null;
  perimeter: number | null;
  vertices: number | null;
  outers: number | null;
  inners: number | null;
  roundness: number | null;
  squareness: number | null;
}

/** Which tags a compiled filter tests (version 2 filters contributions on current OR previous tags). */
export type TagSource = 'current' | 'before' | 'currentOrBefore';
