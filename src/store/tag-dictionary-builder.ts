/**
 * Assigns provisional integer ids to tag keys and values while importing (in order of first
 * appearance) and counts how often each is used. The final step of the import re-ranks keys by
 * frequency in SQL, so that the most common keys get the small ids that `key_mask` tests.
 */
import type { FlatTags } from '../core/osm.js';

export class TagDictionaryBuilder {
  readonly keys: string[] = [];
  readonly keyFrequency: number[] = [];
  readonly values: string[][] = [];
  readonly valueFrequency: number[][] = [];
  private readonly keyIds = new Map<string, number>();
  private readonly valueIds: Map<string, number>[] = [];

  /** Packed provisional (key id × 2^32 + value id) of each tag (exact doubles; the store casts them to BIGINT). */
  encode(tags: FlatTags, count: boolean): number[] {
    const out: number[] = new Array(tags.length / 2);
    for (let i = 0; i < tags.length; i += 2) {
      let k = this.keyIds.get(tags[i]);
      if (k === undefined) {
        k = this.keys.length;
        this.keyIds.set(tags[i], k);
        this.keys.push(tags[i]);
        this.keyFrequency.push(0);
        this.values.push([]);
        this.valueFrequency.push([]);
        this.valueIds.push(new Map());
      }
      const ids = this.valueIds[k];
      let v = ids.get(tags[i + 1]);
      if (v === undefined) {
        v = this.values[k].length;
        ids.set(tags[i + 1], v);
        this.values[k].push(tags[i + 1]);
        this.valueFrequency[k].push(0);
      }
      if (count) {
        this.keyFrequency[k]++;
        this.valueFrequency[k][v]++;
      }
      out[i / 2] = k * 4294967296 + v;
    }
    return out;
  }

  /** Counts one use of each tag of an encoded list (see `encode`). */
  count(packed: readonly number[]): void {
    for (let i = 0; i < packed.length; i++) {
      const k = Math.floor(packed[i] / 4294967296);
      this.keyFrequency[k]++;
      this.valueFrequency[k][packed[i] - k * 4294967296]++;
    }
  }
}
