/**
 * Oracle through HTTP: /v1/elements/count with a bbox covering the whole data equals the osmium
 * snapshot counts (osmium time-filter + tags-filter, testdata/history/expected) of the bundled
 * sample at every 1 January 2008–2017, for each counted filter; for nodes, osmium's count of the
 * nodes that carried a tag in some version (<region>.ever-tagged-counts.jsonl), the only nodes
 * version 1 counts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  importToTemp,
  OSMIUM_COUNT_FILTERS as FILTERS,
  readEverTaggedCounts,
  readSnapshotCounts,
  type ImportedDb,
  type SnapshotCounts,
} from '../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';

describe('v1 elements/count equals osmium (andorra, the bundled sample)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  const tagged = readEverTaggedCounts('andorra');
  const expected: SnapshotCounts[] = readSnapshotCounts('andorra').map((e, k) => ({ ...e, nodes: tagged[k].tagged_nodes }));
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    app = await createServer(db.store);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  for (const [name, filter] of Object.entries(FILTERS)) {
    it(`${name} (${filter})`, async () => {
      const time = expected.map((e) => e.timestamp).join(',');
      const url = `${base}/v1/elements/count?bboxes=-180,-90,180,90&time=${encodeURIComponent(time)}&filter=${encodeURIComponent(filter)}`;
      const res = await fetch(url);
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { result: { timestamp: string; value: number }[] };
      assert.deepEqual(
        body.result.map((r) => [r.timestamp, r.value]),
        expected.map((e) => [e.timestamp, e[name]]),
      );
    });
  }
});
