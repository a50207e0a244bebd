/**
 * The physical layout of a maphist database (DuckDB). One row of `states` is one state of one
 * element: an interval during which its tags and geometry were constant. docs/store.md explains
 * each column; `contributions` is the stable user-facing view over it.
 *
 * Bump SCHEMA_VERSION whenever a column changes meaning.
 */

export const SCHEMA_VERSION = 6;

/** `valid_to` of a state that is still current: 3000-01-01T00:00:00Z. The view maps it to NULL. */
export const OPEN_END = 32503680000;

/**
 * Squareness is O(segments²): it is precomputed for shapes up to this many segments (buildings and
 * other small features, where the measure matters) and NULL above; the query layer computes it from
 * the WKB when a filter asks for it on a larger shape.
 */
export const PRECOMPUTED_SQUARENESS_MAX_SEGMENTS = 100;

/**
 * Rows per row group of the store's tables (DuckDB's default: 122,880). A query's scan is cut into
 * tasks by row group, and its zone maps (min/max per column) skip by row group: the four-country
 * store's 1.1 million states made 10 row groups, so a scan that the spatial order narrows to a few
 * of them ran on one core, and a zone map spanned a tenth of the map. With 16,384 rows: the v1
 * benchmark requests 14–21 % faster over HTTP, users/count 4 % (alternated, bench/RESULTS.md
 * "Session 25"), the file 0.8 % larger. Rows that `maphist update` appends later go to row groups of DuckDB's default size.
 */
export const STORE_ROW_GROUP_SIZE = 16384;

export { GEOMETRY_TYPE_CODE, type GeometryTypeName } from '../core/geometry-type-code.js';

/** How many of the most frequent keys get a bit in `key_mask` (a BIGINT; bit 63 stays clear). */
export const KEY_MASK_BITS = 63;

/** Pack a (key id, value id) pair into the BIGINT stored in `tag_kv`. */
export function packTag(keyId: number, valueId: number): bigint {
  return (BigInt(keyId) << 32n) | BigInt(valueId);
}
/** The same packing as a JS number (exact while key ids stay below 2^21). */
export function packTagNumber(keyId: number, valueId: number): number {
  return keyId * 4294967296 + valueId;
}

export const STATES_COLUMNS = `
  type            UTINYINT NOT NULL,   -- 0 node, 1 way, 2 relation
  id              BIGINT   NOT NULL,
  version         INTEGER  NOT NULL,
  minor_version   INTEGER  NOT NULL,   -- 0 for a version's own state, +1 per member-induced state
  valid_from      BIGINT   NOT NULL,   -- epoch seconds, inclusive
  valid_to        BIGINT   NOT NULL,   -- epoch seconds, exclusive; OPEN_END while current
  deleted         BOOLEAN  NOT NULL,
  changeset       BIGINT   NOT NULL,
  user_id         INTEGER  NOT NULL,
  tag_kv          BIGINT[] NOT NULL,   -- packTag(key id, value id) for each tag, sorted
  key_mask        BIGINT   NOT NULL,   -- bit k set when key id k (< 63) is present
  tags            MAP(VARCHAR, VARCHAR) NOT NULL,
  tag_kv_before   BIGINT[] NOT NULL,   -- the previous state's tags ([] for the first state)
  key_mask_before BIGINT   NOT NULL,
  tags_before     MAP(VARCHAR, VARCHAR) NOT NULL,
  geometry_type   UTINYINT NOT NULL,   -- GEOMETRY_TYPE_CODE
  geometry        BLOB,                -- WKB (lon/lat, EPSG:4326); a deleted state keeps the last visible geometry
  geometry_valid  BOOLEAN  NOT NULL,   -- false when assembly reported a problem (open ring, missing members, …)
  xmin            DOUBLE,
  ymin            DOUBLE,
  xmax            DOUBLE,
  ymax            DOUBLE,
  spatial_key     BIGINT   NOT NULL,   -- Hilbert index of the bbox centre; the table is ordered by it (the rows of elements whose extent is the whole world last)
  area            DOUBLE   NOT NULL,   -- m², unclipped (0 for deleted states)
  length          DOUBLE   NOT NULL,   -- m
  perimeter       DOUBLE   NOT NULL,   -- m
  vertices        INTEGER  NOT NULL,
  outers          INTEGER  NOT NULL,
  inners          INTEGER  NOT NULL,
  roundness       DOUBLE   NOT NULL,
  squareness      DOUBLE,              -- NULL above PRECOMPUTED_SQUARENESS_MAX_SEGMENTS
  collapsed       BOOLEAN  NOT NULL,   -- the next state of this element comes from the same changeset
  is_creation     BOOLEAN  NOT NULL,
  is_deletion     BOOLEAN  NOT NULL,
  tag_change      BOOLEAN  NOT NULL,
  geometry_change BOOLEAN  NOT NULL,
  edits           INTEGER  NOT NULL,   -- 1 + number of kept (not collapsed) states of the element before this one
  ever_tagged     BOOLEAN  NOT NULL,   -- some version of the element carried a tag (schema version 3; the same on every row of an element)
  ext_xmin        DOUBLE   NOT NULL,   -- the element's extent (schema version 5; the same on every row of an element):
  ext_ymin        DOUBLE   NOT NULL,   --   the union of the bboxes of all its states, or the whole world when a state
  ext_xmax        DOUBLE   NOT NULL,   --   of it may be placed by its members' history (element-extent.ts)
  ext_ymax        DOUBLE   NOT NULL,
  geometry_run    INTEGER  NOT NULL    -- run starts (creation, deletion, geometry change) among the kept states up to this one (schema version 6; geometry-run.ts)
`;

