/**
 * Grouping (pure): labels, and the documented output order. The group codes are computed by the
 * engine (src/engines/sql/groups.ts).
 *
 * Labels: `total`, `remainder`, `type:<node|way|relation>`, `tag:<value>`, `key:<index>`.
 * Order of groups in an answer:
 *   - type: node, way, relation (always all three);
 *   - tag:  [total (users only)], remainder (if present), the requested values in request order
 *           (always), then discovered values by name (code-point order);
 *   - key:  [total (users only)], remainder (if present), the listed keys in request order (always);
 *   - element (users only, labels `element:<code>`): the elements with a contribution, by type then id;
 *   - contributionType (contributions only, labels `ct:<type>`): creation, deletion, tagChange,
 *           geometryChange (always all four; a contribution is in every group whose flag it has).
 * "Present" = at least one element counted at some timestamp (snapshots) or one contribution in
 * some interval (contributions/users).
 */
import type { StoreTagDictionary } from '../store/store-tag-dictionary.js';
import { CONTRIBUTION_TYPES, type GroupKey } from './model.js';

export type Grouping =
  | { by: 'none' }
  | { by: 'type' }
  | { by: 'tag'; key: string; values?: string[] }
  | { by: 'key'; keys: string[] }
  | { by: 'contributionType' }
  | { by: 'element' };

/**
 * At most this many element groups (users/count/groupBy/element) in one answer; more is refused
 * with PAYLOAD_TOO_LARGE (a smaller area or time range answers).
 */
export const MAX_ELEMENT_GROUPS = 100_000;

/** An element's group code (`id * 4 + type`, exact in a double for ids below 2^50) and back. */
export function elementOfCode(code: number): { type: (typeof TYPE_NAMES)[number]; id: number } {
  const t = ((code % 4) + 4) % 4;
  return { type: TYPE_NAMES[t]!, id: (code - t) / 4 };
}

/** The labels of a classified contribution for groupBy/contributionType: one per flag it has (none for a contribution that changed nothing visible). */
export function contributionTypeLabels(c: { creation: boolean; deletion: boolean; tagChange: boolean; geometryChange: boolean }): string[] {
  return CONTRIBUTION_TYPES.filter((t) => c[t]).map((t) => `ct:${t}`);
}

export const TYPE_NAMES = ['node', 'way', 'relation'] as const;
const TWO32 = 4294967296;

/** What a group code stands for (the engine computes the codes: src/engines/sql/groups.ts). */
export interface GroupLabels {
  labelsOf(code: number): string[];
}

/** The labels of a contribution with the given tags (packed key/value ids), for contribution/user grouping. */
export function labelsOfTags(grouping: Grouping, dict: StoreTagDictionary, tagSets: readonly (readonly number[])[], type: number): string[] {
  switch (grouping.by) {
    case 'none':
      return ['total'];
    case 'type':
      return [`type:${TYPE_NAMES[type]}`];
    case 'tag': {
      const keyId = dict.keyId(grouping.key);
      const requested = grouping.values ? new Set(grouping.values) : undefined;
      const out = new Set<string>();
      if (keyId !== undefined) {
        for (const tags of tagSets) {
          for (const packed of tags) {
            if (Math.floor(packed / TWO32) !== keyId) continue;
            const value = dict.valueName(keyId, packed % TWO32) ?? '';
            out.add(requested && !requested.has(value) ? 'remainder' : `tag:${value}`);
          }
        }
      }
      if (out.size === 0) out.add('remainder');
      return [...out];
    }
    case 'contributionType':
      throw new RangeError('contribution types are no tag grouping: use contributionTypeLabels');
    case 'element':
      throw new RangeError('elements are no tag grouping');
    case 'key': {
      const ids = grouping.keys.map((k) => dict.keyId(k));
      const out: string[] = [];
      ids.forEach((id, i) => {
        if (id !== undefined && tagSets.some((tags) => tags.some((packed) => Math.floor(packed / TWO32) === id))) out.push(`key:${i}`);
      });
      return out.length > 0 ? out : ['remainder'];
    }
  }
}

