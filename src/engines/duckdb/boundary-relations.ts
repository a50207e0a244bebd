/**
 * The polygons of relations at a time, for boundaries given by relation id (issue 22;
 * src/query/boundary-relations.ts): each relation's state at that time with the geometry the import
 * built (WKB, decoded here), and which of the ids the store has at all.
 */
import { decodeWkb } from '../../geometry/wkb.js';
import type { BoundaryRelationSource, RelationAtTime } from '../../query/boundary-relations.js';
import type { Store } from '../../store/open-store.js';
import { readAllRows } from './statements.js';

const RELATION = 2;

export function createBoundaryRelationSource(store: Store): BoundaryRelationSource {
  return {
    async relationsAt(ids, at, signal) {
      const out = new Map<number, RelationAtTime>();
      const distinct = [...new Set(ids)];
      if (distinct.length === 0) return out;
      for (const id of distinct) if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a relation id: ${id}`);
      if (!Number.isSafeInteger(at)) throw new RangeError(`not a time: ${at}`);
      const list = distinct.join(', ');
      // One row per relation the store has: the state at `at`, if any (max_by over the one matching row).
      const rows = await readAllRows(
        store,
        `SELECT id,
                bool_or(valid_from <= ${at} AND valid_to > ${at}) AS alive,
                max_by(version, valid_from) FILTER (WHERE valid_from <= ${at} AND valid_to > ${at}) AS version,
                bool_or(deleted) FILTER (WHERE valid_from <= ${at} AND valid_to > ${at}) AS deleted,
                max_by(geometry_type, valid_from) FILTER (WHERE valid_from <= ${at} AND valid_to > ${at}) AS geometry_type,
                max_by(geometry, valid_from) FILTER (WHERE valid_from <= ${at} AND valid_to > ${at}) AS geometry,
                max_by(geometry_valid, valid_from) FILTER (WHERE valid_from <= ${at} AND valid_to > ${at}) AS geometry_valid
         FROM states WHERE type = ${RELATION} AND id IN (${list}) GROUP BY id`,
        signal,
      );
      for (const id of distinct) out.set(id, { kind: 'unknown' });
      for (const [id, alive, version, deleted, geometryType, geometry, geometryValid] of rows) {
        if (!alive || deleted) {
          out.set(Number(id), { kind: 'absent' });
          continue;
        }
        const wkb = geometry instanceof Uint8Array && Number(geometryType) !== 0 ? geometry : undefined;
        out.set(Number(id), { kind: 'state', version: Number(version), geometry: wkb ? decodeWkb(wkb) : undefined, geometryValid: geometryValid === true });
      }
      return out;
    },
  };
}
