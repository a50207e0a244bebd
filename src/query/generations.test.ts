/**
 * The store handle's bookkeeping: leases pin a generation, a swap retires the current one, and a
 * retired generation closes exactly once, after its last lease (src/api/generations.http.test.ts
 * swaps real stores under a running server).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engines } from './engines.js';
import { createStoreHandle, latestOf, type OpenedGeneration } from './generations.js';
import type { StoreMetadata } from '../store/metadata.js';
import type { StoreTagDictionary } from '../store/store-tag-dictionary.js';

/** A generation whose data is only told apart by its last timestamp; `closes` counts its closes. */
function generation(lastTimestamp: string, close: () => void | Promise<void> = () => undefined) {
  const g = {
    engines: {} as Engines,
    dictionary: {} as StoreTagDictionary,
    metadata: { lastTimestamp } as StoreMetadata,
    closes: 0,
    close: () => {
      g.closes++;
      return close();
    },
  };
  return g satisfies OpenedGeneration;
}

describe('store handle', () => {
  it('a lease reads the generation it was given; a swap closes the previous one after its last lease', async () => {
    const a = generation('2020-01-01T00:00:00Z');
    const b = generation('2021-06-01T12:00:00Z');
    const handle = createStoreHandle(a);
    const l1 = handle.acquire();
    const l2 = handle.acquire();
    assert.equal(l1.number, 1);
    assert.equal(l1.latest, Date.UTC(2020, 0, 1) / 1000);
    assert.equal(l1.metadata, a.metadata);

    const { number, previousClosed } = handle.swap(b);
    assert.equal(number, 2);
    let closed = false;
    void previousClosed.then(() => (closed = true));
    const l3 = handle.acquire();
    assert.equal(l3.metadata, b.metadata);
    assert.equal(l3.latest, latestOf(b.metadata));
    assert.equal(l1.metadata, a.metadata, 'a lease keeps its generation across the swap');
    assert.deepEqual(handle.generations(), [
      { number: 1, leases: 2, served: 2, current: false },
      { number: 2, leases: 1, served: 1, current: true },
    ]);

    l1.release();
    l1.release(); // idempotent: does not count as l2's release
    await new Promise((r) => setImmediate(r));
    assert.equal(a.closes, 0);
    assert.equal(closed, false);
    l2.release();
    await previousClosed;
    assert.equal(a.closes, 1);
    assert.deepEqual(handle.generations(), [{ number: 2, leases: 1, served: 1, current: true }]);

    // A generation nobody leases closes at once when swapped out.
    const c = generation('2022-01-01T00:00:00Z');
    l3.release();
    const swapped = handle.swap(c);
    await swapped.previousClosed;
    assert.equal(b.closes, 1);
    assert.equal(handle.current().number, 3);
    assert.equal(handle.current().metadata, c.metadata);

    const l4 = handle.acquire();
    let handleClosed = false;
    const closing = handle.close().then(() => (handleClosed = true));
    assert.throws(() => handle.acquire(), /closed/);
    await new Promise((r) => setImmediate(r));
    assert.equal(handleClosed, false, 'close waits for the running request');
    assert.equal(c.closes, 0);
    l4.release();
    await closing;
    assert.equal(c.closes, 1);
    assert.equal(a.closes + b.closes, 2, 'every generation closed exactly once');
  });

  it('a generation whose close fails is reported and counts as closed', async () => {
    const errors: [string, number][] = [];
    const a = generation('2020-01-01T00:00:00Z', () => Promise.reject(new Error('disk gone')));
    const handle = createStoreHandle(a, { onCloseError: (e, n) => errors.push([(e as Error).message, n]) });
    await handle.swap(generation('2020-02-01T00:00:00Z')).previousClosed;
    assert.deepEqual(errors, [['disk gone', 1]]);
    await handle.close();
  });
});
