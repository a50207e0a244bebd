/**
 * Splits a full-history file at a time T, for the update oracle (src/store/apply-changes.test.ts)
 * and the update benchmark: per element, the versions before its first version at or after T go
 * to a history file (PBF), the rest to OsmChange files (`create` for a version 1 or an element's
 * first version, `delete` for a deleted version, `modify` otherwise), as libosmium writes an
 * `.osc` from history data. With several cut times `T1 < T2 < …` the versions from Ti to Ti+1 go
 * to change file i (an element's versions after its first change-file version stay in order).
 *
 *   node dist/src/testing/split-history.js IN HISTORY_OUT CHANGE_PREFIX T1 [T2 …]
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { OsmVersion } from '../core/osm.js';
import { openHistory } from '../io/open-history.js';
import { createPbfWriter } from '../io/pbf-writer/index.js';

export interface SplitOptions {
  input: string;
  history: string;
  /** One change file per cut time (`.osc` or `.osc.gz`). */
  changes: string[];
  /** Epoch seconds, increasing: versions at or after cuts[i] (and before cuts[i+1]) go to changes[i]. */
  cuts: number[];
}

export interface SplitResult {
  historyVersions: number;
  changeVersions: number[];
}

const escapeXml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\n\r\t]/g, (c) => `&#${c.charCodeAt(0)};`);
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');
const coord = (fixed: number) => (fixed / 1e7).toFixed(7);

function versionXml(v: OsmVersion): string {
  const attrs = `id="${v.id}" version="${v.version}" timestamp="${iso(v.timestamp)}"${v.uid >= 0 ? ` uid="${v.uid}" user="${escapeXml(v.user)}"` : ''} changeset="${v.changeset}"`;
  const tags: string[] = [];
  for (let i = 0; i < v.tags.length; i += 2) tags.push(`   <tag k="${escapeXml(v.tags[i]!)}" v="${escapeXml(v.tags[i + 1]!)}"/>`);
  if (v.type === 'node') {
    const loc = v.visible ? ` lat="${coord(v.lat)}" lon="${coord(v.lon)}"` : '';
    return tags.length === 0 ? `  <node ${attrs}${loc}/>` : `  <node ${attrs}${loc}>\n${tags.join('\n')}\n  </node>`;
  }
  const inner =
    v.type === 'way'
      ? v.refs.map((r) => `   <nd ref="${r}"/>`)
      : v.members.map((m) => `   <member type="${m.type}" ref="${m.ref}" role="${escapeXml(m.role)}"/>`);
  const body = [...inner, ...tags];
  return body.length === 0 ? `  <${v.type} ${attrs}/>` : `  <${v.type} ${attrs}>\n${body.join('\n')}\n  </${v.type}>`;
}

class ChangeWriter {
  private readonly out;
  private readonly sink;
  private block: string | undefined;
  count = 0;

  constructor(path: string) {
    this.sink = createWriteStream(path);
    if (path.endsWith('.gz')) {
      this.out = createGzip();
      this.out.pipe(this.sink);
    } else {
      this.out = this.sink;
    }
    this.out.write(`<?xml version='1.0' encoding='UTF-8'?>\n<osmChange version="0.6" generator="maphist split-history">\n`);
  }

  async write(v: OsmVersion, first: boolean): Promise<void> {
    const action = !v.visible ? 'delete' : first || v.version === 1 ? 'create' : 'modify';
    let text = '';
    if (action !== this.block) {
      if (this.block) text += ` </${this.block}>\n`;
      text += ` <${action}>\n`;
      this.block = action;
    }
    text += versionXml(v) + '\n';
    this.count++;
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.write(`${this.block ? ` </${this.block}>\n` : ''}</osmChange>\n`);
    this.out.end();
    await once(this.sink, 'close');
  }
}

export async function splitHistory(o: SplitOptions): Promise<SplitResult> {
  const history = await openHistory(o.input, { workers: 1 });
  const writer = createPbfWriter(o.history, { ...history.header, source: `${o.input.split('/').pop()} before ${iso(o.cuts[0]!)}` });
  const changes = o.changes.map((p) => new ChangeWriter(p));
  let historyVersions = 0;
  // The element being read: once one of its versions went to change file i, the rest go to i or later.
  let current = '';
  let fileOf = -1;
  let written = 0;
  for await (const batch of history.batches()) {
    for (const v of batch) {
      const key = `${v.type}/${v.id}`;
      if (key !== current) {
        current = key;
        fileOf = -1;
        written = 0;
      }
      let i = fileOf;
      while (i + 1 < o.cuts.length && v.timestamp >= o.cuts[i + 1]!) i++;
      fileOf = i;
      if (i < 0) {
        historyVersions++;
        written++;
        const wait = writer.write(v);
        if (wait) await wait;
      } else {
        await changes[i]!.write(v, written === 0);
        written++;
      }
    }
  }
  await writer.close();
  for (const c of changes) await c.close();
  return { historyVersions, changeVersions: changes.map((c) => c.count) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, historyOut, prefix, ...cuts] = process.argv.slice(2);
  if (!input || !historyOut || !prefix || cuts.length === 0) {
    console.error('usage: node dist/src/testing/split-history.js IN HISTORY_OUT CHANGE_PREFIX T1 [T2 …]  (times ISO or epoch seconds)');
    process.exit(2);
  }
  const times = cuts.map((c) => (/^\d+$/.test(c) ? Number(c) : Date.parse(c) / 1000));
  const r = await splitHistory({ input, history: historyOut, changes: times.map((_, i) => `${prefix}${i}.osc.gz`), cuts: times });
  console.log(JSON.stringify(r));
}
