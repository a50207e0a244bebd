/**
 * The OSMHeader block: what a PBF file says about itself, and the features a reader must
 * understand to read it correctly ("required_features").
 *
 * osmformat.proto:
 *   message HeaderBlock { optional HeaderBBox bbox = 1; repeated string required_features = 4;
 *     repeated string optional_features = 5; optional string writingprogram = 16; optional string source = 17;
 *     optional int64 osmosis_replication_timestamp = 32; optional int64 osmosis_replication_sequence_number = 33;
 *     optional string osmosis_replication_base_url = 34; }
 *   message HeaderBBox { required sint64 left = 1; required sint64 right = 2; required sint64 top = 3;
 *     required sint64 bottom = 4; }   // nanodegrees
 */

import { PbfReader } from 'pbf';
import { MaphistError } from '../../core/errors.js';
import type { FileHeader } from '../../core/osm.js';
import { corruptBlob, type BlobOrigin } from './blob-inflate.js';

/**
 * Required features this reader implements. "HistoricalInformation" means the file carries
 * deleted versions (visible=false), which the block decoder reads; "DenseNodes" is the compact
 * node encoding.
 */
export const SUPPORTED_REQUIRED_FEATURES: ReadonlySet<string> = new Set(['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation']);

export function decodeHeaderBlock(block: Uint8Array, origin: BlobOrigin): FileHeader {
  const header: FileHeader = { requiredFeatures: [], optionalFeatures: [] };
  try {
    new PbfReader(block).readFields((field, h, pbf) => {
      switch (field) {
        case 1: {
          const box = pbf.readMessage(readBBoxField, { left: 0, right: 0, top: 0, bottom: 0 });
          // Nanodegrees to degrees. Dividing by the exact power of ten gives the double nearest
          // to the decimal the writer meant (1412368000 → 1.412368).
          h.bbox = [box.left / 1e9, box.bottom / 1e9, box.right / 1e9, box.top / 1e9];
          break;
        }
        case 4:
          h.requiredFeatures.push(pbf.readString());
          break;
        case 5:
          h.optionalFeatures.push(pbf.readString());
          break;
        case 16:
          h.generator = pbf.readString();
          break;
        case 17:
          h.source = pbf.readString();
          break;
        case 32:
          h.replicationTimestamp = pbf.readVarint(true);
          break;
        case 33:
          h.replicationSequenceNumber = pbf.readVarint(true);
          break;
        case 34:
          h.replicationBaseUrl = pbf.readString();
          break;
      }
    }, header);
  } catch {
    throw corruptBlob(origin, 'its OSMHeader block cannot be decoded');
  }

  const unsupported = header.requiredFeatures.filter((f) => !SUPPORTED_REQUIRED_FEATURES.has(f));
  if (unsupported.length > 0) {
    throw new MaphistError(
      'INPUT_UNSUPPORTED',
      `${origin.path} requires reader features maphist does not have: ${unsupported.join(', ')} ` +
        `(maphist reads ${[...SUPPORTED_REQUIRED_FEATURES].join(', ')}). ` +
        'Convert it to a plain history PBF with `osmium cat INPUT -o OUTPUT.osh.pbf` and import that.',
      { path: origin.path, unsupportedFeatures: unsupported },
    );
  }
  return header;
}

function readBBoxField(field: number, box: { left: number; right: number; top: number; bottom: number }, pbf: PbfReader): void {
  if (field === 1) box.left = pbf.readSVarint();
  else if (field === 2) box.right = pbf.readSVarint();
  else if (field === 3) box.top = pbf.readSVarint();
  else if (field === 4) box.bottom = pbf.readSVarint();
}
