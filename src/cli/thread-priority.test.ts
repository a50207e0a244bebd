import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { lowerOtherThreads } from './thread-priority.js';

/** A thread's nice value from /proc (field 19 of its stat line; the name before it may hold spaces). */
function niceOf(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return undefined; // the thread has ended
  }
}

test('every thread but the main one runs at the lower priority, threads started later too', {
  skip: process.platform !== 'linux' && 'Linux only',
}, async () => {
  const own = niceOf(process.pid)!;
  const priority = lowerOtherThreads(5, 60_000);
  const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
  try {
    const first = new Set(priority.lowered);
    assert.ok(first.size > 0, 'a Node process has threads besides the main one (V8, libuv)');
    await once(worker, 'online');
    priority.scan();
    const later = [...priority.lowered].filter((tid) => !first.has(tid));
    assert.ok(later.length > 0, "the worker's thread is found by the next scan");
    assert.ok(!priority.lowered.has(process.pid));
    assert.equal(niceOf(process.pid), own, 'the main thread keeps its priority');
    for (const tid of priority.lowered) {
      const nice = niceOf(tid);
      if (nice !== undefined) assert.equal(nice, Math.min(19, own + 5), `thread ${tid}`);
    }
  } finally {
    priority.stop();
    await worker.terminate();
  }
});
