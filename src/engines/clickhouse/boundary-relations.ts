/**
 * Boundaries by relation id (issue 22; src/query/boundary-relations.ts) from a ClickHouse store: each
 * relation's state at a time with the geometry the import built, as the DuckDB source
 * (src/engines/duckdb/boundary-relations.ts) reads it. `argMaxIf`/`maxIf` stand for DuckDB's
 * `max_by … FILTER`; an element's states are on one shard, so the GROUP BY merges nothing across shards.
 */
import { decodeWkb } from '../../geometry/wkb.js';
import type { BoundaryRelationSource, RelationAtTime } from '../../query/boundary-relations.js';
import type { ClickHouseStore } from './engine.js';
import { readChRecords } from './engine.js';
import { chStatement } from './sql/statement.js';

const RELATION = 2;

interface Row {
  id: number;
  alive: boolean;
  version: number;
  deleted: boolean;
  geometry_type: number;
  geometry: Uint8Array | null;
  geometry_valid: boolean;
}

export function createClickHouseBoundaryRelationSource(store: ClickHouseStore): BoundaryRelationSource {
  return {
    async relationsAt(ids, at, signal) {
      const out = new Map<number, RelationAtTime>();
      const distinct = [...new Set(ids)];
      if (distinct.length === 0) return out;
      for (const id of distinct) if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a relation id: ${id}`);
      if (!Number.isSafeInteger(at)) throw new RangeError(`not a time: ${at}`);
      const live = `valid_from <= ${at} AND valid_to > ${at}`;
      const st = chStatement<Row>(
        `SELECT toFloat64(id0) AS id, alive0 AS alive, toInt32(version0) AS version, deleted0 AS deleted, toInt32(geometry_type0) AS geometry_type,
       geometry0 AS geometry, geometry_valid0 AS geometry_valid
FROM (
  SELECT id AS id0, max(${live}) AS alive0, argMaxIf(version, valid_from, ${live}) AS version0, maxIf(deleted, ${live}) AS deleted0,
         argMaxIf(geometry_type, valid_from, ${live}) AS geometry_type0, argMaxIf(geometry, valid_from, ${live}) AS geometry0,
         argMaxIf(geometry_valid, valid_from, ${live}) AS geometry_valid0
  FROM ${store.tables.entry}
  WHERE type = ${RELATION} AND id IN (${distinct.join(', ')})
  GROUP BY id
)`,
        {
          id: 'Float64',
          alive: 'Bool',
          version: 'Int32',
          deleted: 'Bool',
          geometry_type: 'Int32',
          geometry: 'Nullable(Bytes)',
          geometry_valid: 'Bool',
        },
      );
      for (const id of distinct) out.set(id, { kind: 'unknown' });
      for (const r of await readChRecords(store, st, signal)) {
        if (!r.alive || r.deleted) {
          out.set(r.id, { kind: 'absent' });
          continue;
        }
        const wkb = r.geometry && r.geometry.length > 0 && r.geometry_type !== 0 ? r.geometry : undefined;
        out.set(r.id, { kind: 'state', version: r.version, geometry: wkb ? decodeWkb(wkb) : undefined, geometryValid: r.geometry_valid });
      }
      return out;
    },
  };
}
