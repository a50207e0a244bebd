/**
 * Boundaries by relation id (issue 22; v1 `bpolys=relation/<id>`, src/api/v1/params/README.md): the
 * polygon of a boundary or multipolygon relation as the store built it, at one time. The contract
 * between the APIs and the engines; DuckDB's is src/engines/duckdb/boundary-relations.ts.
 */
import type { Geometry } from '../geometry/types.js';

/** What the store holds of one relation at one time. */
export type RelationAtTime =
  /** The relation is not in the store at all (no version of it). */
  | { kind: 'unknown' }
  /** The store has the relation, but it did not exist at that time (created later, or deleted). */
  | { kind: 'absent' }
  /** The relation's state at that time: its version, the geometry the import built (undefined: none) and whether it is valid. */
  | { kind: 'state'; version: number; geometry: Geometry | undefined; geometryValid: boolean };

export interface BoundaryRelationSource {
  /** The state of each relation at `at` (epoch seconds): `valid_from <= at < valid_to`, the snapshot rule of docs/store.md. */
  relationsAt(ids: readonly number[], at: number, signal?: AbortSignal): Promise<Map<number, RelationAtTime>>;
}
