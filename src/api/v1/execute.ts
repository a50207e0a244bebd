/**
 * Runs one aggregation request on the engine and finishes its numbers: the engine call that fits
 * the route, density (docs/reference/v1-reference-behaviour.md §3.2), ratio (§3.3), rounding (§3.6) and the group order of §3.4.
 */
import type { ContributionGrouping, ContributionQuery, QueryEngine, RequestGrouping, SnapshotGrouping } from '../../query/model.js';
import type { V1Request } from './params/parse-v1-request.js';
import { densityAreas } from './density.js';
import { finishRatio, finishSeries, sortBoundaryGroupsById, type OutputGroup } from './output.js';
import type { AggregationRoute } from './route-table.js';

function contributionGrouping(route: AggregationRoute, g: RequestGrouping): ContributionGrouping {
  if (g.by === 'boundaryAndTag') throw new RangeError(`no contribution grouping for ${route.path}`);
  return g;
}

function snapshotGrouping(route: AggregationRoute, g: RequestGrouping): SnapshotGrouping {
  if (g.by === 'contributionType' || g.by === 'element') throw new RangeError(`no snapshot grouping for ${route.path}`);
  return g;
}

/** groupByValues given empty means "every value" (docs/reference/v1-reference-behaviour.md §1.7). */
function normalGrouping(g: RequestGrouping): RequestGrouping {
  if ((g.by === 'tag' || g.by === 'boundaryAndTag') && g.values !== undefined && g.values.length === 0) return { by: g.by, key: g.key };
  return g;
}

export async function executeAggregation(engine: QueryEngine, route: AggregationRoute, plan: V1Request, signal: AbortSignal): Promise<OutputGroup[]> {
  const density = route.density ? densityAreas(plan.areas) : undefined;
  if (route.family === 'elements') {
    if (route.ratio) {
      const series = await engine.ratio({
        areas: plan.areas,
        timestamps: plan.timestamps,
        filter: plan.filter,
        filter2: plan.filter2!,
        measure: route.measure,
        perBoundary: route.grouping === 'boundary',
        signal,
      });
      return finishRatio(series);
    }
    const series = await engine.aggregateSnapshots({
      areas: plan.areas,
      timestamps: plan.timestamps,
      filter: plan.filter,
      measure: route.measure,
      grouping: snapshotGrouping(route, normalGrouping(plan.grouping)),
      signal,
    });
    let groups = await finishSeries(series, density);
    // Only the deprecated `types` parameter narrows the groups of groupBy/type (docs/reference/v1-reference-behaviour.md §3.4).
    const types = plan.deprecatedOsmTypes;
    if (route.grouping === 'type' && types) groups = groups.filter((g) => g.key.kind !== 'type' || types.includes(g.key.type));
    return groups;
  }
  const q: ContributionQuery = {
    areas: plan.areas,
    timestamps: plan.timestamps,
    filter: plan.filter,
    contributionTypes: plan.contributionTypes && plan.contributionTypes.length > 0 ? plan.contributionTypes : undefined,
    grouping: contributionGrouping(route, normalGrouping(plan.grouping)),
    signal,
  };
  const series =
    route.family === 'users'
      ? await engine.countUsers(q)
      : route.family === 'contributions'
        ? await engine.countContributions(q)
        : await engine.countLatestContributions(q);
  const groups = await finishSeries(series, density);
  return route.grouping === 'boundary' ? sortBoundaryGroupsById(groups) : groups;
}
