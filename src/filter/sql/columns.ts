/**
 * The slice of the store's physical layout (src/store/schema.ts) that filter SQL reads. It is
 * restated here because the filter layer may import only core/ (ARCHITECTURE.md, layers);
 * columns.test.ts fails if the two drift apart.
 */
import { GEOMETRY_TYPE_CODE } from '../../core/geometry-type-code.js';
import type { FilterGeometryType } from '../state.js';

/** Columns a compiled filter may reference. No other identifier ever appears in its SQL. */
export type FilterColumn =
  | 'type'
  | 'id'
  | 'changeset'
  | 'tag_kv'
  | 'key_mask'
  | 'tag_kv_before'
  | 'key_mask_before'
  | 'geometry_type'
  | 'area'
  | 'length'
  | 'perimeter'
  | 'vertices'
  | 'outers'
  | 'inners'
  | 'roundness'
  | 'squareness';

/** The store's geometry_type codes (0 = no geometry). */
export const GEOMETRY_CODE: Readonly<Record<FilterGeometryType, number>> = GEOMETRY_TYPE_CODE;

/** = schema.ts KEY_MASK_BITS: key ids below this have a bit in `key_mask`. */
export const KEY_MASK_BITS = 63;

const MAX_KEY_ID = 2 ** 31 - 1; // keeps keyId << 32 inside a signed BIGINT
const MAX_VALUE_ID = 2 ** 32 - 1;

/** = schema.ts packTag, with the ids checked (they come from a dictionary, not from users). */
export function packTag(keyId: number, valueId: number): bigint {
  if (!Number.isInteger(keyId) || keyId < 0 || keyId > MAX_KEY_ID) throw new RangeError(`invalid tag key id ${keyId}`);
  if (!Number.isInteger(valueId) || valueId < 0 || valueId > MAX_VALUE_ID) throw new RangeError(`invalid tag value id ${valueId}`);
  return (BigInt(keyId) << 32n) | BigInt(valueId);
}

/** The smallest and largest packed tag of a key: every `key=…` lies in between. */
export function packedKeyRange(keyId: number): [bigint, bigint] {
  return [packTag(keyId, 0), packTag(keyId, MAX_VALUE_ID)];
}