/**
 * Changesets (schema version 3): the changesets of the planet changeset dump that the states
 * reference (or all of them), loaded by `maphist import --changesets` or `maphist changesets import`;
 * empty until then. `tags` holds the changeset's tags (comment, hashtags, created_by, source, …).
 */
export const CHANGESETS_COLUMNS = `
  id              BIGINT   NOT NULL,
  created_at      TIMESTAMP NOT NULL,
  closed_at       TIMESTAMP,           -- NULL while the changeset is open
  open            BOOLEAN  NOT NULL,
  user_id         INTEGER,             -- NULL for anonymous edits
  user_name       VARCHAR,
  num_changes     INTEGER,
  comments_count  INTEGER,
  min_lon         DOUBLE,              -- the changeset's bbox; NULL when it has none
  min_lat         DOUBLE,
  max_lon         DOUBLE,
  max_lat         DOUBLE,
  tags            MAP(VARCHAR, VARCHAR) NOT NULL
`;

/**
 * The member list of every relation version (schema version 2): one row per member, in member
 * order. Written at import from the relation versions the history builder sees.
 */
export const RELATION_MEMBERS_COLUMNS = `
  relation_id     BIGINT   NOT NULL,
  version         INTEGER  NOT NULL,   -- the relation's version
  pos             INTEGER  NOT NULL,   -- 0-based position in the member list
  member_type     UTINYINT NOT NULL,   -- 0 node, 1 way, 2 relation
  member_id       BIGINT   NOT NULL,
  role            VARCHAR  NOT NULL
`;

/**
 * The node list of every way version (schema version 4): one row per node reference, in list order
 * (a closed way names its first node twice). Written at import from the way versions the history
 * builder sees, in (way_id, version, pos) order: a way's lists are one contiguous range, so the
 * lists of the ways an update must rebuild are read by id. Deleted versions have no rows.
 */
export const WAY_NODES_COLUMNS = `
  way_id          BIGINT   NOT NULL,
  version         INTEGER  NOT NULL,   -- the way's version
  pos             INTEGER  NOT NULL,   -- 0-based position in the node list
  node_id         BIGINT   NOT NULL
`;

/**
 * The back references of the current data (schema version 4): for every element that the current
 * version of a way or relation references (its newest version, when that is not a deletion), one row
 * per (member, parent), ordered by (member_type, member_id) so that "which current ways and relations
 * reference this element" reads one small range (DuckDB's zone maps skip the rest). Derived at import
 * from `way_nodes`, `relation_members` and the current states; an update that writes new versions
 * rewrites the rows of the parents it touches.
 */
export const CURRENT_PARENTS_COLUMNS = `
  member_type     UTINYINT NOT NULL,   -- 0 node, 1 way, 2 relation
  member_id       BIGINT   NOT NULL,
  parent_type     UTINYINT NOT NULL,   -- 1 way, 2 relation
  parent_id       BIGINT   NOT NULL,
  parent_version  INTEGER  NOT NULL    -- the parent's current version
`;
