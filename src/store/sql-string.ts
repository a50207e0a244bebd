/** A string as a DuckDB SQL literal: in single quotes, each quote inside doubled (paths, metadata values). */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
