/**
 * Test support: hand-built PBF files for the cases real extracts do not cover (other
 * granularities and offsets, plain Node messages, raw blobs, unknown blob types, unsupported
 * features and compressions, damaged blocks). Not used by the reader itself.
 */

import { deflateSync } from 'node:zlib';
import { PbfWriter } from 'pbf';

export interface TestInfo {
  version: number;
  timestamp: number;
  changeset: number;
  uid: number;
  userSid: number;
  visible?: boolean;
}

export interface TestDenseNode {
  id: number;
  lat: number;
  lon: number;
  tags?: [number, number][];
  info?: TestInfo;
}

export interface TestElement {
  id: number;
  keys?: number[];
  vals?: number[];
  info?: TestInfo;
}

export interface TestNode extends TestElement {
  lat?: number;
  lon?: number;
}

export interface TestWay extends TestElement {
  refs: number[];
}

export interface TestRelation extends TestElement {
  memids: number[];
  roles: number[];
  types: number[];
}

export interface TestGroup {
  dense?: TestDenseNode[];
  nodes?: TestNode[];
  ways?: TestWay[];
  relations?: TestRelation[];
}

export interface TestBlock {
  strings: string[];
  groups: TestGroup[];
  granularity?: number;
  dateGranularity?: number;
  latOffset?: number;
  lonOffset?: number;
}

export interface TestHeader {
  requiredFeatures?: string[];
  optionalFeatures?: string[];
  writingProgram?: string;
  source?: string;
  bbox?: { left: number; right: number; top: number; bottom: number };
  replicationTimestamp?: number;
  replicationSequenceNumber?: number;
  replicationBaseUrl?: string;
}

export function encodeHeaderBlock(h: TestHeader): Uint8Array {
  const pbf = new PbfWriter();
  if (h.bbox) {
    pbf.writeMessage(
      1,
      (b: NonNullable<TestHeader['bbox']>, w: PbfWriter) => {
        w.writeSVarintField(1, b.left);
        w.writeSVarintField(2, b.right);
        w.writeSVarintField(3, b.top);
        w.writeSVarintField(4, b.bottom);
      },
      h.bbox,
    );
  }
  for (const f of h.requiredFeatures ?? ['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation']) pbf.writeStringField(4, f);
  for (const f of h.optionalFeatures ?? []) pbf.writeStringField(5, f);
  if (h.writingProgram !== undefined) pbf.writeStringField(16, h.writingProgram);
  if (h.source !== undefined) pbf.writeStringField(17, h.source);
  if (h.replicationTimestamp !== undefined) pbf.writeVarintField(32, h.replicationTimestamp);
  if (h.replicationSequenceNumber !== undefined) pbf.writeVarintField(33, h.replicationSequenceNumber);
  if (h.replicationBaseUrl !== undefined) pbf.writeStringField(34, h.replicationBaseUrl);
  return pbf.finish();
}

function writeInfo(info: TestInfo, w: PbfWriter): void {
  w.writeVarintField(1, info.version);
  w.writeVarintField(2, info.timestamp);
  w.writeVarintField(3, info.changeset);
  w.writeVarintField(4, info.uid);
  w.writeVarintField(5, info.userSid);
  if (info.visible !== undefined) w.writeBooleanField(6, info.visible);
}

function writeElementCommon(e: TestElement, w: PbfWriter): void {
  if (e.keys) w.writePackedVarint(2, e.keys);
  if (e.vals) w.writePackedVarint(3, e.vals);
  if (e.info) w.writeMessage(4, writeInfo, e.info);
}

function deltas(values: number[]): number[] {
  return values.map((v, i) => v - (i === 0 ? 0 : values[i - 1]!));
}

function writeDense(nodes: TestDenseNode[], w: PbfWriter): void {
  w.writePackedSVarint(1, deltas(nodes.map((n) => n.id)));
  if (nodes.some((n) => n.info)) {
    const infos = nodes.map((n) => n.info!);
    w.writeMessage(
      5,
      (_: unknown, d: PbfWriter) => {
        d.writePackedVarint(
          1,
          infos.map((i) => i.version),
        );
        d.writePackedSVarint(2, deltas(infos.map((i) => i.timestamp)));
        d.writePackedSVarint(3, deltas(infos.map((i) => i.changeset)));
        d.writePackedSVarint(4, deltas(infos.map((i) => i.uid)));
        d.writePackedSVarint(5, deltas(infos.map((i) => i.userSid)));
        if (infos.some((i) => i.visible !== undefined))
          d.writePackedBoolean(
            6,
            infos.map((i) => i.visible !== false),
          );
      },
      null,
    );
  }
  w.writePackedSVarint(8, deltas(nodes.map((n) => n.lat)));
  w.writePackedSVarint(9, deltas(nodes.map((n) => n.lon)));
  if (nodes.some((n) => n.tags && n.tags.length > 0)) {
    w.writePackedVarint(
      10,
      nodes.flatMap((n) => [...(n.tags ?? []).flat(), 0]),
    );
  }
}

