/**
 * The states of ways and relations whose geometry is empty, from the rows of the statement that
 * lists them (src/engines/duckdb/empty-geometry.ts describes the statement and the history bbox;
 * ClickHouse's lists the same columns in the same order): each row becomes an
 * `EmptyGeometryState` (src/query/empty-placement.ts), whatever database read it.
 */
import type { FilterableState, FilterGeometryType } from '../../filter/index.js';
import type { EmptyGeometryState } from '../../query/empty-placement.js';

/** Store geometry type codes (src/core/geometry-type-code.ts) as the filter names them; 0: none. */
const GEOMETRY_NAMES: (FilterGeometryType | null)[] = [
  null,
  'Point',
  'LineString',
  'Polygon',
  'MultiPoint',
  'MultiLineString',
  'MultiPolygon',
  'GeometryCollection',
];
const OSM_TYPES = ['node', 'way', 'relation'] as const;

type Row = [
  number,
  number,
  number,
  number,
  boolean,
  number,
  number,
  number,
  number,
  number,
  string[],
  string[],
  string[],
  string[],
  number,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
];

export function emptyGeometryStatesOf(rows: unknown[][]): EmptyGeometryState[] {
  const flat = (k: string[], v: string[]) => k.flatMap((key, i) => [key, v[i]]);
  return (rows as Row[]).map(
    ([
      rowid,
      type,
      id,
      version,
      members,
      x0,
      y0,
      x1,
      y1,
      changeset,
      k,
      v,
      kb,
      vb,
      geometryType,
      area,
      length,
      perimeter,
      vertices,
      outers,
      inners,
      roundness,
      squareness,
    ]) => {
      const state: FilterableState = {
        type: OSM_TYPES[type],
        id,
        changeset,
        tags: flat(k, v),
        tagsBefore: flat(kb, vb),
        geometryType: GEOMETRY_NAMES[geometryType] ?? null,
        area,
        length,
        perimeter,
        vertices,
        outers,
        inners,
        roundness,
        squareness,
      };
      return { rowid, type, id, version, members, historyBBox: [x0, y0, x1, y1], state };
    },
  );
}
