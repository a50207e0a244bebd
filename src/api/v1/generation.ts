/**
 * What the version 1 routes read from the store generation of a request (the server builds it from
 * the request's lease, src/api/generation-hook.ts): metadata (extent, time range, `latest`) and the
 * engines. Routes take a function of the request, never the data itself, so nothing of one
 * generation outlives a request.
 */
import type { FastifyRequest } from 'fastify';
import type { BoundaryRelationSource } from '../../query/boundary-relations.js';
import type { ExtractionEngine } from '../../query/extraction.js';
import type { QueryEngine } from '../../query/model.js';
import type { StoreMetadata } from '../../store/metadata.js';

export interface V1Data {
  metadata: StoreMetadata;
  aggregation: QueryEngine;
  /** Boundaries given by relation id (`bpolys=relation/<id>`). */
  boundaryRelations: BoundaryRelationSource;
  /** The extraction engine (made on first use). */
  extraction(): Promise<ExtractionEngine>;
  /** The store generation's number (src/query/generations.ts); absent: answers are not kept between requests. */
  generation?: number;
}

export type V1DataOf<K extends keyof V1Data = keyof V1Data> = (request: FastifyRequest) => Pick<V1Data, K>;
