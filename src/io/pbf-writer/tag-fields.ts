import type { PbfWriter } from 'pbf';
import type { FlatTags } from '../../core/osm.js';
import { GrowableInt32Array } from './growable-int32-array.js';
import { writePackedVarints } from './packed-fields.js';
import type { StringTable } from './string-table.js';

const keys = new GrowableInt32Array(64);
const vals = new GrowableInt32Array(64);

/** Writes the `keys` and `vals` fields of a Way or Relation: string table indexes of its tags. */
export function writeTagFields(pbf: PbfWriter, keysTag: number, valsTag: number, tags: FlatTags, strings: StringTable): void {
  keys.clear();
  vals.clear();
  for (let i = 0; i + 1 < tags.length; i += 2) {
    keys.push(strings.indexOf(tags[i]!));
    vals.push(strings.indexOf(tags[i + 1]!));
  }
  writePackedVarints(pbf, keysTag, keys.values, keys.length);
  writePackedVarints(pbf, valsTag, vals.values, vals.length);
}
