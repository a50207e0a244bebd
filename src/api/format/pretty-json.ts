/**
 * A JSON writer that prints like Jackson's DefaultPrettyPrinter as the reference serves it
 * (docs/reference/v1-reference-behaviour.md §4.1): objects with 2-space indentation and `" : "` between name and
 * value, arrays inline (`[ a, b ]`, objects inside them opening on the same line), empty containers
 * `[ ]` and `{ }`. JS numbers are Java doubles (`5.0`, `1.0E7`; NaN and ±Infinity as strings);
 * integers are given as `bigint`. Object members whose value is `undefined` are omitted.
 */

export type JsonValue = string | number | bigint | boolean | null | undefined | JsonValue[] | { [key: string]: JsonValue };

import { javaDoubleToString } from './java-double.js';

export function prettyJson(value: JsonValue): string {
  const out: string[] = [];
  write(value, 0, out);
  return out.join('');
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
