/**
 * Cuts a small history extract out of a full-history file, for test fixtures
 * (testdata/conformance/andorra-small.osh.pbf):
 *
 * - every node with some version inside the bbox;
 * - every way with some version referencing one of those nodes, and every node any version of such
 *   a way references (complete ways, so their geometries are whole);
 * - every relation with some version referencing a selected node or way; when none of its versions
 *   has more than `smallRelation` members, its member nodes and ways are added too (with their
 *   nodes), so small multipolygons are whole; the big ones (borders, routes) stay incomplete, as
 *   in any extract.
 *
 * All versions of a selected element are written, in file order. Three passes over the input.
 *
 *   node dist/src/testing/cut-history.js IN OUT minLon minLat maxLon maxLat
 */
import { openHistory } from '../io/open-history.js';
import { createPbfWriter } from '../io/pbf-writer/index.js';

export interface CutOptions {
  input: string;
  output: string;
  bbox: [number, number, number, number];
  smallRelation?: number;
}

export async function cutHistory(o: CutOptions): Promise<{ nodes: number; ways: number; relations: number; versions: number }> {
  const [x0, y0, x1, y1] = o.bbox.map((v) => Math.round(v * 1e7));
  const small = o.smallRelation ?? 100;
  const nodes = new Set<number>();
  const ways = new Set<number>();
  const relations = new Set<number>();
  const extraWays = new Set<number>();
  const extraNodes = new Set<number>();
  const relMembers = new Map<number, { max: number; nodes: Set<number>; ways: Set<number> }>();

  // Pass 1: nodes in the bbox, ways touching them, relations touching either.
  let history = await openHistory(o.input, { workers: 1 });
  for await (const batch of history.batches()) {
    for (const v of batch) {
      if (v.type === 'node') {
        if (v.visible && v.lon >= x0 && v.lon <= x1 && v.lat >= y0 && v.lat <= y1) nodes.add(v.id);
      } else if (v.type === 'way') {
        if (v.refs.some((r) => nodes.has(r))) ways.add(v.id);
      } else {
        let m = relMembers.get(v.id);
        if (!m) relMembers.set(v.id, (m = { max: 0, nodes: new Set(), ways: new Set() }));
        m.max = Math.max(m.max, v.members.length);
        for (const x of v.members) {
          if (x.type === 'node') m.nodes.add(x.ref);
          else if (x.type === 'way') m.ways.add(x.ref);
          if ((x.type === 'node' && nodes.has(x.ref)) || (x.type === 'way' && ways.has(x.ref))) relations.add(v.id);
        }
      }
    }
  }
  for (const id of relations) {
    const m = relMembers.get(id)!;
    if (m.max > small) continue;
    for (const n of m.nodes) extraNodes.add(n);
    for (const w of m.ways) extraWays.add(w);
  }
  relMembers.clear();
  for (const w of extraWays) ways.add(w);

  // Pass 2: the nodes of every selected way.
  history = await openHistory(o.input, { workers: 1 });
  for await (const batch of history.batches()) {
    for (const v of batch) if (v.type === 'way' && ways.has(v.id)) for (const r of v.refs) extraNodes.add(r);
  }
  for (const n of extraNodes) nodes.add(n);

  // Pass 3: write.
  history = await openHistory(o.input, { workers: 1 });
  const writer = createPbfWriter(o.output, {
    ...history.header,
    bbox: o.bbox,
    source: `cut of ${o.input.split('/').pop()} to ${o.bbox.join(',')}`,
  });
  let versions = 0;
  for await (const batch of history.batches()) {
    for (const v of batch) {
      const keep = v.type === 'node' ? nodes.has(v.id) : v.type === 'way' ? ways.has(v.id) : relations.has(v.id);
      if (!keep) continue;
      versions += 1;
      const wait = writer.write(v);
      if (wait) await wait;
    }
  }
  await writer.close();
  return { nodes: nodes.size, ways: ways.size, relations: relations.size, versions };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output, ...b] = process.argv.slice(2);
  if (!input || !output || b.length !== 4) {
    console.error('usage: node dist/src/testing/cut-history.js IN OUT minLon minLat maxLon maxLat');
    process.exit(2);
  }
  const r = await cutHistory({ input, output, bbox: b.map(Number) as [number, number, number, number] });
  console.log(JSON.stringify(r));
}
