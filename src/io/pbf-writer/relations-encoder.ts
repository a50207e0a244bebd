import type { PbfWriter } from 'pbf';
import type { RelationVersion } from '../../core/osm.js';
import { GrowableInt32Array } from './growable-int32-array.js';
import { writeInfoField } from './info-message.js';
import { MEMBER_TYPE, PRIMITIVE_GROUP, RELATION } from './osm-pbf-fields.js';
import { writePackedDeltaSVarints, writePackedVarints } from './packed-fields.js';
import { MessageGroupEncoder, type ElementToWrite } from './message-group-encoder.js';
import { writeTagFields } from './tag-fields.js';

/** Encodes relations as they come, one Relation message each, into a PrimitiveGroup. */
export class RelationsEncoder extends MessageGroupEncoder<RelationVersion> {
  constructor() {
    super(PRIMITIVE_GROUP.relations, writeRelationBody);
  }
}

const roleSids = new GrowableInt32Array(256);
const memberIds: number[] = [];
const memberTypes = new GrowableInt32Array(256);

function writeRelationBody({ element: relation, strings }: ElementToWrite<RelationVersion>, pbf: PbfWriter): void {
  pbf.writeVarintField(RELATION.id, relation.id);
  writeTagFields(pbf, RELATION.keys, RELATION.vals, relation.tags, strings);
  writeInfoField(pbf, RELATION.info, relation, strings);

  roleSids.clear();
  memberTypes.clear();
  memberIds.length = 0;
  // Long relations repeat one role member after member: look it up only when it changes.
  let role: string | undefined;
  let roleSid = 0;
  for (const member of relation.members) {
    if (member.role !== role) {
      role = member.role;
      roleSid = strings.indexOf(role);
    }
    roleSids.push(roleSid);
    memberIds.push(member.ref);
    memberTypes.push(MEMBER_TYPE[member.type]);
  }
  writePackedVarints(pbf, RELATION.rolesSid, roleSids.values, roleSids.length);
  writePackedDeltaSVarints(pbf, RELATION.memids, memberIds, memberIds.length);
  writePackedVarints(pbf, RELATION.types, memberTypes.values, memberTypes.length);
}
