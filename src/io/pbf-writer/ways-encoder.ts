import type { PbfWriter } from 'pbf';
import type { WayVersion } from '../../core/osm.js';
import { writeInfoField } from './info-message.js';
import { PRIMITIVE_GROUP, WAY } from './osm-pbf-fields.js';
import { writePackedDeltaSVarints } from './packed-fields.js';
import { MessageGroupEncoder, type ElementToWrite } from './message-group-encoder.js';
import { writeTagFields } from './tag-fields.js';

/** Encodes ways as they come, one Way message each, into a PrimitiveGroup. */
export class WaysEncoder extends MessageGroupEncoder<WayVersion> {
  constructor() {
    super(PRIMITIVE_GROUP.ways, writeWayBody);
  }
}

function writeWayBody({ element: way, strings }: ElementToWrite<WayVersion>, pbf: PbfWriter): void {
  pbf.writeVarintField(WAY.id, way.id);
  writeTagFields(pbf, WAY.keys, WAY.vals, way.tags, strings);
  writeInfoField(pbf, WAY.info, way, strings);
  writePackedDeltaSVarints(pbf, WAY.refs, way.refs, way.refs.length);
}
