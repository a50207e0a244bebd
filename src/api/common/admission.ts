/**
 * Admission: heavy requests (statistics, aggregation and extraction of both versions) take one of
 * `concurrency` slots, or wait in a queue of at most `queue` requests; when the queue is full the
 * request is refused at once with SERVER_BUSY (503 with `Retry-After` in each version's error
 * shape) instead of slowing every other client down. Trivial requests (metadata, health, docs)
 * bypass it, and so do v1 aggregations and v2 statistics answered from the answer cache or by
 * another request computing the same answer (their route's preValidation answers them before this
 * preHandler: api/common/shared-answers.ts). A heavy request that gets a slot while the process is over its memory budget is
 * refused with SERVER_BUSY as well (the running requests finish first). A slot is held until the answer is finished or abandoned (the response closes), so a
 * streamed extraction holds its slot while it streams; a waiting request whose client leaves, or
 * whose signal aborts, leaves the queue.
 *
 * The same hooks drain the server (`drainApp`, SIGTERM in `maphist serve`): from then on every new
 * request is answered 503 (SERVER_SHUTTING_DOWN) and its connection closed, the requests in
 * flight get a grace period to finish, then `app.close()` aborts those still running (their
 * cancellation signals, api/common/cancellation.ts).
 */
import { availableParallelism } from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MaphistError } from '../../core/errors.js';
import { cancellationOf } from './cancellation.js';

export interface AdmissionOptions {
  /** Heavy requests running at once (default: `defaultConcurrency()`). */
  concurrency?: number;
  /** Heavy requests waiting for a slot at most (default: `defaultQueue(concurrency)`); one more is refused with 503. */
  queue?: number;
  /** The `Retry-After` of a refusal, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** Which requests are heavy (the server decides by route). */
  isHeavy: (request: FastifyRequest) => boolean;
  /**
   * The time limit of a heavy request while it waits for a slot (the server's largest limit): a
   * request still waiting then leaves the queue with QUERY_TIMEOUT. The route's own limit, counted
   * from the arrival too (api/common/cancellation.ts), replaces it once it runs.
   */
  waitLimitSeconds?: number;
  /**
   * The process's memory budget in bytes (`maphist serve --memory-limit`): a heavy request that
   * gets its slot while the process's resident memory is above it is refused with SERVER_BUSY
   * (503, `Retry-After`) instead of adding to it. Absent: no memory check.
   */
  memoryBudgetBytes?: number;
  /** The process's resident memory in bytes (default `process.memoryUsage.rss()`; tests replace it). */
  residentBytes?: () => number;
}

/** The default number of heavy requests at once: the machine's cores (at least 2). */
export function defaultConcurrency(): number {
  return Math.max(2, availableParallelism());
}

/**
 * The default number of heavy requests waiting: 4 per slot. Every waiting request waits for those
 * admitted before it (Little's law), so the queue's bound is what bounds the latency of an answer
 * under overload: with 32 clients on 2 cores, 16 waiting gave a p99 of 12× one client's mean of
 * its slowest request, 8 gave 7× at the same throughput (bench/RESULTS.md, session 32); the
 * clients refused meanwhile are told when to come back (`Retry-After`).
 */
export function defaultQueue(concurrency: number): number {
  return 4 * concurrency;
}

/** A counting semaphore with a bounded queue of waiters (FIFO). */
export class Slots {
  private running = 0;
  private readonly waiting: { grant: () => void }[] = [];

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) throw new RangeError('concurrency must be a whole number ≥ 1');
    if (!(Number.isInteger(queue) && queue >= 0)) throw new RangeError('queue must be a whole number ≥ 0');
  }

  /** Running and waiting counts. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * A slot: its release function, once one is free; `undefined` at once when the queue is full.
   * Rejects with the signal's reason if it aborts while waiting (the request leaves the queue).
   */
  acquire(signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.queue) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      const waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      this.waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter (running stays the same).
      if (next) next.grant();
      else this.running--;
    };
  }
}

