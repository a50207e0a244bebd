/** Test helpers for the extraction routes: requests, GeoJSON schema validation. */
import assert from 'node:assert/strict';
import AjvModule from 'ajv';
import { GEOJSON_SCHEMA } from './geojson-schema.js';

interface AjvLike {
  compile(schema: unknown): ((data: unknown) => boolean) & { errors?: unknown };
}
const AjvClass = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (o: object) => AjvLike;
const validate = new AjvClass({ allErrors: false, strict: false }).compile(GEOJSON_SCHEMA);

export interface Feature {
  type: 'Feature';
  geometry: { type: string; coordinates?: unknown; geometries?: unknown[] } | null;
  properties: Record<string, string | number | boolean>;
}
export interface Extracted {
  status: number;
  headers: Headers;
  text: string;
  features: Feature[];
}

/** Asserts that a text is a valid extraction document (GeoJSON FeatureCollection per the schema). */
export function assertValidGeoJson(text: string): { features: Feature[] } {
  const doc = JSON.parse(text) as { features: Feature[] };
  const ok = validate(doc);
  assert.ok(ok, `GeoJSON schema: ${JSON.stringify(validate.errors)}`);
  return doc;
}

export async function extract(base: string, path: string, params: Record<string, string>, init?: RequestInit): Promise<Extracted> {
  const q = new URLSearchParams(params).toString();
  const res = await fetch(`${base}/v1${path}?${q}`, init);
  const text = await res.text();
  const features = res.status === 200 ? assertValidGeoJson(text).features : [];
  return { status: res.status, headers: res.headers, text, features };
}

export async function postExtract(base: string, path: string, params: Record<string, string>): Promise<Extracted> {
  const res = await fetch(`${base}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  const text = await res.text();
  const features = res.status === 200 ? assertValidGeoJson(text).features : [];
  return { status: res.status, headers: res.headers, text, features };
}
