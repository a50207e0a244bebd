/**
 * Field numbers of the OSM PBF format (fileformat.proto and osmformat.proto), named after the
 * .proto fields. Only the fields this writer emits are listed.
 */

export const BLOB_HEADER = { type: 1, datasize: 3 } as const;

export const BLOB = { rawSize: 2, zlibData: 3 } as const;

export const HEADER_BLOCK = {
  bbox: 1,
  requiredFeatures: 4,
  optionalFeatures: 5,
  writingProgram: 16,
  source: 17,
  replicationTimestamp: 32,
  replicationSequenceNumber: 33,
  replicationBaseUrl: 34,
} as const;

export const HEADER_BBOX = { left: 1, right: 2, top: 3, bottom: 4 } as const;

export const PRIMITIVE_BLOCK = {
  stringTable: 1,
  primitiveGroup: 2,
  granularity: 17,
  dateGranularity: 18,
} as const;

export const STRING_TABLE = { s: 1 } as const;

export const PRIMITIVE_GROUP = { dense: 2, ways: 3, relations: 4 } as const;

export const DENSE_NODES = { id: 1, denseInfo: 5, lat: 8, lon: 9, keysVals: 10 } as const;

export const DENSE_INFO = { version: 1, timestamp: 2, changeset: 3, uid: 4, userSid: 5, visible: 6 } as const;

export const INFO = { version: 1, timestamp: 2, changeset: 3, uid: 4, userSid: 5, visible: 6 } as const;

export const WAY = { id: 1, keys: 2, vals: 3, info: 4, refs: 8 } as const;

export const RELATION = { id: 1, keys: 2, vals: 3, info: 4, rolesSid: 8, memids: 9, types: 10 } as const;

/** Relation.MemberType enum values. */
export const MEMBER_TYPE = { node: 0, way: 1, relation: 2 } as const;

/** Blob type names in BlobHeader.type. */
export type BlobType = 'OSMHeader' | 'OSMData';
