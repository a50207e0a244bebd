/**
 * The fuzzer's side probe (runner.ts), on a thread of its own: GET /v1/metadata and /v2-rc/health
 * every `everyMs` on their own connections, each answer's wait posted to the fuzzer. On its own
 * event loop, the wait it measures is the server's, not the fuzzer's: building and sending a
 * catalogue entry of megabytes stalls the fuzzer's loop for a second or more on 2 cores, and a
 * probe answered meanwhile would be read late and counted slow.
 */
import { Agent } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { send } from './runner.js';

export interface ProbeWorkerData {
  url: string;
  everyMs: number;
  timeoutMs: number;
}

export interface ProbeResult {
  path: string;
  ms: number;
  status: number | undefined;
  outcome: string;
  error?: string;
}

const { url, everyMs, timeoutMs } = workerData as ProbeWorkerData;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const target = new URL(url);
const pending = new Set<Promise<void>>();
let n = 0;
const timer = setInterval(() => {
  const path = n++ % 2 === 0 ? '/v1/metadata' : '/v2-rc/health';
  const p = send(target, { method: 'GET', path, headers: {} }, agent, timeoutMs).then((a) => {
    const result: ProbeResult = { path, ms: a.ms, status: a.status, outcome: a.outcome, error: a.error };
    parentPort!.postMessage(result);
  });
  pending.add(p);
  void p.finally(() => pending.delete(p));
}, everyMs);

parentPort!.on('message', async (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  await Promise.all(pending);
  agent.destroy();
  parentPort!.postMessage('done');
  parentPort!.close();
});
