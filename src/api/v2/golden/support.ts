/** Sending version 2 golden cases and storing their answers (binary bodies as size and SHA-256). */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
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
  const body = text ? bytes.toString('utf8') : `<${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}>`;
  return { status: res.status, contentType, headers, body };
}

export function goldenPath(c: V2GoldenCase): string {
  return join(GOLDEN_DIR, `${c.name}.json`);
}


export function readGolden(c: V2GoldenCase): V2GoldenFile {
  return JSON.parse(readFileSync(goldenPath(c), 'utf8')) as V2GoldenFile;
}
