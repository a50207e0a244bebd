/** Sending golden cases as GET, POST form and POST multipart, and normalising volatile fields. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GoldenCase } from './cases.js';

export const GOLDEN_DIR = join(process.cwd(), 'src', 'api', 'v1', 'golden');

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

export interface GoldenFile extends Answer {
  request: string;
}

export function queryString(params: [string, string][]): string {
  return new URLSearchParams(params).toString();
}

export async function answer(res: Response): Promise<Answer> {
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

export async function sendGet(base: string, c: GoldenCase): Promise<Answer> {
  const q = queryString(c.params);
  return answer(await fetch(`${base}/v1${c.path}${q === '' ? '' : `?${q}`}`));
}

export async function sendForm(base: string, c: GoldenCase): Promise<Answer> {
  return answer(
    await fetch(`${base}/v1${c.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: queryString(c.params),
    }),
  );
}

export async function sendMultipart(base: string, c: GoldenCase): Promise<Answer> {
  const url = `${base}/v1${c.path}`;
  if (c.params.length === 0) {
    // FormData cannot be empty; send a multipart body without parts.
    return answer(await fetch(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n' }));
  }
  const form = new FormData();
  for (const [k, v] of c.params) {
    // Large GeoJSON boundaries are typically uploaded as files (curl -F "bpolys=@file.geojson").
    if (k === 'bpolys' && v.startsWith('{')) form.append(k, new Blob([v], { type: 'application/geo+json' }), 'boundary.geojson');
    else form.append(k, v);
  }
  return answer(await fetch(url, { method: 'POST', body: form }));
}

/**
 * The case's parameters as a JSON body object (issue 22), or undefined when a name repeats (an object
 * cannot hold it). `plain`: every value the form's string. Otherwise the richer forms the JSON body
 * takes, each of which the server must read back into the very same text: a list parameter as an
 * array of its `,`-separated parts, a boundary as an array of its `|`-separated objects, GeoJSON
 * bpolys as an object, integers as numbers and `true`/`false` as booleans.
 */
export function jsonBody(c: GoldenCase, plain: boolean): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {};
  for (const [k, v] of c.params) {
    if (Object.hasOwn(body, k)) return undefined;
    body[k] = plain ? v : richJsonValue(k, v);
  }
  return body;
}

function richJsonValue(name: string, v: string): unknown {
  if (name === 'bpolys' && v.trimStart().startsWith('{')) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  if (['bboxes', 'bcircles', 'bpolys'].includes(name)) return v.includes('|') ? v.split('|') : v;
  if (/^-?[1-9]\d{0,8}$/.test(v)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  return v.includes(',') ? v.split(',') : v;
}

export async function sendJson(base: string, c: GoldenCase, body: Record<string, unknown>): Promise<Answer> {
  return answer(await fetch(`${base}/v1${c.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
}

/** Replaces what changes between runs: error timestamps, execution times, the server's address. */
export function normalize(text: string, base: string): string {
  return text
    .replace(/"timestamp" : "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(\+00:00)?"/g, '"timestamp" : "<now>"')
    .replace(/"executionTime" : \d+/g, '"executionTime" : 0')
    .replace(/# Execution Time: \d+/g, '# Execution Time: 0')
    .split(base)
    .join('http://localhost');
}

/** Drops the request URL echo, which POST answers do not carry (or carry without the query). */
export function withoutRequestUrl(text: string): string {
  return text.replace(/,\n\s*"requestUrl" : "(?:[^"\\]|\\.)*"/g, '').replace(/^# Request URL: .*\n/gm, '');
}

export function goldenPath(c: GoldenCase): string {
  return join(GOLDEN_DIR, `${c.name}.json`);
}

export function readGolden(c: GoldenCase): GoldenFile {
  return JSON.parse(readFileSync(goldenPath(c), 'utf8')) as GoldenFile;
}

export function describeRequest(c: GoldenCase): string {
  const q = queryString(c.params);
  return `GET /v1${c.path}${q === '' ? '' : `?${q}`}`;
}
