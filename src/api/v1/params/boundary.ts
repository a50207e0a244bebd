/**
 * The boundary of a request: exactly one of `bboxes`, `bcircles`, `bpolys` (docs/reference/v1-reference-behaviour.md §1.4; an empty
 * value counts as absent). Ids must be unique (the reference crashed on duplicates in users and
 * contributions groupBy/boundary).
 */
import { MaphistError } from '../../../core/errors.js';
import type { AreaOfInterest } from '../../../query/model.js';
import { parseBboxes } from './bboxes.js';
import { parseBcircles } from './bcircles.js';
import { parseBpolys } from './bpolys.js';
import { MSG } from './messages.js';

export type BoundaryType = 'bboxes' | 'bcircles' | 'bpolys';

export interface ParsedBoundary {
  type: BoundaryType;
  /** One per boundary object, in input order. */
  areas: AreaOfInterest[];
  /** The ids as responses print them (numbers for numeric GeoJSON ids), parallel to `areas`. */
  outputIds: (string | number)[];
}

export function parseBoundary(params: { bboxes?: string; bcircles?: string; bpolys?: string }): ParsedBoundary {
  const given = (['bboxes', 'bcircles', 'bpolys'] as const).filter((k) => (params[k] ?? '') !== '');
  if (given.length === 0) throw new MaphistError('BOUNDARY_INVALID', MSG.NO_BOUNDARY);
  if (given.length > 1) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_MULTIPLE);
  const type = given[0]!;
  const value = params[type]!;
  let parsed: ParsedBoundary;
  if (type === 'bpolys') {
    parsed = { type, ...parseBpolys(value) };
  } else {
    const areas = type === 'bboxes' ? parseBboxes(value) : parseBcircles(value);
    parsed = { type, areas, outputIds: areas.map((a) => a.id) };
  }
  assertUniqueIds(parsed.areas);
  return parsed;
}

export function assertUniqueIds(areas: readonly AreaOfInterest[]): void {
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
export function assertCsvSafeIds(areas: readonly AreaOfInterest[]): void {
  for (const a of areas) {
    if (a.id.includes(';')) throw new MaphistError('BOUNDARY_INVALID', MSG.CSV_ID_SEMICOLON, { boundary: a.id });
  }
}
