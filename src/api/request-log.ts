/**
 * One line per request, written when the answer has left (or the client went away): method, path
 * (without the query string, which can hold a whole GeoJSON boundary), status, duration and the
 * bytes sent. Plain text by default, or JSON lines (`maphist serve --log-format json`):
 *
 *   2026-11-24T16:30:00.123Z GET /v1/elements/count 200 12.3 ms 1843 B
 *   {"time":"2026-11-24T16:30:00.123Z","method":"GET","path":"/v1/elements/count","status":200,"ms":12.3,"bytes":1843}
 *
 * A streamed answer (extraction) is logged when its stream ends, with every byte it sent. An answer
 * that did not finish (the client went away, or a failure or the time limit cut a stream) is marked
 * `aborted`, with the status already sent, or 499 (nginx's "client closed request") when the client
 * left before the answer's first byte. Bytes are counted on the socket (headers included), so they
 * are what the client was sent, compressed or not.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type RequestLogFormat = 'text' | 'json';

export interface RequestLogOptions {
  format: RequestLogFormat;
  /** Receives each line, without the line feed. */
  write: (line: string) => void;
  /** The clock (tests). */
  now?: () => Date;
}

export interface RequestLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  bytes: number;
  aborted?: true;
}

/** The status logged for a request whose client left before the answer's status line was sent. */
export const CLIENT_CLOSED_STATUS = 499;

export function formatRequestLog(entry: RequestLogEntry, format: RequestLogFormat): string {
  if (format === 'json') return JSON.stringify(entry);
  return `${entry.time} ${entry.method} ${entry.path} ${entry.status} ${entry.ms.toFixed(1)} ms ${entry.bytes} B${entry.aborted ? ' aborted' : ''}`;
}

/** Logs every request of `app` (call on the root instance, before the routes). */
export function installRequestLog(app: FastifyInstance, options: RequestLogOptions): void {
  app.addHook('onRequest', (request, reply, done) => {
    trackRequest(request, reply, options);
    done();
  });
}

/**
 * Logs one request when its answer closes. The onRequest hook calls it; so does the server for a
 * request Fastify refuses before any hook runs (a URL that cannot be decoded: `frameworkErrors`).
 */
export function trackRequest(request: FastifyRequest, reply: FastifyReply, options: RequestLogOptions): void {
  const now = options.now ?? (() => new Date());
  const started = process.hrtime.bigint();
  const socket = request.raw.socket as { bytesWritten?: number } | undefined; // absent for injected requests
  const bytesBefore = socket?.bytesWritten ?? 0;
  const res = reply.raw;
  res.once('close', () => {
    const url = request.raw.url ?? request.url;
    const q = url.indexOf('?');
    const entry: RequestLogEntry = {
      time: now().toISOString(),
      method: request.method,
      path: q >= 0 ? url.slice(0, q) : url,
      // Before its headers go out, `statusCode` is only what the answer would have had.
      status: res.headersSent ? res.statusCode : CLIENT_CLOSED_STATUS,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
      bytes: (socket?.bytesWritten ?? 0) - bytesBefore,
    };
    if (!res.writableFinished) entry.aborted = true;
    options.write(formatRequestLog(entry, options.format));
  });
}
