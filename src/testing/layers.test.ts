/**
 * The layer rules of ARCHITECTURE.md, read from the imports of every source file (tests and test
 * support excluded): arrows point down, the APIs import no engine and no database driver, the
 * engines nothing of the APIs, the kernel (geometry, filter, core) does no I/O, and only the
 * command line composes.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from './test-data.js';

const SRC = join(REPO_ROOT, 'src');

interface Import {
  file: string;
  /** The layer (first folder under src/) of the importing file. */
  from: string;
  /** A layer for imports inside src/, else the package name (`node:fs`, `@duckdb/node-api`). */
  to: string;
  /** The importing file and the imported one, relative to src/ (`api/v2/params/aoi.ts`); the package name outside src/. */
  fromPath: string;
  toPath: string;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'testing' && name !== 'golden') sourceFiles(path, out);
    } else if (
      name.endsWith('.ts') &&
      !name.endsWith('.test.ts') &&
      !name.endsWith('.d.ts') &&
      !name.startsWith('test-') &&
      name !== 'test-support.ts' &&
      name !== 'test-helpers.ts'
    ) {
      out.push(path);
    }
  }
  return out;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(SRC, file).split('/')[0]!;
  const out: Import[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|import\('([^']+)'\)/g)) {
    const spec = m[1] ?? m[2]!;
    const toPath = spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec)) : spec;
    const to = spec.startsWith('.') ? toPath.split('/')[0]! : spec;
    out.push({ file: relative(REPO_ROOT, file), from, to, fromPath: relative(SRC, file), toPath });
  }
  return out;
}

const ALL = sourceFiles(SRC).flatMap(importsOf);

function violations(rule: (i: Import) => boolean): string[] {
  return ALL.filter(rule).map((i) => `${i.file} imports ${i.to}`);
}

it('the APIs import no engine and no database driver', () => {
  assert.deepEqual(
    violations((i) => i.from === 'api' && (i.to === 'engines' || i.to === '@duckdb/node-api')),
    [],
  );
});

it('nothing below the APIs imports them or the command line', () => {
  // (auth, the API-key guard, is an HTTP hook beside the APIs: it may use their types.)
  const below = ['engines', 'query', 'store', 'history', 'io', 'geometry', 'filter', 'core'];
  assert.deepEqual(
    violations((i) => below.includes(i.from) && (i.to === 'api' || i.to === 'cli')),
    [],
  );
});

it('the kernel (geometry, filter, core) does no I/O and knows no engine', () => {
  const io = new Set(['node:fs', 'node:fs/promises', 'node:net', 'node:http', 'node:child_process', 'node:worker_threads', '@duckdb/node-api']);
  const kernel = ['geometry', 'filter', 'core'];
  assert.deepEqual(
    violations((i) => kernel.includes(i.from) && (io.has(i.to) || ['engines', 'store', 'io', 'history', 'query'].includes(i.to))),
    [],
  );
});

it('the API versions do not import each other (what both need lives below them: api/common, geometry, query)', () => {
  const version = (path: string) => /^api\/(v1|v2)\//.exec(path)?.[1];
  assert.deepEqual(
    violations((i) => version(i.fromPath) !== undefined && version(i.toPath) !== undefined && version(i.fromPath) !== version(i.toPath)),
    [],
  );
});

it('api/common, below both API versions, imports neither', () => {
  assert.deepEqual(
    violations((i) => i.fromPath.startsWith('api/common/') && /^api\/(v1|v2|docs)\//.test(i.toPath)),
    [],
  );
});

it('only the command line imports the command line', () => {
  assert.deepEqual(
    violations((i) => i.from !== 'cli' && i.to === 'cli'),
    [],
  );
});

it('the rules see the imports (the scan finds the server importing the API routes)', () => {
  assert.ok(ALL.length > 500, `${ALL.length} imports`);
  assert.ok(ALL.some((i) => i.file === 'src/api/server.ts' && i.to === 'query'));
  assert.ok(ALL.some((i) => i.file === 'src/cli/commands/serve.ts' && i.to === 'engines'));
  assert.ok(ALL.some((i) => i.fromPath.startsWith('api/v2/') && i.toPath.startsWith('api/common/')));
  assert.ok(ALL.some((i) => i.fromPath.startsWith('engines/clickhouse/') && i.toPath.startsWith('engines/common/')));
});

it('the engine-neutral engines (engines/common) and SQL builders (engines/sql) import no engine and no database driver', () => {
  const neutral = (path: string) => path.startsWith('engines/common/') || path.startsWith('engines/sql/');
  const drivers = ['@duckdb/node-api', 'chdb'];
  assert.deepEqual(
    violations((i) => neutral(i.fromPath) && (/^engines\/(duckdb|clickhouse)\//.test(i.toPath) || drivers.includes(i.to))),
    [],
  );
});

it('the ClickHouse engine imports of the DuckDB engine only its store export (the loader reads a DuckDB store)', () => {
  assert.deepEqual(
    violations((i) => i.fromPath.startsWith('engines/clickhouse/') && i.toPath.startsWith('engines/duckdb/') && i.toPath !== 'engines/duckdb/store-export.js'),
    [],
  );
});

it('the engine conformance suite is engine-neutral: it imports no engine and no database driver', () => {
  const dir = join(SRC, 'engines', 'conformance');
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.ts')) continue;
    const file = join(dir, name);
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|import\('([^']+)'\)/g)) {
      const spec = m[1] ?? m[2]!;
      const target = spec.startsWith('.') ? relative(SRC, resolve(dir, spec)) : spec;
      const parts = target.split('/');
      const otherEngine = parts[0] === 'engines' && parts[1] !== 'conformance';
      if (otherEngine || spec === '@duckdb/node-api' || spec.includes('clickhouse')) found.push(`${relative(REPO_ROOT, file)} imports ${spec}`);
    }
  }
  assert.ok(readdirSync(dir).includes('conformance.ts'));
  assert.deepEqual(found, []);
});

it('query/ holds no SQL: plans are engine-neutral, each engine writes its own statements', () => {
  // SQL keywords and DuckDB casts in code (comments and the words of messages stripped first).
  const sqlish = /\b(SELECT|FROM\s+states|WHERE|coalesce|GROUP BY|UNION ALL|map_contains|IS NULL)\b|::(INTEGER|DOUBLE|BIGINT)| (AND|OR) \$\{/;
  const found: string[] = [];
  for (const file of sourceFiles(join(SRC, 'query'))) {
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    for (const line of code.split('\n')) if (sqlish.test(line)) found.push(`${relative(REPO_ROOT, file)}: ${line.trim()}`);
  }
  assert.deepEqual(found, []);
});
