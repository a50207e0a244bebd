/**
 * The decoder threads. Each blob goes to the worker with the fewest tasks in hand; the blob's
 * buffer is transferred (not copied) to it, and the decoded block's typed arrays are transferred
 * back. With 0 workers, blobs are decoded on the calling thread instead (same code).
 *
 * The pool does not order anything: every decode() returns its own promise, and the caller
 * (block-pipeline.ts) awaits them in file order.
 */

import { Worker } from 'node:worker_threads';
import { runDecodeTask, type BlockTransport, type DecodeOutcome, type DecodeTask } from './decode-task.js';
import type { DecodeWorkerData } from './decode-worker.js';

interface PendingTask {
  resolve: (outcome: DecodeOutcome) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  /** Tasks sent and not yet answered, in the order sent (a worker answers in that order). */
  pending: PendingTask[];
}

export class DecodePool {
  private readonly workers: PoolWorker[] = [];
  private failure: Error | undefined;
  private terminated = false;

  constructor(
    workerCount: number,
    private readonly path: string,
    private readonly transport: BlockTransport,
  ) {
    const workerData: DecodeWorkerData = { path, transport };
    for (let i = 0; i < workerCount; i++) {
      const worker = new Worker(new URL('./decode-worker.js', import.meta.url), { workerData });
      const entry: PoolWorker = { worker, pending: [] };
      worker.on('message', (outcome: DecodeOutcome) => entry.pending.shift()?.resolve(outcome));
      // An exception inside a worker is a bug in the decoder (bad input comes back as an
      // 'error' outcome); fail everything that is waiting rather than hang.
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (!this.terminated) this.fail(new Error(`PBF decoder worker exited unexpectedly (exit code ${code})`));
      });
      this.workers.push(entry);
    }
  }

  decode(task: DecodeTask): Promise<DecodeOutcome> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.workers.length === 0) {
      try {
        return Promise.resolve(runDecodeTask(task, this.path, this.transport));
      } catch (e) {
        return Promise.reject(e as Error);
      }
    }
    let target = this.workers[0]!;
    for (const w of this.workers) if (w.pending.length < target.pending.length) target = w;
    return new Promise<DecodeOutcome>((resolve, reject) => {
      target.pending.push({ resolve, reject });
      target.worker.postMessage(task, [task.blob.buffer as ArrayBuffer]);
    });
  }

  async terminate(): Promise<void> {
    if (this.terminated) return;
    this.terminated = true;
    this.fail(new Error('the PBF reader was closed'));
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const w of this.workers) {
      for (const task of w.pending.splice(0)) task.reject(error);
    }
  }
}
