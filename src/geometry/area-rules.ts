/**
 * The reference's default tag interpreter (OSHDB `DefaultTagInterpreter` with
 * `polygon-features.json`, docs/reference/history-engine-semantics.md §2.4): decides whether a closed way is an area and whether a
 * relation is a multipolygon.
 *
 * Deliberately reproduced quirk: for **whitelist** keys the reference adds the value `no` to the
 * list of area values, so a closed way tagged e.g. `highway=no` or `barrier=no` *is* an area; and
 * for **blacklist** keys `no` is not excluded (`natural=no` is an area). Only the `all` keys treat
 * `key=no` as "not an area". We keep this so that areas, lengths and geometry types match the
 * reference number for number.
 */

/** How the values of a key decide "area". */
type Rule = { kind: 'all' } | { kind: 'whitelist'; values: ReadonlySet<string> } | { kind: 'blacklist'; values: ReadonlySet<string> };

const ALL_KEYS = [
  'building',
  'landuse',
  'amenity',
  'leisure',
  'area',
  'boundary',
  'place',
  'shop',
  'tourism',
  'historic',
  'public_transport',
  'office',
  'building:part',
  'military',
  'ruins',
  'area:highway',
  'craft',
  'golf',
  'indoor',
];

/** Whitelists as in polygon-features.json, each with the reference's extra `no` (see above). */
const WHITELISTS: Record<string, string[]> = {
  highway: ['services', 'rest_area', 'escape', 'elevator'],
  waterway: ['riverbank', 'dock', 'boatyard', 'dam'],
  barrier: ['city_wall', 'ditch', 'hedge', 'retaining_wall', 'wall', 'spikes'],
  railway: ['station', 'turntable', 'roundhouse', 'platform'],
  power: ['plant', 'substation', 'generator', 'transformer'],
};

const BLACKLISTS: Record<string, string[]> = {
  natural: ['coastline', 'cliff', 'ridge', 'arete', 'tree_row'],
  man_made: ['cutline', 'embankment', 'pipeline'],
  aeroway: ['taxiway'],
};

const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ...ALL_KEYS.map((key): [string, Rule] => [key, { kind: 'all' }]),
  ...Object.entries(WHITELISTS).map(([key, values]): [string, Rule] => [key, { kind: 'whitelist', values: new Set([...values, 'no']) }]),
  ...Object.entries(BLACKLISTS).map(([key, values]): [string, Rule] => [key, { kind: 'blacklist', values: new Set(values) }]),
]);

function ruleSaysArea(rule: Rule, value: string): boolean {
  switch (rule.kind) {
    case 'all':
      return value !== 'no';
    case 'whitelist':
      return rule.values.has(value);
    case 'blacklist':
      return !rule.values.has(value);
  }
}

/**
 * Is this way version an area? Requires ≥ 4 refs with first ref id = last ref id (by id, before
 * node resolution); `area=no` makes it a line; otherwise any tag matching the rule table makes it
 * an area.
 *
 * @param tags flat `[k1, v1, k2, v2, …]` in stored order
 * @param refs the way's node ids
 */
export function isAreaWay(tags: readonly string[], refs: readonly number[]): boolean {
  if (refs.length < 4 || refs[0] !== refs[refs.length - 1]) return false;
  for (let i = 0; i + 1 < tags.length; i += 2) {
    if (tags[i] === 'area' && tags[i + 1] === 'no') return false;
  }
  for (let i = 0; i + 1 < tags.length; i += 2) {
    const rule = RULES.get(tags[i]);
    if (rule !== undefined && ruleSaysArea(rule, tags[i + 1])) return true;
  }
  return false;
}

/**
 * Is this relation version assembled as a (multi)polygon? True iff it has `type=multipolygon` or
 * `type=boundary`; other tags, `area=no` included, are ignored (reference behaviour).
 */
export function isAreaRelation(tags: readonly string[]): boolean {
  for (let i = 0; i + 1 < tags.length; i += 2) {
    if (tags[i] === 'type') return tags[i + 1] === 'multipolygon' || tags[i + 1] === 'boundary';
  }
  return false;
}
