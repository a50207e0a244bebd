/** The geometry pool's worker (geometry-pool.ts): Piscina calls the default export with each task. */
import { Piscina } from 'piscina';
import { runBoundaryMeasureTask, type BoundaryMeasureTask } from './boundary-measure-task.js';

export default function (task: BoundaryMeasureTask): unknown {
  const values = runBoundaryMeasureTask(task);
  // The result's buffer goes back without a copy.
  return Piscina.move(values);
}
