/**
 * Tag sets: the staging rows refer to their tags (and the previous contribution's tags) by the id
 * of a distinct tag list instead of carrying the list. A 4-country history has 1.1 M states but only
 * 81 k distinct tag lists (most states are untagged nodes, or a version's minor states, which share
 * their version's tags), so the finalize step builds each tag map and remapped key list once per set
 * and joins it by an integer id, and the writer appends two integers per row instead of two lists.
 *
 * A set is a tag list in its own order (the view's MAP keeps the element's tag order). The id map is
 * bounded: when it reaches MAX_REMEMBERED sets it is forgotten, and a list seen again gets a new id
 * (duplicate sets are harmless: each row joins the one set it names), so memory does not grow with
 * the input.
 */
import type { FlatTags } from '../core/osm.js';
import type { TagDictionaryBuilder } from './tag-dictionary-builder.js';

const MAX_REMEMBERED = 500_000;

interface TagSet {
  id: number;
  /** Provisional packed ids (TagDictionaryBuilder.encode), in the list's order. */
  packed: number[];
}

export class TagSetBuilder {
  /** Sets by a hash of their packed ids (a bucket: sets whose lists share the hash). */
  private readonly byHash = new Map<number, TagSet[]>();
  private remembered = 0;
  private nextId = 1;
  /** Sets created since the last `takeNew()`. */
  private created: TagSet[] = [];
  /** The last two lists looked up, by identity: a version's states share one tags array. */
  private recent: [FlatTags | undefined, TagSet | undefined, FlatTags | undefined, TagSet | undefined] = [undefined, undefined, undefined, undefined];
  private static readonly EMPTY: TagSet = { id: 0, packed: [] };

  constructor(private readonly dictionary: TagDictionaryBuilder) {}

  /**
   * The id of a tag list's set. `count`: the list is a state's own tags, so its keys and values
   * count towards the dictionary's frequencies (the previous contribution's tags do not).
   */
  idOf(tags: FlatTags, count: boolean): number {
    const set = this.setOf(tags);
    if (count) this.dictionary.count(set.packed);
    return set.id;
  }

  private setOf(tags: FlatTags): TagSet {
    if (tags.length === 0) return TagSetBuilder.EMPTY;
    const r = this.recent;
    if (r[0] === tags) return r[1]!;
    if (r[2] === tags) return r[3]!;
    // A new version often keeps its predecessor's tags in another array: the same list, found
    // without encoding it.
    let set = r[0] !== undefined && sameList(r[0], tags) ? r[1] : r[2] !== undefined && sameList(r[2], tags) ? r[3] : undefined;
    if (set === undefined) {
      const packed = this.dictionary.encode(tags, false);
      // Found by a numeric hash and confirmed by comparing the ids: a string key (`join(',')` of
      // numbers up to 2^53) and its lookup were most of this method's time.
      const hash = hashOf(packed);
      let bucket = this.byHash.get(hash);
      if (bucket !== undefined) {
        for (const candidate of bucket) {
          if (sameList(candidate.packed, packed)) {
            set = candidate;
            break;
          }
        }
      }
      if (set === undefined) {
        if (this.remembered >= MAX_REMEMBERED) {
          this.byHash.clear();
          this.remembered = 0;
          bucket = undefined;
        }
        // Staged as INTEGER: fail loudly rather than wrap (a planet-scale history could get there).
        if (this.nextId > 0x7fffffff) throw new Error('more than 2^31 tag sets: stage tag set ids as BIGINT');
        set = { id: this.nextId++, packed };
        if (bucket === undefined) this.byHash.set(hash, [set]);
        else bucket.push(set);
        this.remembered++;
        this.created.push(set);
      }
    }
    r[2] = r[0];
    r[3] = r[1];
    r[0] = tags;
    r[1] = set;
    return set;
  }

  /** The sets created since the last call (the empty set, id 0, is implicit). */
  takeNew(): { id: number; packed: number[] }[] {
    const out = this.created;
    this.created = [];
    return out;
  }
}

/** The same tags (or packed ids) in the same order. */
function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A 32-bit hash of packed ids (key id × 2^32 + value id, exact doubles). */
function hashOf(packed: readonly number[]): number {
  let h = packed.length;
  for (let i = 0; i < packed.length; i++) {
    const x = packed[i];
    const high = Math.floor(x / 4294967296);
    h = Math.imul(h ^ high, 0x9e3779b1);
    h = Math.imul(h ^ (x - high * 4294967296), 0x85ebca6b);
    h ^= h >>> 15;
  }
  return h;
}
