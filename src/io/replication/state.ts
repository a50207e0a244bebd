/**
 * Replication state files: where a replication source stands (docs/replication.md).
 *
 * - OSM data replication (osmosis, the planet's minute/hour/day diffs) writes `state.txt` as Java
 *   properties: `#` or `!` comment lines, `key=value` (or `key:value`, `key value`), with `:` and `=`
 *   escaped by a backslash, for example
 *
 *       #Sun Aug 04 20:13:04 UTC 2013
 *       sequenceNumber=466354
 *       timestamp=2013-08-04T20\:13\:02Z
 *
 * - Changeset replication (the planet's `replication/changesets/`) writes YAML:
 *
 *       ---
 *       last_run: 2024-05-15 12:34:01.546447000 Z
 *       sequence: 6079424
 *
 * `parseState` reads either (it tells them apart by their content, as the per-sequence
 * `AAA/BBB/CCC.state.txt` of changeset replication is YAML too). Timestamps are epoch seconds
 * (fractions kept for `last_run`). A file that is not a state fails with `REPLICATION_INVALID`
 * and a message naming the file (`where`) and what is wrong.
 */
import { MaphistError } from '../../core/errors.js';

export interface ReplicationState {
  sequence: number;
  /** Epoch seconds: the time up to which the source's data reaches at this sequence. */
  timestamp: number;
}

/** The largest sequence an `AAA/BBB/CCC` path can name. */
export const MAX_SEQUENCE = 999_999_999;

function invalid(where: string, what: string): MaphistError {
  return new MaphistError('REPLICATION_INVALID', `${where} is not a replication state file: ${what}.`, { where });
}

/** Reads a state file of either kind (`state.txt` properties or changeset `state.yaml`). */
export function parseState(text: string, where: string): ReplicationState {
  const body = text.replace(/^\uFEFF/, '');
  if (/^---[ \t]*(\r?\n|$)/.test(body) || /^last_run[ \t]*:/m.test(body)) return parseStateYaml(body, where);
  return parseStateTxt(body, where);
}

/** Java-properties unescaping of one key or value (`\:` `\=` `\\` `\t` `\n` `\uXXXX` …). */
function unescapeProperty(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length === 5) return String.fromCharCode(Number.parseInt(c.slice(1), 16));
    return c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'f' ? '\f' : c;
  });
}

/** The properties of a Java `.properties` text (logical lines joined, escapes undone). */
export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const physical = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < physical.length; i++) {
    let line = physical[i]!.replace(/^[ \t\f]+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    // A line ending in an odd number of backslashes continues on the next one.
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && i + 1 < physical.length) {
      line = line.slice(0, -1) + physical[++i]!.replace(/^[ \t\f]+/, '');
    }
    const m = /^((?:\\.|[^\\=: \t\f])*)[ \t\f]*[=:]?[ \t\f]*(.*)$/.exec(line)!;
    out.set(unescapeProperty(m[1]!), unescapeProperty(m[2]!));
  }
  return out;
}

function parseSequence(value: string | undefined, key: string, where: string): number {
  if (value === undefined) throw invalid(where, `it has no ${key}`);
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) > MAX_SEQUENCE) throw invalid(where, `${key} "${value}" is not a sequence number (0 to ${MAX_SEQUENCE})`);
  return Number(v);
}

/** ISO 8601 in UTC or with an offset: `2013-08-04T20:13:02Z`, `2024-05-15 12:34:01.546447000 Z`, `… +00:00`. */
function parseTime(value: string | undefined, key: string, where: string): number {
  if (value === undefined) throw invalid(where, `it has no ${key}`);
  const m = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(\.\d+)?[ \t]*(Z|UTC|[+-]\d\d:?\d\d)$/.exec(value.trim());
  if (!m) throw invalid(where, `${key} "${value}" is not a time like 2013-08-04T20:13:02Z`);
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const ms = Date.UTC(...fields);
  const back = new Date(ms);
  if (back.getUTCMonth() !== fields[1] || back.getUTCDate() !== fields[2] || fields[3] > 23 || fields[4] > 59 || fields[5] > 59) {
    throw invalid(where, `${key} "${value}" is not a valid date and time`);
  }
  let offset = 0;
  if (zone !== 'Z' && zone !== 'UTC') {
    const z = /^([+-])(\d\d):?(\d\d)$/.exec(zone!)!;
    offset = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 3600 + Number(z[3]) * 60);
  }
  return ms / 1000 - offset + (frac ? Number(frac) : 0);
}

/** An osmosis `state.txt`: `sequenceNumber` and `timestamp` are required, other keys are ignored. */
export function parseStateTxt(text: string, where: string): ReplicationState {
  if (/\0/.test(text)) throw invalid(where, 'it holds binary data');
  const props = parseProperties(text);
  return {
    sequence: parseSequence(props.get('sequenceNumber'), 'sequenceNumber', where),
    timestamp: parseTime(props.get('timestamp'), 'timestamp', where),
  };
}

/** A changeset replication `state.yaml`: the top-level `sequence` and `last_run` (a flat mapping). */
export function parseStateYaml(text: string, where: string): ReplicationState {
  const map = new Map<string, string>();
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/\s+#.*$/, '');
    if (/^(---|\.\.\.)?\s*$/.test(line) || line.startsWith('#')) continue;
    const m = /^([A-Za-z_][\w]*)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (!m) throw invalid(where, `line "${raw.slice(0, 80)}" is not "key: value"`);
    map.set(m[1]!, m[2]!.trim().replace(/^(['"])(.*)\1$/, '$2'));
  }
  return {
    sequence: parseSequence(map.get('sequence'), 'sequence', where),
    timestamp: parseTime(map.get('last_run'), 'last_run', where),
  };
}

function isoSeconds(timestamp: number): string {
  return new Date(Math.floor(timestamp) * 1000).toISOString().replace('.000Z', 'Z');
}

/** `state.txt` as osmosis writes it (colons escaped; whole seconds). */
export function formatStateTxt(state: ReplicationState): string {
  checkState(state);
  return `#written by maphist\nsequenceNumber=${state.sequence}\ntimestamp=${isoSeconds(state.timestamp).replaceAll(':', '\\:')}\n`;
}

/** `state.yaml` as changeset replication writes it (`last_run` with nanoseconds, `Z`). */
export function formatStateYaml(state: ReplicationState): string {
  checkState(state);
  const whole = Math.floor(state.timestamp);
  const nanos = Math.min(999_999_999, Math.round((state.timestamp - whole) * 1e9));
  const date = isoSeconds(whole).replace('T', ' ').replace('Z', '');
  return `---\nlast_run: ${date}.${String(nanos).padStart(9, '0')} Z\nsequence: ${state.sequence}\n`;
}

function checkState(state: ReplicationState): void {
  if (!Number.isInteger(state.sequence) || state.sequence < 0 || state.sequence > MAX_SEQUENCE) {
    throw new RangeError(`sequence ${state.sequence} is not an integer from 0 to ${MAX_SEQUENCE}`);
  }
  if (!Number.isFinite(state.timestamp)) throw new RangeError(`timestamp ${state.timestamp} is not a number`);
}
