/**
 * Remembers a predicate's answer for pairs of rings, by ring content, across the assemblies of one
 * relation's states: a minor state usually changes one member way, so most of its rings are the
 * previous state's, rebuilt as new arrays with the same coordinates. A hit is verified coordinate by
 * coordinate (the hash only finds candidates), so a cached answer is always the computed one.
 */
import type { Position } from './types.js';

const MAX_ENTRIES = 100_000;

interface Entry {
  a: Position[];
  b: Position[];
  value: boolean;
}

export class RingPairCache {
  private readonly entries = new Map<string, Entry[]>();
  private size = 0;

  /** The cached answer for (a, b) given their fingerprints (`ringFingerprint`), or undefined. */
  get(a: Position[], fa: string, b: Position[], fb: string): boolean | undefined {
    const list = this.entries.get(fa + '|' + fb);
    if (list === undefined) return undefined;
    for (const e of list) if (sameRing(e.a, a) && sameRing(e.b, b)) return e.value;
    return undefined;
  }

  set(a: Position[], fa: string, b: Position[], fb: string, value: boolean): void {
    if (this.size >= MAX_ENTRIES) {
      this.entries.clear();
      this.size = 0;
    }
    const key = fa + '|' + fb;
    const list = this.entries.get(key);
    if (list) list.push({ a, b, value });
    else this.entries.set(key, [{ a, b, value }]);
    this.size++;
  }
}

/** A hash of a ring's coordinates (with its length), to look pairs up by. */
export function ringFingerprint(ring: readonly Position[]): string {
  let h1 = 0x811c9dc5;
  let h2 = ring.length;
  for (let i = 0; i < ring.length; i++) {
    const x = Math.round(ring[i][0] * 1e7);
    const y = Math.round(ring[i][1] * 1e7);
    h1 = Math.imul(h1 ^ x, 16777619);
    h1 = Math.imul(h1 ^ y, 16777619);
    h2 = (Math.imul(h2, 31) + x) | 0;
    h2 = (Math.imul(h2, 31) + y) | 0;
  }
  return `${ring.length}:${h1 >>> 0}:${h2 >>> 0}`;
}

function sameRing(a: readonly Position[], b: readonly Position[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i][0] !== b[i][0] || a[i][1] !== b[i][1]) return false;
  return true;
}
