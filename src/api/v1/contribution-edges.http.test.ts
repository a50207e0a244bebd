/**
 * How a contribution is classified on the edges of a query, on annotated tiny histories
 * (testdata/testcases/contribution-edges; each file's comment states the rule and the expected
 * figures). The reference engine's own figures for the same rule on Andorra are in
 * reference-figures.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { TESTCASES_DIR } from '../../testing/test-data.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';

describe('a geometry change that is only a repeated node (contribution-edges/repeated-node.osh)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(TESTCASES_DIR, 'contribution-edges', 'repeated-node.osh'));
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  const count = async (bboxes: string, contributionType?: string) => {
    const params = new URLSearchParams({ bboxes, time: '2016-01-01,2017-01-01', filter: 'building=*', ...(contributionType ? { contributionType } : {}) });
    const res = await fetch(`${base}/v1/contributions/count?${params}`);
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { result: { value: number }[] }).result.map((r) => r.value);
  };

  it('inside the area the geometries are compared as they are: a geometry change', async () => {
    assert.deepEqual(await count('29.99,29.99,30.01,30.01', 'geometryChange'), [1]);
  });

  it('across the area\'s edge the clips are compared, which have no repeated points: no geometry change, still a contribution', async () => {
    assert.deepEqual(await count('29.99,29.99,30.0015,30.01', 'geometryChange'), [0]);
    assert.deepEqual(await count('29.99,29.99,30.0015,30.01', 'geometryChange,tagChange'), [0]);
    assert.deepEqual(await count('29.99,29.99,30.0015,30.01'), [1]);
  });

  it('extraction agrees: @geometryChange inside, neither flag across the edge', async () => {
    const flags = async (bboxes: string) => {
      const res = await fetch(`${base}/v1/contributions/bbox?${new URLSearchParams({ bboxes, time: '2016-01-01,2017-01-01', filter: 'building=*', properties: 'contributionTypes' })}`);
      const doc = (await res.json()) as { features: { properties: Record<string, unknown> }[] };
      return doc.features.map((f) => Object.keys(f.properties).filter((k) => f.properties[k] === true));
    };
    assert.deepEqual(await flags('29.99,29.99,30.01,30.01'), [['@geometryChange']]);
    assert.deepEqual(await flags('29.99,29.99,30.0015,30.01'), [[]]);
  });
});
