/** Fixtures for the parameter tests (not used by production code). */
import assert from 'node:assert/strict';
import { ERROR_CATALOG, MaphistError, type ErrorCode } from '../../../core/errors.js';
import type { StoreMetadata } from '../../../store/metadata.js';

/** A world-extent store holding 2007-10-08 … 2023-03-10T15:00:00Z. */
export const WORLD_METADATA: StoreMetadata = {
  schemaVersion: 1,
  sourceFile: 'test.osh.pbf',
  importTime: '2024-01-01T00:00:00Z',
  firstTimestamp: '2007-10-08T00:00:00Z',
  lastTimestamp: '2023-03-10T15:00:00Z',
  spatialExtent: {
    type: 'Polygon',
    coordinates: [
      [
        [-180, -90],
        [180, -90],
        [180, 90],
        [-180, 90],
        [-180, -90],
      ],
    ],
  },
  dataBbox: [-180, -90, 180, 90],
  declaredBbox: null,
  replicationSequenceNumber: 0,
  generator: 'test',
  versions: { node: 0, way: 0, relation: 0 },
  rows: 0,
};

/** A Heidelberg-sized extent. */
export const HEIDELBERG_METADATA: StoreMetadata = {
  ...WORLD_METADATA,
  spatialExtent: {
    type: 'Polygon',
    coordinates: [
      [
        [8.5, 49.3],
        [8.9, 49.3],
        [8.9, 49.5],
        [8.5, 49.5],
        [8.5, 49.3],
      ],
    ],
  },
  dataBbox: [8.5, 49.3, 8.9, 49.5],
};

/** Asserts that `fn` throws a MaphistError with `code` and (if given) exactly `message` or a message matching it. */
export function throwsCode(fn: () => unknown, code: ErrorCode, message?: string | RegExp): MaphistError {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof MaphistError, `expected a MaphistError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  if (typeof message === 'string') assert.equal(error.message, message);
  else if (message !== undefined) assert.match(error.message, message);
  return error;
}

/** For property tests: nothing but catalog-coded MaphistErrors may escape. */
export function onlyCatalogErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof MaphistError) || !(e.code in ERROR_CATALOG)) throw e;
  }
}
