/**
 * The OSM data model as the readers deliver it: one record per version of an element,
 * in file order (nodes, then ways, then relations; each sorted by id, then version).
 */

export type OsmType = 'node' | 'way' | 'relation';

/** Numeric codes used in the store and in hot loops. Order matters: it is the file order. */
export const OSM_TYPE_CODE = { node: 0, way: 1, relation: 2 } as const;
export const OSM_TYPE_NAME: readonly OsmType[] = ['node', 'way', 'relation'];

/** Tags as a flat list `[k1, v1, k2, v2, …]` in stored order (the area rules look at the first hit). */
export type FlatTags = string[];

interface VersionBase {
  id: number;
  version: number;
  /** Seconds since the epoch, UTC. */
  timestamp: number;
  changeset: number;
  /** User id; -1 when the file has none. */
  uid: number;
  user: string;
  visible: boolean;
  tags: FlatTags;
}

export interface NodeVersion extends VersionBase {
  type: 'node';
  /** Longitude and latitude in 1e-7 degrees (the OSM fixed-point integers); 0 when deleted. */
  lon: number;
  lat: number;
}

export interface WayVersion extends VersionBase {
  type: 'way';
  refs: number[];
}

export interface RelationMember {
  type: OsmType;
  ref: number;
  role: string;
}

export interface RelationVersion extends VersionBase {
  type: 'relation';
  members: RelationMember[];
}

export type OsmVersion = NodeVersion | WayVersion | RelationVersion;

/** What a history file says about itself. */
export interface FileHeader {
  /** [minLon, minLat, maxLon, maxLat] in degrees, if the file declares one. */
  bbox?: [number, number, number, number];
  generator?: string;
  source?: string;
  requiredFeatures: string[];
  optionalFeatures: string[];
  replicationTimestamp?: number;
  replicationSequenceNumber?: number;
  replicationBaseUrl?: string;
}
