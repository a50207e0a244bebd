/**
 * `maphist serve [--db PATH] [--port N] [--host H] [--timeout S] [--stats-timeout S] [--extraction-timeout S] [--keys-db PATH] [--no-api-keys]
 * [--neutral-names] [--log-format text|json]`: serve both API versions, one log line per request on
 * standard output.
 */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { buildApp } from '../../api/server.js';
import { openDuckDbGeneration } from '../../engines/duckdb/generation.js';
import { createStoreHandle } from '../../query/generations.js';
import { createApiKeyHook, type ApiKeyGuard } from '../../auth/api-key-hook.js';
import { keysDbPathFor } from '../../auth/key-store.js';
import { DEFAULT_DB, DEFAULT_PORT } from '../defaults.js';

export const SERVE_OPTIONS = {
  db: { type: 'string', default: DEFAULT_DB },
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
} as const;

export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: SERVE_OPTIONS });
  await serve(values);
}

export async function serve(values: {
  db?: string;
  port?: string;
  host?: string;
  timeout?: string;
  'stats-timeout'?: string;
  'extraction-timeout'?: string;
  'keys-db'?: string;
  'no-api-keys'?: boolean;
  'neutral-names'?: boolean;
  'log-format'?: string;
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
  // The composition root: the store opened as the handle's first generation (its engines over it),
  // handed to the server. An update swaps a new generation in (StoreHandle.swap).
  const store = createStoreHandle(await openDuckDbGeneration(values.db!));
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
    },
  });
  const address = await app.listen({ port, host: values.host });
  console.log(`maphist serving ${values.db} at ${address} (v1: ${address}/v1, v2: ${address}/v2-rc)`);
  console.log(keys ? `v2 statistics and extraction need an API key (keys file ${keysDb})` : 'v2 statistics and extraction need no API key (--no-api-keys)');
  const saveUsageFailed = (e: Error) => console.error(`maphist: could not save key usage to ${keysDb}: ${e.message}`);
  const stop = async () => {
    // Usage first (app.close waits for streaming answers), then what the last requests added.
    await keys?.flush().catch(saveUsageFailed);
    await app.close();
    await keys?.close().catch(saveUsageFailed);
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
