/**
 * GET (query) and POST (body) /extraction/{features,collections,collections_members,contributions}.parquet
 * (§1.2, §1.4, §4.3): the GeoParquet file streamed as the extraction writes it. A failure before the
 * first byte is an ordinary error answer; after it the response is cut off (the status is sent).
 */
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifySchema } from 'fastify';
import { API_KEY_SECURITY } from '../../docs/v2-security.js';
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
import { requestLimit } from '../time-limit.js';
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
    app.get(path, { ...common, exposeHeadRoute: false, schema: { querystring: SCHEMAS[kind].query, ...docs } as FastifySchema }, (request, reply) => {
      const { data, time } = ctx.at(request);
      return stream(reply, ctx, data, extractionRequest(request.query, kind, 'GET', time));
    });
    app.post(path, { ...common, bodyLimit: BODY_LIMIT, schema: { body: SCHEMAS[kind].body, ...docs } as FastifySchema }, (request, reply) => {
      const { data, time } = ctx.at(request);
      return stream(reply, ctx, data, extractionRequest(request.body, kind, 'POST', time));
    });
  }
}

async function stream(reply: FastifyReply, ctx: V2Context, data: V2Data, request: ExtractionRequest): Promise<FastifyReply> {
  const limit = requestLimit(reply, ctx.extractionSeconds, ctx.timeoutError);
  let isStarted = false;
  let markStarted: () => void = () => undefined;
  const started = new Promise<'started'>((resolve) => {
    markStarted = () => {
      isStarted = true;
      resolve('started');
    };
  });
  const out = new Transform({
    transform(chunk, _encoding, callback) {
      markStarted();
      callback(null, chunk);
    },
    flush(callback) {
      markStarted();
      callback();
    },
  });
  out.on('error', (e) => reply.log.warn({ err: e }, 'v2 extraction failed while streaming'));
  const writing = limit.run((signal) => data.extraction.write(request, out, signal));
  writing.then(
    () => limit.dispose(),
    (e: unknown) => {
      limit.dispose();
      // Before the first byte the error is the answer; after it the response is cut off.
      if (isStarted) out.destroy(e instanceof Error ? e : new Error(String(e)));
      else out.destroy();
    },
  );
  // Rejects when the extraction fails before its first byte: then an ordinary error answer.
  await Promise.race([started, writing]);
  return reply
    .header('content-type', PARQUET_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${request.kind}.parquet"`)
    .send(out);
}
