/**
 * The answer cache (api/answer-cache.ts) at a route: the hooks that answer a request from the
 * cache, or with the answer another request is computing, before admission (its preHandler,
 * api/common/admission.ts), so such a request takes no slot and no place in the queue. The v1
 * aggregation routes and the v2 statistics routes use them alike:
 *
 * - `lookUp` in the route's preValidation: the answer kept for the key is sent at once; one being
 *   computed is waited for (within the request's time limit) and sent; otherwise this request
 *   computes it, and the route's handler hands its answer to `answered`.
 * - `end` as the route's onResponse: a request that computed no answer (an error, a 503 from
 *   admission) ends its computation empty, as its signal's abort does (the client left, its time
 *   limit); the requests waiting then look again, and one of them computes it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerCache, CachedAnswer } from '../answer-cache.js';
import { cancellationOf } from './cancellation.js';

export interface AnswerSharing {
  /** Answers the request if it can (and returns the reply), or marks it as computing `key`. */
  lookUp(request: FastifyRequest, reply: FastifyReply, key: string, timeoutSeconds: number): Promise<FastifyReply | undefined>;
  /** The route's onResponse. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The answer the request computed: kept, and given to the requests waiting for it. */
  answered(request: FastifyRequest, answer: CachedAnswer): void;
}

export function sendAnswer(reply: FastifyReply, answer: CachedAnswer): FastifyReply {
  reply.code(200).header('content-type', answer.contentType);
  if (answer.cacheControl !== undefined) reply.header('cache-control', answer.cacheControl);
  for (const [k, v] of Object.entries(answer.headers)) reply.header(k, v);
  return reply.send(answer.body);
}

/**
 * Runs `f` once the response has closed: after admission has released the request's slot (its
 * own close listener, added first), so the request that takes over the computation can have it.
 */
function afterClose(reply: FastifyReply, f: () => void): void {
  if (reply.raw.closed) f();
  else reply.raw.once('close', f);
}

export function shareAnswers(cache: AnswerCache): AnswerSharing {
  /** The requests computing an answer: how each ends its computation (AnswerCache.begin). */
  const computing = new WeakMap<FastifyRequest, (answer?: CachedAnswer) => void>();
  return {
    async lookUp(request, reply, key, timeoutSeconds) {
      const cancellation = cancellationOf(request);
      cancellation.limit(timeoutSeconds);
      for (;;) {
        const known = cache.get(key);
        if (known) return sendAnswer(reply, known);
        const pending = cache.inFlight(key);
        if (pending === undefined) break;
        const answer = await cancellation.run(() => pending);
        if (answer) return sendAnswer(reply, answer);
        // The request computing it ended without an answer: look again (another may have taken over).
      }
      const finish = cache.begin(key);
      computing.set(request, finish);
      cancellation.signal.addEventListener('abort', () => afterClose(reply, finish), { once: true });
      return undefined;
    },
    async end(request, reply) {
      const finish = computing.get(request);
      if (finish) afterClose(reply, finish);
    },
    answered(request, answer) {
      computing.get(request)?.(answer);
    },
  };
}
