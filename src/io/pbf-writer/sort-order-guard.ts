import { OSM_TYPE_CODE, OSM_TYPE_NAME, type OsmVersion } from '../../core/osm.js';

/**
 * Checks that versions arrive sorted by type (nodes, ways, relations), then id, then version,
 * each strictly after the previous one, as the history PBF format requires.
 */
export class SortOrderGuard {
  private type = -1;
  private id = -Infinity;
  private version = -Infinity;

  check(v: OsmVersion): void {
    const type = OSM_TYPE_CODE[v.type];
    const inOrder = type > this.type || (type === this.type && (v.id > this.id || (v.id === this.id && v.version > this.version)));
    if (!inOrder) {
      throw new Error(
        `pbf writer: input not sorted by type, id, version: ${v.type} ${v.id} v${v.version} ` +
          `came after ${OSM_TYPE_NAME[this.type]} ${this.id} v${this.version}`,
      );
    }
    this.type = type;
    this.id = v.id;
    this.version = v.version;
  }
}
