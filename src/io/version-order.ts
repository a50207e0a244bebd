/**
 * The sort order of a history file, checked as the versions stream past.
 *
 * History files are sorted by type (nodes, ways, relations), then id, then version. The id order
 * is osmium's (libosmium `operator<` on OSMObject): ids <= 0 come first, ordered by absolute value,
 * then positive ids ascending. Everything downstream (building the states of an element from its
 * consecutive versions) relies on this order, so a violation stops the import at once instead of
 * producing silently wrong history.
 *
 * The same version listed twice is rejected too: osmium calls such a file "ordered", but two
 * records for one version make the history ambiguous (which tags did v2 have?).
 */

import { MaphistError } from '../core/errors.js';
import { OSM_TYPE_NAME } from '../core/osm.js';

/** Something that sees every version in file order and may reject it. */
export interface OrderCheck {
  check(type: number, id: number, version: number): void;
}

export class VersionOrderChecker implements OrderCheck {
  private lastType = -1;
  private lastId = 0;
  private lastVersion = 0;

  /** Accepts the next version in file order, or throws INPUT_UNSORTED. `type` is an OSM_TYPE_CODE. */
  check(type: number, id: number, version: number): void {
    // Fast path: the common case of the next version of the same element or the next positive id.
    if (type === this.lastType && id === this.lastId ? version > this.lastVersion : this.isAfter(type, id)) {
      this.lastType = type;
      this.lastId = id;
      this.lastVersion = version;
      return;
    }
    throw this.unsortedError(type, id, version);
  }

  /** True when (type, id) sorts after the last accepted (type, id); they are known to differ. */
  private isAfter(type: number, id: number): boolean {
    if (type !== this.lastType) return type > this.lastType;
    const last = this.lastId;
    if (id > 0 && last > 0) return id > last;
    if (id > 0) return true; // positive ids follow all ids <= 0
    if (last > 0) return false;
    return -id > -last; // both <= 0: ordered by absolute value
  }

  private unsortedError(type: number, id: number, version: number): MaphistError {
    const here = `${OSM_TYPE_NAME[type]} ${id} version ${version}`;
    const sortHint = 'sort it with `osmium sort INPUT -o SORTED.osh.pbf` and import the sorted file';
    if (type === this.lastType && id === this.lastId && version === this.lastVersion) {
      return new MaphistError(
        'INPUT_UNSORTED',
        `The input lists ${here} twice. A history file must contain each version of an element exactly once, ` +
          `sorted by type, id and version; remove the duplicate (for example re-export the history) and import again.`,
        { type: OSM_TYPE_NAME[type], id, version },
      );
    }
    const before = `${OSM_TYPE_NAME[this.lastType]} ${this.lastId} version ${this.lastVersion}`;
    return new MaphistError(
      'INPUT_UNSORTED',
      `The input is not sorted: ${here} comes after ${before}. History files must be sorted by type ` +
        `(nodes, ways, relations), then id, then version; ${sortHint}.`,
      { type: OSM_TYPE_NAME[type], id, version, after: { type: OSM_TYPE_NAME[this.lastType], id: this.lastId, version: this.lastVersion } },
    );
  }
}
