/**
 * The `maphist` command: the composition root that picks a command and maps errors to exit codes.
 * Loaded by main.ts once DuckDB's allocator is configured.
 */
import { isMaphistError } from '../core/errors.js';
import { EXIT_INTERNAL, exitCodeFor } from './exit-codes.js';
import { stoppingBySignal } from './signals.js';

type Command = (argv: string[]) => Promise<void>;

/**
 * Each command's module is loaded when it runs: `maphist update`, which a following server starts
 * every minute, does not load the server's modules (fastify, both APIs), and the other way round.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  import: async () => (await import('./commands/import.js')).importCommand,
  sql: async () => (await import('./commands/sql.js')).sqlCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  start: async () => (await import('./commands/start.js')).startCommand,
  keys: async () => (await import('./commands/keys.js')).keysCommand,
  changesets: async () => (await import('./commands/changesets.js')).changesetsCommand,
  update: async () => (await import('./commands/update.js')).updateCommand,
  clickhouse: async () => (await import('./commands/clickhouse.js')).clickhouseCommand,
  export: async () => (await import('./commands/export.js')).exportCommand,
};

const USAGE = `usage: maphist <command> [options]
  import <file> [--db PATH]        build a database from a full-history file (.osh.pbf, .osh/.osm[.gz|.bz2])
        [--changesets FILE]        (with the changesets of a changeset dump; --all-changesets: not only the referenced)
        [--memory-limit SIZE]      (memory budget, default 4GB, at least 1.5GB: DuckDB and the builder's caches share it)
  update [--db PATH] <file.osc[.gz|.bz2]> ...   apply OsmChange files to a database (atomically; re-applying changes nothing)
  update [--db PATH] --replication <URL or directory>   apply a replication source's new diffs (docs/replication.md)
  changesets import <file> [--db PATH] [--all]   load a changeset dump (.osm[.gz|.bz2]) into a database
  changesets update [--db PATH] --replication <URL|dir> [--start-sequence N] [--max-sequences N]
                                   apply changeset replication (state.yaml, AAA/BBB/CCC.osm.gz) to its changesets
  sql [--db PATH] [--json] "<q>"   run SQL against a database (the 'contributions' view), CSV or JSON out
        [--allow-files]            (sandboxed: no files, no extensions; --allow-files: local files allowed)
  serve [--db PATH | --engine clickhouse --clickhouse-url URL] [--port N]     serve API version 1 (/v1) and version 2 (/v2-rc, /v2)
        [--no-api-keys]            (version 2 statistics and extraction need no key: private deployment)
        [--neutral-names]          (v1 extraction writes @mapId/@mapType instead of @osmId/@osmType)
        [--log-format text|json]   (one line per request on standard output; json: JSON lines)
        [--replication <URL or directory>]   (follow a replication source: docs/replication.md)
  export [--db PATH] --format parquet <dir>   write the 'contributions' view as GeoParquet partitioned by year and type
  start                            import the bundled sample if there is no database, then serve on :8080
  keys create|list|revoke|set-quota [--db PATH]   manage the API keys of version 2 (maphist keys --help)
  clickhouse load|sync [--db PATH] --url <shard URL> [--url …]   load a database into a ClickHouse cluster, or reload what updates touched (docs/clickhouse.md)`;

export async function runCommand(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const load = name === undefined || !Object.hasOwn(COMMANDS, name) ? undefined : COMMANDS[name];
  if (!load) {
    console.error(USAGE);
    return name === undefined || name === '--help' || name === 'help' ? (name ? 0 : 2) : 2;
  }
  try {
    const command = await load();
    await command(rest);
    return 0;
  } catch (e) {
    // A command stopped by SIGINT or SIGTERM fails because its work was interrupted: the signal's own line said so.
    if (stoppingBySignal()) return EXIT_INTERNAL;
    if (isMaphistError(e)) {
      console.error(`maphist ${name}: ${e.message}`);
      return exitCodeFor(e.code);
    }
    if ((e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || (e as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      console.error(`maphist ${name}: ${(e as Error).message}\n${USAGE}`);
      return exitCodeFor('CLI_USAGE');
    }
    console.error(`maphist ${name}: internal error: ${(e as Error).stack ?? e}`);
    return EXIT_INTERNAL;
  }
}
