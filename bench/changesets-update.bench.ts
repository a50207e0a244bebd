/**
 * `npm run bench:changesets`: `maphist changesets update` (changeset replication, issue 18 part 2)
 * on the 4-country store. The store is imported with a changeset dump made here from its own
 * states (every changeset they reference, with its first and last edit as its times, plus as many
 * that nothing references); then one replication diff the size of a planet minute, hour and day is
 * applied, each in a process of its own on a fresh copy of the store (wall time of the process,
 * Node's start included; peak RSS from its summary line). The diffs' changesets are new ids,
 * half of them closed before the store's data end (referenced by nothing: not kept), a quarter
 * closed after it and a quarter open (kept), plus a new record of 1 % of the store's changesets
 * (a comment). Rewrites its section of bench/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importChangesets } from '../src/store/changesets.js';
import { importHistory } from '../src/store/import-history.js';
import { queryStore } from '../src/store/test-support.js';
import { writeReplicationDir } from '../src/testing/replication-dir.js';
import { FOUR_COUNTRIES, REPO_ROOT } from '../src/testing/test-data.js';
import { machineDescription, median, replaceResultsSection } from './support.js';

const input = process.argv[2] ?? FOUR_COUNTRIES;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const MAIN = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');

/** Planet changeset ids went from 100 M (early 2021) to 150 M (spring 2024): about 45,000 a day; most appear twice (opened, closed). */
const PER_MINUTE = 60;

const iso = (e: number) => new Date(e * 1000).toISOString().replace('.000Z', 'Z');

interface Cs {
  id: number;
  created: number;
  closed: number | null;
  uid: number;
  comments: number;
}

function xml(list: Cs[]): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="maphist bench">'];
  for (const c of list) {
    const closed = c.closed === null ? '' : ` closed_at="${iso(c.closed)}"`;
    out.push(
      ` <changeset id="${c.id}" created_at="${iso(c.created)}"${closed} open="${c.closed === null}" user="u${c.uid}" uid="${c.uid}" min_lat="1" min_lon="1" max_lat="2" max_lon="2" num_changes="3" comments_count="${c.comments}">`,
      `  <tag k="comment" v="changeset ${c.id} #bench"/>`,
      '  <tag k="created_by" v="bench"/>',
      ' </changeset>',
    );
  }
  out.push('</osm>', '');
  return out.join('\n');
}

function maphist(...args: string[]): { seconds: number; rss: number; line: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`maphist ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return { seconds, rss: Number(/peak RSS (\d+) MB/.exec(r.stdout)?.[1] ?? NaN), line: r.stdout.trim() };
}

const dir = mkdtempSync(join(tmpdir(), 'maphist-bench-changesets-'));
try {
  const base = join(dir, 'base.duckdb');
  await importHistory({ input, db: base });
  const referenced = await queryStore<{ id: number; created: number; closed: number; uid: number }>(
    base,
    `SELECT changeset::DOUBLE AS id, min(valid_from)::DOUBLE - 60 AS created, max(valid_from)::DOUBLE + 60 AS closed, any_value(user_id) AS uid
     FROM states WHERE minor_version = 0 GROUP BY changeset ORDER BY changeset`,
  );
  const [{ value }] = await queryStore<{ value: string }>(base, "SELECT value FROM meta WHERE key = 'lastTimestamp'");
  const dataEnd = Date.parse(JSON.parse(value) as string) / 1000;
  const maxId = referenced.at(-1)!.id;
  // The dump: the referenced changesets and as many others (which the load leaves out).
  const dump: Cs[] = referenced.map((c) => ({ id: c.id, created: c.created, closed: c.closed, uid: c.uid, comments: 0 }));
  for (let i = 1; i <= referenced.length; i++) dump.push({ id: maxId + i, created: dataEnd - 7200, closed: dataEnd - 3600, uid: 1, comments: 0 });
  const dumpFile = join(dir, 'changesets.osm');
  writeFileSync(dumpFile, xml(dump));
  const t0 = performance.now();
  const loaded = await importChangesets(base, dumpFile);
  const loadSeconds = (performance.now() - t0) / 1000;

  const lines = [
    `- machine: ${machineDescription()}`,
    `- store: \`${input.replace(REPO_ROOT, '')}\` imported (${(statSync(base).size / 1e6).toFixed(0)} MB, data end ${iso(dataEnd)}), with a made-up dump of ${dump.length} changesets: ${loaded.kept} referenced kept (load ${loadSeconds.toFixed(2)} s in process)`,
    `- one diff per run, ${PER_MINUTE} records a minute; runs: ${runs} (medians)`,
    '',
    '| diff | records | written / not kept | changesets update (process wall) | in the command | peak RSS |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  let nextId = maxId + referenced.length + 1;
  for (const [name, minutes] of [
    ['a minute', 1],
    ['an hour', 60],
    ['a day', 1440],
  ] as const) {
    const n = PER_MINUTE * minutes;
    const records: Cs[] = [];
    for (let i = 0; i < n; i++) {
      const kind = i % 4;
      const created = dataEnd - 1800 + (i % 600);
      records.push({ id: nextId++, created, closed: kind < 2 ? dataEnd - 60 : kind === 2 ? dataEnd + 600 : null, uid: 2 + (i % 1000), comments: 0 });
    }
    for (let i = 0; i < referenced.length; i += 100) {
      const c = referenced[i]!;
      records.push({ id: c.id, created: c.created, closed: c.closed, uid: c.uid, comments: 1 });
    }
    const source = join(dir, `replication-${minutes}`);
    writeReplicationDir(
      source,
      [
        { sequence: 1, timestamp: dataEnd, change: { text: xml([]) } },
        { sequence: 2, timestamp: dataEnd + 60 * minutes, change: { text: xml(records) } },
      ],
      { kind: 'changesets' },
    );
    const results = [];
    for (let i = 0; i < runs; i++) {
      const db = join(dir, 'run.duckdb');
      copyFileSync(base, db);
      results.push(maphist('changesets', 'update', '--db', db, '--replication', source, '--start-sequence', '2'));
      rmSync(db);
    }
    const m = /; (\d+) written, (\d+) not kept.*; ([\d.]+) s, peak RSS/.exec(results[0]!.line);
    const inside = median(results.map((r) => Number(/; ([\d.]+) s, peak RSS/.exec(r.line)?.[1])));
    lines.push(
      `| ${name} | ${records.length} | ${m?.[1]} / ${m?.[2]} | ${median(results.map((r) => r.seconds)).toFixed(2)} s | ${inside.toFixed(2)} s | ${median(results.map((r) => r.rss))} MB |`,
    );
    console.log(lines.at(-1));
  }
  const body = `${lines.join('\n')}\n`;
  console.log(body);
  replaceResultsSection('changesets-update', body);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
