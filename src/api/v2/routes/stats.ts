/**
 * POST /stats/features/{count,length,area}.{json,csv}, /stats/contributors/count.*,
 * /stats/contributions/count.*, /stats/currentness/{count,length,area}.* (docs/reference/v2-reference-and-contributions-format.md §1.2, §1.4, §1.5).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { answerKey, canonicalJson, type CachedAnswer } from '../../answer-cache.js';
import { sendAnswer } from '../../common/shared-answers.js';
import { API_KEY_SECURITY } from '../../docs/v2-security.js';
import type { GroupedBins, StatsMeasure } from '../../../query/stats.js';
import { CSV_CONTENT_TYPE, statsCsv } from '../format/stats-csv.js';
import { statsJson } from '../format/stats-json.js';
import { binsTable, seriesTable, type StatsTable } from '../format/stats-result.js';
import { binStatsRequest, featureStatsRequest, type BinKind } from '../params/stats-request.js';
import type { StatsFormat } from '../requests.js';
import { BIN_STATS_BODY_SCHEMA, CURRENTNESS_BODY_SCHEMA, FEATURE_STATS_BODY_SCHEMA } from '../schemas/stats.js';
import { cancellationOf } from '../../common/cancellation.js';
import { BODY_LIMIT, type V2Context } from './context.js';

const FORMATS: StatsFormat[] = ['json', 'csv'];
const MEASURES: StatsMeasure[] = ['count', 'length', 'area'];

function answerOf(format: StatsFormat, table: StatsTable): CachedAnswer {
  return format === 'csv'
    ? { contentType: CSV_CONTENT_TYPE, headers: {}, body: statsCsv(table) }
    : { contentType: 'application/json', headers: {}, body: statsJson(table) };
}

const WHAT: Record<string, string> = {
  features: 'of the features valid at each timestamp of a series',
  contributors: 'of distinct contributors per time bin',
  contributions: 'of contributions per time bin (experimental)',
  currentness: "of today's features by the time bin of their latest edit",
};

/** `/stats/features/length.csv` → "Length of the features valid at each timestamp of a series, as CSV". */
function summaryOf(path: string): string {
  const [, kind, file] = path.split('/').slice(1);
  const [measure, format] = file.split('.');
  return `${measure[0].toUpperCase()}${measure.slice(1)} ${WHAT[kind]}, as ${format.toUpperCase()}`;
}

export function registerStatsRoutes(app: FastifyInstance, ctx: V2Context): void {
  const sharing = ctx.services.sharing;
  /**
   * A statistics route. With the answer cache (src/api/common/shared-answers.ts), its preValidation
   * answers the same body on the same store generation from the cache, or with the answer another
   * request is computing, before admission. It runs before Fastify validates the body, so it checks
   * the body against the route's schema itself: a body that fails goes on to be refused.
   */
  const post = (path: string, schema: object, handler: (body: unknown, reply: FastifyReply, at: ReturnType<V2Context['at']>) => Promise<CachedAnswer>) => {
    ctx.allow(path, 'POST');
    const docs = { tags: ['Statistics'], summary: summaryOf(path), security: API_KEY_SECURITY } as FastifySchema;
    const sharingHooks = sharing && {
      preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
        const generation = ctx.at(request).data.generation;
        // Only a body the route's schema accepts can have an answer; the others go on to be refused.
        if (generation === undefined || request.getValidationFunction('body')?.(request.body) !== true) return undefined;
        const body = canonicalJson(request.body);
        if (body === undefined) return undefined;
        return sharing.lookUp(request, reply, answerKey(generation, `v2${path}`, [['body', body]]), ctx.statsSeconds);
      },
      onResponse: sharing.end,
    };
    app.post(path, { schema: { body: schema, ...docs }, bodyLimit: BODY_LIMIT, onRequest: ctx.keyHooks, ...sharingHooks }, async (request, reply) => {
      const answer = await handler(request.body, reply, ctx.at(request));
      sharing?.answered(request, answer);
      return sendAnswer(reply, answer);
    });
  };
  /** The request's one signal (time limit, disconnect, shutdown); the error handler maps a timeout to 504. */
  const limited = async <T>(reply: FastifyReply, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const cancellation = cancellationOf(reply.request);
    cancellation.limit(ctx.statsSeconds);
    return cancellation.run(work);
  };

  for (const format of FORMATS) {
    for (const measure of MEASURES) {
      post(`/stats/features/${measure}.${format}`, FEATURE_STATS_BODY_SCHEMA, async (body, reply, { data, time }) => {
        const r = await featureStatsRequest(body, measure, format, time);
        const grouping = r.groupByKey !== undefined ? { groupByKey: r.groupByKey } : {};
        const result = await limited(reply, (signal) =>
          data.stats.features({
            aoi: r.aoi,
            timestamps: r.timestamps,
            filter: r.filter,
            measure,
            clip: r.clip,
            ...grouping,
            ...(r.groupBy ? { groupBy: r.groupBy } : {}),
            signal,
          }),
        );
        return answerOf(format, seriesTable(r.timestamps, result, r.groupBy));
      });
      post(`/stats/currentness/${measure}.${format}`, CURRENTNESS_BODY_SCHEMA, async (body, reply, { data, time }) => {
        const r = await binStatsRequest(body, 'currentness', measure, format, time);
        const q = { aoi: r.aoi, edges: r.edges, filter: r.filter, measure, clip: r.clip };
        const groupBy = r.groupBy;
        const values = await limited<number[] | GroupedBins>(reply, (signal) =>
          groupBy ? data.stats.groupedBins('currentness', { ...q, signal }, groupBy) : data.stats.currentness({ ...q, signal }),
        );
        return answerOf(format, binsTable(r.edges, values, groupBy));
      });
    }
    for (const kind of ['contributors', 'contributions'] as const satisfies BinKind[]) {
      post(`/stats/${kind}/count.${format}`, BIN_STATS_BODY_SCHEMA, async (body, reply, { data, time }) => {
        const r = await binStatsRequest(body, kind, 'count', format, time);
        const q = { aoi: r.aoi, edges: r.edges, filter: r.filter };
        const groupBy = r.groupBy;
        const values = await limited<number[] | GroupedBins>(reply, (signal) =>
          groupBy ? data.stats.groupedBins(kind, { ...q, signal }, groupBy) : data.stats[kind]({ ...q, signal }),
        );
        return answerOf(format, binsTable(r.edges, values, groupBy));
      });
    }
  }
}
