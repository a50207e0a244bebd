/**
 * Streaming an extraction to the client. Design (docs/reference/v1-reference-behaviour.md §4.4, issue #5):
 *
 * - Everything that can fail is checked before the first byte: the parameters are parsed, the
 *   query is planned and started, and its first feature is produced. Until then a failure is an
 *   ordinary error answer (400/404/413/500 with the reference's body).
 * - Then the head, the features (as the engine produces them, in the order type, id, time) and
 *   the tail are written to the socket, gzip-compressed when the client accepts gzip. Writes wait
 *   for `drain`, so a slow client slows the DuckDB scan down instead of filling memory.
 * - A failure or the time limit striking after the first byte **aborts the connection** (the
 *   socket is destroyed without the terminating chunk; with gzip the stream also lacks its
 *   trailer). Unlike the reference, which appends an error object to the half-written document,
 *   no client can mistake a truncated file for a complete one: curl reports "transfer closed with
 *   outstanding read data remaining", browsers and fetch() a network error.
 * - When the client disconnects, the query is aborted: the feature iterator is closed, which
 *   interrupts the DuckDB statement.
 */
import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExtractedFeature } from '../../../query/extraction.js';
import { queryTimeoutError } from '../error-status.js';
import { ByteBatch } from './byte-batch.js';
import { featureText, FEATURE_SEPARATOR, GEOJSON_CONTENT_TYPE, TAIL, type FeatureOptions } from './geojson.js';

/** Bytes gathered before one write to the socket. */
const WRITE_BATCH = 64 * 1024;

export interface StreamOptions {
  head: string;
  feature: FeatureOptions;
  cacheControl: string;
  timeoutSeconds: number;
  /** Starts the query; the iterator must stop its work when `signal` aborts or when it is closed. */
  start(signal: AbortSignal): AsyncGenerator<ExtractedFeature, void, undefined>;
}

export function acceptsGzip(request: FastifyRequest): boolean {
  const h = request.headers['accept-encoding'];
  const v = Array.isArray(h) ? h.join(',') : (h ?? '');
  return /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(v);
}

/**
 * Writes, then waits for `drain` when the sink's buffer is full; rejects if the sink closes or
 * `signal` aborts first (the signal aborts when the client goes away: with gzip the sink is the
 * compressor, which is not closed with the response, so only the signal guarantees that a wait
 * for its drain ends and the query, with its DuckDB memory, is released). `written` runs once the
 * sink no longer needs the bytes.
 */
function write(sink: Writable, chunk: Buffer, written: () => void, signal: AbortSignal): Promise<void> | undefined {
  if (sink.write(chunk, (e) => e || written())) return undefined;
  return new Promise<void>((resolve, reject) => {
    const done = (e?: unknown) => {
      sink.off('drain', onDrain);
      sink.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (e) reject(e);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('the response stream closed'));
    const onAbort = () => done(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    sink.on('drain', onDrain);
    sink.on('close', onClose);
    signal.addEventListener('abort', onAbort);
  });
}

export async function streamExtraction(request: FastifyRequest, reply: FastifyReply, o: StreamOptions): Promise<FastifyReply> {
  const controller = new AbortController();
  const timeout = queryTimeoutError();
  const timer = setTimeout(() => controller.abort(timeout), Math.max(0, Math.round(o.timeoutSeconds * 1000)));
  const res: ServerResponse = reply.raw;
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the connection'));
  };
  res.on('close', onClose);
  const features = o.start(controller.signal);
  let first: IteratorResult<ExtractedFeature, void>;
  try {
    // Validate before the first byte: plan, start the query, produce the first feature.
    first = await features.next();
  } catch (e) {
    clearTimeout(timer);
    res.off('close', onClose);
    await features.return(undefined).catch(() => undefined);
    if (controller.signal.reason === timeout) throw timeout;
    throw e;
  }

  reply.hijack();
  const headers: Record<string, string | string[] | number> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string | string[] | number;
  headers['content-type'] = GEOJSON_CONTENT_TYPE;
  headers['content-disposition'] = 'attachment;filename=maphist.geojson';
  headers['cache-control'] = o.cacheControl;
  const gzip = acceptsGzip(request);
  if (gzip) {
    headers['content-encoding'] = 'gzip';
    headers['vary'] = 'accept-encoding';
  }
  res.writeHead(200, headers);
  // Put the 200 on the wire now: features are batched before the first body write, and a failure in
  // between would otherwise close the socket before the client saw any status at all.
  res.flushHeaders();
  const sink: Writable = gzip ? createGzip({ level: 1 }) : res;
  if (gzip) sink.pipe(res);

  // Feature texts are copied into a byte buffer as they are made, so they die young (a string
  // buffer of 64 KB keeps hundreds of them alive until it is written).
  const out = new ByteBatch(WRITE_BATCH);
  out.add(o.head);
  let count = 0;
  try {
    for (let r = first; !r.done; r = await features.next()) {
      if (controller.signal.aborted) throw controller.signal.reason;
      const text = featureText(r.value, o.feature);
      if (text === null) continue;
      if (count++ > 0) out.add(FEATURE_SEPARATOR);
      out.add(text);
      if (out.full) {
        const batch = out.take();
        const pending = write(sink, batch, () => out.recycle(batch), controller.signal);
        if (pending) await pending;
      }
    }
    if (controller.signal.aborted) throw controller.signal.reason;
    out.add(TAIL);
    sink.end(out.take());
    if (!res.writableFinished) {
      await new Promise<void>((resolve) => {
        res.once('finish', resolve);
        res.once('close', resolve);
      });
    }
  } catch (e) {
    // Mid-stream: never finish the document. Destroy the socket so the client sees a broken transfer.
    const clientGone = controller.signal.aborted && controller.signal.reason !== timeout && res.destroyed;
    if (!clientGone) request.log.warn({ err: e }, 'extraction aborted mid-stream');
    controller.abort(e);
    if (gzip) sink.destroy();
    res.destroy();
    request.raw.socket?.destroy();
  } finally {
    clearTimeout(timer);
    res.off('close', onClose);
    await features.return(undefined).catch(() => undefined);
  }
  return reply;
}
