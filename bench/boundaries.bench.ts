/**
 * bench:boundaries — many boundaries in one request (issue 21 part 3): snapshots grouped by
 * boundary over N boxes tiling a country (default 3,000, the issue's figure; version 1's API takes
 * at most 1,000 per request, docs/limits.md, so this runs the engine itself), yearly for 7 years,
 * buildings counted. Against, in the same run: the same query over one boundary (the country's
 * box), and the previous plan, one scan per box (N single-box queries).
 *
 *   npm run build && node dist/bench/boundaries.bench.js [--db STORE] [--boxes 3000] [--runs 3]
 *
 * Without --db the merged four-country history is imported into a temp dir. Prints machine,
 * store, the medians and the ratios; writes its section of bench/RESULTS.md.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { parseFilter } from '../src/filter/index.js';
import { openStore } from '../src/store/open-store.js';
import { importToTemp } from '../src/store/test-support.js';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';
import { createDuckDbQueryEngine } from '../src/engines/duckdb/engine.js';
import type { AreaOfInterest, GroupedSeries } from '../src/query/model.js';
import type { BBox, Position } from '../src/geometry/types.js';
import { machineDescription, median, replaceResultsSection } from './support.js';

const { values } = parseArgs({
  options: { db: { type: 'string' }, boxes: { type: 'string', default: '3000' }, runs: { type: 'string', default: '3' } },
});
const N = Number(values.boxes);
const RUNS = Number(values.runs);

/** Andorra, the country of bench/cases.ts. */
const COUNTRY: BBox = [1.4, 42.42, 1.8, 42.66];

function box(b: BBox, id: string): AreaOfInterest {
  const [x0, y0, x1, y1] = b;
  const ring: Position[] = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
  return { id, bbox: b, geometry: { type: 'Polygon', coordinates: [ring] } };
}

/** `n` boxes tiling `b` (columns × rows as near square as the counts allow). */
function tiles(b: BBox, n: number): AreaOfInterest[] {
  const cols = Math.ceil(Math.sqrt(n * ((b[2] - b[0]) / (b[3] - b[1]))));
  const rows = Math.ceil(n / cols);
  const dx = (b[2] - b[0]) / cols;
  const dy = (b[3] - b[1]) / rows;
  const out: AreaOfInterest[] = [];
  for (let k = 0; k < n; k++) {
    const i = k % cols;
    const j = Math.floor(k / cols);
    out.push(box([b[0] + i * dx, b[1] + j * dy, b[0] + (i + 1) * dx, b[1] + (j + 1) * dy], `t${k}`));
  }
  return out;
}

const imported = values.db ? undefined : await importToTemp(FOUR_COUNTRIES);
const store = imported?.store ?? (await openStore(values.db!, { readOnly: true }));
try {
  const engine = await createDuckDbQueryEngine(store);
  const timestamps = Array.from({ length: 8 }, (_, k) => Date.UTC(2010 + k, 0, 1) / 1000);
  const filter = parseFilter('building=*', { version: 1 });
  const areas = tiles(COUNTRY, N);
  const run = (as: AreaOfInterest[]): Promise<GroupedSeries> =>
    engine.aggregateSnapshots({ areas: as, timestamps, filter, measure: 'count', grouping: { by: 'boundary' } });
  const timed = async (f: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  // Warm-up, and the answers checked against each other: the one-scan plan against a scan per box.
  const all = await run(areas);
  const sums = all.groups.map((g) => g.values.join(','));
  for (const k of [0, Math.floor(N / 2), N - 1]) {
    const single = await run([areas[k]]);
    if (single.groups[0].values.join(',') !== sums[k]) throw new Error(`box ${k}: ${single.groups[0].values} (alone) vs ${sums[k]} (among ${N})`);
  }
  const oneMs: number[] = [];
  const manyMs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    oneMs.push(await timed(() => run([box(COUNTRY, 'country')])));
    manyMs.push(await timed(() => run(areas)));
  }
  // The previous plan: a scan per box (what a request of fewer boxes than BOX_SCAN_MIN_AREAS still runs), once.
  const perBoxMs = await timed(async () => {
    for (const a of areas) await run([a]);
  });
  const one = median(oneMs);
  const many = median(manyMs);
  const la = loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  const lines = [
    `machine: ${machineDescription()}; load average ${la} at the end`,
    `store: ${values.db ?? `${FOUR_COUNTRIES.split('/').pop()} imported afresh`}; ${N} boxes tiling Andorra (${COUNTRY.join(', ')}), yearly 2010–2017 (8 timestamps), building=*, count, groupBy boundary (the engine, no HTTP)`,
    `one boundary (the country's box): median ${one.toFixed(0)} ms of ${RUNS}`,
    `${N} boxes in one scan: median ${many.toFixed(0)} ms of ${RUNS} → ${(many / one).toFixed(1)}× one boundary (target under 30×)`,
    `${N} boxes, a scan per box (the previous plan), once: ${perBoxMs.toFixed(0)} ms → ${(perBoxMs / one).toFixed(1)}× one boundary; one scan is ${(perBoxMs / many).toFixed(1)}× faster`,
  ];
  for (const l of lines) console.log(l);
  replaceResultsSection(
    'boundaries',
    `## Many boundaries in one request (\`node dist/bench/boundaries.bench.js\`)\n\n${lines.map((l) => `- ${l}`).join('\n')}\n\n`,
  );
} finally {
  if (imported) imported.dispose();
  else store.close();
}
