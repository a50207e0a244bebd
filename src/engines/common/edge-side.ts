/**
 * One geometry side of the contribution rows on an area's edge (`SideGeometry`), as `edgeSides` in
 * engine.ts hands them to `classifyWith`: the representative state of a geometry run, its WKB, and
 * what classifying needs of it, each computed at most once: the decoded geometry, its clip, whether
 * it meets the area, and the geometry and bytes it is compared by.
 *
 * A class, not an object of closures: a contributions/count request over the benchmark's box makes
 * about 6,800 sides, and seven closures and their context each were a fifth of what the request
 * allocated in JavaScript (issue 21; every allocation brings the next scavenge nearer, and a
 * scavenge in the server costs 10–15 ms here).
 */
import { comparedGeometry, type SideGeometry } from '../../query/contributions.js';
import { decodeWkb, encodeWkb } from '../../geometry/wkb.js';
import type { Geometry } from '../../geometry/types.js';
import type { SqlAreaPlan } from '../sql/area.js';
import { outcomeGeometry, outcomeOf, type ClipOutcome } from './boundary-clip-task.js';
import type { BoundaryCache } from './boundary-cache.js';

/** What every side of one request over one area shares. */
export interface EdgeSideContext {
  plan: SqlAreaPlan;
  /** The clips made up front (by WKB); a side without one is clipped by `plan.clip` when asked. */
  outcomes: Map<Uint8Array, ClipOutcome>;
  /** Whether a representative meets the area, as earlier requests found (1) or not (null); written here. */
  meetsOf: Map<number, number | null>;
  /** A vertex of the WKB strictly inside the area (then it meets it without a clip). */
  surelyMeets(wkb: Uint8Array): boolean;
  /** The compared bytes by `${areaId}#${rowid}`, kept across requests (the boundary cache's). */
  compared: BoundaryCache['compared'];
  areaId: string;
}

export class EdgeSide implements SideGeometry {
  private unclippedGeometry: Geometry | null | undefined;
  private clippedGeometry: Geometry | null | undefined;
  private meetsArea: boolean | undefined;
  private comparedForm: Geometry | null | undefined;
  private comparedBytes: Uint8Array | null | undefined;

  constructor(
    /** The representative's rowid: equal keys, equal geometries. */
    readonly key: number,
    readonly wkb: Uint8Array,
    private readonly ctx: EdgeSideContext,
  ) {}

  unclipped(): Geometry | null {
    if (this.unclippedGeometry === undefined) this.unclippedGeometry = decodeWkb(this.wkb);
    return this.unclippedGeometry;
  }

  /** The clip made up front (`outcomes`) when there is one, else `plan.clip` of the decoded geometry. */
  clipped(): Geometry | null {
    if (this.clippedGeometry !== undefined) return this.clippedGeometry;
    const unclipped = this.unclipped();
    if (unclipped === null) return (this.clippedGeometry = null);
    const outcome = this.ctx.outcomes.get(this.wkb);
    if (outcome === undefined) return (this.clippedGeometry = this.ctx.plan.clip(unclipped));
    return (this.clippedGeometry = outcome === 'same' ? unclipped : outcomeGeometry(outcome, this.wkb));
  }

  meets(): boolean {
    if (this.meetsArea !== undefined) return this.meetsArea;
    const known = this.ctx.meetsOf.get(this.key);
    if (known !== undefined) return (this.meetsArea = known !== null);
    this.meetsArea = this.ctx.surelyMeets(this.wkb) || this.clipped() !== null;
    this.ctx.meetsOf.set(this.key, this.meetsArea ? 1 : null);
    return this.meetsArea;
  }

  compared(): Geometry | null {
    if (this.comparedForm === undefined) this.comparedForm = comparedGeometry(this.clipped(), () => this.unclipped());
    return this.comparedForm;
  }

  /**
   * Without decoding when the clip left the geometry whole or removed it; else the compared
   * geometry's bytes (the clip's own when it has no repeated coordinates).
   */
  comparedWkb(): Uint8Array | null {
    if (this.comparedBytes !== undefined) return this.comparedBytes;
    const { ctx, wkb } = this;
    const outcome = outcomeOf(ctx.outcomes, ctx.plan, wkb);
    if (outcome === null || outcome === 'same') return (this.comparedBytes = outcome === null ? null : wkb);
    const cacheKey = `${ctx.areaId}#${this.key}`;
    const known = ctx.compared.get(cacheKey);
    if (known !== undefined) return (this.comparedBytes = known);
    const c = this.compared();
    this.comparedBytes = c === null ? null : c === this.unclipped() ? wkb : c === this.clipped() ? outcome : encodeWkb(c);
    ctx.compared.set(cacheKey, this.comparedBytes);
    return this.comparedBytes;
  }
}
