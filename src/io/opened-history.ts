/**
 * What `openHistory` hands back, whatever the file format. Both readers (PBF and XML) implement it.
 */

import type { FileHeader, OsmVersion } from '../core/osm.js';

export type HistoryFormat = 'pbf' | 'xml';

export interface OpenedHistory {
  format: HistoryFormat;
  header: FileHeader;
  /**
   * Versions in file order, in batches: for PBF the versions of one block, cut into batches of at
   * most 2000 versions and 16384 way refs / relation members (small batches keep garbage
   * collection cheap, see pbf/materialize.ts); for XML 8000 elements. Can be iterated once;
   * leaving the loop early releases the file and threads. Errors in the data (truncation,
   * corruption, wrong order) are thrown from the iteration when it reaches them, after the
   * batches before them (errors in the first few kilobytes may already come from openHistory).
   */
  batches(): AsyncIterable<OsmVersion[]>;
  /** For progress bars: bytes of the input consumed so far and in total (compressed file bytes). */
  progress(): { bytesRead: number; bytesTotal: number };
  /** Releases the file and any worker threads. Safe to call more than once. */
  close(): Promise<void>;
}

export interface OpenHistoryOptions {
  /**
   * Worker threads decoding PBF blocks; default max(1, available CPUs − 1). 0 decodes on the
   * calling thread (no threads at all). Ignored for XML, which is parsed on the calling thread.
   */
  workers?: number;
}
