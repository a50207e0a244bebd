/**
 * Boundaries by relation id (issue 22): `bpolys=relation/123`, several separated by `|`, each with an
 * optional id (`vella:relation/2804753|relation/2804756`; without one, the id is `relation/<n>`).
 * Only the syntax is read here (no I/O); the polygons come from the store at the request's last
 * timestamp (../relation-boundaries.ts). A bpolys value is in this form when one of its objects
 * names a relation; then every object must.
 */
import { MaphistError } from '../../../core/errors.js';
import { javaSplit, javaSplitCount } from './java-text.js';
import { admit } from './limit-check.js';

export interface RelationRef {
  /** The boundary's id in the answer. */
  id: string;
  relationId: number;
}

const NAMES_A_RELATION = /^\s*(?:[^:]*:)?\s*relation\//i;
const RELATION_OBJECT = /^\s*(?:([^:]*):)?\s*relation\/(\d{1,15})\s*$/i;

/** True when a bpolys value names relations (at least one of its `|` objects is `[id:]relation/…`). */
export function namesRelations(bpolys: string): boolean {
  if (/^\s*\{/.test(bpolys)) return false;
  return javaSplit(bpolys, '|').some((part) => NAMES_A_RELATION.test(part));
}

export function parseRelationRefs(bpolys: string): RelationRef[] {
  admit('boundaries', javaSplitCount(bpolys, '|'), 'boundaries in bpolys', 'Split them over several requests.');
  return javaSplit(bpolys, '|').map((part) => {
    const m = RELATION_OBJECT.exec(part);
    if (m === null) {
      throw new MaphistError(
        'BOUNDARY_INVALID',
        `The bpolys parameter names relations, so every boundary object in it must be one, as relation/<id> or <name>:relation/<id> separated by '|'; '${part}' is not.`,
      );
    }
    const relationId = Number(m[2]);
    return { id: m[1] ?? `relation/${relationId}`, relationId };
  });
}
