/**
 * The version 2 extraction statements in DuckDB's SQL (pure: text only, no I/O): features,
 * contributions and collections. Their rows' columns, in order, are those the record producers read
 * (src/engines/common/parquet/feature-rows.ts, contribution-rows.ts, collection-rows.ts, whose
 * comments say which rows each statement selects; rows-common.ts the state's columns); ClickHouse
 * writes the same in src/engines/clickhouse/sql/parquet.ts.
 */
import type { CollectionsExtractionRequest, ContributionsExtractionRequest, FeaturesExtractionRequest } from '../../../query/v2-requests.js';
import { MEMBER_GEOMETRY_COLUMNS, MEMBER_PLACE_COLUMNS } from '../../common/parquet/collection-rows.js';
import { CONTRIBUTION_COLUMNS } from '../../common/parquet/contribution-rows.js';
import { FEATURE_COLUMNS } from '../../common/parquet/feature-rows.js';
import {
  areaSql,
  collectionFilterSql,
  filterSql,
  isInteger,
  memberFilterSql,
  selectList,
  STATE_COLUMNS,
  type RowContext,
} from '../../common/parquet/rows-common.js';

/** A state `a`'s columns, in STATE_COLUMNS order. Needs `LEFT JOIN users u_a ON u_a.id = a.user_id`. */
export function stateColumnsSql(a: string): string {
  return selectList(STATE_COLUMNS, {
    type: `${a}.type::INTEGER`,
    id: `${a}.id::DOUBLE`,
    valid_from: `${a}.valid_from::DOUBLE`,
    valid_to: `${a}.valid_to::DOUBLE`,
    version: `${a}.version`,
    minor_version: `${a}.minor_version`,
    edits: `${a}.edits`,
    user_id: `${a}.user_id`,
    user_name: `u_${a}.name`,
    changeset: `${a}.changeset::DOUBLE`,
    tag_keys: `map_keys(${a}.tags)`,
    tag_values: `map_values(${a}.tags)`,
    xmin: `${a}.xmin`,
    ymin: `${a}.ymin`,
    xmax: `${a}.xmax`,
    ymax: `${a}.ymax`,
  });
}

export function usersJoin(a: string): string {
  return `LEFT JOIN users u_${a} ON u_${a}.id = ${a}.user_id`;
}

export function featureSql(ctx: RowContext, request: FeaturesExtractionRequest): string {
  const plan = ctx.plan;
  const time =
    'at' in request.time
      ? `st.valid_from <= ${isInteger(request.time.at)} AND st.valid_to > ${isInteger(request.time.at)}`
      : `st.valid_to > ${isInteger(request.time.start)} AND st.valid_from < ${isInteger(request.time.end)}`;
  const withClause = plan.withSql ? `WITH ${plan.withSql}\n` : '';
  const geometry = selectList(FEATURE_COLUMNS, {
    geometry_type: 'st.geometry_type::INTEGER',
    geometry: 'st.geometry',
    interior: `coalesce(${plan.interiorWithSql}, FALSE)`,
  });
  return `${withClause}SELECT ${stateColumnsSql('st')}, ${geometry}
FROM states st ${usersJoin('st')}
WHERE NOT st.deleted AND st.geometry_type NOT IN (0, 7) AND ${time}
  AND ${plan.intersectsSql} AND ${filterSql(ctx, request.filter, 'st')}`;
}

export function contributionSql(ctx: RowContext, request: ContributionsExtractionRequest): string {
  const plan = ctx.plan;
  const { start, end } = request.time;
  const withClause = plan.withSql ? `WITH ${plan.withSql}\n` : '';
  const more = selectList(CONTRIBUTION_COLUMNS, {
    geometry_type: 'st.geometry_type::INTEGER',
    geometry: 'st.geometry',
    interior: `coalesce(${plan.interiorWithSql}, FALSE)`,
    deleted: 'st.deleted',
    is_creation: 'st.is_creation',
    tag_change: 'st.tag_change',
    geometry_change: 'st.geometry_change',
    tags_before_keys: 'map_keys(st.tags_before)',
    tags_before_values: 'map_values(st.tags_before)',
    changeset_tag_keys: 'coalesce(map_keys(cs.tags), [])',
    changeset_tag_values: 'coalesce(map_values(cs.tags), [])',
  });
  return `${withClause}SELECT ${stateColumnsSql('st')}, ${more}
FROM states st ${usersJoin('st')} LEFT JOIN changesets cs ON cs.id = st.changeset
WHERE NOT st.collapsed AND st.valid_from >= ${isInteger(start)} AND st.valid_from < ${isInteger(end)}
  AND ${plan.intersectsSql} AND ${filterSql(ctx, request.filter, 'st', 'currentOrBefore')}`;
}

export function collectionSql(ctx: RowContext, request: CollectionsExtractionRequest): string {
  const plan = ctx.plan;
  const at = isInteger(request.time.at);
  const memberFilter = request.memberFilter ? memberFilterSql(ctx, request.memberFilter, 'ms') : 'TRUE';
  const withClause = plan.withSql ? `${plan.withSql},\n` : '';
  return `WITH ${withClause}r AS (
  SELECT st.* FROM states st
  WHERE st.type = 2 AND NOT st.deleted AND st.geometry_type = 7
    AND st.valid_from <= ${at} AND st.valid_to > ${at}
    AND ${plan.intersectsSql} AND ${collectionFilterSql(ctx, request.filter, 'st')}
)
SELECT ${stateColumnsSql('r')}, ${selectList(MEMBER_PLACE_COLUMNS, { pos: 'm.pos', role: 'm.role' })}, ${stateColumnsSql('ms')},
       ${selectList(MEMBER_GEOMETRY_COLUMNS, { geometry_type: 'ms.geometry_type::INTEGER', geometry: 'ms.geometry', interior: `coalesce(${areaSql(plan.interiorWithSql, 'ms')}, FALSE)` })}
FROM r JOIN relation_members m ON m.relation_id = r.id AND m.version = r.version
JOIN states ms ON ms.type = m.member_type AND ms.id = m.member_id
  AND NOT ms.deleted AND ms.valid_from <= ${at} AND ms.valid_to > ${at} AND ms.geometry_type NOT IN (0, 7)
${usersJoin('r')} ${usersJoin('ms')}
WHERE ${areaSql(plan.intersectsSql, 'ms')} AND ${memberFilter}
ORDER BY r.id, m.pos`;
}
