/**
 * A replication source laid out as the planet's (docs/replication.md): `state.txt` at the root,
 * `AAA/BBB/CCC.osc.gz` and `AAA/BBB/CCC.state.txt` per sequence (changeset replication:
 * `state.yaml` and `AAA/BBB/CCC.osm.gz`), read over HTTP(S) or from a local directory (a path or a
 * `file://` URL).
 *
 *   const source = openReplicationSource('https://planet.openstreetmap.org/replication/minute/');
 *   const latest = await source.latestState();        // { sequence, timestamp }
 *   const state = await source.stateOf(466354);       // undefined when the source has no such state
 *   const gz = await source.changeFile(466354);       // the .osc.gz bytes as published (still gzipped)
 *
 * Change files are handed out as published, gzipped: the caller writes them to its work directory
 * and reads them with the change reader, which gunzips while it parses; only their first bytes are
 * checked here (gzip's magic number, so that an HTML error page served with 200 is refused).
 *
 * Over HTTP a 404 (or 410) means "missing" (`undefined`); a network failure, a time-out, a 5xx, 408
 * or 429 is retried with exponential backoff (`retries`, `retryDelayMs`), then fails with
 * `REPLICATION_SOURCE_FAILED`; any other status fails at once. A local directory has no retries:
 * a missing file is `undefined`, any other read failure is `REPLICATION_SOURCE_FAILED`.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MaphistError } from '../../core/errors.js';
import { sequencePath } from './paths.js';
import { parseState, type ReplicationState } from './state.js';

/** OSM data replication (`state.txt`, `.osc.gz`) or changeset replication (`state.yaml`, `.osm.gz`). */
export type ReplicationKind = 'changes' | 'changesets';

export interface ReplicationSourceOptions {
  kind?: ReplicationKind;
  /** Per request, including reading the body (default 60 s). */
  timeoutMs?: number;
  /** Attempts after the first one for a failure worth retrying (default 4). */
  retries?: number;
  /** Wait before the first retry, doubled before each next one (default 1 s: 1, 2, 4, 8 s). */
  retryDelayMs?: number;
  /** Stops waiting and fetching (the caller's cancellation); its reason is thrown. */
  signal?: AbortSignal;
}

export interface ReplicationSource {
  /** The URL or directory, as given. */
  readonly location: string;
  readonly kind: ReplicationKind;
  /** The root state: the source's newest sequence. A source without one fails (`REPLICATION_SOURCE_FAILED`). */
  latestState(): Promise<ReplicationState>;
  /** The state after `sequence`, or undefined when the source does not have it. */
  stateOf(sequence: number): Promise<ReplicationState | undefined>;
  /** The gzipped change file of `sequence`, or undefined when the source does not have it. */
  changeFile(sequence: number): Promise<Uint8Array | undefined>;
  /** How many state files and change files were asked for (each once, whatever the retries). */
  readonly fetched: { states: number; changes: number };
}

const DEFAULTS = { timeoutMs: 60_000, retries: 4, retryDelayMs: 1000 };
const USER_AGENT = 'maphist/0.1 (OSM history service; replication)';

/** Opens a source; a directory that does not exist fails here, a URL on its first request. */
export async function openReplicationSource(location: string, options: ReplicationSourceOptions = {}): Promise<ReplicationSource> {
  const kind = options.kind ?? 'changes';
  if (/^https?:\/\//i.test(location)) {
    const base = new URL(location.endsWith('/') ? location : `${location}/`);
    return new Source(
      location,
      kind,
      (rel) => new URL(rel, base).href,
      (rel) => httpGet(new URL(rel, base).href, options),
    );
  }
  let dir = location;
  if (/^file:/i.test(location)) dir = fileURLToPath(location);
  else if (/^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(location)) {
    throw new MaphistError('REPLICATION_SOURCE_FAILED', `${location}: a replication source is an http(s):// or file:// URL or a directory.`, { location });
  }
  dir = resolve(dir);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new MaphistError('REPLICATION_SOURCE_FAILED', `The replication directory ${dir} does not exist or is not a directory.`, { location });
  }
  return new Source(
    location,
    kind,
    (rel) => join(dir, rel),
    (rel) => fileGet(join(dir, rel), options.signal),
  );
}

