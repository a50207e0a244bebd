/**
 * What the version 2 routes need besides the request layer: the seams to the statistics engine, the
 * extraction engine (records the routes write as GeoParquet) and the API-key guard. The server composes them (src/api/server.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerSharing } from '../common/shared-answers.js';
import type { StatsEngine } from '../../query/stats.js';
import type { RecordExtraction } from '../../query/v2-requests.js';
import type { StoreMetadata } from '../../store/metadata.js';

export type { RecordExtraction } from '../../query/v2-requests.js';

/**
 * The API-key check of statistics and extraction routes, as a Fastify onRequest hook: it answers
 * 401/403/429 itself (and sets the x-ratelimit-* headers), or lets the request through.
 */
export type ApiKeyHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * What the routes read from the store generation of a request (the server builds it from the
 * request's lease, src/api/generation-hook.ts): metadata, `latest` and the engines.
 */
export interface V2Data {
  /** The store generation's number (src/query/generations.ts): part of a kept answer's identity. */
  generation?: number;
  metadata: StoreMetadata;
  /** Epoch seconds of the data's last timestamp: what `latest` means. */
  latest: number;
  /** /health: true when the database answers a trivial query. */
  databaseAnswers(): Promise<boolean>;
  stats: StatsEngine;
  /** The records of an extraction (the routes write them as GeoParquet). */
  extraction: RecordExtraction;
}

export interface V2Services {
  /** The data of the request's store generation; routes call it per request and keep nothing of it. */
  dataOf(request: FastifyRequest): V2Data;
  /** Absent: keys are disabled (private deployment). */
  apiKeys?: ApiKeyHook;
  /** Statistics time limit (default 180 s) and extraction time limit (default 240 s). */
  statsTimeoutSeconds?: number;
  extractionTimeoutSeconds?: number;
  /** Finished statistics answers kept and shared between requests (src/api/common/shared-answers.ts); absent: none. */
  sharing?: AnswerSharing;
}
