/**
 * Version 2 extraction (issue #6), the engine's half: the records of a request (query/v2-requests.ts
 * `RecordExtraction`), streamed from the database batch by batch and clipped in TypeScript (the
 * kernel the aggregations use; a batch's boundary rows in the geometry pool when they are many or
 * large). The API writes them as GeoParquet (api/v2/format/geoparquet) through the shared
 * extraction pipeline. Closing the iterator or aborting `signal` interrupts the statement; the
 * iterator then rejects with the signal's reason.
 *
 * The statements and how they run are the database's (`ExtractionSql`: DuckDB's in
 * src/engines/duckdb/parquet/v2-extraction.ts, ClickHouse's in src/engines/clickhouse/parquet.ts);
 * turning their rows into records (clipping, the collections' gathering by relation) is the same
 * for both (`createSqlV2Extraction`, here), as for the version 1 aggregation (../engine.ts
 * `AggregationSql`).
 */
import { slicer } from '../../../core/yielding.js';
import type { Filter } from '../../../filter/index.js';
import type { TagSource } from '../../../filter/state.js';
import type {
  CollectionsExtractionRequest,
  ContributionsExtractionRequest,
  ExtractionRecord,
  ExtractionRequest,
  FeaturesExtractionRequest,
  RecordExtraction,
} from '../../../query/v2-requests.js';
import { planAreaSql } from '../../sql/area.js';
import type { SqlFlavor } from '../../sql/flavor.js';
import { boundaryClipper, type BoundaryClipperOptions } from '../boundary-clipper.js';
import type { StoreTagDictionary } from '../../../store/store-tag-dictionary.js';
import { collectionRecords } from './collection-rows.js';
import { contributionRecords } from './contribution-rows.js';
import { featureRecords } from './feature-rows.js';
import { checkAborted } from '../statements.js';
import type { RowContext } from './rows-common.js';

/** A statement of an extraction: its SQL (a database may add what it needs to read the rows, as ClickHouse's column types). */
export interface RowStatement {
  readonly text: string;
}

/**
 * What the record extraction asks of its database: the statements of the three kinds, written in
 * its SQL, and how they run. Every statement's rows have the columns, in the order and with the
 * values, that the record producers read (feature-rows.ts, contribution-rows.ts,
 * collection-rows.ts describe them; rows-common.ts the state's columns): numbers as numbers,
 * booleans as booleans, WKB as bytes, tags as parallel key and value lists.
 */
export interface ExtractionSql {
  readonly flavor: SqlFlavor;
  readonly dictionary: StoreTagDictionary;
  /** The alias of the scanned `states` rows in the statements ('' where they name its columns bare): the area plan's. */
  readonly alias: string;
  /** SQL: a version 2 filter alone (no scope) on the rows of `alias`, testing the tags of `tags`. */
  filterSql(filter: Filter, alias: string, tags?: TagSource): string;
  /** SQL: the relation of `alias` is not one version 2 counts as a feature (scope.ts `v2CollectionRelationSql`). */
  collectionRelationSql(alias: string): string;
  features(ctx: RowContext, request: FeaturesExtractionRequest): RowStatement;
  contributions(ctx: RowContext, request: ContributionsExtractionRequest): RowStatement;
  collections(ctx: RowContext, request: CollectionsExtractionRequest): RowStatement;
  /**
   * Runs a statement: its rows in batches (DuckDB: one per chunk), each row its columns in the
   * statement's order. Closing the iteration or aborting `signal` stops the statement.
   */
  rows(st: RowStatement, signal: AbortSignal | undefined): AsyncIterable<unknown[][]>;
}

/** The record extraction over any database that writes the statements of `ExtractionSql`. */
export function createSqlV2Extraction(db: ExtractionSql, options: { clipper?: BoundaryClipperOptions } = {}): RecordExtraction {
  return {
    async *records(request: ExtractionRequest, signal?: AbortSignal): AsyncGenerator<ExtractionRecord[], void, undefined> {
      // The loops over a batch's rows give the event loop a turn every 10 ms (src/core/yielding.ts).
      const plan = planAreaSql(request.aoi, db.alias, db.flavor);
      const ctx: RowContext = { db, plan, signal, pause: slicer(), clipper: boundaryClipper(plan, request.aoi, options.clipper) };
      checkAborted(signal);
      switch (request.kind) {
        case 'features':
          yield* featureRecords(ctx, request);
          break;
        case 'contributions':
          yield* contributionRecords(ctx, request);
          break;
        case 'collections':
        case 'collections_members':
          yield* collectionRecords(ctx, request);
          break;
      }
      checkAborted(signal);
    },
  };
}
