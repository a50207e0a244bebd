import type { PbfWriter } from 'pbf';
import { STRING_TABLE } from './osm-pbf-fields.js';

/**
 * The string table of one primitive block: every tag key, tag value, user name and member role
 * is stored once and referenced by index.
 *
 * Index 0 is reserved (the PBF format uses it as the tag delimiter in DenseNodes.keys_vals), so
 * every real string, the empty string included, gets an index of 1 or more.
 */
export class StringTable {
  private readonly indexByString = new Map<string, number>();
  private readonly strings: string[] = [''];
  private approximateBytes = 0;

  indexOf(s: string): number {
    let index = this.indexByString.get(s);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(s);
      this.indexByString.set(s, index);
      this.approximateBytes += s.length + 2;
    }
    return index;
  }

  /** Number of entries, the reserved one included. */
  get size(): number {
    return this.strings.length;
  }

  /** A lower bound of the encoded size in bytes (exact for ASCII strings shorter than 128). */
  get byteSize(): number {
    return this.approximateBytes;
  }

  /** Writes the StringTable message body (its `s` fields). */
  writeTo(pbf: PbfWriter): void {
    for (const s of this.strings) pbf.writeStringField(STRING_TABLE.s, s);
  }

  clear(): void {
    this.indexByString.clear();
    this.strings.length = 1;
    this.approximateBytes = 0;
  }
}
