/**
 * What the version 2 routes need besides the request layer: the seams to the statistics engine, the
 * GeoParquet extraction and the API-key guard. The server composes them (src/api/server.ts).
 */
import type { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StatsEngine } from '../../query/stats.js';
import type { StoreMetadata } from '../../store/metadata.js';
import type { ExtractionRequest } from './requests.js';

export interface ParquetExtraction {
  /**
   * Writes the GeoParquet file of the request to `out` as it is produced (row groups flushed as
   * they fill) and ends `out`. Rejects with the signal's reason when aborted.
   */
  write(request: ExtractionRequest, out: Writable, signal?: AbortSignal): Promise<void>;
}

/**
 * The API-key check of statistics and extraction routes, as a Fastify onRequest hook: it answers
 * 401/403/429 itself (and sets the x-ratelimit-* headers), or lets the request through.
 */
export type ApiKeyHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface V2Services {
  metadata: StoreMetadata;
  /** /health: true when the database answers a trivial query. */
  databaseAnswers(): Promise<boolean>;
  stats: StatsEngine;
  extraction: ParquetExtraction;
  /** Absent: keys are disabled (private deployment). */
  apiKeys?: ApiKeyHook;
  /** Statistics time limit (default 180 s) and extraction time limit (default 240 s). */
  statsTimeoutSeconds?: number;
  extractionTimeoutSeconds?: number;
}
