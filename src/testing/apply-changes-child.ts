/**
 * An update in a process of its own, for the kill -9 test (src/store/apply-changes.test.ts): prints
 * each phase on a line of its own, and `commit` just before the commit (the transaction's, or the
 * rename of the copy); it waits 300 ms after printing `commit` and `checkpointing`, so that a kill
 * on those lines lands just before the commit and just after it.
 *
 *   node dist/src/testing/apply-changes-child.js [--copy] DB CHANGE...
 */
import { applyChanges } from '../store/apply-changes.js';

const args = process.argv.slice(2);
const copy = args[0] === '--copy';
const [db, ...changes] = copy ? args.slice(1) : args;
const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
await applyChanges({
  db: db!,
  changes,
  copy,
  onPhase: (phase) => {
    process.stdout.write(`${phase}\n`);
    if (phase === 'checkpointing') pause();
  },
  beforeCommit: () => {
    process.stdout.write('commit\n');
    pause();
  },
});
process.stdout.write('done\n');
