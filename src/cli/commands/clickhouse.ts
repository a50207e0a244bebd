/**
 * `maphist clickhouse load|sync --db STORE.duckdb --url URL [--url URL …] [--database maphist] [--cluster NAME] [--index-granularity N]`:
 * loads a store into a ClickHouse cluster (src/engines/clickhouse/load.ts, docs/clickhouse.md): one
 * `--url` per shard, the first being the entry node that gets the Distributed table. Re-running
 * replaces the tables atomically on each shard. `sync` reloads only the elements the store's updates
 * touched since the ClickHouse store was loaded or synced (src/engines/clickhouse/sync.ts). A progress
 * bar on standard error (a terminal only), then a summary line.
 */
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { MaphistError } from '../../core/errors.js';
import { openStore } from '../../store/open-store.js';
import { storeExport } from '../../engines/duckdb/store-export.js';
import { loadIntoClickHouse } from '../../engines/clickhouse/load.js';
import { syncClickHouse } from '../../engines/clickhouse/sync.js';
import { DEFAULT_DB } from '../defaults.js';

const USAGE =
  'usage: maphist clickhouse load|sync [--db PATH] --url <shard HTTP URL> [--url <shard URL> …] [--database maphist] [--cluster maphist] [--index-granularity 8192]';

export async function clickhouseCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string', default: DEFAULT_DB },
      url: { type: 'string', multiple: true },
      database: { type: 'string', default: 'maphist' },
      cluster: { type: 'string', default: 'maphist' },
      'index-granularity': { type: 'string' },
    },
  });
  const command = positionals[0];
  if (positionals.length !== 1 || (command !== 'load' && command !== 'sync') || !values.url || values.url.length === 0)
    throw new MaphistError('CLI_USAGE', USAGE);
  const urls = values.url.flatMap((u) => u.split(',')).filter((u) => u !== '');
  for (const u of urls)
    if (!/^https?:\/\/[^/]+\/?$/.test(u))
      throw new MaphistError('CLI_USAGE', `--url takes a shard's HTTP address such as http://127.0.0.1:8123, not ${JSON.stringify(u)}`);
  const granularity = values['index-granularity'];
  if (granularity !== undefined && !/^[1-9][0-9]{0,6}$/.test(granularity))
    throw new MaphistError('CLI_USAGE', `--index-granularity takes rows per index mark, a whole number from 1 to 9999999, not ${JSON.stringify(granularity)}`);
  const started = performance.now();
  const store = await openStore(values.db!, { readOnly: true });
  const bar = process.stderr.isTTY
    ? new SingleBar({ format: 'clickhouse |{bar}| {percentage}% | {value}/{total} rows | ETA {eta_formatted}', hideCursor: true }, Presets.shades_classic)
    : undefined;
  // SIGINT / SIGTERM: the load stops, drops its staging database on every shard (the previous
  // tables keep serving), then the process ends by the signal (exit 130 / 143, as an import).
  const controller = new AbortController();
  let caught: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    caught ??= signal;
    controller.abort(new Error(`stopped by ${signal}`));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const options = {
      urls,
      database: values.database,
      cluster: values.cluster,
      ...(granularity === undefined ? {} : { indexGranularity: Number(granularity) }),
      signal: controller.signal,
      onProgress: (done: number, total: number) => {
        if (!bar) return;
        if (!bar.isActive) bar.start(total, done);
        else bar.update(done);
      },
    };
    if (command === 'sync') {
      const synced = await syncClickHouse(store, options);
      bar?.stop();
      const s = (performance.now() - started) / 1000;
      console.log(
        synced.elements === 0
          ? `ClickHouse ${values.database} is up to date with ${values.db} (${synced.to} updates)`
          : `synced ClickHouse ${values.database} with ${values.db}: updates ${synced.from + 1}–${synced.to}, ${synced.elements} elements reloaded (${synced.load?.statesPerShard.join(' / ')} states per shard); ${s.toFixed(1)} s`,
      );
      return;
    }
    const summary = await loadIntoClickHouse(storeExport(store, controller.signal), options);
    bar?.stop();
    const s = (performance.now() - started) / 1000;
    const states = summary.rows.states ?? 0;
    console.log(
      `loaded ${values.db} into ClickHouse ${values.database} on ${urls.length} shard(s): ${states} states (${summary.statesPerShard.join(' / ')} per shard), ` +
        `${summary.rows.users ?? 0} users, ${summary.rows.tag_keys ?? 0} keys, ${summary.rows.tag_values ?? 0} values; ${s.toFixed(1)} s (${Math.round(states / s)} states/s)`,
    );
  } catch (e) {
    if (caught === undefined) throw e;
    process.stderr.write(`\nmaphist clickhouse load: stopped by ${caught}; the previous tables are kept\n`);
  } finally {
    bar?.stop();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    store.close();
  }
  if (caught !== undefined) process.kill(process.pid, caught);
}
