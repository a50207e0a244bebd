import { PbfWriter } from 'pbf';
import { DATE_GRANULARITY_MS, GRANULARITY_NANODEGREES } from './block-limits.js';
import { PRIMITIVE_BLOCK } from './osm-pbf-fields.js';
import type { StringTable } from './string-table.js';

/** Encodes a PrimitiveBlock: the string table, one primitive group, and the block's scales. */
export function encodePrimitiveBlock(strings: StringTable, groupBody: Uint8Array): Uint8Array {
  const pbf = new PbfWriter(new Uint8Array(groupBody.length + strings.byteSize * 2 + 1024));
  pbf.writeMessage(PRIMITIVE_BLOCK.stringTable, writeStringTableBody, strings);
  pbf.writeBytesField(PRIMITIVE_BLOCK.primitiveGroup, groupBody);
  pbf.writeVarintField(PRIMITIVE_BLOCK.granularity, GRANULARITY_NANODEGREES);
  pbf.writeVarintField(PRIMITIVE_BLOCK.dateGranularity, DATE_GRANULARITY_MS);
  return pbf.finish();
}

function writeStringTableBody(strings: StringTable, pbf: PbfWriter): void {
  strings.writeTo(pbf);
}
