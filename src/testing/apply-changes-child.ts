/**
 * An update in a process of its own, for the kill -9 test (src/store/apply-changes.test.ts): prints
 * each phase on a line of its own, and `commit` just before the copy replaces the store (then waits
 * 300 ms, so that a kill on that line lands before the rename).
 *
 *   node dist/src/testing/apply-changes-child.js DB CHANGE...
 */
import { applyChanges } from '../store/apply-changes.js';

const [db, ...changes] = process.argv.slice(2);
await applyChanges({
  db: db!,
  changes,
  onPhase: (phase) => process.stdout.write(`${phase}\n`),
  beforeCommit: () => {
    process.stdout.write('commit\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
  },
});
process.stdout.write('done\n');
