/**
 * A SQL text with the names of the columns it returns. The engine reads every result by these
 * names (`readRecords`, statements.ts), never by position: the SQL and the TypeScript that reads it
 * agree on names, and a statement whose result lacks a declared column fails at once with both
 * lists, instead of reading the wrong values.
 */
export interface Statement<R> {
  readonly text: string;
  /** The columns of each row, as the statement's `AS` aliases name them. */
  readonly columns: readonly (keyof R & string)[];
}

export function statement<R>(text: string, columns: readonly (keyof R & string)[]): Statement<R> {
  return { text, columns };
}
