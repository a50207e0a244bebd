/**
 * The boundary of a request: exactly one of `bboxes`, `bcircles`, `bpolys` (docs/reference/v1-reference-behaviour.md §1.4; an empty
 * value counts as absent). Ids must be unique (the reference crashed on duplicates in users and
 * contributions groupBy/boundary).
 */
import { MaphistError } from '../../../core/errors.js';
import type { AreaOfInterest } from '../../../query/model.js';
import { parseBboxes } from './bboxes.js';
import { parseBcircles } from './bcircles.js';
import { countJsonPositions } from '../../common/limits.js';
import { parseBpolys } from './bpolys.js';
import { javaSplitCount } from './java-text.js';
import { admit } from './limit-check.js';
import { MSG } from './messages.js';
import { namesRelations, parseRelationRefs, type RelationRef } from './relation-refs.js';

export type BoundaryType = 'bboxes' | 'bcircles' | 'bpolys';

export interface ParsedBoundary {
  type: BoundaryType;
  /** One per boundary object, in input order. */
  areas: AreaOfInterest[];
  /** The ids as responses print them (numbers for numeric GeoJSON ids), parallel to `areas`. */
  outputIds: (string | number)[];
  /**
   * bpolys naming relations (`relation/<id>`): the relations, in input order; `areas` and
   * `outputIds` are then empty until the polygons are read from the store (../relation-boundaries.ts).
   */
  relations?: RelationRef[];
}

export function parseBoundary(params: { bboxes?: string; bcircles?: string; bpolys?: string }): ParsedBoundary {
  const given = (['bboxes', 'bcircles', 'bpolys'] as const).filter((k) => (params[k] ?? '') !== '');
  if (given.length === 0) throw new MaphistError('BOUNDARY_INVALID', MSG.NO_BOUNDARY);
  if (given.length > 1) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_MULTIPLE);
  const type = given[0]!;
  const value = params[type]!;
  if (type === 'bpolys' && namesRelations(value)) {
    const relations = parseRelationRefs(value);
    assertUniqueIds(relations.map((r) => ({ id: r.id })));
    return { type, areas: [], outputIds: [], relations };
  }
  admitBoundary(type, value);
  let parsed: ParsedBoundary;
  if (type === 'bpolys') {
    parsed = { type, ...parseBpolys(value) };
  } else {
    const areas = type === 'bboxes' ? parseBboxes(value) : parseBcircles(value);
    parsed = { type, areas, outputIds: areas.map((a) => a.id) };
  }
  if (parsed.areas.length === 0) {
    throw new MaphistError('BOUNDARY_INVALID', `The ${type} parameter holds no boundary object, only separators; give at least one ${OBJECT_FORMAT[type]}.`);
  }
  assertUniqueIds(parsed.areas);
  return parsed;
}

const OBJECT_FORMAT: Record<BoundaryType, string> = {
  bboxes: 'box as minLon,minLat,maxLon,maxLat',
  bcircles: 'circle as lon,lat,radius',
  bpolys: 'polygon as lon,lat pairs ending with the first pair',
};

const FIELDS_PER_OBJECT: Record<'bboxes' | 'bcircles', number> = { bboxes: 4, bcircles: 3 };

/**
 * The boundary and vertex limits, counted in the text before it is split or parsed: boxes and
 * circles by their comma fields, text bpolys by their coordinate pairs, GeoJSON bpolys by their
 * positions (the features are counted once the JSON is read, before any polygon is built).
 */
function admitBoundary(type: BoundaryType, value: string): void {
  if (type === 'bpolys') {
    const vertices = /^\s*\{/.test(value) ? countJsonPositions(value) : Math.ceil(javaSplitCount(value, ',|') / 2);
    admit('vertices', vertices, 'vertices over all bpolys', 'Simplify the polygons, or split the area over several requests.');
    return;
  }
  const objects = Math.ceil(javaSplitCount(value, ',|') / FIELDS_PER_OBJECT[type]);
  admit('boundaries', objects, `boundaries in ${type}`, 'Split them over several requests.');
}

export function assertUniqueIds(areas: readonly Pick<AreaOfInterest, 'id'>[]): void {
  const seen = new Set<string>();
  for (const a of areas) {
    if (seen.has(a.id)) {
      throw new MaphistError(
        'BOUNDARY_INVALID',
        `The boundary ids must be unique, but '${a.id}' is given more than once. Give every boundary object its own id.`,
        { boundary: a.id },
      );
    }
    seen.add(a.id);
  }
}

/** With format=csv, ids end up in a `;`-separated header, so they must not contain `;` (docs/reference/v1-reference-behaviour.md §1.4). */
export function assertCsvSafeIds(areas: readonly Pick<AreaOfInterest, 'id'>[]): void {
  for (const a of areas) {
    if (a.id.includes(';')) throw new MaphistError('BOUNDARY_INVALID', MSG.CSV_ID_SEMICOLON, { boundary: a.id });
  }
}
