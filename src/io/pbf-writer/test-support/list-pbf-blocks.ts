/**
 * Lists the blocks of a PBF file with what the writer's tests check about them: blob type,
 * number of entities per kind of primitive group, scales. Decodes only what it counts.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { PbfReader } from 'pbf';

export interface BlockSummary {
  blobType: string;
  denseNodes: number;
  ways: number;
  relations: number;
  granularity?: number;
  dateGranularity?: number;
  requiredFeatures: string[];
  writingProgram?: string;
}

export function listPbfBlocks(path: string): BlockSummary[] {
  const file = readFileSync(path);
  const blocks: BlockSummary[] = [];
  let offset = 0;
  while (offset < file.length) {
    const headerLength = file.readUInt32BE(offset);
    offset += 4;
    const header = new PbfReader(file.subarray(offset, offset + headerLength)).readFields(
      (tag, h: { type: string; datasize: number }, pbf) => {
        if (tag === 1) h.type = pbf.readString();
        else if (tag === 3) h.datasize = pbf.readVarint();
      },
      { type: '', datasize: 0 },
    );
    offset += headerLength;
    const blob = new PbfReader(file.subarray(offset, offset + header.datasize)).readFields((tag, b: { zlib?: Uint8Array }, pbf) => {
      if (tag === 3) b.zlib = pbf.readBytes();
    }, {});
    offset += header.datasize;
    const block = inflateSync(blob.zlib!);
    const summary: BlockSummary = { blobType: header.type, denseNodes: 0, ways: 0, relations: 0, requiredFeatures: [] };
    new PbfReader(block).readFields(header.type === 'OSMHeader' ? readHeaderBlockField : readPrimitiveBlockField, summary);
    blocks.push(summary);
  }
  return blocks;
}

function readHeaderBlockField(tag: number, s: BlockSummary, pbf: PbfReader): void {
  if (tag === 4) s.requiredFeatures.push(pbf.readString());
  else if (tag === 16) s.writingProgram = pbf.readString();
}

function readPrimitiveBlockField(tag: number, s: BlockSummary, pbf: PbfReader): void {
  if (tag === 2) pbf.readMessage(readPrimitiveGroupField, s);
  else if (tag === 17) s.granularity = pbf.readVarint();
  else if (tag === 18) s.dateGranularity = pbf.readVarint();
}

function readPrimitiveGroupField(tag: number, s: BlockSummary, pbf: PbfReader): void {
  if (tag === 2) s.denseNodes += pbf.readMessage(countDenseIds, { ids: 0 }).ids;
  else if (tag === 3)
    s.ways++; // fields not read are skipped by PbfReader
  else if (tag === 4) s.relations++;
}

function countDenseIds(tag: number, c: { ids: number }, pbf: PbfReader): void {
  if (tag === 1) c.ids += pbf.readPackedSVarint().length;
}
