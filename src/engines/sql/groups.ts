/**
 * Group codes in SQL (pure text): the code of a row for a grouping, and the labels a code stands
 * for (the order and completion of groups is src/query/groups.ts).
 */
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { TYPE_NAMES, type Grouping, type GroupLabels } from '../../query/groups.js';
import { DUCKDB_FLAVOR, type SqlFlavor } from './flavor.js';

const TWO32 = 4294967296;
const KEY_MASK_BITS = 63;

/** SQL: the value id of key `keyId` in the tag list `kv` (with its `mask`), or -1 when absent. */
export function valueIdSql(keyId: number | undefined, kv = 'tag_kv', mask = 'key_mask', flavor: SqlFlavor = DUCKDB_FLAVOR): string {
  if (keyId === undefined) return '-1';
  const ch = flavor.name === 'clickhouse';
  if (keyId < KEY_MASK_BITS) {
    const bit = 2 ** keyId;
    // The value is the tag's place among the row's keys with a mask bit: the set bits below its own.
    return ch
      ? `if(bitAnd(${mask}, ${bit}) <> 0, bitAnd(arrayElement(${kv}, length(bitmaskToArray(bitAnd(${mask}, ${bit - 1}))) + 1), 4294967295), -1)`
      : `CASE WHEN (${mask} & ${bit}) <> 0 THEN (${kv}[bit_count(${mask} & ${bit - 1}) + 1] & 4294967295) ELSE -1 END`;
  }
  const lo = keyId * TWO32;
  const inRange = `x -> x >= ${lo} AND x < ${lo + TWO32}`;
  return ch ? `if(arrayExists(${inRange}, ${kv}), arrayFirst(${inRange}, ${kv}) - ${lo}, -1)` : `coalesce(list_filter(${kv}, ${inRange})[1] - ${lo}, -1)`;
}

/** SQL: the row has key `keyId`. */
export function hasKeySql(keyId: number | undefined, kv = 'tag_kv', mask = 'key_mask', flavor: SqlFlavor = DUCKDB_FLAVOR): string {
  if (keyId === undefined) return flavor.false;
  const ch = flavor.name === 'clickhouse';
  if (keyId < KEY_MASK_BITS) return ch ? `(bitAnd(${mask}, ${2 ** keyId}) <> 0)` : `((${mask} & ${2 ** keyId}) <> 0)`;
  const lo = keyId * TWO32;
  return ch ? `arrayExists(x -> x >= ${lo} AND x < ${lo + TWO32}, ${kv})` : `len(list_filter(${kv}, x -> x >= ${lo} AND x < ${lo + TWO32})) > 0`;
}

/** The SQL group code of a snapshot row, and the labels a code stands for. */
export interface GroupCoder extends GroupLabels {
  codeSql: string;
  labelsOf(code: number): string[];
}

export function groupCoder(
  grouping: Grouping,
  dict: StoreTagDictionary,
  cols: { kv: string; mask: string } = { kv: 'tag_kv', mask: 'key_mask' },
  flavor: SqlFlavor = DUCKDB_FLAVOR,
): GroupCoder {
  switch (grouping.by) {
    case 'none':
      return { codeSql: '0', labelsOf: () => ['total'] };
    case 'type':
      return { codeSql: 'type', labelsOf: (code) => [`type:${TYPE_NAMES[code]}`] };
    case 'element':
      // The element (query/groups.ts elementOfCode): every state of an element has the same code.
      return { codeSql: '(id * 4 + type)', labelsOf: (code) => [`element:${code}`] };
    case 'contributionType':
      // The state's tag-change (1) and geometry-change (2) flags against the previous kept state
      // (the store's, src/history/finish-states.ts); the kind comes from the contribution query
      // (query/groups.ts labelsOfCodes). The geometry flag is the exact comparison for a change
      // between two sides inside the area (their WKB differ exactly when their coordinates do); a
      // side on the area's edge is classified one by one (contributionTypeLabels).
      return {
        codeSql: '(CASE WHEN tag_change THEN 1 ELSE 0 END + CASE WHEN geometry_change THEN 2 ELSE 0 END)',
        labelsOf: (code) => [...(code & 1 ? ['ct:tagChange'] : []), ...(code & 2 ? ['ct:geometryChange'] : [])],
      };
    case 'tag': {
      const keyId = dict.keyId(grouping.key);
      const requested = grouping.values ? new Set(grouping.values) : undefined;
      return {
        codeSql: valueIdSql(keyId, cols.kv, cols.mask, flavor),
        labelsOf: (code) => {
          if (code < 0 || keyId === undefined) return ['remainder'];
          const value = dict.valueName(keyId, code) ?? '';
          if (requested && !requested.has(value)) return ['remainder'];
          return [`tag:${value}`];
        },
      };
    }
    case 'key': {
      if (grouping.keys.length > 62) throw new RangeError('at most 62 keys can be grouped by');
      const ids = grouping.keys.map((k) => dict.keyId(k));
      const parts = ids
        .map((id, i) => (id === undefined ? null : `CASE WHEN ${hasKeySql(id, cols.kv, cols.mask, flavor)} THEN ${2 ** i} ELSE 0 END`))
        .filter((p): p is string => p !== null);
      return {
        codeSql: parts.length === 0 ? '0' : `(${parts.join(' + ')})`,
        labelsOf: (code) => {
          if (code === 0) return ['remainder'];
          const out: string[] = [];
          for (let i = 0; i < grouping.keys.length; i++) if (Math.floor(code / 2 ** i) % 2 === 1) out.push(`key:${i}`);
          return out;
        },
      };
    }
  }
}
