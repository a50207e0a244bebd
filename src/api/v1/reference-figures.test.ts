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
import { createServer } from '../server.js';

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
];

describe('the reference engine\'s own figures on the Andorra history', () => {
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
