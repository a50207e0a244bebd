/**
 * The time limit of a version 2 request (statistics 180 s, extraction 240 s by default) and the
 * client's disconnect, as one AbortSignal handed to the engine. A request over its limit answers 504
 * (error-status.ts), even if the engine has not yet noticed the signal.
 */
import type { FastifyReply } from 'fastify';
import type { MaphistError } from '../../core/errors.js';

export interface RequestLimit {
  readonly signal: AbortSignal;
  /** Runs `work` until it settles or the limit passes (then rejects with the timeout error). */
  run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  dispose(): void;
}

export function requestLimit(reply: FastifyReply, seconds: number, timeoutError: MaphistError): RequestLimit {
  const controller = new AbortController();
  let timedOut = false;
  let rejectExpired: (e: unknown) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    rejectExpired = reject;
  });
  expired.catch(() => undefined);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(timeoutError);
    rejectExpired(timeoutError);
  }, Math.max(0, Math.round(seconds * 1000)));
  const onClose = () => {
    if (!reply.raw.writableFinished && !controller.signal.aborted) controller.abort(new Error('The client closed the connection.'));
  };
  reply.raw.once('close', onClose);
  const dispose = () => {
    clearTimeout(timer);
    reply.raw.off('close', onClose);
  };
  return {
    signal: controller.signal,
    dispose,
    async run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
      const p = work(controller.signal);
      p.catch(() => undefined);
      try {
        return await Promise.race([p, expired]);
      } catch (e) {
        if (timedOut) throw timeoutError;
        throw e;
      }
    },
  };
}
