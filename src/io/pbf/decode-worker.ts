/**
 * Entry point of a decoder worker thread. It receives OSMData blobs (their buffers transferred
 * from the main thread), inflates and decodes each, and posts the outcome back, transferring the
 * result's typed arrays. Tasks are answered in the order they arrive.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { outcomeTransferList, runDecodeTask, type BlockTransport, type DecodeTask } from './decode-task.js';

export interface DecodeWorkerData {
  path: string;
  transport: BlockTransport;
}

const { path, transport } = workerData as DecodeWorkerData;
const port = parentPort!;

port.on('message', (task: DecodeTask) => {
  const outcome = runDecodeTask(task, path, transport);
  port.postMessage(outcome, outcomeTransferList(outcome));
});
