import { PbfWriter } from 'pbf';
import type { FileHeader } from '../../core/osm.js';
import { HEADER_BBOX, HEADER_BLOCK } from './osm-pbf-fields.js';

export const WRITING_PROGRAM = 'maphist';

/** What a reader must understand to read this writer's files. */
export const REQUIRED_FEATURES = ['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation'] as const;

/** The writer refuses unsorted input, so its files are always sorted by type, then id. */
export const OPTIONAL_FEATURES = ['Sort.Type_then_ID'] as const;

/**
 * Encodes the OSMHeader block. From `header` it takes the bounding box, source and replication
 * fields; features and writing program are this writer's own (other features of the input file,
 * such as LocationsOnWays, would not be true of the output).
 */
export function encodeHeaderBlock(header: FileHeader): Uint8Array {
  const pbf = new PbfWriter();
  if (header.bbox) pbf.writeMessage(HEADER_BLOCK.bbox, writeBBoxBody, header.bbox);
  for (const feature of REQUIRED_FEATURES) pbf.writeStringField(HEADER_BLOCK.requiredFeatures, feature);
  for (const feature of OPTIONAL_FEATURES) pbf.writeStringField(HEADER_BLOCK.optionalFeatures, feature);
  pbf.writeStringField(HEADER_BLOCK.writingProgram, WRITING_PROGRAM);
  if (header.source !== undefined) pbf.writeStringField(HEADER_BLOCK.source, header.source);
  if (header.replicationTimestamp !== undefined) {
    pbf.writeVarintField(HEADER_BLOCK.replicationTimestamp, header.replicationTimestamp);
  }
  if (header.replicationSequenceNumber !== undefined) {
    pbf.writeVarintField(HEADER_BLOCK.replicationSequenceNumber, header.replicationSequenceNumber);
  }
  if (header.replicationBaseUrl !== undefined) {
    pbf.writeStringField(HEADER_BLOCK.replicationBaseUrl, header.replicationBaseUrl);
  }
  return pbf.finish();
}

/** HeaderBBox is in nanodegrees; `bbox` is [minLon, minLat, maxLon, maxLat] in degrees. */
function writeBBoxBody([minLon, minLat, maxLon, maxLat]: [number, number, number, number], pbf: PbfWriter): void {
  pbf.writeSVarintField(HEADER_BBOX.left, Math.round(minLon * 1e9));
  pbf.writeSVarintField(HEADER_BBOX.right, Math.round(maxLon * 1e9));
  pbf.writeSVarintField(HEADER_BBOX.top, Math.round(maxLat * 1e9));
  pbf.writeSVarintField(HEADER_BBOX.bottom, Math.round(minLat * 1e9));
}