/** Orders and completes the groups (zero-fill) as documented above. */
export function finishGroups<T>(
  grouping: Grouping,
  found: Map<string, { value: T; present: boolean }>,
  zero: () => T,
  options: { total?: T } = {},
): { key: GroupKey; value: T }[] {
  const out: { key: GroupKey; value: T }[] = [];
  const get = (label: string) => found.get(label)?.value ?? zero();
  const ifPresent = (label: string, key: GroupKey) => {
    if (found.get(label)?.present) out.push({ key, value: found.get(label)!.value });
  };
  switch (grouping.by) {
    case 'none':
      return [{ key: { kind: 'total' }, value: get('total') }];
    case 'type':
      return TYPE_NAMES.map((type) => ({ key: { kind: 'type', type }, value: get(`type:${type}`) }));
    case 'contributionType':
      return CONTRIBUTION_TYPES.map((type) => ({ key: { kind: 'contributionType', type }, value: get(`ct:${type}`) }));
    case 'element': {
      // the elements with a contribution, by type then id
      const codes = [...found.entries()].filter(([label, g]) => label.startsWith('element:') && g.present).map(([label]) => Number(label.slice(8)));
      const elements = codes.map(elementOfCode).sort((a, b) => TYPE_NAMES.indexOf(a.type) - TYPE_NAMES.indexOf(b.type) || a.id - b.id);
      return elements.map((e) => ({ key: { kind: 'element', type: e.type, id: e.id }, value: get(`element:${e.id * 4 + TYPE_NAMES.indexOf(e.type)}`) }));
    }
    case 'tag': {
      if (options.total !== undefined) out.push({ key: { kind: 'total' }, value: options.total });
      ifPresent('remainder', { kind: 'remainder' });
      const seen = new Set<string>();
      for (const v of grouping.values ?? []) {
        if (seen.has(v)) continue;
        seen.add(v);
        out.push({ key: { kind: 'tag', key: grouping.key, value: v }, value: get(`tag:${v}`) });
      }
      if (!grouping.values) {
        const discovered = [...found.entries()]
          .filter(([label, g]) => label.startsWith('tag:') && g.present)
          .map(([label]) => label.slice(4))
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        for (const v of discovered) out.push({ key: { kind: 'tag', key: grouping.key, value: v }, value: get(`tag:${v}`) });
      }
      return out;
    }
    case 'key': {
      if (options.total !== undefined) out.push({ key: { kind: 'total' }, value: options.total });
      ifPresent('remainder', { kind: 'remainder' });
      const seen = new Set<string>();
      grouping.keys.forEach((k, i) => {
        if (seen.has(k)) return;
        seen.add(k);
        out.push({ key: { kind: 'key', key: k }, value: get(`key:${i}`) });
      });
      return out;
    }
  }
}

/**
 * The labels of a contribution from the group codes of its tags after (`after`) and before
 * (`before`, the previous contribution's tags), the same as `labelsOfTags` over the tag sets of
 * the contribution: creation → after, deletion → before, otherwise both.
 */
export function labelsOfCodes(grouping: Grouping, coder: GroupLabels, kind: 'creation' | 'deletion' | 'change', after: number, before: number): string[] {
  switch (grouping.by) {
    case 'element':
      return coder.labelsOf(after);
    case 'contributionType':
      // The code holds the tag-change (1) and geometry-change (2) flags of a change between two
      // sides inside the area (src/engines/sql/groups.ts); rows on the area's edge are
      // classified one by one (contributionTypeLabels).
      if (kind !== 'change') return [kind === 'creation' ? 'ct:creation' : 'ct:deletion'];
      return [...(after & 1 ? ['ct:tagChange'] : []), ...(after & 2 ? ['ct:geometryChange'] : [])];
    case 'none':
    case 'type':
      return coder.labelsOf(after);
    case 'tag': {
      const codes = kind === 'creation' ? [after] : kind === 'deletion' ? [before] : [after, before];
      const out = new Set<string>();
      for (const code of codes) if (code >= 0) for (const l of coder.labelsOf(code)) out.add(l);
      if (out.size === 0) out.add('remainder');
      return [...out];
    }
    case 'key': {
      const code = kind === 'creation' ? after : kind === 'deletion' ? before : bitOr(after, before);
      return coder.labelsOf(code);
    }
  }
}

/** Bitwise or of two non-negative integers below 2^62 (JS `|` is 32-bit). */
function bitOr(a: number, b: number): number {
  return Number(BigInt(a) | BigInt(b));
}
