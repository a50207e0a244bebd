import { PbfWriter } from 'pbf';
import type { RelationVersion } from '../../core/osm.js';
import { GrowableInt32Array } from './growable-int32-array.js';
import { writeInfoField } from './info-message.js';
import { MEMBER_TYPE, PRIMITIVE_GROUP, RELATION } from './osm-pbf-fields.js';
import { writePackedDeltaSVarints, writePackedVarints } from './packed-fields.js';
import type { PrimitiveGroupEncoder } from './primitive-group-encoder.js';
import type { StringTable } from './string-table.js';
import { writeTagFields } from './tag-fields.js';

interface RelationToWrite {
  relation: RelationVersion;
  strings: StringTable;
}

/** Encodes relations as they come, one Relation message each, into a PrimitiveGroup. */
export class RelationsEncoder implements PrimitiveGroupEncoder<RelationVersion> {
  private readonly group = new PbfWriter(new Uint8Array(1 << 20));
  private readonly current: RelationToWrite = {
    relation: undefined as unknown as RelationVersion,
    strings: undefined as unknown as StringTable,
  };
  count = 0;

  get approximateBytes(): number {
    return this.group.pos;
  }

  add(relation: RelationVersion, strings: StringTable): void {
    this.current.relation = relation;
    this.current.strings = strings;
    this.group.writeMessage(PRIMITIVE_GROUP.relations, writeRelationBody, this.current);
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

const roleSids = new GrowableInt32Array(256);
const memberIds: number[] = [];
const memberTypes = new GrowableInt32Array(256);

function writeRelationBody({ relation, strings }: RelationToWrite, pbf: PbfWriter): void {
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
