/**
 * GET (query) and POST (body) /extraction/{features,collections,collections_members,contributions}.parquet
 * (docs/reference/v2-reference-and-contributions-format.md §1.2, §1.4, §4.3): the engine's records
 * written as GeoParquet (format/geoparquet) by the shared extraction pipeline
 * (api/common/extraction-stream.ts): a failure before the first record is an ordinary error answer;
 * after it the response is cut off (the status is sent).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { API_KEY_SECURITY } from '../../docs/v2-security.js';
import { batchWriter, bytesWriter, streamExtraction } from '../../common/extraction-stream.js';
import { GeoParquetStreamWriter, maphistMetadata, parquetFileSpec } from '../format/geoparquet/parquet-stream-writer.js';
import { extractionRequest } from '../params/extraction-request.js';
import type { ExtractionKind } from '../params/time.js';
import {
  COLLECTIONS_BODY_SCHEMA,
  COLLECTIONS_QUERY_SCHEMA,
  CONTRIBUTIONS_BODY_SCHEMA,
  CONTRIBUTIONS_QUERY_SCHEMA,
  FEATURES_BODY_SCHEMA,
  FEATURES_QUERY_SCHEMA,
} from '../schemas/extraction.js';
import type { ExtractionRequest } from '../requests.js';
import type { V2Data } from '../services.js';
import { BODY_LIMIT, type V2Context } from './context.js';

export const PARQUET_CONTENT_TYPE = 'application/vnd.apache.parquet';

const SCHEMAS: Record<ExtractionKind, { body: object; query: object }> = {
  features: { body: FEATURES_BODY_SCHEMA, query: FEATURES_QUERY_SCHEMA },
  collections: { body: COLLECTIONS_BODY_SCHEMA, query: COLLECTIONS_QUERY_SCHEMA },
  collections_members: { body: COLLECTIONS_BODY_SCHEMA, query: COLLECTIONS_QUERY_SCHEMA },
  contributions: { body: CONTRIBUTIONS_BODY_SCHEMA, query: CONTRIBUTIONS_QUERY_SCHEMA },
};

const SUMMARY: Record<ExtractionKind, string> = {
  features: 'Features (nodes, ways, multipolygon and boundary relations) at an instant or over a range, as GeoParquet',
  collections: 'Other relations as geometry collections of their members, one row per member geometry type, as GeoParquet',
  collections_members: 'The members of those relations, one row per member, as GeoParquet',
  contributions: 'Contributions (each edit of a feature) in a time range, as GeoParquet (experimental)',
};

export function registerExtractionRoutes(app: FastifyInstance, ctx: V2Context): void {
  for (const kind of Object.keys(SCHEMAS) as ExtractionKind[]) {
    const path = `/extraction/${kind}.parquet`;
    ctx.allow(path, 'GET', 'POST');
    const common = { onRequest: ctx.keyHooks };
    const docs = { tags: ['Extraction'], summary: SUMMARY[kind], security: API_KEY_SECURITY };
    // No automatic HEAD: it would run a whole extraction to throw it away (HEAD → 405).
    app.get(path, { ...common, exposeHeadRoute: false, schema: { querystring: SCHEMAS[kind].query, ...docs } as FastifySchema }, async (request, reply) => {
      const { data, time } = ctx.at(request);
      return stream(request, reply, ctx, data, await extractionRequest(request.query, kind, 'GET', time));
    });
    app.post(path, { ...common, bodyLimit: BODY_LIMIT, schema: { body: SCHEMAS[kind].body, ...docs } as FastifySchema }, async (request, reply) => {
      const { data, time } = ctx.at(request);
      return stream(request, reply, ctx, data, await extractionRequest(request.body, kind, 'POST', time));
    });
  }
}

function stream(request: FastifyRequest, reply: FastifyReply, ctx: V2Context, data: V2Data, extraction: ExtractionRequest): Promise<FastifyReply> {
  const metadata = maphistMetadata(extraction.kind, data.metadata.lastTimestamp);
  const common = {
    timeoutSeconds: ctx.extractionSeconds,
    headers: { 'content-type': PARQUET_CONTENT_TYPE, 'content-disposition': `attachment; filename="${extraction.kind}.parquet"` },
    gzip: false, // the pages are ZSTD-compressed
  };
  // The engine's own Parquet writer where it has one for the request (docs/v2-parquet.md, "Who writes the file").
  const engineWriter = data.extraction.parquet?.(extraction);
  if (engineWriter) {
    const file = parquetFileSpec(extraction.kind, metadata);
    return streamExtraction(request, reply, { ...common, records: (signal) => engineWriter(file, signal), writer: (out, signal) => bytesWriter(out, signal) });
  }
  return streamExtraction(request, reply, {
    ...common,
    records: (signal) => data.extraction.records(extraction, signal),
    writer: (out, signal) => batchWriter(new GeoParquetStreamWriter(extraction.kind, out, signal, metadata)),
  });
}
