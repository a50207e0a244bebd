/**
 * Test support: a two-shard cluster of Debian's clickhouse-server (18.16) on loopback, started by
 * scripts/clickhouse-cluster.sh in a temporary directory on random ports, for the tests that run
 * against a real cluster where the server is installed (.ci/run installs it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/clickhouse-cluster.sh', import.meta.url));

export const HAVE_CLICKHOUSE = spawnSync('sh', ['-c', 'command -v clickhouse-server'], { encoding: 'utf8' }).status === 0;

/** `describe`'s skip option for the suites that need the server. */
export const SKIP_WITHOUT_CLICKHOUSE: false | string = HAVE_CLICKHOUSE
  ? false
  : 'clickhouse-server is not installed (Debian: apt-get install clickhouse-server; .ci/run does)';

export interface TestCluster {
  /** The shards' HTTP URLs, the entry node (with the Distributed table) first. */
  urls: string[];
  /** The cluster's own temporary directory, for the test's other files. */
  dir: string;
  /** Stops both servers and removes the directory. */
  stop(): void;
}

/** Starts the two shards (`name` names the temporary directory). */
export function startTestCluster(name: string): TestCluster {
  const env = { ...process.env, MAPHIST_CH_BASE_PORT: String(20000 + 2 * Math.floor(Math.random() * 4000)) };
  const dir = mkdtempSync(join(tmpdir(), `maphist-ch-${name}-`));
  const servers = join(dir, 'cluster');
  const stop = () => {
    spawnSync(SCRIPT, ['stop', servers], { env });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const urls = execFileSync(SCRIPT, ['start', servers], { env, encoding: 'utf8' }).trim().split('\n');
    return { urls, dir, stop };
  } catch (e) {
    stop();
    throw e;
  }
}
