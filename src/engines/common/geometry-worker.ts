/** The geometry pool's worker (geometry-pool.ts): Piscina calls the default export with each task. */
import { Piscina } from 'piscina';
import { runBoundaryClipTask, type BoundaryClipTask } from './boundary-clip-task.js';
import { runBoundaryMeasureTask, type BoundaryMeasureTask } from './boundary-measure-task.js';

export default function (task: BoundaryMeasureTask | BoundaryClipTask): unknown {
  // A clip batch's outcomes come back as three typed arrays, copied (a memcpy); the measures'
  // buffer goes back without a copy.
  if ('kind' in task && task.kind === 'clip') return runBoundaryClipTask(task);
  return Piscina.move(runBoundaryMeasureTask(task as BoundaryMeasureTask));
}
