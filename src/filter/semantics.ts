/**
 * The meaning of `geometry:` per version, as one table both compilers read, so the JavaScript
 * predicate and the SQL cannot drift apart.
 *
 * Version 1 (OSHDB, docs/reference/history-engine-semantics.md §1.5): `point` = Puntal and a node, `line` = Lineal and a way,
 * `polygon` = Polygonal and a way or relation, `other` = a GeometryCollection (not puntal, lineal or
 * polygonal) of a way or relation. `not geometry:X` is the `or` of the other three (the reference's
 * negation), so a state matching none of the four (a one-node way, a relation that became a
 * MultiPoint) matches neither `geometry:point` nor `not geometry:point`.
 *
 * Version 2 (ohsome-filter-to-sql): by geometry type only: `point` = Point, `line` = LineString,
 * `polygon` = Polygon or MultiPolygon, `collection` = everything else with a geometry
 * (GeometryCollection, and the MultiPoint/MultiLineString shapes that version-2 data would hold as
 * collections). `not` is the plain complement.
 */
import type { OsmType } from '../core/osm.js';
import type { FilterVersion, GeometryShape, PatternMatch } from './ast.js';
import type { FilterGeometryType } from './state.js';

export interface GeometryRule {
  /** OSM types that can match; `null` = any. */
  osmTypes: readonly OsmType[] | null;
  geometryTypes: readonly FilterGeometryType[];
}

const V1: Record<'point' | 'line' | 'polygon' | 'other', GeometryRule> = {
  point: { osmTypes: ['node'], geometryTypes: ['Point', 'MultiPoint'] },
  line: { osmTypes: ['way'], geometryTypes: ['LineString', 'MultiLineString'] },
  polygon: { osmTypes: ['way', 'relation'], geometryTypes: ['Polygon', 'MultiPolygon'] },
  other: { osmTypes: ['way', 'relation'], geometryTypes: ['GeometryCollection'] },
};

const V2: Record<'point' | 'line' | 'polygon' | 'collection', GeometryRule> = {
  point: { osmTypes: null, geometryTypes: ['Point'] },
  line: { osmTypes: null, geometryTypes: ['LineString'] },
  polygon: { osmTypes: null, geometryTypes: ['Polygon', 'MultiPolygon'] },
  collection: { osmTypes: null, geometryTypes: ['GeometryCollection', 'MultiPoint', 'MultiLineString'] },
};

function canonical(shape: GeometryShape, version: FilterVersion): GeometryShape {
  if (version === 1) return shape === 'collection' ? 'other' : shape;
  return shape === 'other' ? 'collection' : shape;
}

/** What `geometry:<shape>` tests under `version`. */
export function geometryRule(shape: GeometryShape, version: FilterVersion): GeometryRule {
  const s = canonical(shape, version);
  return version === 1 ? V1[s as keyof typeof V1] : V2[s as keyof typeof V2];
}

/**
 * What `not geometry:<shape>` tests: a list of rules to `or` (version 1), or `null` for the plain
 * complement (version 2).
 */
export function negatedGeometryRules(shape: GeometryShape, version: FilterVersion): GeometryRule[] | null {
  if (version === 2) return null;
  const s = canonical(shape, 1);
  return (Object.keys(V1) as (keyof typeof V1)[]).filter((k) => k !== s).map((k) => V1[k]);
}

/** Geometry types whose outers/inners counts are meaningful (−1 elsewhere in the reference). */
export const POLYGONAL: readonly FilterGeometryType[] = ['Polygon', 'MultiPolygon'];

/**
 * The test behind `key ~ …` on one value (case-sensitive, like the reference's LIKE). Tag
 * dictionaries use it to answer `valueIdsMatching`, so SQL and the predicate agree.
 */
export function patternMatcher(match: PatternMatch, text: string): (value: string) => boolean {
  if (match === 'prefix') return (v) => v.startsWith(text);
  if (match === 'suffix') return (v) => v.endsWith(text);
  return (v) => v.includes(text);
}
