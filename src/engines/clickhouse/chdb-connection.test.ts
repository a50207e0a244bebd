/**
 * chDB's data directory does not outlive a killed process: a process that opens chDB removes the
 * directories whose owner has ended without its exit handler (here: a child killed by SIGKILL).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { chdbConnection } from './chdb-connection.js';

/** The chDB data directory owned by `pid`, if any. */
function dirOf(pid: number): string | undefined {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('maphist-chdb-')) continue;
    try {
      if (Number(readFileSync(join(tmpdir(), name, 'owner.pid'), 'utf8')) === pid) return join(tmpdir(), name);
    } catch {
      // not chDB's, or not yet written
    }
  }
  return undefined;
}

it("removes the data directory of a process killed before its exit handler ran, and keeps a live one's", async () => {
  const module = new URL('./chdb-connection.js', import.meta.url).href;
  const script = `const { chdbConnection } = await import(${JSON.stringify(module)}); await (await chdbConnection()).text('SELECT 1'); console.log('open'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let out = '';
    child.stdout.setEncoding('utf8');
    for await (const chunk of child.stdout) {
      out += chunk;
      if (out.includes('open')) break;
    }
    const dir = dirOf(child.pid!);
    assert.ok(dir && existsSync(dir), 'the child owns a data directory');
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.ok(existsSync(dir), 'SIGKILL ran no exit handler: the directory is still there');
    await chdbConnection();
    assert.equal(existsSync(dir), false, 'opening chDB removed the killed owner’s directory');
    assert.ok(dirOf(process.pid), 'this process owns its own');
  } finally {
    child.kill('SIGKILL');
  }
});
