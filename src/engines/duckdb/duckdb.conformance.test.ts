/**
 * DuckDB passes the engine conformance suite (src/engines/conformance/): every plan shape on the
 * handmade history and the small Andorra cut, against the golden answers in testdata/conformance/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEngineConformance, type StoreFixture } from '../conformance/conformance.js';
import { importHistory } from '../../store/import-history.js';
import { openStore } from '../../store/open-store.js';
import { createDuckDbEngines } from './engines.js';

async function duckDbEngines(fixture: StoreFixture) {
  const dir = mkdtempSync(join(tmpdir(), `maphist-conformance-${fixture.name}-`));
  const db = join(dir, 'store.duckdb');
  await importHistory({ input: fixture.history, db, workers: 1, ...(fixture.changesets ? { changesets: fixture.changesets } : {}) });
  const store = await openStore(db);
  const engines = await createDuckDbEngines(store);
  return {
    ...engines,
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeEngineConformance('DuckDB', duckDbEngines);
