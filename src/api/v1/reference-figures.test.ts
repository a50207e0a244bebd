/**
 * Figures of the reference engine itself (the public service's OSHDB) on the bundled Andorra history,
 * as an independent check of our numbers: each request below was answered by the reference, and the
 * figure is quoted from that answer (issue 15 of this project lists them). maphist must give the same.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';

interface ReferenceFigure {
  /** What the figure shows. */
  what: string;
  path: string;
  params: Record<string, string>;
  /** The index of the result item (timestamp or interval) and the reference's value there. */
  item: number;
  value: number;
}

export const REFERENCE_FIGURES: ReferenceFigure[] = [
  {
    what: 'contributions of the whole country in January 2016 leave out nodes that never had a tag (with them: 23,824)',
    path: '/contributions/count',
    params: { bboxes: '1.41,42.42,1.79,42.66', time: '2016-01-01/2017-01-01/P1M' },
    item: 0,
    value: 948,
  },
  {
    what: 'geometry changes of buildings: a repeated node removed from a way inside the area is a geometry change (was 37)',
    path: '/contributions/count',
    params: {
      bboxes: '1.50,42.49,1.55,42.52',
      time: '2010-01-01,2014-06-01,2017-01-01',
      filter: 'type:way and building=*',
      contributionType: 'geometryChange',
    },
    item: 1,
    value: 39,
  },
  {
    what: 'tag and geometry changes of highways, June 2015 (was 20)',
    path: '/contributions/count',
    params: { bboxes: '1.525,42.500,1.560,42.520', time: '2015-01-01/2016-01-01/P1M', filter: 'highway=*', contributionType: 'tagChange,geometryChange' },
    item: 5,
    value: 21,
  },
  {
    what: 'latest geometry changes of highways in 2014 (was 230)',
    path: '/contributions/latest/count',
    params: { bboxes: '1.41,42.42,1.79,42.66', time: '2014-01-01/2017-01-01/P1Y', filter: 'highway=*', contributionType: 'geometryChange' },
    item: 0,
    value: 233,
  },
  {
    what: 'GeometryCollections in the country: two hiking route relations (r318027, r2018553) left with only relation members have empty ones, placed by their history (was 142)',
    path: '/elements/count',
    params: { bboxes: '1.41,42.42,1.79,42.66', time: '2017-01-01', filter: 'geometry:other' },
    item: 0,
    value: 144,
  },
];

describe("the reference engine's own figures on the Andorra history", () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  for (const f of REFERENCE_FIGURES) {
    it(`${f.path} ${new URLSearchParams(f.params)}: ${f.value} (${f.what})`, async () => {
      const res = await fetch(`${base}/v1${f.path}?${new URLSearchParams(f.params)}`);
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { result: { value: number }[] };
      assert.equal(body.result[f.item].value, f.value);
    });
  }
});
