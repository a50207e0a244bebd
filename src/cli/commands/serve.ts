/**
 * `maphist serve [--db PATH | --engine clickhouse --clickhouse-url URL [--clickhouse-database NAME]] [--port N] [--host H] [--timeout S] [--stats-timeout S]
 * [--extraction-timeout S] [--keys-db PATH] [--no-api-keys] [--neutral-names]
 * [--log-format text|json] [--memory-limit SIZE] [--answer-cache SIZE] [--concurrency N] [--queue N] [--worker-nice N]
 * [--drain-seconds S] [--basemap-url URL] [--replication URL_OR_DIR] [--changeset-replication URL_OR_DIR]
 * [--replication-interval S] [--replication-max-sequences N]`: serve both API versions, one log line
 * per request on standard output. With `--replication` (diffs) and/or `--changeset-replication`
 * (changeset diffs), the store follows a replication source: `maphist update` and `maphist
 * changesets update` run in child processes every interval on the follower's spare file, which is
 * then swapped in as a new store generation (src/cli/follow.ts).
 * SIGTERM and SIGINT drain (api/common/admission.ts): new requests are answered 503, those running
 * get `--drain-seconds` (default 10) to finish, then they are cancelled and the process exits.
 */
import { totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { buildApp } from '../../api/server.js';
import { defaultConcurrency, defaultQueue, drainApp } from '../../api/common/admission.js';
import { openDuckDbGeneration } from '../../engines/duckdb/generation.js';
import { openClickHouseGeneration } from '../../engines/clickhouse/engines.js';
import { ClickHouseHttp } from '../../engines/clickhouse/http-client.js';
import { createStoreHandle } from '../../query/generations.js';
import { createApiKeyHook, type ApiKeyGuard } from '../../auth/api-key-hook.js';
import { keysDbPathFor } from '../../auth/key-store.js';
import { DEFAULT_DB, DEFAULT_PORT } from '../defaults.js';
import { startFollower, type Follower } from '../follow.js';
import { lowerOtherThreads } from '../thread-priority.js';
import { parseSize } from '../parse-size.js';

export const SERVE_OPTIONS = {
  db: { type: 'string', default: DEFAULT_DB },
  /** Where the store is: `duckdb` (the --db file, default) or `clickhouse` (loaded by `maphist clickhouse load`; docs/clickhouse.md). */
  engine: { type: 'string', default: 'duckdb' },
  /** With --engine clickhouse: the entry node's HTTP URL (the server holding the Distributed table). */
  'clickhouse-url': { type: 'string' },
  /** With --engine clickhouse: the database the store was loaded into (default maphist). */
  'clickhouse-database': { type: 'string', default: 'maphist' },
  port: { type: 'string', default: String(DEFAULT_PORT) },
  host: { type: 'string', default: '127.0.0.1' },
  timeout: { type: 'string', default: '600' },
  /** Version 2 time limits in seconds (defaults: statistics 180, extraction 240). */
  'stats-timeout': { type: 'string' },
  'extraction-timeout': { type: 'string' },
  /** The keys file (default: beside --db, see keysDbPathFor). */
  'keys-db': { type: 'string' },
  /** Version 2 statistics and extraction without keys or quotas (a private deployment). */
  'no-api-keys': { type: 'boolean', default: false },
  /** The request log on standard output: `text` (default) or `json` (JSON lines). */
  'log-format': { type: 'string', default: 'text' },
  /** v1 extraction writes the spec's neutral `@mapId`/`@mapType` instead of the clients' `@osmId`/`@osmType`. */
  'neutral-names': { type: 'boolean', default: false },
  /** The process's memory budget (default: half the machine's memory); see `memoryPlan`. */
  'memory-limit': { type: 'string' },
  /** Bytes of finished answers (v1 aggregation, v2 statistics) kept between requests (default 64MiB; 0: none). */
  'answer-cache': { type: 'string' },
  /** Heavy requests running at once (default: the cores, at least 2); more wait in the queue. */
  concurrency: { type: 'string' },
  /** Heavy requests waiting at most (default 4 × concurrency, `defaultQueue`); one more is answered 503 with Retry-After. */
  queue: { type: 'string' },
  /** Nice value added to every thread but the event loop's (DuckDB's, the geometry pool's; default 10, 0: none): src/cli/thread-priority.ts. */
  'worker-nice': { type: 'string', default: '10' },
  /** On SIGTERM/SIGINT, how long the running requests get before they are cancelled (default 10). */
  'drain-seconds': { type: 'string', default: '10' },
  /** The dashboard's basemap: a tile URL template such as `https://tile.example/{z}/{x}/{y}.png` (default: none, fully offline). */
  'basemap-url': { type: 'string' },
  /** Follow a replication source (URL or directory laid out as the planet's): src/cli/follow.ts. */
  replication: { type: 'string' },
  /** Follow a changeset replication source (`state.yaml`, `AAA/BBB/CCC.osm.gz`): a store that holds changesets. */
  'changeset-replication': { type: 'string' },
  /** Seconds between the end of one update and the start of the next (default 60). */
  'replication-interval': { type: 'string', default: '60' },
  /** At most this many sequences per update (default: all that are published). */
  'replication-max-sequences': { type: 'string' },
} as const;

/**
 * How the memory budget is shared: DuckDB's query instance gets half of it (`memory_limit`: its
 * buffers, sorts and hash tables; beyond it DuckDB spills to disk or fails the query), the
 * streaming instance its fixed 64 MB, and the rest is left for the JavaScript heaps (the main
 * thread and the geometry workers) and the native memory outside DuckDB's accounting. The
 * admission limit (`--concurrency`) bounds how many results are assembled in JavaScript at once.
 */
export function memoryPlan(budgetBytes: number): { duckDbBytes: number; duckDbLimit: string } {
  const MiB = 2 ** 20;
  const duckDbBytes = Math.max(128 * MiB, Math.floor(budgetBytes / 2 / MiB) * MiB);
  return { duckDbBytes, duckDbLimit: `${duckDbBytes / MiB}MiB` };
}

function wholeNumber(text: string | undefined, flag: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new MaphistError('CLI_USAGE', `${flag} takes a whole number ≥ ${min}`);
  return n;
}

export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: SERVE_OPTIONS });
  await serve(values);
}

