import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeHistoryStore, versionAt } from './node-history-store.js';

/** Runs `body` on a new store in a temporary directory, then disposes of both. */
function withStore(body: (store: NodeHistoryStore) => void, options?: { cacheBytes?: number }): void {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-nodes-'));
  const store = new NodeHistoryStore(join(dir, 'nodes.bin'), options);
  try {
    body(store);
  } finally {
    store.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A visible version of node `id` at (lon, lat), with timestamp and changeset `t`. */
const at = (t: number, lon: number, lat: number) => ({ timestamp: t, changeset: t, uid: 1, visible: true, lon, lat });

describe('NodeHistoryStore', () => {
  it('returns every version of a node, across page boundaries and with a tiny cache', () => {
    withStore(
      (store) => {
        // 3 versions per node for ids 10, 20, 30, …: 2048-record pages split some nodes' versions.
        for (let id = 10; id <= 30000; id += 10) {
          for (let v = 1; v <= 3; v++) {
            store.add(id, { timestamp: 1000 * v + id, changeset: id * 10 + v, uid: v, visible: v !== 2, lon: id, lat: -id });
          }
        }
        store.finish();
        assert.equal(store.size, 9000);
        for (const id of [10, 6830, 6840, 13650, 30000]) {
          const h = store.get(id)!;
          assert.equal(h.length, 3, `node ${id}`);
          assert.deepEqual(
            h.map((r) => r.changeset),
            [id * 10 + 1, id * 10 + 2, id * 10 + 3],
          );
          assert.equal(h[1].visible, false);
          assert.equal(h[2].lon, id);
          assert.equal(h[2].lat, -id);
        }
        assert.equal(store.get(5), undefined);
        assert.equal(store.get(15), undefined);
        assert.equal(store.get(30010), undefined);
      },
      { cacheBytes: 1 },
    );
  });

  it('keeps answering after its page cache is shrunk', () => {
    withStore((store) => {
      for (let id = 1; id <= 100_000; id++) store.add(id, at(id, id, id));
      store.finish();
      const ids: number[] = [];
      for (let id = 100_000; id >= 1; id -= 997) ids.push(id);
      const before = ids.map((id) => store.get(id));
      assert.equal(before[0]![0].lat, 100_000);
      store.shrinkCache(1);
      assert.deepEqual(
        ids.map((id) => store.get(id)),
        before,
      );
    });
  });

  it('finds a node whose versions begin exactly at the start of a page', () => {
    // 2,048 records fill page 0; node 2049 is the first record of page 1 (get() steps back to
    // page 0 in case a node's versions straddle the boundary, and must then go on to page 1).
    withStore((store) => {
      for (let id = 1; id <= 2048; id++) store.add(id, at(id, id, id));
      store.add(2049, at(1, 7, 8));
      store.add(2049, at(2, 9, 10));
      store.add(2050, at(1, 11, 12));
      store.finish();
      assert.deepEqual(
        store.get(2049)?.map((r) => [r.lon, r.lat]),
        [
          [7, 8],
          [9, 10],
        ],
      );
      assert.deepEqual(
        store.get(2048)?.map((r) => [r.lon, r.lat]),
        [[2048, 2048]],
      );
      assert.deepEqual(
        store.get(2050)?.map((r) => [r.lon, r.lat]),
        [[11, 12]],
      );
      assert.equal(store.get(2051), undefined);
      assert.equal(store.get(0), undefined);
    });
  });

  it('refuses ids out of order', () => {
    withStore((store) => {
      store.add(2, at(1, 0, 0));
      assert.throws(() => store.add(1, at(1, 0, 0)));
    });
  });
});

describe('versionAt', () => {
  const h = [{ timestamp: 10 }, { timestamp: 20 }, { timestamp: 20 }, { timestamp: 30 }];
  it('is the newest version with timestamp <= t', () => {
    assert.equal(versionAt(h, 5), undefined);
    assert.equal(versionAt(h, 10), h[0]);
    assert.equal(versionAt(h, 19), h[0]);
    assert.equal(versionAt(h, 20), h[2], 'of two versions at the same second, the later one');
    assert.equal(versionAt(h, 1e12), h[3]);
  });
});