export function serverBusyError(retryAfterSeconds: number): MaphistError {
  return new MaphistError(
    'SERVER_BUSY',
    `The server is busy: every slot for statistics, aggregation and extraction is taken and its queue is full. Retry after ${retryAfterSeconds} s.`,
    { retryAfterSeconds },
  );
}

export function memoryBusyError(residentBytes: number, budgetBytes: number, retryAfterSeconds: number): MaphistError {
  const mib = (b: number) => `${Math.round(b / 2 ** 20)} MiB`;
  return new MaphistError(
    'SERVER_BUSY',
    `The server is busy: it uses ${mib(residentBytes)}, over its memory budget of ${mib(budgetBytes)} (maphist serve --memory-limit), while the requests already running finish. Retry after ${retryAfterSeconds} s.`,
    { retryAfterSeconds, residentBytes, memoryBudgetBytes: budgetBytes },
  );
}

export function shuttingDownError(): MaphistError {
  return new MaphistError('SERVER_SHUTTING_DOWN', 'The server is shutting down; it accepts no new requests.');
}

interface DrainState {
  draining: boolean;
  inFlight: number;
  idle: (() => void)[];
}

const drains = new WeakMap<FastifyInstance, DrainState>();

/**
 * Installs admission and drain on the root of `app` (after installCancellation). Heavy requests
 * are admitted in `preHandler`, after the body is read (a body that cannot be read is refused
 * without waiting for a slot) and after the version 2 key check (`onRequest`).
 */
export function installAdmission(app: FastifyInstance, options: AdmissionOptions): Slots {
  const concurrency = options.concurrency ?? defaultConcurrency();
  const slots = new Slots(concurrency, options.queue ?? defaultQueue(concurrency));
  const retryAfter = options.retryAfterSeconds ?? 1;
  const state: DrainState = { draining: false, inFlight: 0, idle: [] };
  drains.set(app, state);
  /** The slot a request holds, released when its response closes (one listener per response does both). */
  const slotOf = new WeakMap<object, { release?: () => void }>();
  app.addHook('onRequest', (request, reply, done) => {
    state.inFlight++;
    const held: { release?: () => void } = {};
    slotOf.set(request.raw, held);
    reply.raw.once('close', () => {
      held.release?.();
      state.inFlight--;
      if (state.inFlight === 0) for (const f of state.idle.splice(0)) f();
    });
    if (state.draining) {
      reply.raw.shouldKeepAlive = false;
      reply.header('retry-after', String(retryAfter));
      // The APIs' error handlers map the code to their status; the routes outside them (the
      // dashboard, the docs, CORS preflights) keep this one (fastify's default handler answered 500).
      reply.code(503);
      return done(shuttingDownError());
    }
    done();
  });
  app.addHook('preHandler', async (request, reply) => {
    if (!options.isHeavy(request)) return;
    const cancellation = cancellationOf(request);
    if (options.waitLimitSeconds !== undefined) cancellation.limit(options.waitLimitSeconds);
    const release = await slots.acquire(cancellation.signal);
    if (release === undefined) {
      reply.header('retry-after', String(retryAfter));
      throw serverBusyError(retryAfter);
    }
    if (options.memoryBudgetBytes !== undefined) {
      const resident = (options.residentBytes ?? process.memoryUsage.rss)();
      if (resident > options.memoryBudgetBytes) {
        release();
        reply.header('retry-after', String(retryAfter));
        throw memoryBusyError(resident, options.memoryBudgetBytes, retryAfter);
      }
    }
    const held = slotOf.get(request.raw);
    if (reply.raw.closed || !held) release();
    else held.release = release;
  });
  return slots;
}

/**
 * Drains `app` (installAdmission must have run): new requests are answered 503, idle kept-alive
 * connections are closed, the requests in flight get up to
 * `graceMs` to finish; then `app.close()` aborts the rest and closes the server.
 */
export async function drainApp(app: FastifyInstance, graceMs: number): Promise<void> {
  const state = drains.get(app);
  if (state && !state.draining) {
    state.draining = true;
    // The listener stays open during the grace period: a new request is answered 503 (and its
    // connection closed) rather than refused, so a client or balancer learns why.
    app.server.closeIdleConnections();
    if (state.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        state.idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  await app.close();
}
