/**
 * The one cancellation mechanism of the server: every request gets one AbortSignal, handed to the
 * engine, which is aborted by
 *
 * - its **time limit** (set by the route once it knows it: v1's `timeout` parameter, v2's
 *   statistics and extraction limits; before that, admission sets the server's largest limit for
 *   the wait in its queue), counted from the request's arrival: the wait for a slot and the
 *   reading of the body count, so a client waits no longer than its limit for an answer or a
 *   refusal; reason: a QUERY_TIMEOUT error;
 * - the client's **disconnect** (the response closes before it was finished), reason: a
 *   CLIENT_DISCONNECTED error;
 * - **server shutdown** (`app.close()`: every request in flight is aborted, so the engines stop
 *   their work and the server closes without waiting for them), reason: a SERVER_SHUTTING_DOWN error.
 *
 * The reasons are catalog errors (core/errors.ts), so each API maps them to its own status in its
 * error-status.ts (v1: 413 with the reference's message; v2: 504). `run` answers with the reason as
 * soon as the signal aborts, even if the engine has not noticed yet.
 */
import { setMaxListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MaphistError } from '../../core/errors.js';

export type AbortCause = 'timeout' | 'disconnect' | 'shutdown';

export interface RequestCancellation {
  /** Aborted with the cause's error (`abortCauseOf` tells which). */
  readonly signal: AbortSignal;
  /** Sets the time limit, counted from the request's arrival (a second call replaces the first). */
  limit(seconds: number): void;
  /** Runs `work` until it settles or the signal aborts; then rejects with the signal's reason. */
  run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

const CODES = { timeout: 'QUERY_TIMEOUT', disconnect: 'CLIENT_DISCONNECTED', shutdown: 'SERVER_SHUTTING_DOWN' } as const;
const MESSAGES: Record<AbortCause, string> = {
  timeout: 'The query took longer than its time limit and was cancelled.',
  disconnect: 'The client closed the connection; the query was cancelled.',
  shutdown: 'The server is shutting down; the query was cancelled.',
};

/** The error a request's signal is aborted with for `cause`. */
export function abortReason(cause: AbortCause): MaphistError {
  return new MaphistError(CODES[cause], MESSAGES[cause], { abortCause: cause });
}

/** Which of the three aborted the request, when `e` is a reason of this module. */
export function abortCauseOf(e: unknown): AbortCause | undefined {
  if (!(e instanceof MaphistError)) return undefined;
  const cause = e.details?.abortCause;
  return cause === 'timeout' || cause === 'disconnect' || cause === 'shutdown' ? cause : undefined;
}

const byRequest = new WeakMap<FastifyRequest['raw'], RequestCancellation>();

/** A request in flight: its signal's controller and its response. */
interface InFlight {
  controller: AbortController;
  res: ServerResponse;
}

function createCancellation(res: ServerResponse, inFlight: Set<InFlight>, controller: AbortController): RequestCancellation {
  const signal = controller.signal;
  const arrived = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const entry = { controller, res };
  inFlight.add(entry);
  const disconnected = () => {
    if (!res.writableFinished && !signal.aborted) controller.abort(abortReason('disconnect'));
  };
  // A client that hangs up mid-answer ends the socket first: Node then ends its side too (no
  // half-open connections), so the answer can never finish, but `close` waits for the next write,
  // which a writer of whole row groups (GeoParquet) makes only seconds later. The socket's `end`
  // aborts the work at once.
  const socket = res.socket;
  socket?.once('end', disconnected);
  res.once('close', () => {
    clearTimeout(timer);
    inFlight.delete(entry);
    socket?.off('end', disconnected);
    disconnected();
  });
  return {
    signal,
    limit(seconds) {
      clearTimeout(timer);
      if (signal.aborted) return;
      timer = setTimeout(
        () => {
          if (!signal.aborted) controller.abort(abortReason('timeout'));
        },
        Math.max(0, Math.round(seconds * 1000 - (performance.now() - arrived))),
      );
    },
    async run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
      if (signal.aborted) throw signal.reason;
      const p = work(signal);
      p.catch(() => undefined);
      let onAbort: () => void = () => undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(() => undefined);
      try {
        return await Promise.race([p, aborted]);
      } catch (e) {
        // The engine rejects with the signal's reason, or with its own abort error: either way the reason.
        if (signal.aborted) throw signal.reason;
        throw e;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/**
 * Gives every request of `app` (the root: the hooks reach every plugin registered after this) its
 * cancellation, and aborts those in flight when the server closes.
 */
/** Listeners a request's signal may have at once before Node warns of a leak. */
const MAX_SIGNAL_LISTENERS = 256;

export function installCancellation(app: FastifyInstance): void {
  const inFlight = new Set<InFlight>();
  let closing = false;
  app.addHook('onRequest', (request, reply, done) => {
    const controller = new AbortController();
    // Every statement and every geometry-pool task of the request listens to its signal while it
    // runs: a request whose boundary geometries go to the pool in many parts has more than Node's
    // default of 10 at once, which is no leak (each is removed when its task ends).
    setMaxListeners(MAX_SIGNAL_LISTENERS, controller.signal);
    byRequest.set(request.raw, createCancellation(reply.raw, inFlight, controller));
    if (closing) controller.abort(abortReason('shutdown'));
    done();
  });
  // preClose runs before the server waits for the requests in flight: aborting them lets it close.
  // Their answers close their connections (a kept-alive one would hold the close for its timeout).
  app.addHook('preClose', (done) => {
    closing = true;
    for (const { controller, res } of [...inFlight]) {
      res.shouldKeepAlive = false;
      if (!controller.signal.aborted) controller.abort(abortReason('shutdown'));
    }
    done();
  });
}

/** The request's cancellation (installCancellation must have run on the server). */
export function cancellationOf(request: FastifyRequest): RequestCancellation {
  const c = byRequest.get(request.raw);
  if (c === undefined) throw new Error('no cancellation for this request: installCancellation() was not called on the server');
  return c;
}
