/**
 * Regenerates the version 2 golden answers: imports sample/andorra.osh.pbf, sends every case of
 * cases.ts to createServer(store) and writes src/api/v2/golden/<name>.json. Engine cases answered
 * with 500 are not written (a 500 is a bug, never a golden answer). Review the diff before committing:
 * `npx tsc -p tsconfig.json && node dist/src/api/v2/golden/update-golden.js`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importToTemp } from '../../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../../testing/server.js';
import { V2_GOLDEN_CASES } from './cases.js';
import { describeRequest, goldenPath, send, type V2GoldenFile } from './support.js';

const db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
const app = await createServer(db.store);
const base = await app.listen({ port: 0, host: '127.0.0.1' });
try {
  for (const c of V2_GOLDEN_CASES) {
    const a = await send(base, c);
    if (c.engine && a.status === 500) {
      console.log(`NOT WRITTEN ${c.name}: 500 (a bug)`);
      continue;
    }
    const file: V2GoldenFile = { request: describeRequest(c), ...a };
    writeFileSync(goldenPath(c), `${JSON.stringify(file, null, 2)}\n`);
    console.log(`${a.status} ${c.name}`);
  }
} finally {
  await app.close();
  db.dispose();
}
