import { PbfWriter } from 'pbf';
import type { WayVersion } from '../../core/osm.js';
import { writeInfoField } from './info-message.js';
import { PRIMITIVE_GROUP, WAY } from './osm-pbf-fields.js';
import { writePackedDeltaSVarints } from './packed-fields.js';
import type { PrimitiveGroupEncoder } from './primitive-group-encoder.js';
import type { StringTable } from './string-table.js';
import { writeTagFields } from './tag-fields.js';

interface WayToWrite {
  way: WayVersion;
  strings: StringTable;
}

/** Encodes ways as they come, one Way message each, into a PrimitiveGroup. */
export class WaysEncoder implements PrimitiveGroupEncoder<WayVersion> {
  private readonly group = new PbfWriter(new Uint8Array(1 << 20));
  private readonly current: WayToWrite = { way: undefined as unknown as WayVersion, strings: undefined as unknown as StringTable };
  count = 0;

  get approximateBytes(): number {
    return this.group.pos;
  }

  add(way: WayVersion, strings: StringTable): void {
    this.current.way = way;
    this.current.strings = strings;
    this.group.writeMessage(PRIMITIVE_GROUP.ways, writeWayBody, this.current);
    this.count++;
  }

  encodeGroup(): Uint8Array {
    return this.group.buf.subarray(0, this.group.pos);
  }

  clear(): void {
    this.group.pos = 0;
    this.count = 0;
  }
}

function writeWayBody({ way, strings }: WayToWrite, pbf: PbfWriter): void {
  pbf.writeVarintField(WAY.id, way.id);
  writeTagFields(pbf, WAY.keys, WAY.vals, way.tags, strings);
  writeInfoField(pbf, WAY.info, way, strings);
  writePackedDeltaSVarints(pbf, WAY.refs, way.refs, way.refs.length);
}
