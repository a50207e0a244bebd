/**
 * A JSON writer that prints like Jackson's DefaultPrettyPrinter as the reference serves it
 * (docs/reference/v1-reference-behaviour.md §4.1): objects with 2-space indentation and `" : "` between name and
 * value, arrays inline (`[ a, b ]`, objects inside them opening on the same line), empty containers
 * `[ ]` and `{ }`. JS numbers are Java doubles (`5.0`, `1.0E7`; NaN and ±Infinity as strings);
 * integers are given as `bigint`. Object members whose value is `undefined` are omitted.
 */
import type { Pause } from '../../core/yielding.js';
import { javaDoubleToString } from './java-double.js';

export type JsonValue = string | number | bigint | boolean | null | undefined | JsonText | JsonValue[] | { [key: string]: JsonValue };

/**
 * JSON already written for the place it goes, at indentation `level` (see `RecordsLayout`): the
 * writers copy it as it is, and refuse it at any other level (a programming error).
 */
export class JsonText {
  constructor(
    readonly text: string,
    readonly level: number,
  ) {}
}

/**
 * Writes arrays of objects that all have the same members: per record some string members that
 * every array shares (a series' timestamps), then numeric members from columns (value, value2,
 * ratio). The same text as the writers give the objects, built from pieces made once: a grouped
 * v1 answer is thousands of such arrays over the same timestamps, and writing them member by
 * member through the general writer ran at about 15 MB/s (bench/RESULTS.md).
 */
export class RecordsLayout {
  /** Per record: `{`, its string members, and the name of the first number. */
  private readonly heads: string[];
  /** Before the second and later numbers: `,`, the indentation, the name. */
  private readonly joins: string[];
  private readonly tail: string;

  constructor(
    fixed: readonly Record<string, string>[],
    numberNames: readonly string[],
    readonly level: number,
  ) {
    const member = (name: string) => `${indent(level + 1)}${JSON.stringify(name)} : `;
    this.heads = fixed.map((record) => {
      const members = Object.entries(record).map(([k, v]) => member(k) + JSON.stringify(v));
      return `{${[...members, member(numberNames[0])].join(',')}`;
    });
    this.joins = numberNames.slice(1).map((name) => `,${member(name)}`);
    this.tail = `${indent(level)}}`;
  }

  /** The array of the records, `columns[j][i]` the j-th number of record i. */
  write(columns: readonly (readonly number[])[]): JsonText {
    const { heads, joins, tail } = this;
    if (heads.length === 0) return new JsonText('[ ]', this.level);
    const parts: string[] = new Array(heads.length);
    for (let i = 0; i < heads.length; i++) {
      let record = heads[i] + jsonDouble(columns[0][i]);
      for (let j = 0; j < joins.length; j++) record += joins[j] + jsonDouble(columns[j + 1][i]);
      parts[i] = record + tail;
    }
    return new JsonText(`[ ${parts.join(', ')} ]`, this.level);
  }
}

export function prettyJson(value: JsonValue): string {
  const out: string[] = [];
  write(value, 0, out);
  return out.join('');
}

/** Containers this deep and deeper are written in one go by `prettyJsonPaced` (a result item, a feature's properties). */
const PACED_DEPTH = 4;

/**
 * `prettyJson` with a turn of the event loop whenever `pause` asks for one between the members of
 * the outer containers (the groups of an answer, the items of a series): an answer of a million
 * values took seconds to write in one stretch, and every other client waited (bench/RESULTS.md).
 * The same text as prettyJson.
 */
export async function prettyJsonPaced(value: JsonValue, pause: Pause): Promise<string> {
  const out: string[] = [];
  if (value === null || typeof value !== 'object' || value instanceof JsonText) write(value, 0, out);
  else await writePaced(value, 0, out, pause, 0);
  return out.join('');
}

/** Writes `value` like `write`; containers above PACED_DEPTH member by member, with turns between. */
async function writePaced(value: JsonValue, level: number, out: string[], pause: Pause, depth: number): Promise<void> {
  // A member: written in one go when deep or not a container, else paced; then a turn if one is
  // due. A promise only when there is something to wait for (most members need none).
  const member = (v: JsonValue, memberLevel: number): Promise<void> | undefined => {
    if (depth + 1 >= PACED_DEPTH || v === null || typeof v !== 'object' || v instanceof JsonText) {
      write(v, memberLevel, out);
      return pause();
    }
    return writePaced(v, memberLevel, out, pause, depth + 1).then(() => pause());
  };
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[ ]');
      return;
    }
    out.push('[ ');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(', ');
      const wait = member(value[i], level);
      if (wait) await wait;
    }
    out.push(' ]');
    return;
  }
  const entries = Object.entries(value as Record<string, JsonValue>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) {
    out.push('{ }');
    return;
  }
  out.push('{');
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i];
    if (i > 0) out.push(',');
    out.push(indent(level + 1), JSON.stringify(k), ' : ');
    const wait = member(v, level + 1);
    if (wait) await wait;
  }
  out.push(indent(level), '}');
}

/** A number as Jackson writes a Java double. */
export function jsonDouble(x: number): string {
  return Number.isFinite(x) ? javaDoubleToString(x) : JSON.stringify(javaDoubleToString(x));
}

function indent(level: number): string {
  return '\n' + '  '.repeat(level);
}

function write(value: JsonValue, level: number, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
  } else if (value instanceof JsonText) {
    if (value.level !== level) throw new Error(`JSON text written for level ${value.level} placed at level ${level}`);
    out.push(value.text);
  } else if (typeof value === 'string') {
    out.push(JSON.stringify(value));
  } else if (typeof value === 'number') {
    out.push(jsonDouble(value));
  } else if (typeof value === 'bigint') {
    out.push(value.toString());
  } else if (typeof value === 'boolean') {
    out.push(value ? 'true' : 'false');
  } else if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[ ]');
      return;
    }
    out.push('[ ');
    value.forEach((item, i) => {
      if (i > 0) out.push(', ');
      write(item, level, out);
    });
    out.push(' ]');
  } else {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) {
      out.push('{ }');
      return;
    }
    out.push('{');
    entries.forEach(([k, v], i) => {
      if (i > 0) out.push(',');
      out.push(indent(level + 1), JSON.stringify(k), ' : ');
      write(v, level + 1, out);
    });
    out.push(indent(level), '}');
  }
}
