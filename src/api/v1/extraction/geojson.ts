/**
 * The extraction GeoJSON text (docs/reference/v1-reference-behaviour.md §4.4): the envelope's head (attribution, apiVersion, optional
 * metadata, type, `"features" : [`), each feature in the reference's pretty layout, separated by
 * `, `, then the tail `]\n}\n`. Property keys are sorted (UTF-16 order, `@…` before letters); tags
 * become properties (a key starting with `@` gets another `@`); coordinates have 7 decimals and
 * print as Java doubles; integers (ids, versions, changesets) without a decimal point.
 */
import { API_VERSION, ATTRIBUTION } from '../../attribution.js';
import { javaDoubleToString } from '../../format/java-double.js';
import { prettyJson } from '../../format/pretty-json.js';
import type { ExtractedFeature, ExtractionKind } from '../../../query/extraction.js';
import type { ExtractionProperties } from '../params/properties.js';
import type { Geometry, Position } from '../../../geometry/types.js';
import { outputGeometry, type OutputGeometryKind } from './geometry-output.js';

export const GEOJSON_CONTENT_TYPE = 'application/geo+json; charset=utf-8';
export const FEATURE_SEPARATOR = ', ';
export const TAIL = ']\n}\n';

const TYPE_NAMES = ['node', 'way', 'relation'];

export function isoSeconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const DESCRIPTIONS: Record<ExtractionKind, string> = {
  snapshot: 'OSM data as GeoJSON features.',
  fullHistory: 'Full-history OSM data as GeoJSON features.',
  contributions: 'Contributions as GeoJSON features.',
  latestContributions: 'Latest contributions as GeoJSON features.',
};

/** `{ attribution, apiVersion, metadata?, type, "features" : [` */
export function head(metadata?: { description: string; requestUrl?: string }): string {
  const envelope = prettyJson({ attribution: { ...ATTRIBUTION }, apiVersion: API_VERSION, metadata, type: 'FeatureCollection' });
  return `${envelope.slice(0, envelope.lastIndexOf('\n}'))},\n  "features" : [`;
}

/** A rounded coordinate as Java prints the double. */
export function coordinate(x: number): string {
  const r = Math.round(x * 1e7) / 1e7;
  const abs = Math.abs(r);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(r);
    return s.includes('.') ? s : `${s}.0`;
  }
  return javaDoubleToString(r === 0 ? 0 : r);
}

function position(p: Position): string {
  return `[ ${coordinate(p[0])}, ${coordinate(p[1])} ]`;
}
function positions(list: Position[]): string {
  return list.length === 0 ? '[ ]' : `[ ${list.map(position).join(', ')} ]`;
}
function nested<T>(list: T[], f: (x: T) => string): string {
  return list.length === 0 ? '[ ]' : `[ ${list.map(f).join(', ')} ]`;
}

function coordinatesOf(g: Exclude<Geometry, { type: 'GeometryCollection' }>): string {
  switch (g.type) {
    case 'Point':
      return position(g.coordinates);
    case 'MultiPoint':
    case 'LineString':
      return positions(g.coordinates);
    case 'MultiLineString':
    case 'Polygon':
      return nested(g.coordinates, positions);
    case 'MultiPolygon':
      return nested(g.coordinates, (p) => nested(p, positions));
  }
}

function pad(level: number): string {
  return '\n' + '  '.repeat(level);
}

/** A geometry object whose members are at `level`. */
export function geometryText(g: Geometry, level: number): string {
  if (g.type === 'GeometryCollection') {
    const parts = g.geometries.map((c) => geometryText(c, level + 1));
    return `{${pad(level)}"type" : "GeometryCollection",${pad(level)}"geometries" : ${parts.length === 0 ? '[ ]' : `[ ${parts.join(', ')} ]`}${pad(level - 1)}}`;
  }
  return `{${pad(level)}"type" : ${JSON.stringify(g.type)},${pad(level)}"coordinates" : ${coordinatesOf(g)}${pad(level - 1)}}`;
}

type PropertyValue = string | number | boolean;

