import type { PbfWriter } from 'pbf';
import type { OsmVersion } from '../../core/osm.js';
import { INFO } from './osm-pbf-fields.js';
import type { StringTable } from './string-table.js';

/**
 * PBF has no "unknown user": anonymous edits carry uid 0 (and an empty user name), so the
 * model's -1 ("the file has none") is written as 0.
 */
export function pbfUid(uid: number): number {
  return uid < 0 ? 0 : uid;
}

interface InfoFields {
  version: OsmVersion;
  userSid: number;
}

const scratch: InfoFields = { version: undefined as unknown as OsmVersion, userSid: 0 };

/** Writes the Info message (metadata of a way or relation, visible included) as field `tag`. */
export function writeInfoField(pbf: PbfWriter, tag: number, version: OsmVersion, strings: StringTable): void {
  scratch.version = version;
  scratch.userSid = strings.indexOf(version.user);
  pbf.writeMessage(tag, writeInfoBody, scratch);
}

function writeInfoBody(fields: InfoFields, pbf: PbfWriter): void {
  const v = fields.version;
  pbf.writeVarintField(INFO.version, v.version);
  pbf.writeVarintField(INFO.timestamp, v.timestamp);
  pbf.writeVarintField(INFO.changeset, v.changeset);
  pbf.writeVarintField(INFO.uid, pbfUid(v.uid));
  pbf.writeVarintField(INFO.userSid, fields.userSid);
  pbf.writeBooleanField(INFO.visible, v.visible);
}
