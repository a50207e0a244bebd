/**
 * `format` (aggregation routes, docs/reference/v1-reference-behaviour.md §1.8): `json` (default), `csv` or `geojson`, case-insensitive.
 * `geojson` changes only the groupBy/boundary outputs; elsewhere it yields JSON, so the effective
 * format is returned.
 */
import { MaphistError } from '../../../core/errors.js';
import { MSG } from './messages.js';
import type { V1Route } from './route-parameters.js';

export type V1Format = 'json' | 'csv' | 'geojson';

export function parseFormat(value: string | undefined, route?: V1Route): V1Format {
  if (value === undefined || value === '') return 'json';
  const v = value.toLowerCase();
  if (v !== 'json' && v !== 'csv' && v !== 'geojson') throw new MaphistError('PARAM_INVALID', MSG.FORMAT, { parameter: 'format' });
  if (v === 'geojson' && route !== undefined && route.groupBy[0] !== 'boundary') return 'json';
  return v;
}
