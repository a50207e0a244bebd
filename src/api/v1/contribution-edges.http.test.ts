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

  it("across the area's edge the clips are compared, which have no repeated points: no geometry change, still a contribution", async () => {
    assert.deepEqual(await count('29.99,29.99,30.0015,30.01', 'geometryChange'), [0]);
    assert.deepEqual(await count('29.99,29.99,30.0015,30.01', 'geometryChange,tagChange'), [0]);
    assert.deepEqual(await count('29.99,29.99,30.0015,30.01'), [1]);
  });

  it('extraction agrees: @geometryChange inside, neither flag across the edge', async () => {
    const flags = async (bboxes: string) => {
      const res = await fetch(
        `${base}/v1/contributions/bbox?${new URLSearchParams({ bboxes, time: '2016-01-01,2017-01-01', filter: 'building=*', properties: 'contributionTypes' })}`,
      );
      const doc = (await res.json()) as { features: { properties: Record<string, unknown> }[] };
      return doc.features.map((f) => Object.keys(f.properties).filter((k) => f.properties[k] === true));
    };
    assert.deepEqual(await flags('29.99,29.99,30.01,30.01'), [['@geometryChange']]);
    assert.deepEqual(await flags('29.99,29.99,30.0015,30.01'), [[]]);
  });
});

describe("an element whose geometry is empty is placed by its history's bbox (contribution-edges/empty-geometry.osh)", () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(TESTCASES_DIR, 'contribution-edges', 'empty-geometry.osh'));
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  const A = '39.99,39.99,40.01,40.01';
  const B = '39.99,39.99,40.002,40.01';
  const values = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${base}/v1${path}?${new URLSearchParams(params)}`);
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { result: { value: number }[] }).result.map((r) => r.value);
  };
  const other = (bboxes: string) => values('/elements/count', { bboxes, time: '2017-01-01', filter: 'geometry:other' });
  const contributions = (bboxes: string, contributionType: string) =>
    values('/contributions/count', { bboxes, time: '2016-01-01,2017-01-01', filter: 'type:relation', contributionType });

  it('snapshots: an empty GeometryCollection counts where the area contains its history (r1), not where the edge cuts it; zero members never (r3)', async () => {
    assert.deepEqual(await other(A), [1]);
    assert.deepEqual(await other(B), [0]);
    // the same with a polygon area equal to A, and one with a hole under w1
    const square = (x0: number, y0: number, x1: number, y1: number) => [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ];
    const polygon = (rings: number[][][]) =>
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: { id: 'a' }, geometry: { type: 'Polygon', coordinates: rings } }],
      });
    const viaPolygon = (rings: number[][][]) => values('/elements/count', { bpolys: polygon(rings), time: '2017-01-01', filter: 'geometry:other' });
    assert.deepEqual(await viaPolygon([square(39.99, 39.99, 40.01, 40.01), square(40.007, 40.007, 40.008, 40.008)]), [1]);
    assert.deepEqual(await viaPolygon([square(39.99, 39.99, 40.01, 40.01), square(40.0015, 40.0005, 40.0025, 40.002)]), [0]);
  });

  it('contributions: losing its last way is a geometry change where the area contains the history, a deletion where the edge cuts it', async () => {
    assert.deepEqual(await contributions(A, 'geometryChange'), [2]);
    assert.deepEqual(await contributions(A, 'deletion'), [0]);
    assert.deepEqual(await contributions(B, 'geometryChange'), [0]);
    assert.deepEqual(await contributions(B, 'deletion'), [2]);
  });
});
