/**
 * Reader throughput: versions per second from openHistory() to a consumer that touches every
 * record (counts versions, sums member list lengths), for several thread counts and for both
 * ways of bringing decoded blocks back from the workers.
 *
 *   npx tsc -p tsconfig.json && node dist/src/io/bench-reader.js [FILE] [--runs N] [--workers 0,1,2]
 *       [--transport columns,objects] [--consumer-us MICROSECONDS_PER_VERSION]
 *
 * --consumer-us makes the consumer busy-wait that long per version, standing in for the import
 * pipeline: the wall time minus that work is what the reader costs the main thread.
 *
 * Default FILE: testdata/history/oshdb-4countries-merged.osh.pbf. Prints one line per
 * configuration: best and median wall time and throughput over the runs, the median CPU time of
 * the process (all threads), and peak RSS.
 */

import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import type { OsmVersion } from '../core/osm.js';
import { openInputFile } from './input-file.js';
import { openHistory } from './open-history.js';
import type { OpenedHistory } from './opened-history.js';
import type { BlockTransport } from './pbf/decode-task.js';
import { defaultWorkerCount, openPbfHistory } from './pbf/pbf-history.js';
import { FOUR_COUNTRIES } from '../testing/test-data.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    workers: { type: 'string' },
    transport: { type: 'string', default: 'columns' },
    'consumer-us': { type: 'string', default: '0' },
  },
});

const path = positionals[0] ?? FOUR_COUNTRIES;
const runs = Number(values.runs);
const workerCounts = (values.workers ?? `${defaultWorkerCount()}`).split(',').map(Number);
const transports = values.transport!.split(',') as BlockTransport[];
/** Simulated consumer work per version (busy wait), to see how much main-thread time the reader leaves. */
const consumerMicros = Number(values['consumer-us']);

function busyWait(micros: number): void {
  const until = performance.now() + micros / 1000;
  while (performance.now() < until) {
    // spin: stands in for the import pipeline's work on the batch
  }
}

async function open(workers: number, transport: BlockTransport): Promise<OpenedHistory> {
  if (transport === 'columns') return openHistory(path, { workers });
  return openPbfHistory(await openInputFile(path), path, { workers, transport }); // PBF only
}

interface RunResult {
  seconds: number;
  /** CPU seconds of the whole process (all threads): less sensitive than wall time to other load on the machine. */
  cpuSeconds: number;
  versions: number;
}

async function timeOneRun(workers: number, transport: BlockTransport): Promise<RunResult> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const history = await open(workers, transport);
  let versions = 0;
  let members = 0;
  for await (const batch of history.batches()) {
    if (consumerMicros > 0) busyWait(batch.length * consumerMicros);
    for (const v of batch as OsmVersion[]) {
      versions++;
      if (v.type === 'way') members += v.refs.length;
      else if (v.type === 'relation') members += v.members.length;
    }
  }
  await history.close();
  if (members === 0 && versions === 0) throw new Error('empty input');
  const cpu = process.cpuUsage(cpuStart);
  return { seconds: (performance.now() - start) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, versions };
}

console.log(`file ${path}`);
console.log(
  `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ${runs} runs per configuration` +
    (consumerMicros > 0 ? `, consumer busy ${consumerMicros} µs per version` : ''),
);
for (const transport of transports) {
  for (const workers of workerCounts) {
    const times: number[] = [];
    const cpuTimes: number[] = [];
    let versions = 0;
    for (let r = 0; r < runs; r++) {
      const result = await timeOneRun(workers, transport);
      times.push(result.seconds);
      cpuTimes.push(result.cpuSeconds);
      versions = result.versions;
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const best = times[0]!;
    const median = times[Math.floor(times.length / 2)]!;
    const rate = (s: number) => Math.round(versions / s).toLocaleString('en-US');
    console.log(
      `transport=${transport} workers=${workers}: ${versions.toLocaleString('en-US')} versions; ` +
        `best ${best.toFixed(3)} s (${rate(best)}/s), median ${median.toFixed(3)} s (${rate(median)}/s); ` +
        `CPU median ${cpuTimes[Math.floor(cpuTimes.length / 2)]!.toFixed(3)} s; ` +
        `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    );
  }
}
