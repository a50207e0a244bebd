/** Sending version 2 golden cases and storing their answers (GeoParquet bodies as an order-independent summary). */
import { createHash } from 'node:crypto';
import { parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V2GoldenCase } from './cases.js';

export const GOLDEN_DIR = join(process.cwd(), 'src', 'api', 'v2', 'golden');
export const PREFIX = '/v2-rc';

export interface V2Answer {
  status: number;
  contentType: string;
  /** Headers that are part of the contract: allow, content-disposition. */
  headers: Record<string, string>;
  body: string;
}

export interface V2GoldenFile extends V2Answer {
  request: string;
}

function url(base: string, c: V2GoldenCase): string {
  const q = c.query ? new URLSearchParams(c.query).toString() : '';
  return `${base}${PREFIX}${c.path}${q === '' ? '' : `?${q}`}`;
}

export function describeRequest(c: V2GoldenCase): string {
  const body = c.raw ? ` (${c.raw.contentType}) ${c.raw.text}` : c.body !== undefined ? ` ${JSON.stringify(c.body)}` : '';
  return `${c.method} ${url('', c)}${body}`;
}

export async function send(base: string, c: V2GoldenCase): Promise<V2Answer> {
  const init: RequestInit = { method: c.method };
  if (c.raw) init.headers = { 'content-type': c.raw.contentType };
  if (c.raw) init.body = c.raw.text;
  else if (c.body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(c.body);
  }
  const res = await fetch(url(base, c), init);
  const contentType = res.headers.get('content-type') ?? '';
  const bytes = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const h of ['allow', 'content-disposition']) {
    const v = res.headers.get(h);
    if (v !== null) headers[h] = v;
  }
  const text = /json|csv|text/.test(contentType) || bytes.length === 0;
  const body = text
    ? bytes.toString('utf8')
    : contentType.includes('parquet')
      ? await parquetSummary(bytes)
      : `<${bytes.length} bytes, sha256 ${sha256(bytes)}>`;
  return { status: res.status, contentType, headers, body };
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A value as stable JSON: byte arrays as hex, big integers and dates as text, object keys sorted. */
function stable(v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(stable);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, stable(x)]),
    );
  return v;
}

/**
 * A GeoParquet body as a golden text that does not depend on row order (rows stream in scan order,
 * which DuckDB's parallel scan does not fix): the columns, the `geo` metadata, the row count and a
 * SHA-256 of the rows read back with hyparquet, each as stable JSON, sorted.
 */
async function parquetSummary(bytes: Buffer): Promise<string> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const metadata = await parquetMetadataAsync(file);
  const rows = (await parquetReadObjects({ file, compressors, geoparquet: false, utf8: false })) as Record<string, unknown>[];
  const lines = rows.map((r) => JSON.stringify(stable(r))).sort();
  const geo = metadata.key_value_metadata?.find((e) => e.key === 'geo')?.value;
  return JSON.stringify({
    columns: parquetSchema(metadata).children.map((c) => c.element.name),
    geo: geo === undefined ? null : JSON.parse(geo),
    rows: rows.length,
    rowsSha256: sha256(lines.join('\n')),
  });
}

export function goldenPath(c: V2GoldenCase): string {
  return join(GOLDEN_DIR, `${c.name}.json`);
}

export function readGolden(c: V2GoldenCase): V2GoldenFile {
  return JSON.parse(readFileSync(goldenPath(c), 'utf8')) as V2GoldenFile;
}
