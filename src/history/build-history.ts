/**
 * The history builder: consumes a stream of versions sorted by type, id and version (the readers
 * check that order) — nodes, then ways, then relations —
 * and hands every state of every element to a sink. Node versions and way states are spilled to
 * disk stores in `workDir` so that memory stays bounded whatever the input size.
 */
import { join } from 'node:path';
import { OSM_TYPE_CODE, type NodeVersion, type OsmVersion, type RelationVersion, type WayVersion } from '../core/osm.js';
import type { ElementState } from './element-state.js';
import { NodeHistoryStore } from './node-history-store.js';
import { buildNodeStates } from './node-states.js';
import { buildRelationStates } from './relation-states.js';
import { WayStateStore } from './way-state-store.js';
import { buildWayStates } from './way-states.js';

/**
 * The builder's caches over its disk stores, in bytes: the node page cache in the node and way
 * phases, the same in the relation phase (NodeHistoryStore.shrinkCache), and the decoded way states.
 * An import sizes them from its memory budget (store/import-memory.ts); these are the defaults.
 */
export interface HistoryCaches {
  nodeCacheBytes: number;
  relationPhaseNodeCacheBytes: number;
  wayCacheBytes: number;
}

export const DEFAULT_HISTORY_CACHES: HistoryCaches = {
  nodeCacheBytes: 256 * 1024 * 1024,
  relationPhaseNodeCacheBytes: 32 * 1024 * 1024,
  wayCacheBytes: 256 * 1024 * 1024,
};

export interface StateSink {
  write(states: readonly ElementState[]): void;
  /** Awaited between input batches: a sink that writes asynchronously applies backpressure here. */
  ready?(): Promise<void>;
  /** The versions of one relation (its member lists), before its states are written. */
  relationVersions?(versions: readonly RelationVersion[]): void;
  /** The versions of one way (its node lists), before its states are written. */
  wayVersions?(versions: readonly WayVersion[]): void;
}

export interface HistoryStats {
  versions: [number, number, number];
  deletedVersions: [number, number, number];
  states: number;
  firstTimestamp: number;
  lastTimestamp: number;
  /** Last user name seen for each uid. */
  users: Map<number, string>;
}

export interface BuildProgress {
  phase: 'nodes' | 'ways' | 'relations';
  versions: number;
}

export async function buildHistory(
  batches: AsyncIterable<OsmVersion[]>,
  sink: StateSink,
  workDir: string,
  onProgress?: (p: BuildProgress) => void,
  caches: HistoryCaches = DEFAULT_HISTORY_CACHES,
): Promise<HistoryStats> {
  const nodes = new NodeHistoryStore(join(workDir, 'nodes.bin'), { cacheBytes: caches.nodeCacheBytes });
  const ways = new WayStateStore(join(workDir, 'ways.bin'), { cacheBytes: caches.wayCacheBytes });
  const stats: HistoryStats = {
    versions: [0, 0, 0],
    deletedVersions: [0, 0, 0],
    states: 0,
    firstTimestamp: Infinity,
    lastTimestamp: -Infinity,
    users: new Map(),
  };
  let typeCode = 0;
  let group: OsmVersion[] = [];

  const flushGroup = (): void => {
    if (group.length === 0) return;
    let states: ElementState[];
    const first = group[0];
    if (first.type === 'node') {
      const vs = group as NodeVersion[];
      for (const v of vs) nodes.add(v.id, v);
      states = buildNodeStates(vs);
    } else if (first.type === 'way') {
      sink.wayVersions?.(group as WayVersion[]);
      const built = buildWayStates(group as WayVersion[], nodes);
      ways.add(first.id, built.memberStates);
      states = built.states;
    } else {
      sink.relationVersions?.(group as RelationVersion[]);
      states = buildRelationStates(group as RelationVersion[], nodes, ways);
    }
    stats.states += states.length;
    sink.write(states);
    group = [];
  };

  try {
    let total = 0;
    for await (const batch of batches) {
      for (const v of batch) {
        const code = OSM_TYPE_CODE[v.type];
        // The readers guarantee (type, id, version) order (io/version-order.ts), so a new type or id ends a group.
        if (code !== typeCode) {
          flushGroup();
          // Leaving the nodes (or ways) means their store is complete and may now be read.
          if (typeCode === 0) nodes.finish();
          if (code === 2) {
            ways.finish();
            nodes.shrinkCache(caches.relationPhaseNodeCacheBytes);
          }
          typeCode = code;
        } else if (group.length > 0 && v.id !== group[group.length - 1].id) {
          flushGroup();
        }
        group.push(v);
        stats.versions[code]++;
        if (!v.visible) stats.deletedVersions[code]++;
        if (v.timestamp < stats.firstTimestamp) stats.firstTimestamp = v.timestamp;
        if (v.timestamp > stats.lastTimestamp) stats.lastTimestamp = v.timestamp;
        if (v.uid >= 0 && v.user !== '') stats.users.set(v.uid, v.user);
      }
      total += batch.length;
      if (sink.ready) await sink.ready();
      onProgress?.({ phase: (['nodes', 'ways', 'relations'] as const)[typeCode], versions: total });
    }
    flushGroup();
    return stats;
  } finally {
    nodes.dispose();
    ways.dispose();
  }
}
