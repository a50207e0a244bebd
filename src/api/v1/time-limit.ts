/**
 * Runs an engine call under the request's time limit (docs/reference/v1-reference-behaviour.md §2.4, §7): the signal is aborted when the
 * limit passes, which makes the engine stop its work; the answer is then QUERY_TIMEOUT (413), even
 * if the engine has not yet noticed.
 */
import { queryTimeoutError } from './error-status.js';

/** The limit in seconds: the request's `timeout` if given (never above the server's), else the server's. */
export function effectiveTimeoutSeconds(requested: number | undefined, serverSeconds: number): number {
  if (requested === undefined || !Number.isFinite(requested)) return serverSeconds;
  return Math.min(Math.max(requested, 0), serverSeconds);
}

export async function withTimeLimit<T>(seconds: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const error = queryTimeoutError();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(error);
      reject(error);
    }, Math.max(0, Math.round(seconds * 1000)));
  });
  const work = run(controller.signal);
  try {
    return await Promise.race([work, expired]);
  } catch (e) {
    // The engine rejects with the signal's reason, or with its own abort error: either way a timeout.
    if (controller.signal.aborted) throw error;
    throw e;
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
    expired.catch(() => undefined);
  }
}