/** The names of the two identity properties. */
export interface PropertyNames {
  readonly id: string;
  readonly type: string;
}

/** The names the reference writes and every v1 client reads (ohsome-py indexes GeoDataFrames by `@osmId`). */
export const CLIENT_PROPERTY_NAMES: PropertyNames = { id: '@osmId', type: '@osmType' };

/** The neutral spelling of the specification documents, behind `maphist serve --neutral-names`. */
export const NEUTRAL_PROPERTY_NAMES: PropertyNames = { id: '@mapId', type: '@mapType' };

/**
 * The properties of a feature for its kind and the requested `properties`. The identity is always
 * there; version, type and changeset come with `properties=metadata` (the reference) and always in
 * contributions extraction (the specification's property table lists them there; extra properties
 * break no client).
 */
export function propertiesOf(
  f: ExtractedFeature,
  kind: ExtractionKind,
  props: ExtractionProperties,
  tagKeys?: ReadonlySet<string>,
  names: PropertyNames = CLIENT_PROPERTY_NAMES,
): [string, PropertyValue][] {
  const out: [string, PropertyValue][] = [[names.id, `${TYPE_NAMES[f.type]}/${f.id}`]];
  const meta = props.metadata;
  const isContribution = kind === 'contributions' || kind === 'latestContributions';
  if (meta || isContribution) out.push(['@version', f.version], [names.type, TYPE_NAMES[f.type]], ['@changesetId', f.changeset]);
  switch (kind) {
    case 'snapshot':
      out.push(['@snapshotTimestamp', isoSeconds(f.time)]);
      if (meta && f.time2 !== undefined) out.push(['@lastEdit', isoSeconds(f.time2)]);
      break;
    case 'fullHistory':
      out.push(['@validFrom', isoSeconds(f.time)], ['@validTo', isoSeconds(f.time2 ?? f.time)]);
      break;
    case 'contributions':
    case 'latestContributions': {
      const c = f.contribution!;
      out.push(['@timestamp', isoSeconds(f.time)], ['@contributionChangesetId', c.changeset]);
      if (meta || props.contributionTypes) {
        if (c.creation) out.push(['@creation', true]);
        if (c.deletion) out.push(['@deletion', true]);
        if (c.tagChange) out.push(['@tagChange', true]);
        if (c.geometryChange) out.push(['@geometryChange', true]);
      }
      break;
    }
  }
  if (props.tags || tagKeys !== undefined) {
    for (const [k, v] of f.tags) {
      if (!props.tags && !tagKeys!.has(k)) continue;
      out.push([k.startsWith('@') ? `@${k}` : k, v]);
    }
  }
  out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return out;
}

function valueText(v: PropertyValue): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : javaDoubleToString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v);
}

export interface FeatureOptions {
  kind: ExtractionKind;
  geometryKind: OutputGeometryKind;
  properties: ExtractionProperties;
  /** Deprecated `keys` without `properties=tags`: only these tags become properties. */
  tagKeys?: ReadonlySet<string>;
  /** The identity property names (default: the clients' `@osmId`, `@osmType`). */
  names?: PropertyNames;
}

/** The feature as text (members at indentation level 2, as an item of the top object's array); null when it has no geometry to show. */
export function featureText(f: ExtractedFeature, o: FeatureOptions): string | null {
  let geometry = 'null';
  if (f.geometry !== null) {
    const g = outputGeometry(f.geometry, o.geometryKind);
    if (g === null) return null;
    geometry = geometryText(g, 3);
  } else if (f.contribution === undefined || !f.contribution.deletion) {
    return null;
  }
  const props = propertiesOf(f, o.kind, o.properties, o.tagKeys, o.names);
  const propsText = `{${props.map(([k, v]) => `${pad(3)}${JSON.stringify(k)} : ${valueText(v)}`).join(',')}${pad(2)}}`;
  return `{${pad(2)}"type" : "Feature",${pad(2)}"geometry" : ${geometry},${pad(2)}"properties" : ${propsText}${pad(1)}}`;
}
