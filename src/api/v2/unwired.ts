/**
 * Stand-ins for the statistics engine and the GeoParquet extraction while they are built elsewhere:
 * the server composes them until the real ones are wired in (src/api/server.ts). Every call fails,
 * which the routes answer with 500 (logged), never with a made-up result.
 */
import type { StatsEngine } from '../../query/stats.js';
import type { ParquetExtraction } from './services.js';

function unwired(what: string): never {
  throw new Error(`${what} is not wired into this server yet`);
}

export const UNWIRED_STATS: StatsEngine = {
  features: async () => unwired('the version 2 statistics engine'),
  contributors: async () => unwired('the version 2 statistics engine'),
  contributions: async () => unwired('the version 2 statistics engine'),
  currentness: async () => unwired('the version 2 statistics engine'),
};

export const UNWIRED_EXTRACTION: ParquetExtraction = {
  write: async () => unwired('the GeoParquet extraction'),
};
