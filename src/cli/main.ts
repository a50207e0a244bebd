#!/usr/bin/env node
/**
 * The `maphist` executable. Configures DuckDB's allocator (duckdb-allocator.ts) while DuckDB is not
 * loaded yet — every module that imports it is loaded after this, dynamically — then runs the command.
 */
import { DUCKDB_ALLOCATOR_ENV, duckDbAllocatorConf, isServerCommand } from './duckdb-allocator.js';

process.env[DUCKDB_ALLOCATOR_ENV] = duckDbAllocatorConf(process.env, process.argv[2]);
const { runCommand } = await import('./run-command.js');
const code = await runCommand(process.argv.slice(2));
if (code !== 0 || !isServerCommand(process.argv[2])) process.exitCode = code;
