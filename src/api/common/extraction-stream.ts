/**
 * The one extraction pipeline from an engine's record stream to the client, for every format
 * (v1 GeoJSON: v1/extraction/geojson-writer.ts; v2 GeoParquet: v2/format/geoparquet/). Design
 * (docs/reference/v1-reference-behaviour.md §4.4, issues #5 and #16):
 *
 * - Everything that can fail is checked before the first byte: the parameters are parsed, the
 *   query is planned and started, and its first record is produced. Until then a failure is an
 *   ordinary error answer of the API (its error handler maps the error, including the request's
 *   abort reasons, to its status).
 * - Then the 200 and its headers go on the wire at once, and the format's writer turns the records
 *   (as the engine produces them) into bytes on the output, gzip-compressed when the format asks
 *   for it and the client accepts gzip. Writes wait for `drain` (`writeWithDrain`), so a slow
 *   client slows the engine down instead of filling memory.
 * - A failure or an abort (time limit, shutdown) after the first byte **aborts the connection**
 *   (the socket is destroyed without the terminating chunk; with gzip the stream also lacks its
 *   trailer): no client can mistake a truncated file for a complete one.
 * - The request's one signal (shared/cancellation.ts) reaches the engine: the time limit, the
 *   client's disconnect and the server's shutdown all stop its work; the record iterator is closed
 *   in every case.
 */
import { slicer } from '../../core/yielding.js';
import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { abortCauseOf, cancellationOf } from './cancellation.js';

/** A format's writer over the output: records in, bytes out. */
export interface RecordWriter<R> {
  /** Writes one record; a promise when the output must drain before the next. */
  add(record: R): Promise<void> | undefined;
  /** Writes what ends the document (tail, footer); the pipeline then ends the output. */
  finish(): Promise<void>;
}

export interface ExtractionStreamOptions<R> {
  /** Starts the query: the iterator must stop its work when `signal` aborts or when it is closed. */
  records(signal: AbortSignal): AsyncGenerator<R, void, undefined>;
  /** The time limit in seconds. */
  timeoutSeconds: number;
  /** Headers of the 200 answer (content type, disposition, cache control). */
  headers: Record<string, string>;
  /** Compress with gzip when the client accepts it (text formats). */
  gzip: boolean;
  /** The format's writer over the output (the compressor or the response); `signal` aborts pending writes. */
  writer(out: Writable, signal: AbortSignal): RecordWriter<R>;
}

/** A writer of batches from a writer of records (an engine that yields its records in batches). */
export function batchWriter<R>(writer: RecordWriter<R>): RecordWriter<readonly R[]> {
  async function rest(pending: Promise<void>, batch: readonly R[], from: number): Promise<void> {
    await pending;
    for (let i = from; i < batch.length; i++) {
      const p = writer.add(batch[i]);
      if (p) await p;
    }
  }
  return {
    add(batch) {
      for (let i = 0; i < batch.length; i++) {
        const p = writer.add(batch[i]);
        if (p) return rest(p, batch, i + 1);
      }
      return undefined;
    },
    finish: () => writer.finish(),
  };
}

/** A writer of bytes already encoded (an engine that writes the format itself): each chunk to the output, waiting for its drain. */
export function bytesWriter(out: Writable, signal: AbortSignal): RecordWriter<Uint8Array> {
  return {
    add: (chunk) => writeWithDrain(out, chunk, signal),
    finish: async () => undefined,
  };
}

export function acceptsGzip(request: FastifyRequest): boolean {
  const h = request.headers['accept-encoding'];
  const v = Array.isArray(h) ? h.join(',') : (h ?? '');
  return /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(v);
}

/**
 * Writes, then waits for `drain` when the sink's buffer is full; rejects if the sink closes or
 * `signal` aborts first (with gzip the sink is the compressor, which is not closed with the
 * response, so only the signal guarantees that a wait for its drain ends and the query is
 * released). `written` runs once the sink no longer needs the bytes.
 */
export function writeWithDrain(sink: Writable, chunk: Uint8Array, signal: AbortSignal, written?: () => void): Promise<void> | undefined {
  if (sink.destroyed) return Promise.reject(sink.errored ?? signal.reason ?? new Error('the response stream closed'));
  if (sink.write(chunk, written && ((e) => e || written()))) return undefined;
  return new Promise<void>((resolve, reject) => {
    const done = (e?: unknown) => {
      sink.off('drain', onDrain);
      sink.off('close', onClose);
      sink.off('error', onError);
      signal.removeEventListener('abort', onAbort);
      if (e) reject(e);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(sink.errored ?? new Error('the response stream closed'));
    const onError = (e: Error) => done(e);
    const onAbort = () => done(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    sink.on('drain', onDrain);
    sink.on('close', onClose);
    sink.on('error', onError);
    signal.addEventListener('abort', onAbort);
  });
}

export async function streamExtraction<R>(request: FastifyRequest, reply: FastifyReply, o: ExtractionStreamOptions<R>): Promise<FastifyReply> {
  const cancellation = cancellationOf(request);
  cancellation.limit(o.timeoutSeconds);
  const signal = cancellation.signal;
  const res: ServerResponse = reply.raw;
  const records = o.records(signal);
  let first: IteratorResult<R, void>;
  try {
    // Validate before the first byte: plan, start the query, produce the first record. An abort
    // answers at once, even if the engine has not noticed it yet.
    first = await cancellation.run(() => records.next());
  } catch (e) {
    // (An engine still busy closes when it notices the signal; the answer does not wait for it.)
    const closed = records.return(undefined).catch(() => undefined);
    if (!signal.aborted) await closed;
    throw e;
  }

  reply.hijack();
  const headers: Record<string, string | string[] | number> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string | string[] | number;
  Object.assign(headers, o.headers);
  const gzip = o.gzip && acceptsGzip(request);
  if (gzip) {
    headers['content-encoding'] = 'gzip';
    headers['vary'] = 'accept-encoding';
  }
  res.writeHead(200, headers);
  // Put the 200 on the wire now: writers batch their bytes, and a failure before the first body
  // write would otherwise close the socket before the client saw any status at all.
  res.flushHeaders();
  const sink: Writable = gzip ? createGzip({ level: 1 }) : res;
  if (gzip) sink.pipe(res);
  const writer = o.writer(sink, signal);

  try {
    // Producing a record (clipping, classifying) runs on the main thread, and a generator whose
    // rows are already read resolves in microtasks only: without a turn now and then the event
    // loop (health checks, this socket's close) would wait for a whole batch (src/core/yielding.ts).
    const pause = slicer();
    for (let r = first; !r.done; r = await records.next()) {
      if (signal.aborted) throw signal.reason;
      const pending = writer.add(r.value);
      if (pending) await pending;
      const turn = pause();
      if (turn) await turn;
    }
    if (signal.aborted) throw signal.reason;
    await writer.finish();
    sink.end();
    if (!res.writableFinished) {
      await new Promise<void>((resolve) => {
        res.once('finish', resolve);
        res.once('close', resolve);
      });
    }
  } catch (e) {
    // Mid-stream: never finish the document. Destroy the socket so the client sees a broken transfer.
    if (abortCauseOf(signal.reason) !== 'disconnect') request.log.warn({ err: e }, 'extraction aborted mid-stream');
    if (gzip) sink.destroy();
    res.destroy();
    request.raw.socket?.destroy();
  } finally {
    await records.return(undefined).catch(() => undefined);
  }
  return reply;
}
