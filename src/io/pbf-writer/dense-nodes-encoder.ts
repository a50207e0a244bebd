import { PbfWriter } from 'pbf';
import type { NodeVersion } from '../../core/osm.js';
import { MAX_ENTITIES_PER_BLOCK } from './block-limits.js';
import { GrowableInt32Array } from './growable-int32-array.js';
import { pbfUid } from './info-message.js';
import { DENSE_INFO, DENSE_NODES, PRIMITIVE_GROUP } from './osm-pbf-fields.js';
import { writePackedDeltaSVarints, writePackedVarints } from './packed-fields.js';
import type { PrimitiveGroupEncoder } from './primitive-group-encoder.js';
import type { StringTable } from './string-table.js';

/**
 * Collects nodes column by column and encodes them as one DenseNodes message with DenseInfo
 * (visible included). Coordinates are written as given: with granularity 100 the 1e-7 fixed-point
 * integers are the stored values, and deleted nodes keep whatever the input says (0/0).
 */
export class DenseNodesEncoder implements PrimitiveGroupEncoder<NodeVersion> {
  private readonly ids = new Float64Array(MAX_ENTITIES_PER_BLOCK);
  private readonly lats = new Float64Array(MAX_ENTITIES_PER_BLOCK);
  private readonly lons = new Float64Array(MAX_ENTITIES_PER_BLOCK);
  private readonly versions = new Int32Array(MAX_ENTITIES_PER_BLOCK);
  private readonly timestamps = new Float64Array(MAX_ENTITIES_PER_BLOCK);
  private readonly changesets = new Float64Array(MAX_ENTITIES_PER_BLOCK);
  private readonly uids = new Int32Array(MAX_ENTITIES_PER_BLOCK);
  private readonly userSids = new Int32Array(MAX_ENTITIES_PER_BLOCK);
  private readonly visibles = new Uint8Array(MAX_ENTITIES_PER_BLOCK);
  /** Per node: key index, value index, …, then a 0 delimiter. */
  private readonly keysVals = new GrowableInt32Array(4 * MAX_ENTITIES_PER_BLOCK);
  private anyTags = false;
  private readonly group = new PbfWriter(new Uint8Array(1 << 20));
  count = 0;

  get approximateBytes(): number {
    return this.count * 24 + this.keysVals.length * 2;
  }

  add(node: NodeVersion, strings: StringTable): void {
    if (this.count === MAX_ENTITIES_PER_BLOCK) {
      throw new Error(`DenseNodesEncoder holds at most ${MAX_ENTITIES_PER_BLOCK} nodes; encode and clear first`);
    }
    const i = this.count++;
    this.ids[i] = node.id;
    this.lats[i] = node.lat;
    this.lons[i] = node.lon;
    this.versions[i] = node.version;
    this.timestamps[i] = node.timestamp;
    this.changesets[i] = node.changeset;
    this.uids[i] = pbfUid(node.uid);
    this.userSids[i] = strings.indexOf(node.user);
    this.visibles[i] = node.visible ? 1 : 0;

    const tags = node.tags;
    if (tags.length > 1) this.anyTags = true;
    for (let t = 0; t + 1 < tags.length; t += 2) {
      this.keysVals.push(strings.indexOf(tags[t]!));
      this.keysVals.push(strings.indexOf(tags[t + 1]!));
    }
    this.keysVals.push(0);
  }

  encodeGroup(): Uint8Array {
    this.group.pos = 0;
    this.group.writeMessage(PRIMITIVE_GROUP.dense, writeDenseNodesBody, this);
    return this.group.buf.subarray(0, this.group.pos);
  }

  clear(): void {
    this.count = 0;
    this.keysVals.clear();
    this.anyTags = false;
  }

  /** @internal the DenseNodes message body. */
  writeDenseNodes(pbf: PbfWriter): void {
    const n = this.count;
    writePackedDeltaSVarints(pbf, DENSE_NODES.id, this.ids, n);
    pbf.writeMessage(DENSE_NODES.denseInfo, writeDenseInfoBody, this);
    writePackedDeltaSVarints(pbf, DENSE_NODES.lat, this.lats, n);
    writePackedDeltaSVarints(pbf, DENSE_NODES.lon, this.lons, n);
    // "If no node in the block has tags, keys_vals may be empty"; otherwise every node needs its 0.
    if (this.anyTags) writePackedVarints(pbf, DENSE_NODES.keysVals, this.keysVals.values, this.keysVals.length);
  }

  /** @internal the DenseInfo message body. */
  writeDenseInfo(pbf: PbfWriter): void {
    const n = this.count;
    writePackedVarints(pbf, DENSE_INFO.version, this.versions, n);
    writePackedDeltaSVarints(pbf, DENSE_INFO.timestamp, this.timestamps, n);
    writePackedDeltaSVarints(pbf, DENSE_INFO.changeset, this.changesets, n);
    writePackedDeltaSVarints(pbf, DENSE_INFO.uid, this.uids, n);
    writePackedDeltaSVarints(pbf, DENSE_INFO.userSid, this.userSids, n);
    writePackedVarints(pbf, DENSE_INFO.visible, this.visibles, n);
  }
}

function writeDenseNodesBody(encoder: DenseNodesEncoder, pbf: PbfWriter): void {
  encoder.writeDenseNodes(pbf);
}

function writeDenseInfoBody(encoder: DenseNodesEncoder, pbf: PbfWriter): void {
  encoder.writeDenseInfo(pbf);
}
