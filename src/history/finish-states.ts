/**
 * Turns an element's timeline points, each with its resolved tags and geometry, into finished
 * states: validity intervals, minor version numbers, changeset collapsing and change flags
 * (docs/reference/history-engine-semantics.md §4.3; docs/reference/v2-reference-and-contributions-format.md §3.3 "Key rules").
 */
import type { FlatTags } from '../core/osm.js';
import type { Geometry } from '../geometry/types.js';
import { OPEN_END } from '../store/schema.js';
import type { ElementState } from './element-state.js';
import type { TimelinePoint } from './timeline.js';
import { encodeWkb } from '../geometry/wkb.js';

export interface ResolvedPoint extends TimelinePoint {
  version: number;
  deleted: boolean;
  tags: FlatTags;
  geometry: Geometry | null;
  geometryValid: boolean;
}

/** A timeline point with its resolved content (one object literal: this runs once per state). */
export function resolvedPoint(
  p: TimelinePoint,
  version: number,
  deleted: boolean,
  tags: FlatTags,
  geometry: Geometry | null,
  geometryValid: boolean,
): ResolvedPoint {
  return {
    timestamp: p.timestamp,
    versionIndex: p.versionIndex,
    changeset: p.changeset,
    uid: p.uid,
    major: p.major,
    version,
    deleted,
    tags,
    geometry,
    geometryValid,
  };
}

/** `encode`: the WKB of a geometry (the relation builder passes one that reuses its collections' member encodings). */
export function finishStates(type: 0 | 1 | 2, id: number, points: readonly ResolvedPoint[], encode: (g: Geometry) => Uint8Array = encodeWkb): ElementState[] {
  const states: ElementState[] = new Array(points.length);
  let minor = 0;
  let lastVisibleGeometry: Geometry | null = null;
  let lastVisibleWkb: Uint8Array | null = null;
  let previousContribution: ElementState | undefined;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const next = points[i + 1];
    minor = p.major ? 0 : minor + 1;
    const geometry = p.deleted ? lastVisibleGeometry : p.geometry;
    // Builders hand the same geometry object to consecutive states whose geometry did not change: encode it once.
    const wkb: Uint8Array | null = p.deleted || (p.geometry !== null && p.geometry === lastVisibleGeometry) ? lastVisibleWkb : p.geometry && encode(p.geometry);
    if (!p.deleted) {
      lastVisibleGeometry = p.geometry;
      lastVisibleWkb = wkb;
    }
    const prev = previousContribution;
    const bothVisible = prev !== undefined && !prev.deleted && !p.deleted;
    const state: ElementState = {
      type,
      id,
      version: p.version,
      minorVersion: minor,
      validFrom: p.timestamp,
      validTo: next ? Math.max(next.timestamp, p.timestamp) : OPEN_END,
      deleted: p.deleted,
      changeset: p.changeset,
      userId: p.uid,
      tags: p.tags,
      geometry,
      wkb,
      geometryValid: p.deleted ? true : p.geometryValid,
      collapsed: next !== undefined && next.changeset === p.changeset,
      isCreation: !p.deleted && (prev === undefined || prev.deleted),
      isDeletion: p.deleted && prev !== undefined && !prev.deleted,
      tagChange: bothVisible && !sameTags(prev.tags, p.tags),
      geometryChange: bothVisible && !sameBytes(prev.wkb, wkb),
      tagsBefore: prev ? prev.tags : [],
    };
    states[i] = state;
    if (!state.collapsed) previousContribution = state;
  }
  return states;
}

/** Tag sets are equal regardless of order (the reference compares sorted key/value id pairs). */
export function sameTags(a: FlatTags, b: FlatTags): boolean {
  if (a.length !== b.length) return false;
  outer: for (let i = 0; i < a.length; i += 2) {
    for (let j = 0; j < b.length; j += 2) {
      if (a[i] === b[j]) {
        if (a[i + 1] !== b[j + 1]) return false;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

/** Exact geometry equality (JTS `equalsExact`: same type, same coordinates in the same order) is WKB byte equality. */
function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return Buffer.compare(a, b) === 0;
}
