/**
 * What an engine gives the APIs: one bundle per store, made by the command line (the composition
 * root, src/cli) and handed to the server (src/api/server.ts), which imports no engine. DuckDB's is
 * src/engines/duckdb/engines.ts; a second engine offers the same bundle.
 */
import type { BoundaryRelationSource } from './boundary-relations.js';
import type { ExtractionEngine } from './extraction.js';
import type { QueryEngine } from './model.js';
import type { StatsEngine } from './stats.js';
import type { RecordExtraction } from './v2-requests.js';

export interface Engines {
  /** Version 1 aggregations: elements, users, contributions. */
  aggregation: QueryEngine;
  /** Version 1 GeoJSON extraction, made on first use. */
  extraction(): Promise<ExtractionEngine>;
  /** Version 2 statistics. */
  stats: StatsEngine;
  /** Version 2 extraction: the records the API writes as GeoParquet. */
  parquet: RecordExtraction;
  /** The polygons of relations at a time: boundaries given by relation id (issue 22). */
  boundaryRelations: BoundaryRelationSource;
  /** Whether the database answers a trivial query (`/health`). */
  databaseAnswers(): Promise<boolean>;
}
