/**
 * How this writer sizes and scales its blocks.
 *
 * With granularity 100 nanodegrees a stored coordinate is exactly the 1e-7 fixed-point integer
 * of `NodeVersion.lon/lat`, and with date_granularity 1000 ms a stored timestamp is exactly the
 * epoch seconds of `OsmVersion.timestamp`: no scaling anywhere.
 */

export const GRANULARITY_NANODEGREES = 100;
export const DATE_GRANULARITY_MS = 1000;

/** The usual entity count of a block (osmium and osmosis write 8000 too). */
export const MAX_ENTITIES_PER_BLOCK = 8000;

/**
 * A block is closed early once its encoded size passes this (only huge relations get there).
 * Well below the 16 MiB the format recommends as the largest uncompressed blob.
 */
export const SOFT_MAX_BLOCK_BYTES = 8 * 1024 * 1024;
