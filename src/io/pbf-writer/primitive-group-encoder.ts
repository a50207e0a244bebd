import type { OsmVersion } from '../../core/osm.js';
import type { StringTable } from './string-table.js';

/**
 * Collects the versions of one element type for one primitive block and encodes them as a
 * PrimitiveGroup. Strings go to the block's string table as versions are added.
 */
export interface PrimitiveGroupEncoder<V extends OsmVersion> {
  /** Versions added since the last clear(). */
  readonly count: number;
  /** Rough encoded size so far, to close blocks before they get too large. */
  readonly approximateBytes: number;
  add(version: V, strings: StringTable): void;
  /** The PrimitiveGroup message body; valid until the next add() or clear(). */
  encodeGroup(): Uint8Array;
  clear(): void;
}
