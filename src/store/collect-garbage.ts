/**
 * A full garbage collection of the main thread's heap, on demand. The import calls it once the
 * history builder is done: the main thread then sits idle while the writer thread sorts every row,
 * so V8 would never collect (and return to the system) the builder's caches and garbage, and they
 * would add to the import's peak memory.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (gc === undefined) {
    // The documented way to reach V8's gc() without starting node with --expose-gc.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
