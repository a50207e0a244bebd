/**
 * The server's answer cache: finished v1 aggregation and v2 statistics answers, kept by the request
 * that asked for them and the store generation that answered, so the dashboard redrawing a chart
 * and a notebook re-running its cells get the same bytes without the engine. A new generation (an update swapped
 * in) has a new number, so an answer from an older store is never served; its entries age out.
 * Least-recently-used, bounded in bytes (`maphist serve --answer-cache`, default 64 MiB; 0: off).
 *
 * An answer being computed is shared too: a request that finds its key in flight waits for that
 * answer instead of asking the engine again (a dashboard opened by many people at once, or every
 * viewer's refresh right after an update made a new generation, costs one computation, not one per
 * viewer). When the computing request ends without an answer (an error, its client left, its time
 * limit), the waiting ones look again: one of them computes it, the others wait for that one.
 *
 * The key is a digest of the generation, the route and the request's parameters in a canonical
 * order (sorted by name; values of one name kept in their order), without `timeout`, which changes
 * when an answer is given up, not what it is. Answers with `showMetadata` (their execution time and
 * request URL belong to one request) and answers other than 200 are not kept. A v2 statistics
 * request's identity is its JSON body with every object's keys sorted (`canonicalJson`).
 *
 * The routes use it through api/common/shared-answers.ts, before admission.
 */
import { createHash } from 'node:crypto';
import { ByteBoundedLru } from '../core/byte-lru.js';

export interface CachedAnswer {
  contentType: string;
  /** Absent: no Cache-Control header. */
  cacheControl?: string;
  headers: Readonly<Record<string, string>>;
  body: string;
}

export interface AnswerCache {
  get(key: string): CachedAnswer | undefined;
  set(key: string, answer: CachedAnswer): void;
  /** The answer to `key` that another request is computing, if one is (`begin`). */
  inFlight(key: string): Promise<CachedAnswer | undefined> | undefined;
  /**
   * Marks `key` as being computed and returns the function that ends it: with the answer (kept,
   * and handed to the requests waiting for it) or without one (they look again). Calls after the
   * first do nothing.
   */
  begin(key: string): (answer?: CachedAnswer) => void;
  /** Entries and their estimated bytes (for tests and logs). */
  readonly size: number;
  readonly totalBytes: number;
}

export const DEFAULT_ANSWER_CACHE_BYTES = 64 * 2 ** 20;

export function createAnswerCache(maxBytes = DEFAULT_ANSWER_CACHE_BYTES): AnswerCache {
  // A string's characters count two bytes (V8 keeps non-Latin-1 strings in UTF-16).
  const lru = new ByteBoundedLru<string, CachedAnswer>(maxBytes, (a) => 256 + 2 * a.body.length);
  const computing = new Map<string, Promise<CachedAnswer | undefined>>();
  return {
    get: (key) => lru.get(key),
    set: (key, answer) => lru.set(key, answer),
    inFlight: (key) => computing.get(key),
    begin(key) {
      let settle!: (answer: CachedAnswer | undefined) => void;
      const promise = new Promise<CachedAnswer | undefined>((resolve) => (settle = resolve));
      computing.set(key, promise);
      let ended = false;
      return (answer) => {
        if (ended) return;
        ended = true;
        if (computing.get(key) === promise) computing.delete(key);
        if (answer !== undefined) lru.set(key, answer);
        settle(answer);
      };
    },
    get size() {
      return lru.size;
    },
    get totalBytes() {
      return lru.totalBytes;
    },
  };
}

/** The names whose values do not change an answer. */
const IGNORED = new Set(['timeout']);

/** The cache key of a request: generation, route, format and the parameters in canonical order. */
export function answerKey(generation: number, route: string, pairs: readonly (readonly [string, string])[]): string {
  const kept = pairs.filter(([name]) => !IGNORED.has(name));
  // Array.prototype.sort is stable: the values of one name stay in their order.
  const canonical = [...kept].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([generation, route, canonical]))
    .digest('base64url');
}

/**
 * `value` as JSON with every object's keys in sorted order: two bodies that differ only in key order
 * are one request. `undefined` when it cannot be written: nested deeper than the stack allows (a
 * hostile body of 100,000 nested arrays parses, and JSON.stringify overflows on it); such a request
 * is answered on its own.
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_key, v: unknown) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    );
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}