export function encodePrimitiveBlock(b: TestBlock): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(
    1,
    (strings: string[], w: PbfWriter) => {
      for (const s of strings) w.writeStringField(1, s);
    },
    b.strings,
  );
  for (const group of b.groups) {
    pbf.writeMessage(
      2,
      (g: TestGroup, w: PbfWriter) => {
        for (const n of g.nodes ?? []) {
          w.writeMessage(
            1,
            (node: TestNode, x: PbfWriter) => {
              x.writeSVarintField(1, node.id);
              writeElementCommon(node, x);
              if (node.lat !== undefined) x.writeSVarintField(8, node.lat);
              if (node.lon !== undefined) x.writeSVarintField(9, node.lon);
            },
            n,
          );
        }
        if (g.dense) w.writeMessage(2, writeDense, g.dense);
        for (const way of g.ways ?? []) {
          w.writeMessage(
            3,
            (e: TestWay, x: PbfWriter) => {
              x.writeVarintField(1, e.id);
              writeElementCommon(e, x);
              x.writePackedSVarint(8, deltas(e.refs));
            },
            way,
          );
        }
        for (const rel of g.relations ?? []) {
          w.writeMessage(
            4,
            (e: TestRelation, x: PbfWriter) => {
              x.writeVarintField(1, e.id);
              writeElementCommon(e, x);
              x.writePackedVarint(8, e.roles);
              x.writePackedSVarint(9, deltas(e.memids));
              x.writePackedVarint(10, e.types);
            },
            rel,
          );
        }
      },
      group,
    );
  }
  // Scale fields after the groups, as osmium writes them.
  if (b.granularity !== undefined) pbf.writeVarintField(17, b.granularity);
  if (b.dateGranularity !== undefined) pbf.writeVarintField(18, b.dateGranularity);
  if (b.latOffset !== undefined) pbf.writeVarintField(19, b.latOffset);
  if (b.lonOffset !== undefined) pbf.writeVarintField(20, b.lonOffset);
  return pbf.finish();
}

export type BlobEncoding = 'zlib' | 'raw' | { field: number };

/** A Blob message around `block`; `{ field }` puts the bytes in another field (lzma = 4, zstd = 7…). */
export function encodeBlob(block: Uint8Array, encoding: BlobEncoding = 'zlib'): Uint8Array {
  const pbf = new PbfWriter();
  if (encoding === 'raw') {
    pbf.writeBytesField(1, block);
  } else if (encoding === 'zlib') {
    pbf.writeVarintField(2, block.length);
    pbf.writeBytesField(3, deflateSync(block));
  } else {
    pbf.writeVarintField(2, block.length);
    pbf.writeBytesField(encoding.field, block);
  }
  return pbf.finish();
}

/** [length][BlobHeader][Blob] */
export function frame(type: string, blob: Uint8Array): Uint8Array {
  const header = new PbfWriter();
  header.writeStringField(1, type);
  header.writeVarintField(3, blob.length);
  const headerBytes = header.finish();
  const out = new Uint8Array(4 + headerBytes.length + blob.length);
  new DataView(out.buffer).setUint32(0, headerBytes.length, false);
  out.set(headerBytes, 4);
  out.set(blob, 4 + headerBytes.length);
  return out;
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A whole file: an OSMHeader blob, then one OSMData blob per block. */
export function encodePbfFile(header: TestHeader, blocks: TestBlock[], encoding: BlobEncoding = 'zlib'): Uint8Array {
  return concatBytes([
    frame('OSMHeader', encodeBlob(encodeHeaderBlock(header), encoding)),
    ...blocks.map((b) => frame('OSMData', encodeBlob(encodePrimitiveBlock(b), encoding))),
  ]);
}
