/**
 * Regenerates the golden answers: imports sample/andorra.osh.pbf, sends every case of cases.ts as
 * GET and writes status, content type and the normalised body to src/api/v1/golden/<name>.json.
 * Run after reviewing the answers: `npx tsc -p tsconfig.json && node dist/src/api/v1/golden/update-golden.js`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importToTemp } from '../../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../../testing/server.js';
import { GOLDEN_CASES } from './cases.js';
import { describeRequest, goldenPath, normalize, sendGet, type GoldenFile } from './support.js';

const db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
const app = await createServer(db.store, { timeoutSeconds: 100 });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
try {
  for (const c of GOLDEN_CASES) {
    const a = await sendGet(base, c);
    const file: GoldenFile = { request: describeRequest(c), status: a.status, contentType: a.contentType, body: normalize(a.body, base) };
    writeFileSync(goldenPath(c), `${JSON.stringify(file, null, 2)}\n`);
    console.log(`${a.status} ${c.name}`);
  }
} finally {
  await app.close();
  db.dispose();
}
