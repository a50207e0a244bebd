import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WayStateStore, type WayMemberState } from './way-state-store.js';

describe('WayStateStore', () => {
  it('round-trips way states exactly (fixed-point coordinates) with a tiny cache', () => {
    const dir = mkdtempSync(join(tmpdir(), 'maphist-ways-'));
    const store = new WayStateStore(join(dir, 'ways.bin'), { cacheBytes: 1 });
    const state = (id: number, k: number): WayMemberState => ({
      timestamp: 1000 + k,
      changeset: id * 100 + k,
      uid: k,
      deleted: k === 2,
      isArea: id % 2 === 0,
      nodeIds: [id, id + 1],
      coords: [
        [1234567 * 1e-7, -7654321 * 1e-7],
        [-1799999999 * 1e-7, 899999999 * 1e-7],
      ],
    });
    for (let id = 1; id <= 500; id++) store.add(id, [state(id, 1), state(id, 2), state(id, 3)]);
    store.finish();
    for (const id of [1, 250, 251, 500, 3]) assert.deepEqual(store.get(id), [state(id, 1), state(id, 2), state(id, 3)]);
    assert.equal(store.get(501), undefined);
    store.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
});