class Source implements ReplicationSource {
  readonly fetched = { states: 0, changes: 0 };

  constructor(
    readonly location: string,
    readonly kind: ReplicationKind,
    /** The URL or path of a file of the source, for messages. */
    private readonly where: (relative: string) => string,
    private readonly get: (relative: string) => Promise<Uint8Array | undefined>,
  ) {}

  async latestState(): Promise<ReplicationState> {
    const name = this.kind === 'changes' ? 'state.txt' : 'state.yaml';
    this.fetched.states++;
    const bytes = await this.get(name);
    if (bytes === undefined) {
      throw new MaphistError(
        'REPLICATION_SOURCE_FAILED',
        `${this.where(name)} does not exist: ${this.location} is not a ${this.kind === 'changes' ? 'replication' : 'changeset replication'} source ` +
          `(the planet's minutely diffs are https://planet.openstreetmap.org/replication/minute/).`,
        { location: this.location },
      );
    }
    return parseState(decode(bytes), this.where(name));
  }

  async stateOf(sequence: number): Promise<ReplicationState | undefined> {
    const name = `${sequencePath(sequence)}.state.txt`;
    this.fetched.states++;
    const bytes = await this.get(name);
    if (bytes === undefined) return undefined;
    const state = parseState(decode(bytes), this.where(name));
    if (state.sequence !== sequence) {
      throw new MaphistError('REPLICATION_INVALID', `${this.where(name)} gives sequence ${state.sequence}, not ${sequence}.`, { location: this.location });
    }
    return state;
  }

  async changeFile(sequence: number): Promise<Uint8Array | undefined> {
    const name = `${sequencePath(sequence)}${this.kind === 'changes' ? '.osc.gz' : '.osm.gz'}`;
    this.fetched.changes++;
    const bytes = await this.get(name);
    if (bytes !== undefined && !(bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b)) {
      throw new MaphistError('REPLICATION_INVALID', `${this.where(name)} is not a gzip file.`, { location: this.location });
    }
    return bytes;
  }
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

async function fileGet(path: string, signal: AbortSignal | undefined): Promise<Uint8Array | undefined> {
  signal?.throwIfAborted();
  try {
    return new Uint8Array(await readFile(path, { signal }));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (signal?.aborted) throw signal.reason;
    throw new MaphistError('REPLICATION_SOURCE_FAILED', `Cannot read ${path}: ${(e as Error).message}.`, { path }, { cause: e });
  }
}

/** Statuses worth asking again: the server or the way to it may recover. */
function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done, fail) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      done();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      fail(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function describe(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return e instanceof Error ? e.message : String(e);
}

async function httpGet(url: string, options: ReplicationSourceOptions): Promise<Uint8Array | undefined> {
  const { timeoutMs, retries, retryDelayMs } = { ...DEFAULTS, ...options };
  const outer = options.signal;
  let failure = '';
  let attempts = 0;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(retryDelayMs * 2 ** (attempt - 1), outer);
    outer?.throwIfAborted();
    attempts++;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    try {
      const res = await fetch(url, { signal, headers: { 'user-agent': USER_AGENT } });
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel();
        return undefined;
      }
      if (res.ok) return new Uint8Array(await res.arrayBuffer());
      await res.body?.cancel();
      failure = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
      if (!retryable(res.status)) break;
    } catch (e) {
      if (outer?.aborted) throw outer.reason;
      failure = timeout.aborted ? `no complete answer within ${timeoutMs / 1000} s` : describe(e);
    }
  }
  throw new MaphistError(
    'REPLICATION_SOURCE_FAILED',
    `Cannot read ${url}: ${failure} (${attempts} attempt${attempts === 1 ? '' : 's'}). Check the URL and the network, then run the update again.`,
    { url },
  );
}
