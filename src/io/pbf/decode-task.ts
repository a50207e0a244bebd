/**
 * One unit of work for the decoder threads: an OSMData blob in, its decoded block out. Shared by
 * the worker entry point and the no-worker (inline) mode, so both decode exactly alike.
 */

import { MaphistError, type ErrorCode } from '../../core/errors.js';
import type { OsmVersion } from '../../core/osm.js';
import type { OrderCheck } from '../version-order.js';
import { inflateBlob } from './blob-inflate.js';
import { transferList, type DecodedBlock } from './decoded-block.js';
import { materializeBlock } from './materialize.js';
import { decodePrimitiveBlock } from './primitive-block.js';

/**
 * How decoded blocks travel from a worker to the main thread:
 * - 'columns': typed arrays (transferred) + string table; records are built on the main thread.
 * - 'objects': the worker builds the records and they are structured-cloned. Slower; kept so
 *   the difference can be measured (see bench-reader.ts).
 */
export type BlockTransport = 'columns' | 'objects';

export interface DecodeTask {
  seq: number;
  /** The serialized Blob message. */
  blob: Uint8Array;
  /** File offset of the blob, for error messages. */
  offset: number;
}

export type DecodeOutcome =
  | { seq: number; kind: 'columns'; block: DecodedBlock }
  | { seq: number; kind: 'records'; records: OsmVersion[] }
  | { seq: number; kind: 'error'; code: ErrorCode; message: string; details: Record<string, unknown> | undefined };

/** Accepts every order: in 'objects' mode the main thread checks the order of the received records. */
const NO_ORDER_CHECK: OrderCheck = { check(): void {} };

export function runDecodeTask(task: DecodeTask, path: string, transport: BlockTransport): DecodeOutcome {
  const origin = { path, offset: task.offset };
  try {
    const block = decodePrimitiveBlock(inflateBlob(task.blob, origin), origin);
    if (transport === 'objects') return { seq: task.seq, kind: 'records', records: materializeBlock(block, NO_ORDER_CHECK) };
    return { seq: task.seq, kind: 'columns', block };
  } catch (e) {
    if (e instanceof MaphistError) return { seq: task.seq, kind: 'error', code: e.code, message: e.message, details: e.details };
    throw e; // a bug, not bad input: let it surface as such
  }
}

/** The buffers to transfer along with an outcome. */
export function outcomeTransferList(outcome: DecodeOutcome): ArrayBuffer[] {
  return outcome.kind === 'columns' ? transferList(outcome.block) : [];
}
