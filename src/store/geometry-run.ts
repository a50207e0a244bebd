/**
 * The geometry run of a state (`states.geometry_run`, schema version 6). An element's kept (not
 * collapsed) states fall into runs: a run starts at a creation, a deletion or a geometry change, and
 * its states share one geometry. `geometry_run` is the number of run starts among the element's
 * kept states up to and including this one (a collapsed state: up to the kept state before it).
 * With `edits` (1 + the kept states before this one: the previous kept state is the one with
 * `edits - 1`), contributions find a state's predecessor and the state that stands for its geometry
 * by a join instead of a window over every candidate timeline (issue 21: the window over 66,423
 * states was 49 of contributions/count's 100 ms). The import's writer and an update's rows count
 * both in JS from this one definition. Pure: no I/O.
 */
export function startsGeometryRun(s: {
  readonly collapsed: boolean;
  readonly deleted: boolean;
  readonly isCreation: boolean;
  readonly geometryChange: boolean;
}): boolean {
  return !s.collapsed && (s.deleted || s.isCreation || s.geometryChange);
}
