/**
 * `bboxes`: `minLon,minLat,maxLon,maxLat` per box, boxes separated by `|`, optional `id:` prefix
 * (docs/reference/v1-reference-behaviour.md §1.4). Coordinates are snapped to 1e-7°; min and max may be given in either order.
 */
import { MaphistError } from '../../../core/errors.js';
import type { Polygon } from '../../../geometry/types.js';
import type { AreaOfInterest } from '../../../query/model.js';
import { area, assertLonLat, defaultId, splitTextObjects } from './boundary-objects.js';
import { round7 } from './geodesic-circle.js';
import { parseJavaDouble } from './java-text.js';
import { MSG } from './messages.js';

export function parseBboxes(value: string): AreaOfInterest[] {
  const { ids, fields } = splitTextObjects(value);
  let groups: string[][];
  if (ids !== undefined) {
    for (const f of fields) if (f.length !== 4) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
    groups = fields;
  } else {
    const all = fields.flat();
    // The reference only checked for an even count (and crashed on other non-multiples of 4).
    if (all.length % 4 !== 0) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
    groups = [];
    for (let i = 0; i < all.length; i += 4) groups.push(all.slice(i, i + 4));
  }
  return groups.map((g, i) => {
    const raw = g.map((text) => {
      const v = parseJavaDouble(text);
      if (v === undefined) throw new MaphistError('BOUNDARY_INVALID', MSG.BBOXES_NUMBERS);
      return v;
    });
    const id = ids?.[i] ?? defaultId(i);
    assertLonLat(raw[0]!, raw[1]!, `The bbox '${id}'`, id);
    assertLonLat(raw[2]!, raw[3]!, `The bbox '${id}'`, id);
    const n = raw.map(round7);
    const [minLon, maxLon] = n[0]! <= n[2]! ? [n[0]!, n[2]!] : [n[2]!, n[0]!];
    const [minLat, maxLat] = n[1]! <= n[3]! ? [n[1]!, n[3]!] : [n[3]!, n[1]!];
    if (minLon === maxLon || minLat === maxLat) {
      throw new MaphistError(
        'BOUNDARY_INVALID',
        `The bbox '${id}' has no area: its two longitudes or its two latitudes are equal. Give minLon,minLat,maxLon,maxLat of a box with a width and a height.`,
        { boundary: id },
      );
    }
    const geometry: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [minLon, minLat],
          [maxLon, minLat],
          [maxLon, maxLat],
          [minLon, maxLat],
          [minLon, minLat],
        ],
      ],
    };
    return area(id, geometry);
  });
}
