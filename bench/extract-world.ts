/**
 * `npm run bench:extract:world -- <store.duckdb> [filter] [kind]`: one whole-world extraction
 * through the engine (no HTTP), to its end: features, seconds and the process's peak RSS. Shows
 * that world-sized snapshot, full-history and contribution extractions finish in bounded memory
 * (kind: snapshot at T, default the store's last timestamp; fullHistory or contributions over
 * [T1, T]; T and T1 from the environment, ISO dates).
 */
import { readFileSync } from 'node:fs';
import { parseFilter } from '../src/filter/index.js';
import { openStore } from '../src/store/open-store.js';
import { createDuckDbExtractionEngine } from '../src/engines/duckdb/extraction.js';
import { epoch } from '../src/store/test-support.js';
import type { ExtractionKind } from '../src/query/extraction.js';
import { machineDescription } from './support.js';

const [db, filterText = 'type:node', kind = 'snapshot'] = process.argv.slice(2);
if (!db) throw new Error('usage: npm run bench:extract:world -- <store.duckdb> [filter] [snapshot|fullHistory|contributions|latestContributions]');
const hwmMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

const store = await openStore(db);
const engine = await createDuckDbExtractionEngine(store);
const t2 = epoch(process.env.T ?? store.metadata.lastTimestamp);
const t1 = process.env.T1 ? epoch(process.env.T1) : t2 - 365 * 86400;
const area = {
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
const query = {
  kind: kind as ExtractionKind,
  areas: [area],
  timestamps: kind === 'snapshot' ? [t2] : [t1, t2],
  filter: parseFilter(filterText, { version: 1 }),
  clipGeometry: true,
};
const started = performance.now();
let features = 0;
let failure: string | undefined;
try {
  for await (const _ of engine.extract(query)) features++;
} catch (e) {
  failure = (e as Error).message.split('\n')[0];
}
const seconds = (performance.now() - started) / 1000;
store.close();
console.log(`- machine: ${machineDescription()}`);
console.log(
  `- \`${db}\`, ${kind}, filter \`${filterText}\`, ${kind === 'snapshot' ? new Date(t2 * 1000).toISOString() : `${new Date(t1 * 1000).toISOString()} – ${new Date(t2 * 1000).toISOString()}`}: ` +
    `${failure ? `**failed** after ${features.toLocaleString('en')} features: ${failure}` : `${features.toLocaleString('en')} features`} in ${seconds.toFixed(1)} s ` +
    `(${Math.round(features / seconds).toLocaleString('en')} features/s), peak RSS ${hwmMb().toFixed(0)} MB`,
);
process.exit(failure ? 1 : 0);
