import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { parseFilter } from '../../filter/index.js';
import { openStore, type Store } from '../../store/open-store.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import type { ExtractedFeature, ExtractionQuery } from '../../query/extraction.js';
import type { IdBatch } from '../../query/extraction.js';
import { createDuckDbExtractionEngine } from './extraction.js';

let db: ImportedDb;
let small: Store;
before(async () => {
  db = await importToTemp(join(TEST_DATA, 'history', 'andorra.osh.pbf'));
  // The same file with a streaming instance too small for the batches' sorts as estimated.
  small = await openStore(db.store.path, { streamingMemoryLimit: '24MB' });
});
after(() => {
  small.close();
  db.dispose();
});

const world = {
  id: 'world',
  bbox: [-180, -90, 180, 90] as [number, number, number, number],
  geometry: {
    type: 'Polygon' as const,
    coordinates: [
      [
        [-180, -90],
        [180, -90],
        [180, 90],
        [-180, 90],
        [-180, -90],
      ],
    ] as [number, number][][],
  },
};

async function all(features: AsyncIterable<ExtractedFeature>): Promise<ExtractedFeature[]> {
  const out: ExtractedFeature[] = [];
  for await (const f of features) out.push(f);
  return out;
}

test('a batch that does not fit the streaming instance is cut in two, and the features are the same', async () => {
  const query: ExtractionQuery = {
    kind: 'fullHistory',
    areas: [world],
    timestamps: [epoch('2008-01-01T00:00:00Z'), epoch('2017-06-01T00:00:00Z')],
    filter: parseFilter('type:way', { version: 1 }),
    clipGeometry: true,
  };
  const splits: IdBatch[] = [];
  const expected = await all((await createDuckDbExtractionEngine(db.store)).extract(query));
  const got = await all((await createDuckDbExtractionEngine(small, undefined, { onBatchSplit: (b) => splits.push(b) })).extract(query));
  assert.ok(splits.length >= 1, 'no batch was split: the test no longer exercises the fallback (a smaller streamingMemoryLimit would)');
  assert.equal(got.length, expected.length);
  assert.deepEqual(got, expected);
});
