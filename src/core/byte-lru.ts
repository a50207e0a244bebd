/**
 * A least-recently-used map bounded by an estimate of its bytes: the engines' boundary cache
 * (src/engines/common/boundary-cache.ts) and the servers' answer cache (src/api/answer-cache.ts).
 */
export class ByteBoundedLru<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private bytes = 0;
  private oldest: MapIterator<[K, { value: V; bytes: number }]> | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // Refresh its place in the order (Map iterates in insertion order: the oldest first).
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: K, value: V): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    const bytes = this.sizeOf(value);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) {
      // The oldest entry: one iterator kept across calls. A fresh iterator per call would step
      // over every entry deleted from the front since the Map last compacted (quadratic when
      // the cache is full and every set evicts). A Map's iterator stays valid across deletions and
      // insertions: everything before its position has been evicted, and an entry refreshed by
      // get() was moved to the end, where the iterator meets it again in its new place.
      let next = this.oldest?.next();
      if (!next || next.done) next = (this.oldest = this.entries.entries()).next();
      if (next.done) break;
      const [k, e] = next.value;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }
}
