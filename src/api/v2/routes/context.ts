/** What every version 2 route needs: the services, the request's store generation, the time limits. */
import { LIMITS } from '../../common/limits.js';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { TimestampContext } from '../params/timestamp.js';
import { queryTimeoutError } from '../error-status.js';
import type { MaphistError } from '../../../core/errors.js';
import type { V2Data, V2Services } from '../services.js';

export interface V2Context {
  services: V2Services;
  /** The data of the request's store generation, and what `latest` means in it. */
  at(request: FastifyRequest): { data: V2Data; time: TimestampContext };
  statsSeconds: number;
  extractionSeconds: number;
  timeoutError: MaphistError;
  /** The API-key hook for statistics and extraction routes ([] when keys are disabled). */
  keyHooks: onRequestHookHandler[];
  /** Records the methods of a path (for the 405 answers); HEAD where Fastify answers it for GET. */
  allow(path: string, ...methods: ('GET' | 'HEAD' | 'POST')[]): void;
}

export const DEFAULT_STATS_SECONDS = 180;
export const DEFAULT_EXTRACTION_SECONDS = 240;
/** Polygonal aois can be large. */
export const BODY_LIMIT = LIMITS.bodyBytes.v2;

export function createContext(services: V2Services, allow: V2Context['allow']): V2Context {
  const statsSeconds = services.statsTimeoutSeconds ?? DEFAULT_STATS_SECONDS;
  const extractionSeconds = services.extractionTimeoutSeconds ?? DEFAULT_EXTRACTION_SECONDS;
  return {
    services,
    at: (request) => {
      const data = services.dataOf(request);
      return { data, time: { latest: data.latest } };
    },
    statsSeconds,
    extractionSeconds,
    timeoutError: queryTimeoutError(statsSeconds, extractionSeconds),
    keyHooks: services.apiKeys ? [services.apiKeys as onRequestHookHandler] : [],
    allow,
  };
}
