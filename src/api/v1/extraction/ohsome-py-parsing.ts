/**
 * Test support: what the Python client ohsome-py (GIScience/ohsome-py, `ohsome/response.py`,
 * `OhsomeResponse._as_geodataframe`) does with an extraction answer, written again in TypeScript
 * so that `npm test` fails when an answer would break it. Step by step, as the client does it:
 *
 * 1. `response.json()`; a document without `features` is not an extraction.
 * 2. With the default `explode_tags=()`: every property whose key starts with `@` (or is
 *    `timestamp`) stays a column, every other property (a tag) moves into the dict `@other_tags`.
 * 3. `GeoDataFrame.from_features`: each feature needs `geometry` (a GeoJSON geometry or null,
 *    read by shapely's `shape`) and `properties`.
 * 4. The time columns `@validFrom`, `@validTo`, `@snapshotTimestamp`, `@timestamp` are parsed with
 *    `pd.to_datetime(col.str.replace("Z", ""), format="ISO8601")`: one unparsable value fails the call.
 * 5. `multi_index=True` (the default): the index is `["@osmId"] + time columns` intersected with the
 *    columns; users then select features with `df.loc["way/123"]`, which needs `@osmId`.
 */

export const TIME_COLUMNS = ['@validFrom', '@validTo', '@snapshotTimestamp', '@timestamp'] as const;

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

export interface GeoDataFrame {
  /** The index columns, in the client's order (`@osmId` first). */
  index: string[];
  /** One row per feature: `geometry`, the `@…` columns and `@other_tags`. */
  rows: Record<string, unknown>[];
}

/** Where the client would raise, with the client's reason. */
export class ClientParseError extends Error {}

/** pandas' ISO 8601 parse of a value whose `Z` was removed: date, optional `T` time, no zone. */
function parseIsoWithoutZone(value: unknown, column: string): number {
  if (value === undefined || value === null) return NaN; // a missing value becomes NaT
  if (typeof value !== 'string') throw new ClientParseError(`${column}: ${JSON.stringify(value)} is not a string (.str accessor fails)`);
  const s = value.replace(/Z/g, '');
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?)?$/.exec(s);
  if (!m) throw new ClientParseError(`${column}: "${value}" does not parse as ISO 8601`);
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
}

function checkGeometry(g: unknown): void {
  if (g === null) return;
  const geometry = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (typeof geometry !== 'object' || !GEOMETRY_TYPES.has(String(geometry.type)))
    throw new ClientParseError(`shapely cannot read geometry ${JSON.stringify(g)?.slice(0, 80)}`);
  if (geometry.type === 'GeometryCollection') {
    if (!Array.isArray(geometry.geometries)) throw new ClientParseError('GeometryCollection without geometries');
    for (const part of geometry.geometries) checkGeometry(part);
  } else if (!Array.isArray(geometry.coordinates)) {
    throw new ClientParseError(`${String(geometry.type)} without coordinates`);
  }
}

/** The client's `as_dataframe()` of an extraction answer's text. */
export function asGeoDataFrame(text: string): GeoDataFrame {
  let doc: { features?: unknown };
  try {
    doc = JSON.parse(text) as { features?: unknown };
  } catch {
    throw new ClientParseError('response.json() fails');
  }
  if (!Array.isArray(doc.features)) throw new ClientParseError('no "features": not an extraction answer');
  const rows: Record<string, unknown>[] = [];
  for (const feature of doc.features as { geometry?: unknown; properties?: Record<string, unknown> }[]) {
    if (feature === null || typeof feature !== 'object' || !('geometry' in feature) || typeof feature.properties !== 'object' || feature.properties === null) {
      throw new ClientParseError('This result type cannot be converted to a GeoPandas GeoDataFrame object.');
    }
    checkGeometry(feature.geometry);
    const row: Record<string, unknown> = { geometry: feature.geometry };
    const otherTags: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(feature.properties)) {
      if (k.startsWith('@') || k === 'timestamp') row[k] = v;
      else otherTags[k] = v;
    }
    row['@other_tags'] = otherTags;
    rows.push(row);
  }
  const columns = new Set(rows.flatMap((r) => Object.keys(r)));
  for (const column of TIME_COLUMNS) {
    if (columns.has(column)) for (const r of rows) r[column] = parseIsoWithoutZone(r[column], column);
  }
  const index = ['@osmId', ...TIME_COLUMNS].filter((c) => columns.has(c));
  return { index, rows };
}

/** `df.loc[osmId]`: the rows of one element, as a user's script selects them. */
export function locate(frame: GeoDataFrame, osmId: string): Record<string, unknown>[] {
  if (frame.index[0] !== '@osmId') throw new ClientParseError(`KeyError: '${osmId}' (the index has no @osmId level: ${frame.index.join(', ') || 'none'})`);
  return frame.rows.filter((r) => r['@osmId'] === osmId);
}
