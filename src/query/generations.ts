/**
 * A store that can change: the handle through which the server reads a store that an update may
 * replace while requests run. Each request leases the current **generation** (one opened store
 * file with its engines, metadata, tag dictionary and `latest`), and reads only from it; `swap`
 * makes a new generation current, and the previous one closes when its last lease is released.
 *
 * Nothing here does I/O: the command line opens a generation (the DuckDB one is
 * src/engines/duckdb/generation.ts) and hands it to `createStoreHandle` or `swap`; the server
 * leases one per request (src/api/generation-hook.ts). docs/store.md, "Store generations".
 */
import type { StoreMetadata } from '../store/metadata.js';
import type { StoreTagDictionary } from '../store/store-tag-dictionary.js';
import type { Engines } from './engines.js';

/** What one opened store gives its readers. Everything in it belongs to that store alone. */
export interface GenerationData {
  /** The engines over this store (their caches, e.g. the boundary cache keyed by rowid, are this store's). */
  readonly engines: Engines;
  readonly metadata: StoreMetadata;
  /** The store's tag dictionary (the engines compile filters with it). */
  readonly dictionary: StoreTagDictionary;
}

/** An opened store, ready to become a generation: `close` releases it (called once, after its last lease). */
export interface OpenedGeneration extends GenerationData {
  close(): void | Promise<void>;
}

/** A lease on one generation: valid until `release()`, which a request calls when it ends. */
export interface Generation extends GenerationData {
  /** 1 for the handle's first generation, +1 per swap. */
  readonly number: number;
  /** Epoch seconds of the data's last timestamp: what `latest` means in this generation. */
  readonly latest: number;
  /** Ends the lease (idempotent). The last release of a swapped-out generation closes it. */
  release(): void;
}

export interface StoreHandle {
  /** Leases the current generation. Throws once the handle is closed. */
  acquire(): Generation;
  /** The current generation's number and metadata (no lease: for banners and logs). */
  current(): { number: number; metadata: StoreMetadata };
  /**
   * Makes `next` the generation new leases get; requests already running keep theirs. Returns the
   * new generation's number and a promise that settles when the previous generation has closed
   * (at once when nothing leases it).
   */
  swap(next: OpenedGeneration): { number: number; previousClosed: Promise<void> };
  /** Open generations (the current one, and swapped-out ones still leased): leases held now, and leases taken in all. */
  generations(): { number: number; leases: number; served: number; current: boolean }[];
  /** No more leases; resolves when every generation has closed (after the last running request). */
  close(): Promise<void>;
}

export interface StoreHandleOptions {
  /** Called when closing a generation fails (the handle goes on). Default: console.error. */
  onCloseError?: (error: unknown, generation: number) => void;
}

interface Slot {
  readonly opened: OpenedGeneration;
  readonly number: number;
  readonly latest: number;
  leases: number;
  served: number;
  retired: boolean;
  readonly closed: Promise<void>;
  markClosed(): void;
}

/** Epoch seconds of a metadata timestamp (`2023-03-10T15:00:00Z`). */
export function latestOf(metadata: Pick<StoreMetadata, 'lastTimestamp'>): number {
  return Math.floor(Date.parse(metadata.lastTimestamp) / 1000);
}

export function createStoreHandle(first: OpenedGeneration, options: StoreHandleOptions = {}): StoreHandle {
  const onCloseError = options.onCloseError ?? ((e, n) => console.error(`maphist: closing store generation ${n} failed: ${(e as Error).message}`));
  /** Generations not yet retired and closed. */
  const open = new Set<Slot>();
  /** Generations whose close has not finished (a superset of `open`). */
  const unclosed = new Set<Slot>();
  let numbers = 0;
  let closing = false;

  const slotOf = (opened: OpenedGeneration): Slot => {
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const slot: Slot = {
      opened,
      number: ++numbers,
      latest: latestOf(opened.metadata),
      leases: 0,
      served: 0,
      retired: false,
      closed,
      markClosed: () => {
        unclosed.delete(slot);
        markClosed();
      },
    };
    open.add(slot);
    unclosed.add(slot);
    return slot;
  };
  let current = slotOf(first);

  /** Closes a retired generation nobody leases any more. */
  const closeIfDone = (slot: Slot): void => {
    if (!slot.retired || slot.leases > 0 || !open.has(slot)) return;
    open.delete(slot);
    let result: void | Promise<void>;
    try {
      result = slot.opened.close();
    } catch (e) {
      onCloseError(e, slot.number);
      slot.markClosed();
      return;
    }
    Promise.resolve(result).then(
      () => slot.markClosed(),
      (e: unknown) => {
        onCloseError(e, slot.number);
        slot.markClosed();
      },
    );
  };

  const retire = (slot: Slot): Promise<void> => {
    slot.retired = true;
    closeIfDone(slot);
    return slot.closed;
  };

  return {
    acquire(): Generation {
      if (closing) throw new Error('the store handle is closed');
      const slot = current;
      slot.leases++;
      slot.served++;
      let released = false;
      const { engines, metadata, dictionary } = slot.opened;
      return {
        engines,
        metadata,
        dictionary,
        number: slot.number,
        latest: slot.latest,
        release: () => {
          if (released) return;
          released = true;
          slot.leases--;
          closeIfDone(slot);
        },
      };
    },
    current: () => ({ number: current.number, metadata: current.opened.metadata }),
    swap(next: OpenedGeneration) {
      if (closing) throw new Error('the store handle is closed');
      const previous = current;
      current = slotOf(next);
      return { number: current.number, previousClosed: retire(previous) };
    },
    generations: () => [...open].map((s) => ({ number: s.number, leases: s.leases, served: s.served, current: s === current })),
    async close(): Promise<void> {
      if (!closing) {
        closing = true;
        retire(current);
      }
      await Promise.all([...unclosed].map((s) => s.closed));
    },
  };
}