export async function serve(values: {
  db?: string;
  engine?: string;
  'clickhouse-url'?: string;
  'clickhouse-database'?: string;
  port?: string;
  host?: string;
  timeout?: string;
  'stats-timeout'?: string;
  'extraction-timeout'?: string;
  'keys-db'?: string;
  'no-api-keys'?: boolean;
  'neutral-names'?: boolean;
  'log-format'?: string;
  'memory-limit'?: string;
  'answer-cache'?: string;
  concurrency?: string;
  queue?: string;
  'worker-nice'?: string;
  'drain-seconds'?: string;
  'basemap-url'?: string;
  replication?: string;
  'changeset-replication'?: string;
  'replication-interval'?: string;
  'replication-max-sequences'?: string;
}): Promise<void> {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new MaphistError('CLI_USAGE', '--port takes a whole number from 0 to 65535');
  const timeoutSeconds = Number(values.timeout);
  if (!(timeoutSeconds > 0)) throw new MaphistError('CLI_USAGE', '--timeout takes a positive number of seconds');
  const v2Seconds = (flag: 'stats-timeout' | 'extraction-timeout'): number | undefined => {
    if (values[flag] === undefined) return undefined;
    const s = Number(values[flag]);
    if (!(s > 0)) throw new MaphistError('CLI_USAGE', `--${flag} takes a positive number of seconds`);
    return s;
  };
  const statsTimeoutSeconds = v2Seconds('stats-timeout');
  const extractionTimeoutSeconds = v2Seconds('extraction-timeout');
  const logFormat = values['log-format'] ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json') throw new MaphistError('CLI_USAGE', '--log-format takes text or json');
  const budget = values['memory-limit'] === undefined ? Math.floor(totalmem() / 2) : parseSize(values['memory-limit']);
  const memory = memoryPlan(budget);
  const answerCacheBytes = values['answer-cache'] === undefined ? undefined : parseSize(values['answer-cache'], '--answer-cache', true);
  const concurrency = wholeNumber(values.concurrency, '--concurrency', 1) ?? defaultConcurrency();
  const queue = wholeNumber(values.queue, '--queue', 0);
  const workerNice = wholeNumber(values['worker-nice'] ?? '10', '--worker-nice', 0)!;
  if (workerNice > 19) throw new MaphistError('CLI_USAGE', '--worker-nice takes a whole number from 0 to 19');
  const drainSeconds = Number(values['drain-seconds'] ?? '10');
  if (!(drainSeconds >= 0)) throw new MaphistError('CLI_USAGE', '--drain-seconds takes a number of seconds ≥ 0');
  const replicationInterval = Number(values['replication-interval'] ?? '60');
  if (!(replicationInterval > 0)) throw new MaphistError('CLI_USAGE', '--replication-interval takes a positive number of seconds');
  const engine = values.engine ?? 'duckdb';
  if (engine !== 'duckdb' && engine !== 'clickhouse') throw new MaphistError('CLI_USAGE', '--engine takes duckdb or clickhouse');
  const clickhouseUrl = values['clickhouse-url'];
  if (engine === 'clickhouse') {
    if (!clickhouseUrl || !/^https?:\/\/[^/\s]+\/?$/.test(clickhouseUrl))
      throw new MaphistError('CLI_USAGE', `--engine clickhouse needs --clickhouse-url, the entry node's HTTP address such as http://127.0.0.1:8123`);
    if (values.replication !== undefined || values['changeset-replication'] !== undefined)
      throw new MaphistError(
        'CLI_USAGE',
        '--replication follows a DuckDB store; update the DuckDB store and load it into ClickHouse again (docs/clickhouse.md)',
      );
  } else if (clickhouseUrl !== undefined) {
    throw new MaphistError('CLI_USAGE', '--clickhouse-url needs --engine clickhouse');
  }
  // The composition root: the store opened as the handle's first generation (its engines over it),
  // handed to the server. An update swaps a new generation in (StoreHandle.swap).
  const store = createStoreHandle(
    engine === 'clickhouse'
      ? await openClickHouseGeneration(new ClickHouseHttp({ url: clickhouseUrl! }), values['clickhouse-database'])
      : await openDuckDbGeneration(values.db!, { memoryLimit: memory.duckDbLimit }),
  );
  const where = engine === 'clickhouse' ? `ClickHouse ${clickhouseUrl} (database ${values['clickhouse-database'] ?? 'maphist'})` : values.db;
  const keysDb = values['keys-db'] ?? keysDbPathFor(values.db!);
  const keys: ApiKeyGuard | undefined = values['no-api-keys']
    ? undefined
    : await createApiKeyHook({ keysDbPath: keysDb, onError: (e) => console.error(`maphist: keys file ${keysDb}: ${(e as Error).message}`) });
  // Warnings and errors (an unexpected 500 is logged with its stack); MAPHIST_LOG_LEVEL=info logs every request.
  const app = await buildApp({
    store,
    keys: keys?.hook,
    config: {
      timeoutSeconds,
      statsTimeoutSeconds,
      extractionTimeoutSeconds,
      neutralNames: values['neutral-names'],
      requestLog: { format: logFormat, write: (line) => process.stdout.write(`${line}\n`) },
      logger: { level: process.env.MAPHIST_LOG_LEVEL ?? 'warn' },
      admission: { concurrency, queue, memoryBudgetBytes: budget },
      dashboard: { basemapUrl: values['basemap-url'] },
      answerCacheBytes,
    },
  });
  // After the store is open (DuckDB's threads exist); the pool's workers are found as they start.
  if (workerNice > 0) lowerOtherThreads(workerNice);
  const address = await app.listen({ port, host: values.host });
  console.log(`maphist serving ${where} at ${address} (v1: ${address}/v1, v2: ${address}/v2-rc, dashboard: ${address}/)`);
  const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  console.log(
    `memory budget ${gb(budget)} (DuckDB ${gb(memory.duckDbBytes)}); ${concurrency} heavy requests at once, ${queue ?? defaultQueue(concurrency)} waiting at most`,
  );
  console.log(keys ? `v2 statistics and extraction need an API key (keys file ${keysDb})` : 'v2 statistics and extraction need no API key (--no-api-keys)');
  const follower: Follower | undefined =
    values.replication === undefined && values['changeset-replication'] === undefined
      ? undefined
      : startFollower({
          db: values.db!,
          replication: values.replication,
          changesetReplication: values['changeset-replication'],
          intervalSeconds: replicationInterval,
          maxSequences: wholeNumber(values['replication-max-sequences'], '--replication-max-sequences', 1),
          swapIn: async () => store.swap(await openDuckDbGeneration(values.db!, { memoryLimit: memory.duckDbLimit })),
          log: (line) => console.error(line),
        });
  if (follower) {
    const sources = [values.replication, values['changeset-replication'] && `changesets from ${values['changeset-replication']}`].filter(Boolean).join(' and ');
    console.log(`following ${sources} (an update every ${replicationInterval} s)`);
  }
  const saveUsageFailed = (e: Error) => console.error(`maphist: could not save key usage to ${keysDb}: ${e.message}`);
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    // A second signal ends the process at once.
    if (stopping) process.exit(0);
    stopping = true;
    console.log(`maphist serve: ${signal}: draining (running requests get ${drainSeconds} s, new ones are answered 503)`);
    // Should a cancelled request not let the server close, the process ends anyway.
    setTimeout(() => process.exit(0), (drainSeconds + 2) * 1000).unref();
    // Usage first, then drain (new requests 503; running ones get drainSeconds, then are
    // cancelled), then what the last requests added.
    await keys?.flush().catch(saveUsageFailed);
    await follower?.stop();
    await drainApp(app, drainSeconds * 1000);
    await keys?.close().catch(saveUsageFailed);
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
