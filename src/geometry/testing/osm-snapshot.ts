/**
 * Test support: a regex reader for small one-version-per-element OSM XML snapshots (the
 * osm-testdata grid and the reference's relation test files), turning a relation or a way into
 * the `MemberLine`s that `assembleMultipolygon` takes. Pure: callers read the files.
 */
import type { MemberLine } from '../multipolygon.js';
import type { Position } from '../types.js';

export interface OsmSnapshot {
  nodes: Map<number, Position>;
  ways: Map<number, number[]>;
  relations: Map<number, Array<{ type: string; ref: number; role: string }>>;
}

export function readOsmSnapshot(xml: string): OsmSnapshot {
  const nodes = new Map<number, Position>();
  for (const m of xml.matchAll(/<node\b([^>]*?)\/?>/g)) {
    const a = attributes(m[1]);
    // Stored as 1e-7 integers and read back by multiplication, like the reference (docs/reference/history-engine-semantics.md §7.3).
    nodes.set(Number(a.id), [Math.round(Number(a.lon) * 1e7) * 1e-7, Math.round(Number(a.lat) * 1e7) * 1e-7]);
  }
  const ways = new Map<number, number[]>();
  for (const m of xml.matchAll(/<way\b([^>]*)>([\s\S]*?)<\/way>/g)) {
    ways.set(
      Number(attributes(m[1]).id),
      [...m[2].matchAll(/<nd\s+ref="(-?\d+)"/g)].map((nd) => Number(nd[1])),
    );
  }
  const relations: OsmSnapshot['relations'] = new Map();
  for (const m of xml.matchAll(/<relation\b([^>]*)>([\s\S]*?)<\/relation>/g)) {
    const members = [...m[2].matchAll(/<member\b([^>]*?)\/>/g)].map((mm) => {
      const a = attributes(mm[1]);
      return { type: a.type, ref: Number(a.ref), role: a.role ?? '' };
    });
    relations.set(Number(attributes(m[1]).id), members);
  }
  return { nodes, ways, relations };
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:]+)="([^"]*)"/g)) out[m[1]] = m[2];
  return out;
}

/** The resolved nodes of a way (missing nodes skipped, as the reference skips unresolvable members). */
export function wayLine(snapshot: OsmSnapshot, wayId: number): MemberLine | undefined {
  const refs = snapshot.ways.get(wayId);
  if (!refs) return undefined;
  const nodeIds: number[] = [];
  const coords: Position[] = [];
  for (const ref of refs) {
    const p = snapshot.nodes.get(ref);
    if (!p) continue;
    nodeIds.push(ref);
    coords.push(p);
  }
  return { nodeIds, coords };
}

/** Outer (role `outer` or empty) and inner way members of a relation, in member order. */
export function relationLines(snapshot: OsmSnapshot, relationId: number): { outer: MemberLine[]; inner: MemberLine[] } {
  const outer: MemberLine[] = [];
  const inner: MemberLine[] = [];
  for (const m of snapshot.relations.get(relationId) ?? []) {
    if (m.type !== 'way') continue;
    const target = m.role === 'inner' ? inner : m.role === 'outer' || m.role === '' ? outer : undefined;
    const line = target && wayLine(snapshot, m.ref);
    if (target && line) target.push(line);
  }
  return { outer, inner };
}
