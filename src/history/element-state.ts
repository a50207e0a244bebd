/**
 * One state of one element: an interval [validFrom, validTo) during which its tags and geometry
 * were constant. This is what the history builder produces and the store writes as one row.
 */
import type { FlatTags } from '../core/osm.js';
import type { Geometry } from '../geometry/types.js';

export interface ElementState {
  /** 0 node, 1 way, 2 relation (OSM_TYPE_CODE). */
  type: 0 | 1 | 2;
  id: number;
  version: number;
  /** 0 for a version's own state, then 1, 2, … for states its members caused. */
  minorVersion: number;
  validFrom: number;
  validTo: number;
  deleted: boolean;
  changeset: number;
  userId: number;
  tags: FlatTags;
  /** For a deleted state: the last visible geometry, so deletions can be found spatially. */
  geometry: Geometry | null;
  /** `geometry` as WKB (encoded once here: the change flags compare states byte by byte). */
  wkb: Uint8Array | null;
  /** False when the geometry had to be degraded: missing members, an unclosed ring, a failed multipolygon. */
  geometryValid: boolean;
  /**
   * True when the next state of the element comes from the same changeset: the reference
   * collapses a changeset's edits into one contribution, so contribution counts skip these
   * states, while snapshots (which must match the versions exactly) still see them.
   */
  collapsed: boolean;
  /** Change flags relative to the previous non-collapsed state (the previous contribution). */
  isCreation: boolean;
  isDeletion: boolean;
  tagChange: boolean;
  geometryChange: boolean;
  /** Tags of the previous non-collapsed state ([] for the first). */
  tagsBefore: FlatTags;
}
