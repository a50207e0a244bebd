/**
 * What an update needs to know about the elements it touches (schema version 4): which current ways
 * and relations reference an element (`current_parents`), and the node lists of a way's versions
 * (`way_nodes`). A changed node must rebuild every current way that uses it, and a changed way or
 * node every current relation that names it (docs/store.md, "Back references").
 */
import { OSM_TYPE_CODE, OSM_TYPE_NAME, type OsmType } from '../../core/osm.js';
import type { Store } from '../../store/open-store.js';
import { readAllRows } from './statements.js';

export interface ElementRef {
  type: OsmType;
  id: number;
}

/** A current parent of an element: a way or relation whose current version references it. */
export interface CurrentParent {
  member: ElementRef;
  parent: ElementRef & { version: number };
}

function checkId(id: number): number {
  if (!Number.isSafeInteger(id)) throw new RangeError(`not an element id: ${id}`);
  return id;
}

/**
 * The current parents of the given elements, ordered by member (type, id), then parent (type, id).
 * An element no current way or relation references has none; a way that names a node twice (a
 * closed ring) is its parent once.
 */
export async function currentParents(store: Store, members: readonly ElementRef[], signal?: AbortSignal): Promise<CurrentParent[]> {
  if (members.length === 0) return [];
  const pairs = members.map((m) => `(${OSM_TYPE_CODE[m.type]}, ${checkId(m.id)})`).join(', ');
  const rows = await readAllRows(
    store,
    `SELECT p.member_type, p.member_id, p.parent_type, p.parent_id, p.parent_version
     FROM current_parents p SEMI JOIN (VALUES ${pairs}) q(t, i) ON p.member_type = q.t AND p.member_id = q.i
     ORDER BY 1, 2, 3, 4`,
    signal,
  );
  return rows.map(([mt, mi, pt, pi, pv]) => ({
    member: { type: OSM_TYPE_NAME[Number(mt)]!, id: Number(mi) },
    parent: { type: OSM_TYPE_NAME[Number(pt)]!, id: Number(pi), version: Number(pv) },
  }));
}

/** The node list of each version of the given ways (way id → version → node ids; deleted versions are absent). */
export async function wayNodeLists(store: Store, wayIds: readonly number[], signal?: AbortSignal): Promise<Map<number, Map<number, number[]>>> {
  const out = new Map<number, Map<number, number[]>>();
  if (wayIds.length === 0) return out;
  const ids = [...new Set(wayIds.map(checkId))];
  const rows = await readAllRows(
    store,
    `SELECT way_id, version, list(node_id ORDER BY pos) FROM way_nodes
     WHERE way_id BETWEEN ${Math.min(...ids)} AND ${Math.max(...ids)} AND way_id IN (${ids.join(', ')})
     GROUP BY ALL ORDER BY 1, 2`,
    signal,
  );
  for (const [w, v, nodes] of rows) {
    const way = Number(w);
    let versions = out.get(way);
    if (!versions) out.set(way, (versions = new Map()));
    versions.set(Number(v), (nodes as (number | bigint)[]).map(Number));
  }
  return out;
}
