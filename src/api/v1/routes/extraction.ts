/**
 * The v1 extraction routes (docs/reference/v1-reference-behaviour.md §1.1, §4.4): /elements, /elementsFullHistory, /contributions and
 * /contributions/latest, each with /geometry, /bbox and /centroid, GET and POST, with or without a
 * trailing slash. Parameters are parsed as for the aggregations (parseV1Request); the answer is
 * streamed by the shared extraction pipeline (api/common/extraction-stream.ts explains what happens
 * when something fails mid-stream) through the GeoJSON writer (api/v1/extraction/geojson-writer.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ExtractionKind } from '../../../query/extraction.js';
import { metadataRequestUrl } from '../error-status.js';
import { streamExtraction } from '../../common/extraction-stream.js';
import { DESCRIPTIONS, GEOJSON_CONTENT_TYPE, head, type FeatureOptions, type PropertyNames } from '../extraction/geojson.js';
import { geoJsonWriter } from '../extraction/geojson-writer.js';
import type { V1DataOf } from '../generation.js';
import { parseV1Request } from '../params/parse-v1-request.js';
import { V1_ROUTES, type V1Route, type V1RouteFamily } from '../params/route-parameters.js';
import { collectPairs } from '../request-pairs.js';
import { resolveRelationBoundaries } from '../relation-boundaries.js';
import { cancellationOf } from '../../common/cancellation.js';
import { cacheControlFor, registerPath } from './aggregation.js';

export interface ExtractionRouteOptions {
  /** The metadata and extraction engine of the request's store generation. */
  dataOf: V1DataOf<'metadata' | 'extraction' | 'boundaryRelations'>;
  /** The server's default (and largest) time limit in seconds. */
  timeoutSeconds: number;
  /** The identity property names of the features (default: the clients' `@osmId`, `@osmType`). */
  names?: PropertyNames;
}

const KIND_OF: Partial<Record<V1RouteFamily, ExtractionKind>> = {
  elementsExtraction: 'snapshot',
  elementsFullHistoryExtraction: 'fullHistory',
  contributionsExtraction: 'contributions',
  contributionsLatestExtraction: 'latestContributions',
};

export const EXTRACTION_ROUTES: readonly V1Route[] = V1_ROUTES.filter((r) => r.geometryType !== undefined);

export async function answerExtraction(route: V1Route, options: ExtractionRouteOptions, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const pairs = await collectPairs(request);
  const data = options.dataOf(request);
  const parsed = parseV1Request(route.path, pairs, {
    metadata: data.metadata,
    contentType: request.headers['content-type'],
    defaultTimeoutSeconds: options.timeoutSeconds,
  });
  if (parsed.boundaryRelations !== undefined) {
    const cancellation = cancellationOf(request);
    cancellation.limit(parsed.timeoutSeconds);
    await cancellation.run((signal) => resolveRelationBoundaries(parsed, data.boundaryRelations, data.metadata, signal));
  }
  const kind = KIND_OF[route.family]!;
  const engine = await data.extraction();
  // Deprecated `keys` without properties=tags: only the tags with those keys become properties (docs/reference/v1-reference-behaviour.md §4.4).
  const keys = pairs.find(([k]) => k === 'keys')?.[1];
  const tagKeys = !parsed.properties.tags && keys !== undefined && keys.trim() !== '' ? new Set(keys.split(',').map((k) => k.trim())) : undefined;
  const documentHead = head(parsed.showMetadata ? { description: DESCRIPTIONS[kind], requestUrl: metadataRequestUrl(request, pairs) } : undefined);
  const feature: FeatureOptions = { kind, geometryKind: route.geometryType!, properties: parsed.properties, tagKeys, names: options.names };
  return streamExtraction(request, reply, {
    records: (signal) =>
      engine.extract({ kind, areas: parsed.areas, timestamps: parsed.timestamps, filter: parsed.filter, clipGeometry: parsed.clipGeometry, signal }),
    timeoutSeconds: parsed.timeoutSeconds,
    headers: {
      'content-type': GEOJSON_CONTENT_TYPE,
      'content-disposition': 'attachment;filename=maphist.geojson',
      'cache-control': cacheControlFor(parsed.timeParameter),
    },
    gzip: true,
    writer: (out, signal) => geoJsonWriter(out, signal, documentHead, feature),
  });
}

export function registerExtractionRoutes(app: FastifyInstance, options: ExtractionRouteOptions): void {
  for (const route of EXTRACTION_ROUTES) {
    registerPath(app, route.path, ['GET', 'POST'], (request, reply) => answerExtraction(route, options, request, reply));
  }
}
