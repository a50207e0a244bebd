/**
 * Turns a columnar DecodedBlock into the record objects of core/osm.ts, checking the sort order
 * on the way. Runs on the main thread: the records are what the consumer gets, and objects built
 * here cost nothing to hand over (no structured clone).
 *
 * A block is handed out in several batches (see nextBatchEnd): at most 2000 versions and 16384
 * way refs / relation members each. Records of small batches die young: the consumer drops a
 * batch before the next is built, so V8's scavenger frees them almost for free, whereas the
 * records of a whole block (8000 versions, or one osmium relation block with 3.4 million members)
 * outlive the young generation and get copied into the old one. Measured on the 4-country file
 * decoded without workers: 0.76 s CPU for the whole read with one batch per block, 0.52 s with
 * these batches. Memory also stays bounded however big a block is.
 *
 * Strings are shared: every record of the block that has user "alice" points at the same string
 * from the block's string table.
 */

import type { NodeVersion, OsmType, OsmVersion, RelationMember, RelationVersion, WayVersion } from '../../core/osm.js';
import type { OrderCheck } from '../version-order.js';
import type { DecodedBlock } from './decoded-block.js';

const MEMBER_TYPE_NAME: readonly OsmType[] = ['node', 'way', 'relation'];

/** Way refs + relation members per batch, at most (a single bigger element gets a batch of its own). */
export const MAX_MEMBERS_PER_BATCH = 16384;
/** Versions per batch, at most. */
export const MAX_VERSIONS_PER_BATCH = 2000;

/** Where the batch starting at row `from` ends: after at most MAX_VERSIONS_PER_BATCH versions and MAX_MEMBERS_PER_BATCH refs/members. */
export function nextBatchEnd(block: DecodedBlock, from: number): number {
  const offsets = block.memberOffsets;
  const limit = offsets[from]! + MAX_MEMBERS_PER_BATCH;
  const stop = Math.min(block.count, from + MAX_VERSIONS_PER_BATCH);
  let to = from + 1;
  while (to < stop && offsets[to + 1]! <= limit) to++;
  return to;
}

export function materializeBlock(block: DecodedBlock, order: OrderCheck): OsmVersion[] {
  return materializeRows(block, 0, block.count, order);
}

/**
 * The members of the last relation version materialized, kept from batch to batch and block to
 * block by one reader: the next version of the same relation shares what did not change. A
 * history file holds every version of a relation, and most versions of a big relation (a country's
 * boundary, a route of thousands of members) change a few members or none: building a member
 * object per member per version was a third of the import's relation phase on the main thread,
 * and most of its garbage (4.7 M members for 11,047 versions in the four-country file).
 */
export class PreviousMembers {
  id = -1;
  members: RelationMember[] = [];
}

/**
 * Records for rows [from, to) of the block. With `previous`, a relation version's members are
 * those of the version before it (the same array) when none changed; otherwise the members equal
 * to the previous version's at the same place from the start or from the end (an insertion or a
 * removal in between) are the same objects. Records share member objects and arrays: their
 * consumers read them and never write.
 */
export function materializeRows(block: DecodedBlock, from: number, to: number, order: OrderCheck, previous?: PreviousMembers): OsmVersion[] {
  const { strings, types, ids, versions, timestamps, changesets, uids, userSids, visibles, lons, lats } = block;
  const { tagOffsets, tagSids, memberOffsets, memberRefs } = block;
  const records: OsmVersion[] = [];

  for (let i = from; i < to; i++) {
    const type = types[i]!;
    const id = ids[i]!;
    const version = versions[i]!;
    order.check(type, id, version);

    const tags: string[] = [];
    for (let t = tagOffsets[i]!, end = tagOffsets[i + 1]!; t < end; t++) tags.push(strings[tagSids[t]!]!);
    const userSid = userSids[i]!;
    const user = userSid >= 0 ? strings[userSid]! : '';

    if (type === 0) {
      const node: NodeVersion = {
        type: 'node',
        id,
        version,
        timestamp: timestamps[i]!,
        changeset: changesets[i]!,
        uid: uids[i]!,
        user,
        visible: visibles[i] === 1,
        tags,
        lon: lons[i]!,
        lat: lats[i]!,
      };
      records.push(node);
    } else if (type === 1) {
      const refs: number[] = [];
      for (let m = memberOffsets[i]!, end = memberOffsets[i + 1]!; m < end; m++) refs.push(memberRefs[m]!);
      const way: WayVersion = {
        type: 'way',
        id,
        version,
        timestamp: timestamps[i]!,
        changeset: changesets[i]!,
        uid: uids[i]!,
        user,
        visible: visibles[i] === 1,
        tags,
        refs,
      };
      records.push(way);
    } else {
      const start = memberOffsets[i]!;
      const end = memberOffsets[i + 1]!;
      const members = sharedMembers(block, start, end, previous !== undefined && previous.id === id ? previous.members : []);
      if (previous !== undefined) {
        previous.id = id;
        previous.members = members;
      }
      const relation: RelationVersion = {
        type: 'relation',
        id,
        version,
        timestamp: timestamps[i]!,
        changeset: changesets[i]!,
        uid: uids[i]!,
        user,
        visible: visibles[i] === 1,
        tags,
        members,
      };
      records.push(relation);
    }
  }
  return records;
}

/** Whether `p` is the member at index `m` of the block. */
function isMember(block: DecodedBlock, m: number, p: RelationMember): boolean {
  return p.ref === block.memberRefs[m] && p.type === MEMBER_TYPE_NAME[block.memberTypes[m]!] && p.role === block.strings[block.memberRoleSids[m]!];
}

/**
 * The members [start, end) of the block, sharing with `before` (the previous version's, or a new
 * empty array): the longest common prefix and then suffix are its objects, the rest new; all of
 * it is `before` itself when nothing changed.
 */
function sharedMembers(block: DecodedBlock, start: number, end: number, before: RelationMember[]): RelationMember[] {
  const count = end - start;
  let prefix = 0;
  const most = Math.min(count, before.length);
  while (prefix < most && isMember(block, start + prefix, before[prefix]!)) prefix++;
  if (prefix === count && count === before.length) return before;
  let suffix = 0;
  while (suffix < most - prefix && isMember(block, end - 1 - suffix, before[before.length - 1 - suffix]!)) suffix++;
  const members: RelationMember[] = before.slice(0, prefix);
  const { strings, memberTypes, memberRefs, memberRoleSids } = block;
  for (let m = start + prefix; m < end - suffix; m++) {
    members.push({ type: MEMBER_TYPE_NAME[memberTypes[m]!]!, ref: memberRefs[m]!, role: strings[memberRoleSids[m]!]! });
  }
  for (let k = suffix; k > 0; k--) members.push(before[before.length - k]!);
  return members;
}
